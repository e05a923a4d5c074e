"""Moved to bpe_ref.core.pretokenize: this path stays, the same module, for code written before the move."""

import sys

from .core import pretokenize

sys.modules[__name__] = pretokenize
