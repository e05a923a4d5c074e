"""Right: encode and decode are written once, in a base class with no constructor of its own, and
read what its subclass's constructor and train set up. Alone, the base's encode cannot run (it has
no self.pairs), so it is graded through the subclass and reported under the base that wrote it;
decode runs alone, and keeps a row under each class.

expect: Base.encode pass, Base.decode pass, ByteTokenizer.train pass, ByteTokenizer.decode pass
shows: Base.encode through its subclass ByteTokenizer
"""


class Base:
    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) > 1:
            ranked = [self.merges[p] for p in zip(ids, ids[1:]) if p in self.merges]
            if not ranked:
                break
            new = min(ranked)
            ids = self.fuse(ids, new)
        return ids

    def fuse(self, ids, new):
        pair = self.pairs[new]
        out, i = [], 0
        while i < len(ids):
            if tuple(ids[i:i + 2]) == pair:
                out.append(new)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")


class ByteTokenizer(Base):
    def __init__(self):
        self.merges, self.pairs = {}, {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        for new in range(256, vocab_size):
            counts = {}
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            self.merges[pair], self.pairs[new] = new, pair
            self.vocab[new] = self.vocab[pair[0]] + self.vocab[pair[1]]
            ids = self.fuse(ids, new)
