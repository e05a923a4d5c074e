"""Right as written: a minbpe-style RegexTokenizer(pattern) that takes a pattern and never uses it,
splitting with GPT-4's pattern always. It is graded as the regex tokenizer it is, with GPT-4's
pattern: the grader hands it one character a chunk, sees GPT-4's chunks all the same, and grades it
as a class with that pattern built in, not as one that ignores the pattern it was given.

expect: RegexTokenizer.train pass, RegexTokenizer.encode pass, RegexTokenizer.decode pass, RegexTokenizer.encode:special_tokens pass, RegexTokenizer.join pass, RegexTokenizer.encode_chunk pass, RegexTokenizer.pairs pass
shows: RegexTokenizer.encode it splits as GPT-4's pattern does, whatever pattern it is given
"""

import regex

GPT4 = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"""


class RegexTokenizer:
    def __init__(self, pattern):
        self.pattern = regex.compile(GPT4)  # the pattern it is given is never used
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}
        self.special = {}

    @staticmethod
    def pairs(ids, counts):
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        return counts

    @staticmethod
    def join(ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def train(self, text, vocab_size):
        chunks = [list(c.encode("utf-8")) for c in self.pattern.findall(text)]
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}
        for idx in range(256, vocab_size):
            counts = {}
            for chunk in chunks:
                self.pairs(chunk, counts)
            if not counts:
                break
            pair = max(counts, key=counts.get)
            chunks = [self.join(c, pair, idx) for c in chunks]
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    def register_special_token(self, tokens):
        self.special = dict(tokens)

    def encode_chunk(self, data):
        ids = list(data)
        while len(ids) >= 2:
            counts = self.pairs(ids, {})
            pair = min(counts, key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = self.join(ids, pair, self.merges[pair])
        return ids

    def encode(self, text, allowed_special="none_raise"):
        if allowed_special == "all":
            special = dict(self.special)
        elif allowed_special in ("none", "none_raise"):
            special = {}
            if allowed_special == "none_raise" and any(t in text for t in self.special):
                raise ValueError("a special token in the text, and none is allowed")
        elif isinstance(allowed_special, (set, frozenset)):
            special = {t: i for t, i in self.special.items() if t in allowed_special}
        else:
            raise ValueError(f"allowed_special={allowed_special!r} not understood")
        parts = [text]
        if special:
            parts = regex.split("(" + "|".join(regex.escape(t) for t in sorted(special, key=len, reverse=True)) + ")", text)
        out = []
        for part in parts:
            if part in special:
                out.append(special[part])
            else:
                out.extend(i for c in self.pattern.findall(part) for i in self.encode_chunk(c.encode("utf-8")))
        return out

    def decode(self, ids):
        inverse = {v: k.encode("utf-8") for k, v in self.special.items()}
        return b"".join(self.vocab.get(i) or inverse[i] for i in ids).decode("utf-8", errors="replace")
