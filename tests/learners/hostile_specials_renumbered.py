"""An attack on a class graded on its own numbering of special tokens: every registering numbers
them afresh from a counter kept on the class, so the ids read back before the call are not the
ids the call uses. The grader cannot tell which ids the tokens have: could not be graded, never
a pass.

expect: Drift.train pass, Drift.decode pass, Drift.encode pass, Drift.encode:special_tokens error, Drift._join pass
shows: Drift.encode:special_tokens could not be graded
"""


class Drift:
    issued = [1000]

    def __init__(self):
        self.merges, self.vocab, self.special_ids = {}, {i: bytes([i]) for i in range(256)}, {}

    def add_special(self, tokens):
        for token in tokens:
            Drift.issued[0] += 1
            self.special_ids[token] = Drift.issued[0]

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        for idx in range(256, vocab_size):
            counts = {}
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]
            ids = self._join(ids, pair, idx)

    @staticmethod
    def _join(ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def encode(self, text):
        out, start, i = [], 0, 0
        order = sorted(self.special_ids, key=len, reverse=True)
        while i < len(text):
            token = next((t for t in order if text.startswith(t, i)), None)
            if token is None:
                i += 1
                continue
            out += self._plain(text[start:i]) + [self.special_ids[token]]
            i = start = i + len(token)
        return out + self._plain(text[start:])

    def _plain(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) > 1:
            pair = min(zip(ids, ids[1:]), key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = self._join(ids, pair, self.merges[pair])
        return ids

    def decode(self, ids):
        back = {i: t.encode("utf-8") for t, i in self.special_ids.items()}
        return b"".join(self.vocab.get(i) or back[i] for i in ids).decode("utf-8", errors="replace")
