"""GOOD: get_stats counts the pairs of a whole corpus, one id list per chunk (a regex trainer's
counter), adding each chunk's pairs and never pairing the end of one chunk with the next.
Graded in its own terms, handed the course's ids as a corpus of one list.

expect: get_stats pass
"""


def get_stats(chunks, counts=None):
    counts = {} if counts is None else counts
    for ids in chunks:
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
    return counts

