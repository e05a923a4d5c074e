"""BUG in a CS336 trainer written as a method, BPE(special_tokens).train(input_path, vocab_size,
special_tokens): it splits on, and adds to the vocab, the special tokens the object was made with
and never the ones the call hands it. Made with none, it trains '<|endoftext|>' as ordinary text
and leaves it out of the vocab.

expect: BPE.train fail
shows: BPE.train <|endoftext|>
"""
from collections import Counter

import regex

SPLIT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


class BPE:
    def __init__(self, special_tokens):
        self.special_tokens = special_tokens or []

    def train(self, input_path, vocab_size, special_tokens=None):
        with open(input_path, "rb") as f:
            text = f.read().decode("utf-8")
        specials = self.special_tokens  # the bug: the argument is never read
        parts = regex.split("|".join(regex.escape(t) for t in specials), text) if specials else [text]
        counts = Counter(tuple(bytes([b]) for b in piece.encode("utf-8"))
                         for part in parts for piece in regex.findall(SPLIT, part))
        vocab = {i: bytes([i]) for i in range(256)}
        for token in specials:
            vocab[len(vocab)] = token.encode("utf-8")
        merges = []
        while len(vocab) < vocab_size:
            pairs = Counter()
            for word, n in counts.items():
                for pair in zip(word, word[1:]):
                    pairs[pair] += n
            if not pairs:
                break
            best = max(pairs, key=lambda p: (pairs[p], p))
            merges.append(best)
            vocab[len(vocab)] = best[0] + best[1]
            merged = Counter()
            for word, n in counts.items():
                out, i = [], 0
                while i < len(word):
                    if i + 1 < len(word) and (word[i], word[i + 1]) == best:
                        out.append(best[0] + best[1])
                        i += 2
                    else:
                        out.append(word[i])
                        i += 1
                merged[tuple(out)] += n
            counts = merged
        return vocab, merges
