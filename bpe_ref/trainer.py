"""Moved to bpe_ref.core.trainer: this path stays, the same module, for code written before the move."""

import sys

from .core import trainer

sys.modules[__name__] = trainer
