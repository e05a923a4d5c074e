"""Moved to bpe_ref.formats.merges_cache: this path stays, the same module, for code written before the move."""

import sys

from .formats import merges_cache

sys.modules[__name__] = merges_cache
