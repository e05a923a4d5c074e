"""minbpe's classes, with the special tokens set in RegexTokenizer's constructor (GPT-4's, as a
learner loading GPT-4 would) and no method to register others: the grader sets the attributes
that hold them, the tokens and their inverse, and grades encode(text, allowed_special) on them.

expect: get_stats pass, merge pass, BasicTokenizer.train pass, BasicTokenizer.decode pass, BasicTokenizer.encode pass, RegexTokenizer.train pass, RegexTokenizer.decode pass, RegexTokenizer.encode_ordinary pass, RegexTokenizer.encode pass, RegexTokenizer.encode:special_tokens pass, RegexTokenizer._encode_chunk pass
shows: RegexTokenizer.encode:special_tokens graded as the course's encode_special (workbook 08_special_tokens): .special_tokens = special_tokens, .inverse_special_tokens = their inverse
"""
import regex


def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    newids, i = [], 0
    while i < len(ids):
        if i < len(ids) - 1 and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids


class Tokenizer:
    def __init__(self):
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size, verbose=False):
        raise NotImplementedError

    def encode(self, text):
        raise NotImplementedError

    def decode(self, ids):
        raise NotImplementedError


class BasicTokenizer(Tokenizer):
    def train(self, text, vocab_size, verbose=False):
        ids = list(text.encode("utf-8"))
        merges, vocab = {}, {i: bytes([i]) for i in range(256)}
        for i in range(vocab_size - 256):
            stats = get_stats(ids)
            if not stats:
                break
            pair = max(stats, key=stats.get)
            idx = 256 + i
            ids = merge(ids, pair, idx)
            merges[pair] = idx
            vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
        self.merges, self.vocab = merges, vocab

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) >= 2:
            stats = get_stats(ids)
            pair = min(stats, key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = merge(ids, pair, self.merges[pair])
        return ids


GPT4 = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"""


class RegexTokenizer(Tokenizer):
    def __init__(self, pattern=None):
        super().__init__()
        self.pattern = GPT4 if pattern is None else pattern
        self.compiled_pattern = regex.compile(self.pattern)
        self.special_tokens = {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258}  # GPT-4's, set here
        self.inverse_special_tokens = {v: k for k, v in self.special_tokens.items()}

    def train(self, text, vocab_size, verbose=False):
        chunks = [list(c.encode("utf-8")) for c in regex.findall(self.compiled_pattern, text)]
        merges, vocab = {}, {i: bytes([i]) for i in range(256)}
        for i in range(vocab_size - 256):
            stats = {}
            for chunk in chunks:
                get_stats(chunk, stats)
            if not stats:
                break
            pair = max(stats, key=stats.get)
            idx = 256 + i
            chunks = [merge(c, pair, idx) for c in chunks]
            merges[pair] = idx
            vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
        self.merges, self.vocab = merges, vocab

    def decode(self, ids):
        parts = []
        for i in ids:
            parts.append(self.vocab[i] if i in self.vocab else self.inverse_special_tokens[i].encode("utf-8"))
        return b"".join(parts).decode("utf-8", errors="replace")

    def _encode_chunk(self, data):
        ids = list(data)
        while len(ids) >= 2:
            stats = get_stats(ids)
            pair = min(stats, key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = merge(ids, pair, self.merges[pair])
        return ids

    def encode_ordinary(self, text):
        out = []
        for chunk in regex.findall(self.compiled_pattern, text):
            out.extend(self._encode_chunk(chunk.encode("utf-8")))
        return out

    def encode(self, text, allowed_special="none_raise"):
        if allowed_special == "all":
            special = self.special_tokens
        elif allowed_special == "none":
            special = {}
        elif allowed_special == "none_raise":
            special = {}
            assert all(token not in text for token in self.special_tokens), "a special token in the text"
        elif isinstance(allowed_special, (set, frozenset)):
            special = {k: v for k, v in self.special_tokens.items() if k in allowed_special}
            for token in self.special_tokens:
                if token not in special and token in text:
                    raise ValueError(f"{token!r} is not allowed here")
        else:
            raise ValueError(f"allowed_special={allowed_special} not understood")
        if not special:
            return self.encode_ordinary(text)
        pattern = "(" + "|".join(regex.escape(k) for k in sorted(special, key=len, reverse=True)) + ")"
        out = []
        for part in regex.split(pattern, text):
            if part in special:
                out.append(special[part])
            else:
                out.extend(self.encode_ordinary(part))
        return out
