"""BUG in train_regex: the chunks are cut with GPT-2's pattern, copied into the file, whatever
pattern is passed. It does split first and counts inside chunks, so "split first" would be the
wrong hint: the cause is the fixed pattern.

expect: train_regex fail
cause: train_regex ignores_pattern
"""

import regex

GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def train_regex(text, vocab_size, pattern):
    words = [list(w.encode("utf-8")) for w in regex.findall(GPT2_PATTERN, text)]
    merges = {}
    for new_id in range(256, vocab_size):
        counts = {}
        for w in words:
            for pair in zip(w, w[1:]):
                counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        pair = max(counts, key=counts.get)
        merges[pair] = new_id
        merged = []
        for w in words:
            out, k = [], 0
            while k < len(w):
                if k + 1 < len(w) and (w[k], w[k + 1]) == pair:
                    out.append(new_id)
                    k += 2
                else:
                    out.append(w[k])
                    k += 1
            merged.append(out)
        words = merged
    return merges
