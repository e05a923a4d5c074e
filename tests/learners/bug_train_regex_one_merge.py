"""BUG in train_regex, minbpe style: the chunks are a map() object, used up by the first count, so
after one merge no pair is left and training stops early. (split_text, get_stats, merge are right.)

expect: split_text pass, get_stats pass, merge pass, train_regex fail, RegexTokenizer.train fail
cause: train_regex one_merge_only
cause: RegexTokenizer.train one_merge_only
"""

import regex


def split_text(text, pattern):
    return regex.findall(pattern, text)


def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    newids, i = [], 0
    while i < len(ids):
        if ids[i] == pair[0] and i < len(ids) - 1 and ids[i + 1] == pair[1]:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids


class RegexTokenizer:
    def __init__(self, pattern):
        self.pattern = pattern
        self.merges = {}

    def train(self, text, vocab_size):
        ids = map(lambda chunk: list(chunk.encode("utf-8")), split_text(text, self.pattern))
        for idx in range(256, vocab_size):
            stats = {}
            for chunk_ids in ids:
                get_stats(chunk_ids, stats)
            if not stats:
                break
            pair = max(stats, key=stats.get)
            ids = map(lambda chunk_ids: merge(chunk_ids, pair, idx), ids)  # the bug: a map, used up once
            self.merges[pair] = idx


def train_regex(text, vocab_size, pattern):
    tok = RegexTokenizer(pattern)
    tok.train(text, vocab_size)
    return tok.merges
