"""Moved to bpe_ref.core.stream: this path stays, the same module, for code written before the move."""

import sys

from .core import stream

sys.modules[__name__] = stream
