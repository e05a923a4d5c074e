"""BUG in encode, minbpe class style: one pass from left to right, where every pair found in the
merges becomes its id on the spot, whatever its rank, and a new id is never joined again. Right
when no two merges compete and no merge builds on another. (train and decode are right.)

expect: Tokenizer.train pass, Tokenizer.decode pass, Tokenizer.encode fail, Tokenizer.replace pass
cause: Tokenizer.encode leftmost_known
shows: Tokenizer.encode lowest merge id
"""


class Tokenizer:
    def __init__(self):
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        for idx in range(256, vocab_size):
            counts = {}
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            ids = self.replace(ids, pair, idx)
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    @staticmethod
    def replace(ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def encode(self, text):
        tokens = list(text.encode("utf-8"))
        i = 0
        while i < len(tokens) - 1:  # the bug: one pass, by position
            if (tokens[i], tokens[i + 1]) in self.merges:
                tokens[i:i + 2] = [self.merges[tokens[i], tokens[i + 1]]]
            i += 1
        return tokens

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
