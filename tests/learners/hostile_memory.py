"""HOSTILE: build_vocab asks for 100 GB at once and encode grows a list without end; both must
be errors (out of memory), not a crash of the grader. get_stats and decode are right.

expect: get_stats pass, decode pass, build_vocab error, encode error
shows: build_vocab ran out of memory
shows: encode ran out of memory
options: memory_mb=512
"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def build_vocab(merges):
    scratch = bytearray(10**11)
    return {i: bytes([i]) for i in range(256)} | {len(scratch): b""}


def encode(text, merges):
    history = []
    while True:
        history.append(bytearray(10**7))  # 10 MB more on every turn
