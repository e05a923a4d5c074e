"""Right, minbpe class style, with minbpe's own special-token rules: encode(text, allowed_special)
takes "all", "none", "none_raise" (the default: text spelling a special token fails an assert) or a
set; a set names the special tokens to keep, and every other one is encoded as ordinary text, as
tiktoken does with disallowed_special=(). Anything else (a frozenset) is refused with ValueError.
Right in its own terms: none of this may be failed.

expect: RegexTokenizer.train pass, RegexTokenizer.decode pass, RegexTokenizer.encode_ordinary pass, RegexTokenizer.encode pass, RegexTokenizer.encode:special_tokens pass, replace_pair pass, pair_counts pass, RegexTokenizer._encode_piece pass
"""

import regex

SPLIT = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"""


def pair_counts(ids, counts=None):
    counts = {} if counts is None else counts
    for left, right in zip(ids, ids[1:]):
        counts[(left, right)] = counts.get((left, right), 0) + 1
    return counts


def replace_pair(ids, pair, idx):
    merged, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            merged.append(idx)
            i += 2
        else:
            merged.append(ids[i])
            i += 1
    return merged


class RegexTokenizer:
    def __init__(self, pattern=None):
        self.pattern = SPLIT if pattern is None else pattern
        self.merges, self.special_tokens, self.inverse_special = {}, {}, {}
        self.vocab = {idx: bytes([idx]) for idx in range(256)}

    def train(self, text, vocab_size, verbose=False):
        pieces = [list(p.encode("utf-8")) for p in regex.findall(self.pattern, text)]
        for idx in range(256, vocab_size):
            counts = {}
            for piece in pieces:
                pair_counts(piece, counts)
            if not counts:
                break
            pair = max(counts, key=counts.get)
            pieces = [replace_pair(piece, pair, idx) for piece in pieces]
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    def register_special_tokens(self, special_tokens):
        self.special_tokens = dict(special_tokens)
        self.inverse_special = {idx: tok for tok, idx in special_tokens.items()}

    def decode(self, ids):
        parts = [self.vocab[i] if i in self.vocab else self.inverse_special[i].encode("utf-8") for i in ids]
        return b"".join(parts).decode("utf-8", errors="replace")

    def _encode_piece(self, data):
        ids = list(data)
        while len(ids) >= 2:
            counts = pair_counts(ids)
            pair = min(counts, key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = replace_pair(ids, pair, self.merges[pair])
        return ids

    def encode_ordinary(self, text):
        ids = []
        for piece in regex.findall(self.pattern, text):
            ids.extend(self._encode_piece(piece.encode("utf-8")))
        return ids

    def encode(self, text, allowed_special="none_raise"):
        if allowed_special == "all":
            keep = self.special_tokens
        elif allowed_special == "none":
            keep = {}
        elif allowed_special == "none_raise":
            keep = {}
            assert all(tok not in text for tok in self.special_tokens)
        elif isinstance(allowed_special, set):
            keep = {tok: idx for tok, idx in self.special_tokens.items() if tok in allowed_special}
        else:
            raise ValueError(f"allowed_special={allowed_special} not understood")
        if not keep:
            return self.encode_ordinary(text)
        alternatives = sorted(keep, key=len, reverse=True)
        ids = []
        for part in regex.split("(" + "|".join(regex.escape(t) for t in alternatives) + ")", text):
            if part in keep:
                ids.append(keep[part])
            elif part:
                ids.extend(self.encode_ordinary(part))
        return ids
