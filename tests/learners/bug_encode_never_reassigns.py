"""BUG in encode: the merged list is computed and thrown away (`merge(...)` without `ids =`), so the
loop never ends once a pair is known. The time limit must say on which input, and what to check.
(merge is right.)

expect: merge pass, encode timeout
shows: encode took longer than 2 s
shows: encode ids = merge(...) assigned back
options: timeout=2.0
"""


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        known = [p for p in zip(ids, ids[1:]) if p in merges]
        if not known:
            break
        pair = min(known, key=merges.get)
        merge(ids, pair, merges[pair])
    return ids
