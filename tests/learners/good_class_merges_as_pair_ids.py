"""GOOD: a minbpe-style class that keeps what it learns as a list of (pair, id) in merge order,
and nothing else: train, encode and decode all read that list. The grader reads it in that
shape and hands the course's merges back in it.

expect: PairList.train pass, PairList.encode pass, PairList.decode pass
"""


def _merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class PairList:
    def __init__(self):
        self.learned = []

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        self.learned = []
        for idx in range(256, vocab_size):
            counts = {}
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            self.learned.append((pair, idx))
            ids = _merge(ids, pair, idx)

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        for pair, idx in self.learned:  # merge order is rank order
            ids = _merge(ids, pair, idx)
        return ids

    def decode(self, ids):
        spelled = {i: bytes([i]) for i in range(256)}
        for (a, b), idx in self.learned:
            spelled[idx] = spelled[a] + spelled[b]
        return b"".join(spelled[i] for i in ids).decode("utf-8", errors="replace")
