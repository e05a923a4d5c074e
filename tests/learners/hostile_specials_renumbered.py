"""An attack on a class graded on its own numbering of special tokens: every registering numbers
them afresh from a counter kept on the class, so the ids read back before the call are not the
ids the call uses. The grader cannot tell which ids the tokens have: could not be graded, never
a pass.

expect: Drift.decode pass, Drift.encode pass, Drift.encode:special_tokens error
shows: Drift.encode:special_tokens could not be graded
"""


class Drift:
    issued = [1000]

    def __init__(self):
        self.merges, self.vocab, self.ids = {}, {i: bytes([i]) for i in range(256)}, {}

    def add_special(self, tokens):
        for token in tokens:
            Drift.issued[0] += 1
            self.ids[token] = Drift.issued[0]

    def encode(self, text):
        out, start, i = [], 0, 0
        order = sorted(self.ids, key=len, reverse=True)
        while i < len(text):
            token = next((t for t in order if text.startswith(t, i)), None)
            if token is None:
                i += 1
                continue
            out += self._plain(text[start:i]) + [self.ids[token]]
            i = start = i + len(token)
        return out + self._plain(text[start:])

    def _plain(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) > 1:
            pair = min(zip(ids, ids[1:]), key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            out, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    out.append(self.merges[pair])
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            ids = out
        return ids

    def decode(self, ids):
        back = {i: t.encode("utf-8") for t, i in self.ids.items()}
        return b"".join(self.vocab.get(i) or back[i] for i in ids).decode("utf-8", errors="replace")
