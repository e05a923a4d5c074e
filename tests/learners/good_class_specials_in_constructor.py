"""Right: a regex tokenizer handed its special tokens {token: id} when it is made (and no method
to register them), as a learner following a lecture keeps GPT-4's. The grader makes it with the
course's special tokens and grades encode(text, allowed_special) on them.

expect: Chunked.train pass, Chunked.decode pass, Chunked.encode pass, Chunked.encode:special_tokens pass, Chunked._join pass
shows: Chunked.encode:special_tokens graded as the course's encode_special (workbook 08_special_tokens): made with special_tokens=special_tokens, then .encode(text, allowed_special)
"""
import regex


class Chunked:
    def __init__(self, pattern, special_tokens=None):
        self.pattern = regex.compile(pattern)
        self.special_tokens = dict(special_tokens or {})
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}

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
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
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
        return [i for c in self.pattern.findall(text) for i in self._piece(c)]

    def encode(self, text, allowed_special="none_raise"):
        if allowed_special == "all":
            allowed = set(self.special_tokens)
        elif allowed_special in ("none", "none_raise"):
            allowed = set()
        else:
            allowed = set(allowed_special)
        if allowed_special != "none" and any(t in text for t in self.special_tokens if t not in allowed):
            raise ValueError("a special token that is not allowed")
        if not allowed:
            return self._plain(text)
        splitter = "(" + "|".join(regex.escape(t) for t in sorted(allowed, key=len, reverse=True)) + ")"
        return [i for part in regex.split(splitter, text)
                for i in ([self.special_tokens[part]] if part in allowed else self._plain(part))]

    def decode(self, ids):
        back = {i: t.encode("utf-8") for t, i in self.special_tokens.items()}
        return b"".join(self.vocab.get(i) or back[i] for i in ids).decode("utf-8", errors="replace")
