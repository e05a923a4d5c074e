"""Moved to bpe_ref.course.workspace: this path stays, the same module, for code written before the move."""

import sys

from .course import workspace

sys.modules[__name__] = workspace
