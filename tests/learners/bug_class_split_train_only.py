"""BUG in encode, minbpe class style: Chunker fixes GPT-4's pattern in its constructor (it takes
no pattern) and trains chunk by chunk, but its encode forgot to split and merges across chunks.
By what its train does it is the regex exercise; its encode must be failed for not splitting,
not graded as the plain encode (which it would pass).

expect: Chunker.train pass, Chunker.encode fail, Chunker.decode pass, Chunker._replace pass
cause: Chunker.encode across_chunks
"""

import regex

SPLIT = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"""


class Chunker:
    def __init__(self):
        self.pattern = regex.compile(SPLIT)
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size):
        chunks = [list(c.encode("utf-8")) for c in self.pattern.findall(text)]
        for new_id in range(256, vocab_size):
            counts = {}
            for ids in chunks:
                for pair in zip(ids, ids[1:]):
                    counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            chunks = [self._replace(ids, pair, new_id) for ids in chunks]
            self.merges[pair] = new_id
            self.vocab[new_id] = self.vocab[pair[0]] + self.vocab[pair[1]]

    @staticmethod
    def _replace(ids, pair, new_id):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(new_id)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) >= 2:
            pairs = set(zip(ids, ids[1:])) & set(self.merges)
            if not pairs:
                break
            pair = min(pairs, key=self.merges.get)
            ids = self._replace(ids, pair, self.merges[pair])
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
