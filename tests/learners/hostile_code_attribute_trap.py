"""HOSTILE: a module-level callable whose __code__ is source text, not code (disassembled, it would
be compiled), beside word counts and a right get_stats. The grader reads what functions use only
from real functions, so the text is never compiled and the file is graded.

expect: get_stats pass
"""

word_freqs = {"low": 5}


class Trap:
    __code__ = "raise SystemExit('sprung')"

    def __call__(self, splits):
        return splits


compute_pair_freqs = Trap()


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts
