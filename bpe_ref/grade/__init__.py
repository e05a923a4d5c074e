"""The grader: one-line checks in the notebook, and bpe-grade for files and classes."""

import os

# hypothesis caches Unicode tables in ./.hypothesis by default: keep learners' folders clean. The
# user's cache folder, named without touching the disk (tempfile.gettempdir() writes a probe file).
CACHE = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(CACHE, "bpe-course", "hypothesis"))

from .judge.checks import check, check_all, grade_function  # noqa: E402
from .judge.exercises import CONTRACT, REGISTRY  # noqa: E402

__all__ = ["check", "check_all", "grade_function", "CONTRACT", "REGISTRY"]
