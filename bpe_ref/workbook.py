"""Moved to bpe_ref.course.workbook: this path stays, the same module, for code written before the move."""

import sys

from .course import workbook

sys.modules[__name__] = workbook
