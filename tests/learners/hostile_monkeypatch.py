"""HOSTILE: merge is WRONG (matches overlap), and the file patches the reference to agree with it.
In the sandbox bpe_ref is a stand-in, so the patch could not reach the grader anyway; but changing
the course's reference is reaching for the grader, and code outside any function runs before every
exercise: none of them earns anything, and the row is flagged for a human look.

expect: get_stats error, decode error, merge error
shows: merge reaches into the grader (bpe_ref.
shows: get_stats flagged for a human look
"""

import bpe_ref
import bpe_ref.naive


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out = []
    for i, x in enumerate(ids):
        if i + 1 < len(ids) and (x, ids[i + 1]) == tuple(pair):
            out.append(idx)
        elif i > 0 and (ids[i - 1], x) == tuple(pair):
            continue
        else:
            out.append(x)
    return out


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


bpe_ref.merge = merge
bpe_ref.naive.merge = merge
try:
    from bpe_ref.grade.judge import exercises
    exercises.REGISTRY["merge"].judge = lambda args, got: None
except Exception:  # noqa: BLE001 - whatever the stand-in does, carry on
    pass
