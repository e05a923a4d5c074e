"""check() for the workbooks, and for nbgrader's autograder: under nbgrader, a failing check fails its cell.

In a notebook a check prints its verdict and never raises, so Run All goes on. nbgrader scores
an autograded test cell by whether it raises, so when nbgrader runs the notebook
(`nbgrader autograde` or `nbgrader validate`, which set NBGRADER_EXECUTION) a check that does
not pass also raises AssertionError with the same report: the cell earns none of its points.
"""

import os

from .checks import grade_function, report

NBGRADER_RUNS = ("autograde", "validate")


def under_nbgrader():
    """Whether nbgrader's autograder or validator is running this kernel."""
    return os.environ.get("NBGRADER_EXECUTION") in NBGRADER_RUNS


def check(fn, name=None, timeout=5.0):
    """Check one exercise, e.g. check(merge): prints one line when it passes.

    >>> check(lambda ids: {}, "get_stats")  # doctest: +ELLIPSIS
    ❌ get_stats is not right yet.
    ...
    """
    result = grade_function(fn, name, timeout)
    text = report(result)
    print(text)
    if not result.passed and under_nbgrader():
        raise AssertionError(text)
