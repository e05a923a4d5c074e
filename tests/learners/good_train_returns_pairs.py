"""Right, a tutorial's trainer that returns its merges as a list of pairs in the order they were
made, beside the vocab: train_bpe(text, vocab_size) -> ([(a, b), ...], {id: bytes}). Found by
behaviour, its merges are read from what it returns.

expect: train_bpe pass
"""


def train_bpe(text, vocab_size):
    ids = list(text.encode("utf-8"))
    vocab = {i: bytes([i]) for i in range(256)}
    learned = []
    for idx in range(256, vocab_size):
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        best = max(counts, key=counts.get)
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == best:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
        learned.append(best)
        vocab[idx] = vocab[best[0]] + vocab[best[1]]
    return learned, vocab
