"""A byte-level tokenizer of no split whose register_special_token takes one token at a time and
numbers it itself. It looks for the special tokens in the order they were registered, so of two
overlapping tokens the shorter, registered first, wins: '<|end|><|end|>' comes out as two ids.

expect: Bytes.train pass, Bytes.decode pass, Bytes.encode pass, Bytes.encode:special_tokens fail, Bytes._join pass
cause: Bytes.encode:special_tokens not_longest_first
shows: Bytes.encode:special_tokens graded as the course's encode_special (workbook 08_special_tokens): .register_special_token(token) for each token (it numbers them itself: the ids expected are its own, read back from the object), then .encode(text)
"""


class Bytes:
    def __init__(self):
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}
        self.special_ids = {}

    def register_special_token(self, token):
        self.special_ids[token] = 256 + len(self.merges) + len(self.special_ids)

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        for idx in range(256, vocab_size):
            counts = {}
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            ids = self._join(ids, pair, idx)
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

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

    def _plain(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) > 1:
            pair = min(zip(ids, ids[1:]), key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = self._join(ids, pair, self.merges[pair])
        return ids

    def encode(self, text):
        out, start, i = [], 0, 0
        while i < len(text):
            token = next((t for t in self.special_ids if text.startswith(t, i)), None)
            if token is None:
                i += 1
                continue
            out += self._plain(text[start:i]) + [self.special_ids[token]]
            i = start = i + len(token)
        return out + self._plain(text[start:])

    def decode(self, ids):
        back = {i: t.encode("utf-8") for t, i in self.special_ids.items()}
        return b"".join(self.vocab.get(i) or back[i] for i in ids).decode("utf-8", errors="replace")
