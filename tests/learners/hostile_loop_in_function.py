"""HOSTILE: train never returns (an endless loop); get_stats and decode are right and still graded.

expect: get_stats pass, decode pass, train timeout
shows: train longer than 3 s
"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def train(text, vocab_size):
    merges = {}
    while len(merges) < vocab_size - 256:
        pass  # forgot to merge anything: loops forever
    return merges
