"""GOOD: a pair counter under a name of its own, a static method over a corpus of id lists (one
per chunk), found by what it does: handed the course's ids as a corpus of one list, it counts them.

expect: Trainer.pair_counts pass
"""
from collections import Counter


class Trainer:
    @staticmethod
    def pair_counts(corpus):
        found = Counter()
        for seq in corpus:
            if len(seq) >= 2:
                found.update(zip(seq, seq[1:]))
        return found
