"""BUG in compute_pair_freqs: word-level BPE in the Hugging Face course's form whose pair counter
adds 1 for each pair it sees, whatever the word's count in `word_freqs`: a word met a hundred times
weighs as much as a word met once. merge_pair, which takes the pair whole, is right.

expect: compute_pair_freqs fail, merge_pair pass
shows: compute_pair_freqs not multiples of the word's count
"""
from collections import defaultdict

word_freqs = defaultdict(int)
for word in "the cat sat on the mat with the hat".split():
    word_freqs[word] += 1
splits = {word: [c for c in word] for word in word_freqs}


def compute_pair_freqs(splits):
    pair_freqs = defaultdict(int)
    for word in word_freqs:
        split = splits[word]
        for i in range(len(split) - 1):
            pair_freqs[split[i], split[i + 1]] += 1
    return pair_freqs


def merge_pair(pair, splits):
    a, b = pair
    for word in word_freqs:
        split, i = splits[word], 0
        while i < len(split) - 1:
            if split[i] == a and split[i + 1] == b:
                split = split[:i] + [a + b] + split[i + 2:]
            i += 1
        splits[word] = split
    return splits
