"""Moved to bpe_ref.basics.words: this path stays, the same module, for code written before the move."""

import sys

from .basics import words

sys.modules[__name__] = words
