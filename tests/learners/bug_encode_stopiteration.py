"""BUG in encode that is about Python, not BPE: next() without a default raises StopIteration once
no known pair is left. The hint must be about next() and point at the learner's line, not give
encode's usual advice. (merge is right.)

expect: merge pass, encode error
cause: encode none
shows: encode next() ran out of items
shows: encode bug_encode_stopiteration.py, line 28: pair = next(iter(known))
"""


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        known = sorted((p for p in zip(ids, ids[1:]) if p in merges), key=merges.get)
        pair = next(iter(known))  # the bug: nothing is left to take once no pair is known
        ids = merge(ids, pair, merges[pair])
    return ids
