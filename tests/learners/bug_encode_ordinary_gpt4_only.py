"""BUG in encode_ordinary: it ignores its `pattern` and always splits with GPT-4's. It used to pass:
the generated inputs never changed the pattern. Now GPT-2's, o200k's and simple patterns are tried.
(encode is right.)

expect: encode pass, encode_ordinary fail
cause: encode_ordinary ignores_pattern
"""

import regex

GPT4_SPLIT_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        pairs = set(zip(ids, ids[1:]))
        pair = min(pairs, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(merges[pair])
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return ids


def encode_ordinary(text, merges, pattern):
    ids = []
    for chunk in regex.findall(GPT4_SPLIT_PATTERN, text):  # the bug: `pattern` is never used
        ids.extend(encode(chunk, merges))
    return ids
