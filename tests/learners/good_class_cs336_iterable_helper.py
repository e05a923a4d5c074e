"""Right: a CS336 tokenizer whose encode_iterable leans on a private helper defined before it,
_encode_iter, which yields the text's chunks (strings) once they can no longer grow. The helper's
name holds "encode" and "iter" too, but the public encode_iterable is the method CS336 calls:
it is the one graded.

expect: Tokenizer.encode pass, Tokenizer.encode:special_tokens pass, Tokenizer.encode_iterable pass, Tokenizer.decode pass
"""
import regex

PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


class Tokenizer:
    def __init__(self, vocab, merges, special_tokens=None):
        self.vocab = vocab
        self.ids = {b: i for i, b in vocab.items()}
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

    def _encode_iter(self, iterable):
        # the pieces of the text, each once it can no longer grow: the last chunk read so far
        # waits for the next line ('\s+(?!\S)' looks at the next character)
        pending = ""
        for line in iterable:
            chunks = regex.findall(PAT, pending + line)
            yield from chunks[:-1]
            pending = chunks[-1] if chunks else ""
        if pending:
            yield pending

    def encode_iterable(self, iterable):
        if self.special_tokens:  # a special token may span two lines: read it all
            yield from self.encode("".join(iterable))
            return
        for chunk in self._encode_iter(iterable):
            yield from self._encode_word(chunk.encode("utf-8"))

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
