"""Right: a class keeps its helpers as class methods, a pair counter over the id lists of every
chunk and a merge of one id list, named after nothing the course names. Each is found by what it
does and graded under its own name, as a static method would be.

expect: Chunks.pair_counts pass, Chunks.fuse pass
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
    def fuse(cls, ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if ids[i:i + 2] == list(pair):
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out
