"""Right by its answers, in a file the course did not hand out: merge rewrites the caller's list in
place and returns it. Only the workbook asks for a new list (bug_merge_mutates_04_naive_bpe.ipynb
fails the same merge); code written as the learner's own is judged on what it returns.

expect: get_stats pass, decode pass, merge pass
"""


def get_stats(ids):
    counts = {}
    for a, b in zip(ids, ids[1:]):
        counts[a, b] = counts.get((a, b), 0) + 1
    return counts


def merge(ids, pair, idx):
    i = 0
    while i < len(ids) - 1:
        if ids[i] == pair[0] and ids[i + 1] == pair[1]:
            ids[i:i + 2] = [idx]
        i += 1
    return ids


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
