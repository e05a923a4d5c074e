"""An unfinished minbpe follow-along: get_stats, merge and BasicTokenizer.encode are written;
train and decode are still the skeleton's stubs. What is written is graded; the stubs are named
as not implemented yet, and the file is not passed.

expect: get_stats pass, merge pass, BasicTokenizer.encode pass, BasicTokenizer.train missing, BasicTokenizer.decode missing
"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class BasicTokenizer:
    def __init__(self):
        self.merges = {}

    def train(self, text, vocab_size, verbose=False):
        pass  # TODO

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) >= 2:
            stats = get_stats(ids)
            pair = min(stats, key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = merge(ids, pair, self.merges[pair])
        return ids

    def decode(self, ids):
        pass  # TODO
