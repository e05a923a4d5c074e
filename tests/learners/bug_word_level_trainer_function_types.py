"""BUG: a course assignment's word-level BPE whose trainer counts each distinct pair once per
word it occurs in, not once per occurrence, so 'aaaa'-like words and repeated words weigh too
little and later merges are not the most frequent pair; its segmenter is right.

expect: learn fail, segment pass
shows: learn which occurs
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
        counts = Counter(pair for word in {tuple(w) for w in words} for pair in zip(word, word[1:]))
        if not counts:
            break
        pair, n = counts.most_common(1)[0]
        merges.append((pair, n))
        words = [_merged(word, pair) for word in words]
    return merges, words


def segment(text, merges):
    words = [["."] + list(word) + ["_"] for word in text.split()]
    for pair, _ in merges:
        words = [_merged(word, pair) for word in words]
    return words


if __name__ == "__main__":
    merges, _ = learn("نور نور نوري 달 달빛 달님", 6)
    print(segment("نوري 달빛", merges))
