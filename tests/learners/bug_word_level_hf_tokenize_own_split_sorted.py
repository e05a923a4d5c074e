"""BUG: the Hugging Face course's word-level BPE without its pre-tokenizer, whose tokenize applies
the merges sorted by their pairs instead of in the order they were learned, so a later merge can
take letters an earlier one needed.

expect: compute_pair_freqs pass, merge_pair pass, tokenize fail
shows: tokenize they first differ at token
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
    for (a, b), joined in sorted(merges.items()):
        for k, symbols in enumerate(words):
            i = 0
            while i < len(symbols) - 1:
                if symbols[i] == a and symbols[i + 1] == b:
                    symbols = symbols[:i] + [joined] + symbols[i + 2:]
                else:
                    i += 1
            words[k] = symbols
    return sum(words, [])
