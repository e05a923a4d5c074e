"""Moved to bpe_ref.basics.hexadecimal: this path stays, the same module, for code written before the move."""

import sys

from .basics import hexadecimal

sys.modules[__name__] = hexadecimal
