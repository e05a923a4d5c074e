"""BUG in encode, CS336 class style: encode returns the tokens themselves (a list of bytes)
instead of their ids from the vocab; decode is right.

expect: Tokenizer.encode fail, Tokenizer.encode_iterable fail, Tokenizer.decode pass
cause: Tokenizer.encode tokens_not_ids
cause: Tokenizer.encode_iterable tokens_not_ids
"""

import regex

GPT2 = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


class Tokenizer:
    def __init__(self, vocab, merges):
        self.vocab = vocab
        self.rank = {pair: r for r, pair in enumerate(merges)}

    def encode(self, text):
        tokens = []
        for word in regex.findall(GPT2, text):
            parts = [bytes([b]) for b in word.encode("utf-8")]
            while len(parts) > 1:
                r, i = min((self.rank.get(p, len(self.rank)), i) for i, p in enumerate(zip(parts, parts[1:])))
                if r == len(self.rank):
                    break
                parts[i:i + 2] = [parts[i] + parts[i + 1]]
            tokens += parts
        return tokens

    def encode_iterable(self, lines):
        tail = ""  # the last chunk may grow with the next line: it waits
        for line in lines:
            words = regex.findall(GPT2, tail + line)
            for word in words[:-1]:
                yield from self.encode(word)
            tail = words[-1] if words else ""
        yield from self.encode(tail)

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
