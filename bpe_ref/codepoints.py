"""Moved to bpe_ref.basics.codepoints: this path stays, the same module, for code written before the move."""

import sys

from .basics import codepoints

sys.modules[__name__] = codepoints
