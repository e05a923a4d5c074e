"""GOOD: word-level BPE in Sennrich's form: the vocab maps each word, its symbols joined by
spaces, to its count; get_stats counts pairs of symbols weighted by that count, and merge_vocab
joins the pair only where both are whole symbols. Graded in its own terms, each id a symbol.

expect: get_stats pass, merge_vocab pass
"""
import re
from collections import defaultdict


def get_stats(vocab):
    pairs = defaultdict(int)
    for word, freq in vocab.items():
        symbols = word.split()
        for i in range(len(symbols) - 1):
            pairs[symbols[i], symbols[i + 1]] += freq
    return pairs


def merge_vocab(pair, v_in):
    bigram = re.escape(" ".join(pair))
    pattern = re.compile(r"(?<!\S)" + bigram + r"(?!\S)")
    return {pattern.sub("".join(pair), word): freq for word, freq in v_in.items()}
