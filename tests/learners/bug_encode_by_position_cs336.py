"""BUG in encode, CS336 style (vocab as id -> bytes, merges as a list of byte pairs, adapted by a
thin function): it sweeps the bytes left to right and merges every adjacent pair it knows, then
sweeps again, so a pair's position decides, not its rank. (build_vocab is right.)

expect: build_vocab pass, encode fail
cause: encode leftmost_known
"""


class BPETokenizer:
    def __init__(self, vocab, merges):
        self.vocab = vocab
        self.merges = merges
        self.rank = {pair: i for i, pair in enumerate(merges)}
        self.token_id = {token: idx for idx, token in vocab.items()}

    def encode_word(self, word: bytes) -> list[int]:
        parts = [bytes([b]) for b in word]
        changed = True
        while changed:
            changed = False
            out, i = [], 0
            while i < len(parts):
                if i + 1 < len(parts) and (parts[i], parts[i + 1]) in self.rank:
                    out.append(parts[i] + parts[i + 1])
                    i += 2
                    changed = True
                else:
                    out.append(parts[i])
                    i += 1
            parts = out
        return [self.token_id[p] for p in parts]


def build_vocab(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), idx in merges.items():
        vocab[idx] = vocab[a] + vocab[b]
    return vocab


def encode(text, merges):
    vocab = build_vocab(merges)
    byte_merges = [(vocab[a], vocab[b]) for a, b in merges]
    return BPETokenizer(vocab, byte_merges).encode_word(text.encode("utf-8"))
