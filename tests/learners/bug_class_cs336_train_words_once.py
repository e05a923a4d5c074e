"""BUG in train_bpe, CS336 style: the pre-tokenized words are kept in a set, so a word that occurs
five times counts its pairs once. It reads its file, splits with GPT-2's pattern, puts the special
token in the vocab and returns (vocab, merges) as bytes, as CS336 asks; only the counts are wrong.

expect: train_bpe fail
cause: train_bpe chunks_counted_once
"""

import regex

GPT2 = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def train_bpe(input_path, vocab_size, special_tokens):
    with open(input_path, encoding="utf-8", newline="") as f:
        text = f.read()
    words = set()
    for m in regex.finditer(GPT2, text):
        words.add(tuple(bytes([b]) for b in m.group().encode("utf-8")))
    vocab = {i: token.encode("utf-8") for i, token in enumerate(special_tokens)}
    for b in range(256):
        vocab[len(vocab)] = bytes([b])
    merges = []
    while len(vocab) < vocab_size:
        counts = {}
        for word in words:
            for pair in zip(word, word[1:]):
                counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        best = max(counts, key=lambda pair: (counts[pair], pair))
        merges.append(best)
        vocab[len(vocab)] = best[0] + best[1]
        merged = set()
        for word in words:
            out, i = [], 0
            while i < len(word):
                if i + 1 < len(word) and (word[i], word[i + 1]) == best:
                    out.append(best[0] + best[1])
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            merged.add(tuple(out))
        words = merged
    return vocab, merges
