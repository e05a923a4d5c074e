"""Right, a tutorial's encode(text, merges) that splits the text with GPT-4's pattern itself and
encodes chunk by chunk, lowest rank first. No workbook asked for it (this is no course file), so
it is graded as written: as the course's encode_ordinary with that pattern, not as workbook 06's
encode, which splits nothing.

expect: encode pass
"""
import regex

GPT4 = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"""


def chunk_ids(ids, merges):
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


def encode(text, merges):
    return [idx for piece in regex.findall(GPT4, text) for idx in chunk_ids(list(piece.encode("utf-8")), merges)]
