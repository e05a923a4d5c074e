"""BUG: an unfinished RegexTokenizer that takes a pattern and never uses it: neither train nor
encode splits the text, so merges cross the chunks the pattern makes. Named for regex, it is graded
against the pattern it is given, and both fail (a class of another name that ignores its pattern is
the basic tokenizer).

expect: RegexTokenizer.train fail, RegexTokenizer.encode fail, RegexTokenizer.decode pass, RegexTokenizer.join pass
cause: RegexTokenizer.train across_chunks
cause: RegexTokenizer.encode across_chunks
shows: RegexTokenizer.encode a merge never crosses a chunk
"""


class RegexTokenizer:
    def __init__(self, pattern=None):
        self.pattern = pattern
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))  # TODO: split with the GPT-4 pattern first
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}
        for idx in range(256, vocab_size):
            counts = {}
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            ids = self.join(ids, pair, idx)
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    @staticmethod
    def join(ids, pair, idx):
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
        ids = list(text.encode("utf-8"))
        while len(ids) >= 2:
            pairs = set(zip(ids, ids[1:]))
            pair = min(pairs, key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = self.join(ids, pair, self.merges[pair])
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
