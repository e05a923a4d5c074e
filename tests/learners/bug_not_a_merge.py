"""NOT an exercise beside a right one: merge_with_table(symbols, merge_set, token_ids) merges byte
strings found in a set and looked up in a table, so given the course's (ids, pair, idx) it hands
back its first argument unchanged on every probe, and its answer is right only where doing
nothing is. Its name says merge, yet it must not be graded as merge; pair_tally, a right get_stats
under its own name, must be.

expect: pair_tally pass
shows: notes merge_with_table: handed back its first argument unchanged
"""


def pair_tally(ids):
    tally = {}
    for left, right in zip(ids, ids[1:]):
        tally[(left, right)] = tally.get((left, right), 0) + 1
    return tally


def merge_with_table(symbols, merge_set, token_ids):
    symbols = list(symbols)
    while True:
        found = [(token_ids.get(a + b, float("inf")), i) for i, (a, b) in enumerate(zip(symbols, symbols[1:]))
                 if (a, b) in merge_set and isinstance(a, bytes)]
        if not found:
            return symbols
        _, i = min(found)
        symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
