"""NOT byte-level BPE: Sennrich's original design, characters of each word with an end-of-word
marker, merges as pairs of strings. It is no course exercise: the grader must say once, in a
note, what the course grades, give it no verdict (neither a fail nor a cascade of messages about
ids this design never makes), and not pass the file.

expect: nothing
shows: notes WordBPE.train: not graded, this is not byte-level BPE
"""

from collections import Counter


class WordBPE:
    def __init__(self):
        self.merges = []

    def train(self, text, num_merges):
        words = Counter(tuple(word) + ("</w>",) for word in text.split())
        for _ in range(num_merges):
            pairs = Counter()
            for word, n in words.items():
                for pair in zip(word, word[1:]):
                    pairs[pair] += n
            if not pairs:
                break
            best = max(pairs, key=pairs.get)
            self.merges.append(best)
            joined = Counter()
            for word, n in words.items():
                out, i = [], 0
                while i < len(word):
                    if word[i:i + 2] == best:
                        out.append(word[i] + word[i + 1])
                        i += 2
                    else:
                        out.append(word[i])
                        i += 1
                joined[tuple(out)] += n
            words = joined

    def encode(self, text):
        symbols = []
        for word in text.split():
            parts = list(word) + ["</w>"]
            for a, b in self.merges:
                i = 0
                while i < len(parts) - 1:
                    if parts[i] == a and parts[i + 1] == b:
                        parts[i:i + 2] = [a + b]
                    i += 1
            symbols += parts
        return symbols

    def decode(self, symbols):
        return "".join(symbols).replace("</w>", " ").strip()
