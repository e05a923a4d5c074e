"""GOOD: a CS336 Tokenizer whose special_tokens default to ['<|endoftext|>'] (added to the vocab
when missing), and become none when the caller passes None, as CS336's tests do. Called so, with
no special tokens, '<|endoftext|>' in the text is ordinary text.

expect: Tokenizer.encode pass, Tokenizer.encode:special_tokens pass, Tokenizer.decode pass
"""
import regex

PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
DEFAULT_SPECIALS = ["<|endoftext|>"]


class Tokenizer:
    def __init__(self, vocab, merges, special_tokens=DEFAULT_SPECIALS):
        self.vocab = dict(vocab)
        self.specials = sorted(special_tokens or [], key=len, reverse=True)
        for token in self.specials:
            if token.encode("utf-8") not in self.vocab.values():
                self.vocab[len(self.vocab)] = token.encode("utf-8")
        self.ids = {b: i for i, b in self.vocab.items()}
        self.ranks = {pair: r for r, pair in enumerate(merges)}

    def _encode_word(self, word):
        parts = [bytes([b]) for b in word]
        while len(parts) > 1:
            rank, i = min((self.ranks.get(p, float("inf")), i) for i, p in enumerate(zip(parts, parts[1:])))
            if rank == float("inf"):
                break
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        return [self.ids[p] for p in parts]

    def encode(self, text):
        pieces = [text]
        if self.specials:
            pieces = regex.split("(" + "|".join(regex.escape(t) for t in self.specials) + ")", text)
        out = []
        for piece in pieces:
            if piece in self.specials:
                out.append(self.ids[piece.encode("utf-8")])
            else:
                for m in regex.finditer(PAT, piece):
                    out += self._encode_word(m.group().encode("utf-8"))
        return out

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
