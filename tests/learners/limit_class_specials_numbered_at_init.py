"""A regex tokenizer handed its special tokens as a list when it is made, and numbering them then,
from 256 + len(self.merges): before any training, so the first special token gets the id that
the first merge gets later. The grader, which sets the merges by hand, cannot tell this from a
count of the learner's own that training moves: could not be graded, never a pass, and the
message names the shared id.

expect: Splitter.train pass, Splitter.decode pass, Splitter.encode pass, Splitter.encode:special_tokens error, Splitter._join pass
shows: Splitter.encode:special_tokens graded as the course's encode_special (workbook 08_special_tokens): made with special_tokens=list(special_tokens) (it numbers them itself: the ids expected are its own, read back from the object), then .encode(text)
shows: Splitter.encode:special_tokens the same id as merge
"""
import regex


class Splitter:
    def __init__(self, pattern, special_tokens=()):
        self.pattern = regex.compile(pattern)
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}
        self.special = {t: 256 + len(self.merges) + n for n, t in enumerate(special_tokens)}

    def train(self, text, vocab_size):
        chunks = [list(c.encode("utf-8")) for c in self.pattern.findall(text)]
        for idx in range(256, vocab_size):
            counts = {}
            for ids in chunks:
                for pair in zip(ids, ids[1:]):
                    counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            chunks = [self._join(ids, pair, idx) for ids in chunks]
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

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

    def _piece(self, piece):
        ids = list(piece.encode("utf-8"))
        while len(ids) > 1:
            pair = min(zip(ids, ids[1:]), key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = self._join(ids, pair, self.merges[pair])
        return ids

    def encode(self, text):
        if not self.special:
            return [i for c in self.pattern.findall(text) for i in self._piece(c)]
        splitter = "(" + "|".join(regex.escape(t) for t in sorted(self.special, key=len, reverse=True)) + ")"
        out = []
        for part in regex.split(splitter, text):
            if part in self.special:
                out.append(self.special[part])
            else:
                out += [i for c in self.pattern.findall(part) for i in self._piece(c)]
        return out

    def decode(self, ids):
        back = {i: t.encode("utf-8") for t, i in self.special.items()}
        return b"".join(self.vocab.get(i) or back[i] for i in ids).decode("utf-8", errors="replace")
