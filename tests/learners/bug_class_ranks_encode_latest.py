"""BUG in encode: the class keeps its merges as ranks {pair: 0, 1, 2...} beside their inverse,
and encode merges the pair of HIGHEST rank first (max for min), so a later merge wins over the
earlier one it was built after. Train and decode are right.

expect: Ranked.train pass, Ranked.encode fail, Ranked.decode pass
cause: Ranked.encode highest_rank
"""


def _merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class Ranked:
    def __init__(self):
        self.ranks = {}
        self.parts = {}

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        self.ranks, self.parts = {}, {}
        for idx in range(256, vocab_size):
            counts = {}
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            self.ranks[pair] = len(self.ranks)
            self.parts[idx] = pair
            ids = _merge(ids, pair, idx)

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        ids_of = {pair: idx for idx, pair in self.parts.items()}
        while len(ids) >= 2:
            known = [p for p in zip(ids, ids[1:]) if p in self.ranks]
            if not known:
                break
            pair = max(known, key=self.ranks.get)
            ids = _merge(ids, pair, ids_of[pair])
        return ids

    def decode(self, ids):
        def spell(i):
            return bytes([i]) if i < 256 else spell(self.parts[i][0]) + spell(self.parts[i][1])
        return b"".join(spell(i) for i in ids).decode("utf-8", errors="replace")
