"""BUG in from_files, CS336 class style: it sorts the merges it reads, so their ranks are lost
(the trainer wrote them in the order they were learned). Encode and decode are right. The
probe text encodes alike either way, so the format is found; merges that compete for a
letter ('abc' with (b, c) ranked before (a, b)) show the bug.

expect: Tokenizer.encode pass, Tokenizer.decode pass, Tokenizer.from_files fail
shows: Tokenizer.from_files read the same tables from files (vocab as JSON of id -> byte values, merges as 'hex hex' lines)
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
        with open(vocab_filepath, encoding="utf-8") as f:
            vocab = {int(i): bytes(values) for i, values in json.load(f).items()}
        with open(merges_filepath, encoding="utf-8") as f:
            merges = sorted(tuple(bytes.fromhex(h) for h in line.split()) for line in f if line.strip())
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
