"""BUG in merge_vocab: word-level BPE whose merge is a plain str.replace of 'first second' by
'firstsecond', with no check of the borders between symbols: where the first symbol's text ends
a longer symbol ('low e' holds 'w e'), it merges there too. get_stats is right.

expect: get_stats pass, merge_vocab fail
shows: merge_vocab border between two symbols
"""


def get_stats(vocab):
    pairs = {}
    for word, freq in vocab.items():
        symbols = word.split()
        for a, b in zip(symbols, symbols[1:]):
            pairs[a, b] = pairs.get((a, b), 0) + freq
    return pairs


def merge_vocab(pair, vocab):
    bigram, joined = " ".join(pair), "".join(pair)
    return {word.replace(bigram, joined): freq for word, freq in vocab.items()}
