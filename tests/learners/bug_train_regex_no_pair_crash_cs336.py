"""BUG in train_regex, CS336 style (pre-token counts, merges as byte pairs, adapted by a thin
function): when no pair is left it calls max() on nothing and raises, instead of stopping. Pairs are
never counted across chunks, so "never count across two chunks" would be the wrong hint.
(split_text is right.)

expect: split_text pass, train_regex error, merge_word pass
cause: train_regex raises_when_no_pair
"""

from collections import Counter

import regex


def split_text(text, pattern):
    return regex.findall(pattern, text)


def train_bpe(text, vocab_size, pattern):
    words = Counter(tuple(bytes([b]) for b in chunk.encode("utf-8")) for chunk in split_text(text, pattern))
    merges = []
    while 256 + len(merges) < vocab_size:
        pair_counts = Counter()
        for word, count in words.items():
            for pair in zip(word, word[1:]):
                pair_counts[pair] += count
        best = max(pair_counts, key=lambda p: (pair_counts[p], -first_seen(words, p)))  # the bug: no check
        merges.append(best)
        words = Counter({merge_word(word, best): count for word, count in words.items()})
    return merges


def first_seen(words, pair):
    for position, word in enumerate(words):
        if pair in zip(word, word[1:]):
            return position
    return len(words)


def merge_word(word, pair):
    out, i = [], 0
    while i < len(word):
        if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
            out.append(word[i] + word[i + 1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def train_regex(text, vocab_size, pattern):
    ids = {bytes([i]): i for i in range(256)}
    merges = {}
    for a, b in train_bpe(text, vocab_size, pattern):
        ids[a + b] = 256 + len(merges)
        merges[(ids[a], ids[b])] = ids[a + b]
    return merges
