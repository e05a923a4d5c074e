"""RIGHT in its own terms: a tokenizer with its own split built in, GPT-2's pattern without the
contractions ('s 't 're ...), as tokenizers for Hindi or Bengali often write theirs. The grader can
only tell the split from its answers, and they agree with GPT-2's, the nearest candidate; where the
two differ (an apostrophe before letters) it cannot know which the learner meant, so it does not
judge there. CS336's pattern, which the handout gives, is judged there (bug_class_cs336_no_contractions).

expect: Tokenizer.train pass, Tokenizer.encode pass, Tokenizer.decode pass, pairs_of pass, merged pass
"""
import regex

SPLIT = regex.compile(r""" ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")  # its own: no contractions


def pairs_of(ids, counts):
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merged(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class Tokenizer:
    def __init__(self):
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size):
        chunks = [list(c.encode("utf-8")) for c in SPLIT.findall(text)]
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}
        for idx in range(256, vocab_size):
            counts = {}
            for chunk in chunks:
                pairs_of(chunk, counts)
            if not counts:
                break
            pair = max(counts, key=counts.get)
            chunks = [merged(c, pair, idx) for c in chunks]
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    def encode(self, text):
        ids = []
        for chunk in SPLIT.findall(text):
            part = list(chunk.encode("utf-8"))
            while len(part) >= 2:
                pair = min(pairs_of(part, {}), key=lambda p: self.merges.get(p, float("inf")))
                if pair not in self.merges:
                    break
                part = merged(part, pair, self.merges[pair])
            ids += part
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
