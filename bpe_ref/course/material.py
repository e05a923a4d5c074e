"""Where the course's own files are, in a checkout and in an installed wheel alike.

A checkout has notebooks/, solutions/, docs/ and README.md beside bpe_ref/. A wheel carries the
same files inside the package, in bpe_ref/data/course/ (setup.py copies them there when it builds).
Whatever reads the course's material (the workspace, the grader's copies of the workbooks, the
similarity report) asks `course_root()`, so an installed course behaves as a checkout does.
"""

from importlib import resources
from pathlib import Path

MATERIAL = ("notebooks", "solutions", "docs", "README.md")  # what a wheel carries, by its checkout name
CHECKOUT = Path(__file__).resolve().parents[2]  # the folder that holds bpe_ref/, in a checkout


def course_root():
    """The folder holding notebooks/, solutions/, docs/ and README.md: the checkout's own, else the
    installed package's copies (a folder without notebooks/ when neither has them, e.g. an sdist)."""
    if (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / "notebooks").is_dir():
        return CHECKOUT
    return Path(str(resources.files("bpe_ref") / "data" / "course"))
