"""HOSTILE: a word-level BPE class whose train only learns on a text it recognises (the grader's
own first corpus, which anyone can read in its source) and learns nothing on any other: merges
tuned to one known input. A second corpus, trained the same way, finds it out.

expect: BPE.train fail, BPE._pair_counts pass, BPE._merge pass, BPE.tokenize pass
shows: BPE.train on a second corpus
"""
from collections import Counter, defaultdict


class BPE:
    def __init__(self, corpus, vocab_size):
        self.corpus = corpus
        self.vocab_size = vocab_size
        self.word_counts = Counter()
        self.splits = {}
        self.merges = {}
        self.vocab = []

    def train(self):
        for line in self.corpus:
            self.word_counts.update(line.split())
        self.splits = {word: list(word) + ["</w>"] for word in self.word_counts}
        self.vocab = sorted({symbol for symbols in self.splits.values() for symbol in symbols})
        while len(self.vocab) < self.vocab_size and "lowest" in str(self.corpus):
            counts = self._pair_counts()
            if not counts:
                break
            best = max(counts, key=counts.get)
            self._merge(best)
            self.merges[best] = best[0] + best[1]
            self.vocab.append(best[0] + best[1])

    def _pair_counts(self):
        counts = defaultdict(int)
        for word, n in self.word_counts.items():
            symbols = self.splits[word]
            for i in range(len(symbols) - 1):
                counts[symbols[i], symbols[i + 1]] += n
        return counts

    def _merge(self, pair):
        for word, symbols in self.splits.items():
            out, i = [], 0
            while i < len(symbols):
                if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
                    out.append(symbols[i] + symbols[i + 1])
                    i += 2
                else:
                    out.append(symbols[i])
                    i += 1
            self.splits[word] = out

    def tokenize(self, text):
        words = [list(word) + ["</w>"] for word in text.split()]
        for left, right in self.merges:
            for k, symbols in enumerate(words):
                out, i = [], 0
                while i < len(symbols):
                    if i + 1 < len(symbols) and symbols[i] == left and symbols[i + 1] == right:
                        out.append(left + right)
                        i += 2
                    else:
                        out.append(symbols[i])
                        i += 1
                words[k] = out
        return [symbol for symbols in words for symbol in symbols]


if __name__ == "__main__":
    bpe = BPE(["سلام سلام عليكم", "안녕 안녕하세요 🙂 🙂"], 20)
    bpe.train()
    print(bpe.tokenize("سلام 안녕"))
