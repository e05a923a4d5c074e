"""Moved to bpe_ref.formats.encodings: this path stays, the same module, for code written before the move."""

import sys

from .formats import encodings

sys.modules[__name__] = encodings
