"""Moved to bpe_ref.core.naive: this path stays, the same module, for code written before the move."""

import sys

from .core import naive

sys.modules[__name__] = naive
