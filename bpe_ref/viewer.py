"""Moved to bpe_ref.course.viewer: this path stays, the same module, for code written before the move."""

import sys

from .course import viewer

sys.modules[__name__] = viewer
