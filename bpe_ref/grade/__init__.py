"""The grader: one-line checks in the notebook, and bpe-grade for files and classes."""

import os
import tempfile

# hypothesis caches Unicode tables in ./.hypothesis by default: keep learners' folders clean
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(tempfile.gettempdir(), "bpe-course-hypothesis"))

from .checks import check, check_all, grade_function  # noqa: E402
from .exercises import CONTRACT, REGISTRY  # noqa: E402

__all__ = ["check", "check_all", "grade_function", "CONTRACT", "REGISTRY"]
