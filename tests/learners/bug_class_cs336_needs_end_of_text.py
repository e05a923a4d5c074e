"""BUG: a CS336 Tokenizer whose constructor looks up the id of <|endoftext|> in the vocab it is
given, always: a vocab without it (one for other special tokens, or none) cannot be used at all.
Ordinary encoding and decoding are right when the vocab holds it, as GPT-2's does, and are graded
so; its special-token handling fails on a vocab without it.

expect: Tokenizer.encode pass, Tokenizer.encode:special_tokens error, Tokenizer.encode_iterable pass, Tokenizer.decode pass
shows: Tokenizer.encode:special_tokens KeyError
"""
import regex

PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


class Tokenizer:
    def __init__(self, vocab, merges, special_tokens=None):
        self.vocab = vocab
        self.ids = {b: i for i, b in vocab.items()}
        self.eos_id = self.ids[b"<|endoftext|>"]
        self.ranks = {pair: r for r, pair in enumerate(merges)}
        self.special_tokens = sorted(special_tokens or [], key=len, reverse=True)

    def _encode_word(self, word):
        parts = [bytes([b]) for b in word]
        while len(parts) > 1:
            pairs = [(self.ranks.get(p, float("inf")), i) for i, p in enumerate(zip(parts, parts[1:]))]
            rank, i = min(pairs)
            if rank == float("inf"):
                break
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        return [self.ids[p] for p in parts]

    def _encode_plain(self, text):
        out = []
        for m in regex.finditer(PAT, text):
            out += self._encode_word(m.group().encode("utf-8"))
        return out

    def encode(self, text):
        if not self.special_tokens:
            return self._encode_plain(text)
        out = []
        for part in regex.split("(" + "|".join(regex.escape(t) for t in self.special_tokens) + ")", text):
            if part in self.special_tokens:
                out.append(self.ids[part.encode("utf-8")])
            elif part:
                out += self._encode_plain(part)
        return out

    def encode_iterable(self, iterable):
        if self.special_tokens:  # a special token may span two lines: read it all
            yield from self.encode("".join(iterable))
            return
        # the last chunk read so far may still grow ('\s+(?!\S)' looks at the next character,
        # so a line's ' \n' is two chunks once the next line starts): it waits for more text
        pending = ""
        for line in iterable:
            chunks = regex.findall(PAT, pending + line)
            for chunk in chunks[:-1]:
                yield from self._encode_word(chunk.encode("utf-8"))
            pending = chunks[-1] if chunks else ""
        yield from self._encode_plain(pending)

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
