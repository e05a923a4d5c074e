"""BUG in a CS336 trainer written as a class method, BPETrainer.train(input_path, vocab_size,
special_tokens): it opens the corpus in text mode, so '\r\n' arrives as '\n' and the pair
(b'\r', b'\n') is never counted. The class method is CS336's train_bpe under another name, and is
graded as that; everything else about it is right.

expect: BPETrainer.train fail
cause: BPETrainer.train newlines_changed
"""
from collections import Counter

import regex

SPLIT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


class BPETrainer:
    @classmethod
    def train(cls, input_path, vocab_size, special_tokens):
        with open(input_path, encoding="utf-8") as f:  # the bug: text mode turns '\r\n' into '\n'
            text = f.read()
        words = cls.pretokens(text, special_tokens)
        vocab = {i: bytes([i]) for i in range(256)}
        for token in special_tokens:
            vocab[len(vocab)] = token.encode("utf-8")
        merges = []
        while len(vocab) < vocab_size:
            pairs = Counter()
            for word, n in words.items():
                for pair in zip(word, word[1:]):
                    pairs[pair] += n
            if not pairs:
                break
            best = max(pairs, key=lambda p: (pairs[p], p))
            merges.append(best)
            vocab[len(vocab)] = best[0] + best[1]
            words = cls.joined(words, best)
        return vocab, merges

    @staticmethod
    def pretokens(text, special_tokens):
        cut = "|".join(regex.escape(t) for t in sorted(special_tokens, key=len, reverse=True))
        counts = Counter()
        for document in (regex.split(cut, text) if cut else [text]):
            for piece in regex.findall(SPLIT, document):
                counts[tuple(bytes([b]) for b in piece.encode("utf-8"))] += 1
        return counts

    @staticmethod
    def joined(words, pair):
        out = Counter()
        for word, n in words.items():
            new, i = [], 0
            while i < len(word):
                if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
                    new.append(pair[0] + pair[1])
                    i += 2
                else:
                    new.append(word[i])
                    i += 1
            out[tuple(new)] += n
        return out
