"""Moved to bpe_ref.formats.export: this path stays, the same module, for code written before the move."""

import sys

from .formats import export

sys.modules[__name__] = export
