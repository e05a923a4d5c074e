"""BUG: most_common_pair keeps the pair it saw last whenever a count is at least the best so far,
but it never updates the best count, so a later, rarer pair wins.

expect: most_common_pair fail, swap_pair pass
shows: most_common_pair the top pair is the most frequent one
"""


def most_common_pair(ids):
    tally = {}
    for left, right in zip(ids, ids[1:]):
        tally[left, right] = tally.get((left, right), 0) + 1
    best, best_count = None, 0
    for pair, count in tally.items():
        if count >= best_count:
            best = pair
    return best


def swap_pair(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if ids[i:i + 2] == list(pair):
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
