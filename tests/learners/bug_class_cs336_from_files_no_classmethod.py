"""Wrong: a CS336 tokenizer whose from_files has no @classmethod. Its body reads the files right,
but CS336 calls it on the class, Tokenizer.from_files(vocab_filepath, merges_filepath), so the
vocab file's path goes in as self and the call raises TypeError before any file is read.

expect: Tokenizer.encode pass, Tokenizer.decode pass, Tokenizer.from_files error
cause: Tokenizer.from_files not_classmethod
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

    def from_files(self, vocab_filepath, merges_filepath, special_tokens=None):
        with open(vocab_filepath, encoding="utf-8") as f:
            vocab = {int(i): bytes(values) for i, values in json.load(f).items()}
        with open(merges_filepath, encoding="utf-8") as f:
            merges = [tuple(bytes.fromhex(h) for h in line.split()) for line in f if line.strip()]
        return Tokenizer(vocab, merges)

    def encode_word(self, word):
        parts = [bytes([b]) for b in word.encode("utf-8")]
        while len(parts) > 1:
            rank, i = min((self.rank.get(pair, len(self.rank)), i) for i, pair in enumerate(zip(parts, parts[1:])))
            if rank == len(self.rank):
                break
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        return [self.id_of[part] for part in parts]

    def encode(self, text):
        return [i for word in regex.findall(SPLIT, text) for i in self.encode_word(word)]

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
