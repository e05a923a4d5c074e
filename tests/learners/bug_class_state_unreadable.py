"""Two minbpe-style classes whose trainers keep the merges in a shape the grader cannot read: text
keys ("97 98" -> 256). Their code is right, but what reads those keys cannot be graded, and the
grader must say so (what it looked for, what it found), name no cause, and never pass it.
- BasicTokenizer also keeps a vocab {id: bytes}: train is judged on the merges that build it, and
  decode, which reads it, is graded; encode reads the text keys and cannot be.
- WordTokenizer keeps nothing else: train, encode and decode cannot be graded.

expect: BasicTokenizer.train pass, BasicTokenizer.encode error, BasicTokenizer.decode pass, WordTokenizer.train error, WordTokenizer.encode error, WordTokenizer.decode error
cause: BasicTokenizer.encode none
cause: WordTokenizer.train none
shows: BasicTokenizer.encode could not be graded: it may read _rules
shows: WordTokenizer.train found _rules (dict of 3: str -> int)
"""


class BasicTokenizer:
    def __init__(self):
        self._rules = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        for idx in range(256, vocab_size):
            seen = {}
            for a, b in zip(ids, ids[1:]):
                seen[f"{a} {b}"] = seen.get(f"{a} {b}", 0) + 1
            if not seen:
                break
            key = max(seen, key=seen.get)
            a, b = (int(x) for x in key.split())
            self._rules[key] = idx
            self.vocab[idx] = self.vocab[a] + self.vocab[b]
            ids = self._replace(ids, a, b, idx)

    @staticmethod
    def _replace(ids, a, b, idx):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == a and ids[i + 1] == b:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        for key, idx in sorted(self._rules.items(), key=lambda item: item[1]):
            a, b = (int(x) for x in key.split())
            ids = self._replace(ids, a, b, idx)
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")


class WordTokenizer(BasicTokenizer):
    """The same rules, and a decode that spells each id from them: no vocab is kept."""

    def __init__(self):
        self._rules = {}

    def train(self, text, vocab_size):
        self.vocab = {i: bytes([i]) for i in range(256)}
        super().train(text, vocab_size)
        del self.vocab

    def decode(self, ids):
        spelled = {idx: key for key, idx in self._rules.items()}

        def spell(i):
            if i < 256:
                return bytes([i])
            a, b = (int(x) for x in spelled[i].split())
            return spell(a) + spell(b)
        return b"".join(spell(i) for i in ids).decode("utf-8", errors="replace")
