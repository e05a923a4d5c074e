"""Moved to bpe_ref.core.fast: this path stays, the same module, for code written before the move."""

import sys

from .core import fast

sys.modules[__name__] = fast
