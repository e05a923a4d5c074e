"""Moved to bpe_ref.course.plots: this path stays, the same module, for code written before the move."""

import sys

from .course import plots

sys.modules[__name__] = plots
