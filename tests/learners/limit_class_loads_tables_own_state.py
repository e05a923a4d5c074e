"""A right tokenizer that loads its tables into state of its own making (a list of merges and a reverse
map built in the constructor), so an object made without its constructor has none of it: encode
and decode read self.pairs and self.parts, which the grader cannot know how to fill. That is the
grader's limit, said as such: could not be graded, never a pass and never the learner's error.

expect: Tokenizer.encode error, Tokenizer.decode error
shows: Tokenizer.encode could not be graded
"""
import json


class Tokenizer:
    def __init__(self, folder):
        with open(folder + "/merges.json", encoding="utf-8") as f:
            self.pairs = [tuple(p) for p in json.load(f)]
        self.parts = {256 + i: pair for i, pair in enumerate(self.pairs)}

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        for idx, pair in enumerate(self.pairs, start=256):
            out, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    out.append(idx)
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            ids = out
        return ids

    def spelled(self, idx):
        if idx < 256:
            return bytes([idx])
        a, b = self.parts[idx]
        return self.spelled(a) + self.spelled(b)

    def decode(self, ids):
        return b"".join(self.spelled(i) for i in ids).decode("utf-8", errors="replace")
