"""A CS336 tokenizer whose encode is not done (it raises on any text), and whose from_files reads
nothing. Both tokenizers, loaded and made, raise ValueError on the probe text, so agreeing there
tells nothing: from_files cannot be graded (an error, never a pass).

expect: Tokenizer.encode error, Tokenizer.decode pass, Tokenizer.from_files error
shows: Tokenizer.from_files could not be graded: Tokenizer(vocab, merges).encode raised ValueError on the probe text
"""
import json

import regex

SPLIT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def save(vocab, merges, vocab_path, merges_path):
    with open(vocab_path, "w", encoding="utf-8") as f:
        json.dump({str(i): list(token) for i, token in vocab.items()}, f)
    with open(merges_path, "w", encoding="utf-8") as f:
        f.writelines(f"{left.hex()} {right.hex()}\n" for left, right in merges)


class Tokenizer:
    def __init__(self, vocab, merges):
        self.vocab = dict(vocab)
        self.id_of = {token: i for i, token in self.vocab.items()}
        self.rank = {pair: r for r, pair in enumerate(merges)}

    @classmethod
    def from_files(cls, vocab_filepath, merges_filepath, special_tokens=None):
        return cls({}, [])  # the files are never read: with encode unwritten, nothing tells

    def encode_word(self, word):
        parts = [bytes([b]) for b in word.encode("utf-8")]
        while len(parts) > 1:
            rank, i = min((self.rank.get(pair, len(self.rank)), i) for i, pair in enumerate(zip(parts, parts[1:])))
            if rank == len(self.rank):
                break
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        return [self.id_of[part] for part in parts]

    def encode(self, text):
        if not text:
            return []
        raise ValueError("encode is not done yet")

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
