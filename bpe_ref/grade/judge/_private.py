"""A private copy of the naive reference for the judges.

Loaded from its file under another name, so a learner's kernel that rebinds `bpe_ref.core.naive.merge`
(by accident or not) does not change what the in-notebook checks expect.
"""

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "bpe_ref.grade._naive_copy", Path(__file__).resolve().parents[2] / "core" / "naive.py")
naive = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(naive)

# workbook 11's references, the same way
_spec = importlib.util.spec_from_file_location(
    "bpe_ref.grade._usage_copy", Path(__file__).resolve().parents[2] / "core" / "usage.py")
usage = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(usage)
