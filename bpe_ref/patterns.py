"""Moved to bpe_ref.core.patterns: this path stays, the same module, for code written before the move."""

import sys

from .core import patterns

sys.modules[__name__] = patterns
