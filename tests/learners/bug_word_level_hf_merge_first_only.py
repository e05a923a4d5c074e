"""BUG in merge_pair: word-level BPE in the Hugging Face course's form, with the word counts handed
in beside the splits, whose merge stops at the first place the pair occurs in a word: 'a a a a'
merging ('a', 'a') gives 'aa a a', not 'aa aa'. compute_pair_freqs is right.

expect: compute_pair_freqs pass, merge_pair fail
cause: merge_pair first_only
"""


def compute_pair_freqs(splits, word_freqs):
    pairs = {}
    for word, count in word_freqs.items():
        for pair in zip(splits[word], splits[word][1:]):
            pairs[pair] = pairs.get(pair, 0) + count
    return pairs


def merge_pair(a, b, splits, word_freqs):
    for word in word_freqs:
        split = splits[word]
        for i in range(len(split) - 1):
            if split[i] == a and split[i + 1] == b:
                splits[word] = split[:i] + [a + b] + split[i + 2:]
                break
    return splits
