"""Moved to bpe_ref.core.unicode_classes: this path stays, the same module, for code written before the move."""

import sys

from .core import unicode_classes

sys.modules[__name__] = unicode_classes
