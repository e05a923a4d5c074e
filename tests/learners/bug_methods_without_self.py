"""BUGS about Python, in a minbpe-style class: `merge` is exported unbound (so it wants `self`), and
`train` calls get_stats without `self.` (a NameError). Each gets a hint about that error, never
the exercise's usual advice. get_stats (a bound method) is right.

expect: get_stats pass, merge error, train error, Tokenizer.train error, Tokenizer.get_stats pass, Tokenizer.merge pass
cause: merge none
cause: train none
shows: merge the grader calls merge(ids, pair, idx), but yours is merge(self, ids, pair, idx)
shows: train `stats_of` does not exist when train runs
shows: train bug_methods_without_self.py, line 43: stats = stats_of(ids)
shows: Tokenizer.train `stats_of` does not exist when Tokenizer.train runs
shows: train call methods as self.name(...)
"""


class Tokenizer:
    def __init__(self):
        self.merges = {}

    def get_stats(self, ids):
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        return counts

    def stats_of(self, ids):
        return self.get_stats(ids)

    def merge(self, ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        for idx in range(256, vocab_size):
            stats = stats_of(ids)  # noqa: F821 - the bug: self.stats_of
            if not stats:
                break
            pair = max(stats, key=stats.get)
            ids = self.merge(ids, pair, idx)
            self.merges[pair] = idx
        return self.merges


_tok = Tokenizer()
get_stats = _tok.get_stats
merge = Tokenizer.merge  # the bug: unbound, so merge(ids, pair, idx) lacks an argument


def train(text, vocab_size):
    return Tokenizer().train(text, vocab_size)
