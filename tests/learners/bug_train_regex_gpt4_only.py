"""BUG in train_regex: it always splits with GPT-4's pattern, whatever `pattern` it is given (the
course's patterns and simple ones of the grader's own are tried). split_text is right.

expect: split_text pass, train_regex fail
cause: train_regex ignores_pattern
"""

import regex

GPT4 = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


def split_text(text, pattern):
    return regex.findall(pattern, text)


def train_regex(text, vocab_size, pattern):
    chunks = [list(c.encode("utf-8")) for c in regex.findall(GPT4, text)]  # the bug: pattern unused
    merges = {}
    for idx in range(256, vocab_size):
        stats = {}
        for ids in chunks:
            for pair in zip(ids, ids[1:]):
                stats[pair] = stats.get(pair, 0) + 1
        if not stats:
            break
        pair = max(stats, key=stats.get)
        merges[pair] = idx
        new_chunks = []
        for ids in chunks:
            out, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    out.append(idx)
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            new_chunks.append(out)
        chunks = new_chunks
    return merges
