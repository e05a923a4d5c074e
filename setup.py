"""The wheel carries the course: besides bpe_ref, setuptools copies the workbooks (notebooks/), the
solutions, docs/ and README.md into bpe_ref/data/course/ when it builds, where
bpe_ref.course.material finds them once installed. The project's metadata is in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
MATERIAL = ("notebooks", "solutions", "docs", "README.md")  # as bpe_ref/course/material.py lists them


class BuildWithCourse(build_py):
    """build_py, then the course's material into the built package (not for an editable install,
    which reads the checkout itself; a folder missing from the source, as in a bare sdist, is skipped)."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "bpe_ref" / "data" / "course"
        for name in MATERIAL:
            source = HERE / name
            if source.is_dir():
                shutil.copytree(source, target / name, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
            elif source.is_file():
                target.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target / name)


setup(cmdclass={"build_py": BuildWithCourse})
