"""RIGHT, minbpe class style with the split fixed inside the class: WordPieces takes no pattern
in its constructor (it compiles GPT-2's pattern itself), yet trains and encodes chunk by chunk.
The grader must tell by what it does that it is the regex exercise, and judge it against the
pattern it has, not as the plain one. Plain beside it never splits and is the plain exercise.

expect: Plain.train pass, Plain.encode pass, Plain.decode pass, WordPieces.train pass, WordPieces.encode pass, WordPieces.decode pass, join_pair pass, Plain.encode_piece pass, WordPieces.encode_piece pass, count_pairs pass
shows: WordPieces.train GPT-2's pattern
"""

import regex

GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def count_pairs(pieces):
    counts = {}
    for ids in pieces:
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
    return counts


def join_pair(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if tuple(ids[i:i + 2]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class Plain:
    def __init__(self):
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}

    def pieces(self, text):
        return [text]

    def train(self, text, vocab_size):
        pieces = [list(p.encode("utf-8")) for p in self.pieces(text)]
        for new_id in range(256, vocab_size):
            counts = count_pairs(pieces)
            if not counts:
                break
            best = max(counts, key=counts.get)
            pieces = [join_pair(ids, best, new_id) for ids in pieces]
            self.merges[best] = new_id
            self.vocab[new_id] = self.vocab[best[0]] + self.vocab[best[1]]

    def encode_piece(self, ids):
        while len(ids) > 1:
            known = [p for p in zip(ids, ids[1:]) if p in self.merges]
            if not known:
                break
            best = min(known, key=self.merges.get)
            ids = join_pair(ids, best, self.merges[best])
        return ids

    def encode(self, text):
        return [i for p in self.pieces(text) for i in self.encode_piece(list(p.encode("utf-8")))]

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")


class WordPieces(Plain):
    def __init__(self):
        super().__init__()
        self.splitter = regex.compile(GPT2_PATTERN)

    def pieces(self, text):
        return self.splitter.findall(text)
