"""BUG in encode of a class that takes minbpe's tables back, merges first: Tokenizer(merges, vocab),
as a trainer elsewhere hands them over. It is not CS336's Tokenizer(vocab, merges): the merges are
the dict {(id, id): id}. encode loops while more than two ids are left, so the last pair never
merges; decode is right.

expect: Tokenizer.decode pass, Tokenizer.encode fail
cause: Tokenizer.encode stops_at_two
"""


class Tokenizer:
    def __init__(self, merges, vocab):
        self.merges = merges
        self.vocab = vocab

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) > 2:  # the bug: two ids may still be one token
            pairs = set(zip(ids, ids[1:]))
            pair = min(pairs, key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            out, i = [], 0
            while i < len(ids):
                if tuple(ids[i:i + 2]) == pair:
                    out.append(self.merges[pair])
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            ids = out
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
