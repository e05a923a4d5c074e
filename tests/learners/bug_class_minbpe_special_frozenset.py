"""BUG in encode_special, minbpe class style: allowed_special may be "all", "none", "none_raise"
or a set, and anything else (a frozenset) is refused with ValueError. Behind that refusal is the
real bug: a special token that is not allowed is encoded as plain text, never raising ("none_raise"
behaves like "none"). Tried with a plain set, the grader must find that bug.

expect: RegexTokenizer.train pass, RegexTokenizer.decode pass, RegexTokenizer.encode_ordinary pass, RegexTokenizer.encode pass, RegexTokenizer.encode:special_tokens fail, RegexTokenizer._merge pass, RegexTokenizer._counts pass
cause: RegexTokenizer.encode:special_tokens no_raise
shows: RegexTokenizer.encode:special_tokens tried with a set
"""

import regex

DEFAULT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


class RegexTokenizer:
    def __init__(self, pattern=None):
        self.pattern = pattern or DEFAULT
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}
        self.special_tokens = {}

    def _counts(self, chunks):
        counts = {}
        for ids in chunks:
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
        return counts

    @staticmethod
    def _merge(ids, pair, new_id):
        out, i = [], 0
        while i < len(ids):
            if ids[i:i + 2] == list(pair):
                out.append(new_id)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def train(self, text, vocab_size, verbose=False):
        chunks = [list(c.encode("utf-8")) for c in regex.findall(self.pattern, text)]
        self.merges = {}
        for new_id in range(256, vocab_size):
            counts = self._counts(chunks)
            if not counts:
                break
            best = max(counts, key=counts.get)
            chunks = [self._merge(c, best, new_id) for c in chunks]
            self.merges[best] = new_id
            self.vocab[new_id] = self.vocab[best[0]] + self.vocab[best[1]]

    def register_special_tokens(self, special_tokens):
        self.special_tokens = dict(special_tokens)

    def decode(self, ids):
        inverse = {v: k.encode("utf-8") for k, v in self.special_tokens.items()}
        return b"".join(self.vocab.get(i) or inverse[i] for i in ids).decode("utf-8", errors="replace")

    def encode_ordinary(self, text):
        out = []
        for chunk in regex.findall(self.pattern, text):
            ids = list(chunk.encode("utf-8"))
            while len(ids) >= 2:
                ranked = [p for p in zip(ids, ids[1:]) if p in self.merges]
                if not ranked:
                    break
                pair = min(ranked, key=self.merges.get)
                ids = self._merge(ids, pair, self.merges[pair])
            out += ids
        return out

    def encode(self, text, allowed_special="none_raise"):
        if allowed_special == "all":
            allowed = self.special_tokens
        elif allowed_special in ("none", "none_raise"):
            allowed = {}
        elif isinstance(allowed_special, set):
            allowed = {t: i for t, i in self.special_tokens.items() if t in allowed_special}
        else:
            raise ValueError(f"allowed_special={allowed_special!r} not understood")
        if not allowed:
            return self.encode_ordinary(text)
        out = []
        for part in regex.split("(" + "|".join(regex.escape(t) for t in allowed) + ")", text):
            out += [allowed[part]] if part in allowed else self.encode_ordinary(part)
        return out
