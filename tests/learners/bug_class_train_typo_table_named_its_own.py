"""A class whose train never runs (a typo in an attribute name raises AttributeError on every
call), so the grader cannot see where it keeps its merges by training it. A fresh object shows
them: its one empty dict, self.pair_table. encode and decode read that table and are right; only
train is wrong.

expect: Table.train error, Table.decode pass, Table.encode pass, Table._join pass
shows: Table.train object has no attribute 'vocab_szie'
shows: Table.encode graded as the course's encode (workbook 06_encoding): .pair_table = merges, then .encode(text)
"""


class Table:
    def __init__(self, vocab_size=300):
        self.vocab_size = vocab_size
        self.pair_table = {}
        self.byte_vocab = {i: bytes([i]) for i in range(256)}

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

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        for idx in range(256, self.vocab_szie):
            counts = {}
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            ids = self._join(ids, pair, idx)
            self.pair_table[pair] = idx
            self.byte_vocab[idx] = self.byte_vocab[pair[0]] + self.byte_vocab[pair[1]]

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) > 1:
            pair = min(zip(ids, ids[1:]), key=lambda p: self.pair_table.get(p, float("inf")))
            if pair not in self.pair_table:
                break
            ids = self._join(ids, pair, self.pair_table[pair])
        return ids

    def decode(self, ids):
        return b"".join(self.byte_vocab[i] for i in ids).decode("utf-8", errors="replace")
