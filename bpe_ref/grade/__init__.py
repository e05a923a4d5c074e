"""The grader: one-line checks in the notebook, and bpe-grade for files and classes."""

from .checks import check, check_all, grade_function
from .exercises import CONTRACT, REGISTRY

__all__ = ["check", "check_all", "grade_function", "CONTRACT", "REGISTRY"]
