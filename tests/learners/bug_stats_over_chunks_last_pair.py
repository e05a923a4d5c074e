"""BUG in get_stats: it counts a corpus of id lists, one per chunk, but stops one pair short in
each list (zip(ids[:-1], ids[1:-1])), so every chunk's last pair is lost.

expect: get_stats fail
cause: get_stats last_pair_missing
shows: get_stats last pair
"""


def get_stats(chunks):
    counts = {}
    for ids in chunks:
        for pair in zip(ids[:-1], ids[1:-1]):
            counts[pair] = counts.get(pair, 0) + 1
    return counts
