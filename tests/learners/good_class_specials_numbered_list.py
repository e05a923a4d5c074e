"""Right: a regex tokenizer whose add_special_tokens takes a list of tokens and numbers them
itself, after every byte and merge (len(self.vocab) onward). The ids it gives are read back from
the object, and the expected answers use them.

expect: WordPieces.train pass, WordPieces.decode pass, WordPieces.encode pass, WordPieces.encode:special_tokens pass, WordPieces._join pass
shows: WordPieces.encode:special_tokens graded as the course's encode_special (workbook 08_special_tokens): .add_special_tokens(list(special_tokens)) (it numbers them itself: the ids expected are its own, read back from the object), then .encode(text, allowed_special)
"""
import regex


class WordPieces:
    def __init__(self, pattern):
        self.pattern = regex.compile(pattern)
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}
        self.specials = {}

    def add_special_tokens(self, tokens):
        for token in tokens:
            if token not in self.specials:
                self.specials[token] = len(self.vocab) + len(self.specials)

    def train(self, text, vocab_size):
        chunks = [list(c.encode("utf-8")) for c in self.pattern.findall(text)]
        for idx in range(256, vocab_size):
            counts = {}
            for ids in chunks:
                for pair in zip(ids, ids[1:]):
                    counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            chunks = [self._join(ids, pair, idx) for ids in chunks]
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    @staticmethod
    def _join(ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if ids[i:i + 2] == list(pair):
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def _piece(self, piece):
        ids = list(piece.encode("utf-8"))
        while len(ids) > 1:
            pair = min(zip(ids, ids[1:]), key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = self._join(ids, pair, self.merges[pair])
        return ids

    def _plain(self, text):
        return [i for chunk in self.pattern.findall(text) for i in self._piece(chunk)]

    def encode(self, text, allowed_special="none_raise"):
        if allowed_special == "all":
            allowed = set(self.specials)
        elif allowed_special in ("none", "none_raise"):
            allowed = set()
        else:
            allowed = set(allowed_special)
        for token in self.specials:
            if token not in allowed and token in text and allowed_special != "none":
                raise ValueError(f"special token {token!r} is not allowed")
        if not allowed:
            return self._plain(text)
        splitter = "(" + "|".join(regex.escape(t) for t in sorted(allowed, key=len, reverse=True)) + ")"
        out = []
        for part in regex.split(splitter, text):
            out.extend([self.specials[part]] if part in allowed else self._plain(part))
        return out

    def decode(self, ids):
        back = {i: t.encode("utf-8") for t, i in self.specials.items()}
        return b"".join(self.vocab.get(i) or back[i] for i in ids).decode("utf-8", errors="replace")
