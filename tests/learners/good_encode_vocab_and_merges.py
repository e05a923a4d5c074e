"""A learner's encode that takes the vocab beside the merges, encode(text, vocab, merges), as a
notebook hands both tables around: a signature variant, graded in its own terms (the course's
merges, and the vocab they build).

expect: encode pass
shows: encode encode(text, vocab, merges): handed the vocab the merges build as well
"""


def encode(text, vocab, merges):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        pairs = set(zip(ids, ids[1:]))
        pair = min(pairs, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        assert vocab[merges[pair]] == vocab[pair[0]] + vocab[pair[1]]
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
