"""Wrong: a class keeps its merge as a class method, and after replacing a pair steps one place,
not two, so the pair's second id stays: [5, 5, 5] with (5, 5) gives [256, 256, 5], not [256, 5].
A class method is graded under its own name, as a static method is.

expect: Chunks.pair_counts pass, Chunks.merge_ids fail
cause: Chunks.merge_ids overlap
"""
from collections import Counter


class Chunks:
    @classmethod
    def pair_counts(cls, chunks):
        counts = Counter()
        for chunk in chunks:
            counts.update(zip(chunk, chunk[1:]))
        return counts

    @classmethod
    def merge_ids(cls, ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if ids[i:i + 2] == list(pair):
                out.append(idx)
                i += 1
            else:
                out.append(ids[i])
                i += 1
        return out
