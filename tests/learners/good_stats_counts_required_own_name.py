"""GOOD: a pair counter under a name of its own whose dict to count into has no default
(pair_tally(ids, tally)), found by what it does when handed a fresh {}.

expect: pair_tally pass
"""


def pair_tally(ids, tally: dict):
    for a, b in zip(ids, ids[1:]):
        tally[(a, b)] = tally.get((a, b), 0) + 1
    return tally
