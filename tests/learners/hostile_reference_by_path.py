"""HOSTILE: merge loads the course's bpe_ref/core/naive.py by its file path (relative to this folder,
where the grader runs the file) and calls its merge: status reference. get_stats is right.
Graded without the sandbox (where a learner grades their own work without bubblewrap): behind its
walls the file is simply absent (see tests/test_sandbox_attacks.py).

expect: get_stats pass, merge reference
options: isolated=0
"""

import importlib.util
import os


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    path = os.path.join(os.getcwd(), os.pardir, os.pardir, "bpe_ref", "core", "naive.py")
    spec = importlib.util.spec_from_file_location("my_naive", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.merge(ids, pair, idx)
