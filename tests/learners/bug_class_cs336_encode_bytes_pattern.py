"""BUG in encode, CS336 class style: to save decoding, it splits the UTF-8 bytes with GPT-2's
pattern compiled as bytes (rb"..."). There \\p{L} knows only ASCII letters, so the bytes of 'ñ'
or 'é' are a chunk of their own and no merge joins them to the letters around them. Right on
ASCII text, and on words with no ASCII letter in them.

expect: Tokenizer.encode fail, Tokenizer.decode pass
cause: Tokenizer.encode bytes_pattern
shows: Tokenizer.encode not its UTF-8 bytes
"""

import regex

GPT2 = rb"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


class Tokenizer:
    def __init__(self, vocab, merges):
        self.vocab = vocab
        self.ids = {token: i for i, token in vocab.items()}
        self.rank = {pair: r for r, pair in enumerate(merges)}

    def encode(self, text):
        ids = []
        for word in regex.findall(GPT2, text.encode("utf-8")):  # the bug: bytes, not the str
            parts = [bytes([b]) for b in word]
            while len(parts) > 1:
                r, i = min((self.rank.get(p, len(self.rank)), i) for i, p in enumerate(zip(parts, parts[1:])))
                if r == len(self.rank):
                    break
                parts[i:i + 2] = [parts[i] + parts[i + 1]]
            ids += [self.ids[part] for part in parts]
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
