"""BUG in encode: the ids start as the text's bytes object and stay one when nothing merges, so
encode returns bytes for a text without known pairs. (decode is right.)

expect: decode pass, encode fail
cause: encode bytes_not_list
"""


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def encode(text, merges):
    ids = text.encode("utf-8")
    while len(ids) >= 2:
        pairs = [p for p in zip(ids, ids[1:]) if p in merges]
        if not pairs:
            break
        pair = min(pairs, key=merges.get)
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
