"""A CS336 tokenizer whose from_files reads a format of its own, which the grader does not write:
JSON objects that wrap the tables ({"vocab": {id: hex}}, {"merges": [[hex, hex], ...]}).
from_files may well be right, but nothing shows it: it cannot be graded, an error, never a pass.

expect: Tokenizer.encode pass, Tokenizer.decode pass, Tokenizer.from_files error
shows: Tokenizer.from_files read none of the file formats tried
"""
import json

import regex

SPLIT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def save(vocab, merges, vocab_path, merges_path):
    with open(vocab_path, "w", encoding="utf-8") as f:
        json.dump({"vocab": {str(i): token.hex() for i, token in vocab.items()}}, f)
    with open(merges_path, "w", encoding="utf-8") as f:
        json.dump({"merges": [[left.hex(), right.hex()] for left, right in merges]}, f)


class Tokenizer:
    def __init__(self, vocab, merges):
        self.vocab = dict(vocab)
        self.id_of = {token: i for i, token in self.vocab.items()}
        self.rank = {pair: r for r, pair in enumerate(merges)}

    @classmethod
    def from_files(cls, vocab_filepath, merges_filepath, special_tokens=None):
        with open(vocab_filepath, encoding="utf-8") as f:
            vocab = {int(i): bytes.fromhex(h) for i, h in json.load(f)["vocab"].items()}
        with open(merges_filepath, encoding="utf-8") as f:
            merges = [(bytes.fromhex(a), bytes.fromhex(b)) for a, b in json.load(f)["merges"]]
        return cls(vocab, merges)

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
