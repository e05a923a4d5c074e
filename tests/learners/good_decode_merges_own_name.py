"""A learner's decode under a name of their own that takes the merges, not a vocab, and builds
the vocab itself: bpe_decode(ids, merges). Right: found by behaviour and graded in its own terms.

expect: bpe_decode pass
shows: bpe_decode graded as the course's decode (workbook 05_decoding): decode(ids, merges)
"""


def bpe_decode(ids, merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), new_id in sorted(merges.items(), key=lambda item: item[1]):
        vocab[new_id] = vocab[a] + vocab[b]
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
