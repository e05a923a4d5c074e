"""GOOD: word-level BPE in the form the Hugging Face course teaches: the words of a small corpus
and their counts live in a module-level dict, each word's current symbols in `splits`;
compute_pair_freqs(splits) adds each word's count to each of its adjacent pairs, and
merge_pair(a, b, splits) joins the pair left to right inside every word. Graded in its own terms:
each id a symbol of one word, the word's count set in the dict the functions read.

expect: compute_pair_freqs pass, merge_pair pass
file: not passed
"""
from collections import Counter

corpus = [
    "low lower lowest newer wider",
    "القلم على الطاولة والقلم جديد",
    "한국어 문장 한국어 단어",
]
word_freqs = Counter(word for line in corpus for word in line.split())
splits = {word: list(word) for word in word_freqs}


def compute_pair_freqs(splits):
    counts = {}
    for word, n in word_freqs.items():
        symbols = splits[word]
        for left, right in zip(symbols, symbols[1:]):
            counts[left, right] = counts.get((left, right), 0) + n
    return counts


def merge_pair(a, b, splits):
    for word in word_freqs:
        symbols, out, i = splits[word], [], 0
        while i < len(symbols):
            if i + 1 < len(symbols) and symbols[i] == a and symbols[i + 1] == b:
                out.append(a + b)
                i += 2
            else:
                out.append(symbols[i])
                i += 1
        splits[word] = out
    return splits


merges = {}
for _ in range(12):
    pair_counts = compute_pair_freqs(splits)
    if not pair_counts:
        break
    best = max(pair_counts, key=pair_counts.get)
    splits = merge_pair(*best, splits)
    merges[best] = best[0] + best[1]
