"""BUG in encode_ordinary: inside each chunk it merges the first known pair from the left, not the
lowest-ranked one. It used to pass: no case had two merges competing inside one chunk.
(split_text is right, and so is replace_all, merge under another name, found by what it does.)

expect: split_text pass, encode_ordinary fail, replace_all pass
cause: encode_ordinary leftmost_known
"""

import regex


def split_text(text, pattern):
    return regex.findall(pattern, text)


def encode_chunk(chunk, merges):
    ids = list(chunk.encode("utf-8"))
    merged = True
    while merged:
        merged = False
        for i in range(len(ids) - 1):
            pair = (ids[i], ids[i + 1])
            if pair in merges:
                ids = replace_all(ids, pair, merges[pair])
                merged = True
                break
    return ids


def replace_all(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def encode_ordinary(text, merges, pattern):
    return [idx for chunk in split_text(text, pattern) for idx in encode_chunk(chunk, merges)]
