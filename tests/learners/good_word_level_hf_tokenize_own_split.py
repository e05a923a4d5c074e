"""GOOD: the Hugging Face course's word-level BPE without its pre-tokenizer: the words come from
text.lower().split(), `merges` {(a, b): a + b} is filled by a training loop at module level, and
tokenize(text) applies those merges in the order they were learned. Graded in its own terms: its
module-level merges set to ones a right trainer learns, against those applied in order. Its
training loop at module level is no exercise (its merges pair strings), so the file is not passed.

expect: compute_pair_freqs pass, merge_pair pass, tokenize pass
file: not passed
"""
from collections import Counter

corpus = ["Le chat dort", "le chien dort", "고양이 고양이 강아지", "قطة قطة كلب"]
word_freqs = Counter(word for line in corpus for word in line.lower().split())
splits = {word: list(word) for word in word_freqs}


def compute_pair_freqs(splits):
    freqs = Counter()
    for word, n in word_freqs.items():
        symbols = splits[word]
        for pair in zip(symbols, symbols[1:]):
            freqs[pair] += n
    return freqs


def merge_pair(a, b, splits):
    for word in word_freqs:
        symbols, i = splits[word], 0
        while i < len(symbols) - 1:
            if symbols[i] == a and symbols[i + 1] == b:
                symbols = symbols[:i] + [a + b] + symbols[i + 2:]
            else:
                i += 1
        splits[word] = symbols
    return splits


merges = {}
for _ in range(8):
    freqs = compute_pair_freqs(splits)
    if not freqs:
        break
    best = max(freqs, key=freqs.get)
    splits = merge_pair(*best, splits)
    merges[best] = best[0] + best[1]


def tokenize(text):
    words = [list(word) for word in text.lower().split()]
    for (a, b), joined in merges.items():
        for k, symbols in enumerate(words):
            i = 0
            while i < len(symbols) - 1:
                if symbols[i] == a and symbols[i + 1] == b:
                    symbols = symbols[:i] + [joined] + symbols[i + 2:]
                else:
                    i += 1
            words[k] = symbols
    return sum(words, [])
