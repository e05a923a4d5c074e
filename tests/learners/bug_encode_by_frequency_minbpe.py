"""BUG in encode, minbpe style (a Tokenizer class, adapted by thin functions): it merges the pair
that occurs most often in the text, as training does, instead of the lowest merge id. No `max` over
ranks anywhere, so "min, not max" would send the learner the wrong way. (get_stats, merge,
build_vocab, decode are right.)

expect: get_stats pass, merge pass, build_vocab pass, decode pass, encode fail, Tokenizer.decode pass, Tokenizer.encode fail
cause: encode most_frequent
cause: Tokenizer.encode most_frequent
"""


def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    newids, i = [], 0
    while i < len(ids):
        if ids[i] == pair[0] and i < len(ids) - 1 and ids[i + 1] == pair[1]:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids


class Tokenizer:
    def __init__(self):
        self.merges = {}
        self.vocab = self._build_vocab()

    def _build_vocab(self):
        vocab = {idx: bytes([idx]) for idx in range(256)}
        for (p0, p1), idx in self.merges.items():
            vocab[idx] = vocab[p0] + vocab[p1]
        return vocab

    def decode(self, ids):
        text_bytes = b"".join(self.vocab[idx] for idx in ids)
        return text_bytes.decode("utf-8", errors="replace")

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) >= 2:
            stats = get_stats(ids)
            candidates = {p: n for p, n in stats.items() if p in self.merges}
            if not candidates:
                break
            pair = max(candidates, key=candidates.get)  # the most frequent known pair
            ids = merge(ids, pair, self.merges[pair])
        return ids


# thin adapters to the course's function names
def build_vocab(merges):
    tok = Tokenizer()
    tok.merges = dict(merges)
    return tok._build_vocab()


def decode(ids, vocab):
    tok = Tokenizer()
    tok.vocab = vocab
    return tok.decode(ids)


def encode(text, merges):
    tok = Tokenizer()
    tok.merges = dict(merges)
    return tok.encode(text)
