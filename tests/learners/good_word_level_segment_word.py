"""GOOD: the same word-level BPE with a segmenter of one word, segment_word(word, merges), as
Sennrich's apply step is often written: it is handed the words one by one, never a text of
several (whose spaces it would take for characters).

expect: learn pass, segment_word pass
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
        if not counts:
            break
        pair, n = counts.most_common(1)[0]
        merges.append((pair, n))
        words = [_merged(word, pair) for word in words]
    return merges, words


def segment_word(word, merges):
    symbols = ["."] + list(word) + ["_"]
    for pair, _ in merges:
        symbols = _merged(symbols, pair)
    return symbols


if __name__ == "__main__":
    merges, _ = learn("نور نور نوري 달 달빛 달님", 6)
    print(segment_word("نوري", merges), segment_word("달빛", merges))
