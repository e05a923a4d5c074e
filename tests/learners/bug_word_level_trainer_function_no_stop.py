"""BUG: a word-level trainer function with no stop when no pair is left: asked for more merges than
its words allow, most_common(1)[0] of no counts raises IndexError. Right on a corpus with pairs to
spare, so only a few words (or none) show it.

expect: learn fail, segment pass
shows: learn on the words 'low lower low'
"""
from collections import Counter


def _merged(symbols, pair):
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(symbols[i] + symbols[i + 1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out


def learn(corpus, max_merges):
    words = [["."] + list(word) + ["_"] for word in corpus.split()]
    merges = []
    for _ in range(max_merges):
        counts = Counter(pair for word in words for pair in zip(word, word[1:]))
        pair, n = counts.most_common(1)[0]
        merges.append((pair, n))
        words = [_merged(word, pair) for word in words]
    return merges, words


def segment(text, merges):
    words = [["."] + list(word) + ["_"] for word in text.split()]
    for pair, _ in merges:
        words = [_merged(word, pair) for word in words]
    return words


