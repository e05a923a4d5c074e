"""Right: a tokenizer made with the text it learns from, Corpus(text, vocab_size), trained by a
call of its own that takes nothing (learn()). It is not CS336's Tokenizer(vocab, merges): the
grader makes it without its constructor and hands encode and decode the course's tables.

expect: Corpus.decode pass, Corpus.encode pass, Corpus._join pass
shows: Corpus.encode graded as the course's encode (workbook 06_encoding): Corpus made without its constructor, which wants the text to train on; .merges = merges, then .encode(text)
"""


class Corpus:
    def __init__(self, text, vocab_size):
        self.ids = list(text.encode("utf-8"))
        self.vocab_size = vocab_size
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}

    @staticmethod
    def _join(ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def learn(self):
        ids = self.ids
        for idx in range(256, self.vocab_size):
            counts = {}
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            ids = self._join(ids, pair, idx)
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]
        return self.merges

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) > 1:
            pair = min(zip(ids, ids[1:]), key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = self._join(ids, pair, self.merges[pair])
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
