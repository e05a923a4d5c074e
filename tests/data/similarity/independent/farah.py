"""Independent author 'farah': a tokenizer class behind the functions, comprehension-heavy."""


def get_stats(ids):
    stats = {}
    for a, b in zip(ids[:-1], ids[1:]):
        stats[a, b] = stats.setdefault((a, b), 0) + 1
    return stats


def merge(ids, pair, idx):
    first, second = pair
    new, j, n = [], 0, len(ids)
    while j < n:
        if ids[j] == first and j + 1 < n and ids[j + 1] == second:
            new += [idx]
            j += 2
        else:
            new += [ids[j]]
            j += 1
    return new


class Trainer:
    def __init__(self, text):
        self.ids = list(text.encode("utf-8"))
        self.merges = {}

    def step(self):
        stats = get_stats(self.ids)
        if not stats:
            return False
        best = sorted(stats.items(), key=lambda item: -item[1])[0][0]
        new_id = 256 + len(self.merges)
        self.merges[best] = new_id
        self.ids = merge(self.ids, best, new_id)
        return True


def train(text, vocab_size):
    trainer = Trainer(text)
    while 256 + len(trainer.merges) < vocab_size and trainer.step():
        pass
    return trainer.merges


def build_vocab(merges):
    vocab = {i: i.to_bytes(1, "big") for i in range(256)}
    by_rank = {rank: pair for pair, rank in merges.items()}
    for rank in sorted(by_rank):
        a, b = by_rank[rank]
        vocab[rank] = vocab[a] + vocab[b]
    return vocab


def decode(ids, vocab):
    return b"".join(map(vocab.__getitem__, ids)).decode(encoding="utf-8", errors="replace")


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    for pair, rank in sorted(merges.items(), key=lambda kv: kv[1]):
        if len(ids) < 2:
            break
        ids = merge(ids, pair, rank)
    return ids
