"""BUG in train, minbpe class style, as the lecture's code has it: the loop takes max() of the
pair counts without checking that any pair is left, so a text that runs out of pairs (empty, one
byte, or all merged) crashes. encode and decode are right, and so are its helpers pair_counts and
replace_pair, found by what they do (get_stats and merge under other names).

expect: BasicTokenizer.train error, BasicTokenizer.encode pass, BasicTokenizer.decode pass, pair_counts pass, replace_pair pass
cause: BasicTokenizer.train raises_when_no_pair
"""


def pair_counts(ids):
    counts = {}
    for a, b in zip(ids, ids[1:]):
        counts[(a, b)] = counts.get((a, b), 0) + 1
    return counts


def replace_pair(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class BasicTokenizer:
    def __init__(self):
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size, verbose=False):
        ids = list(text.encode("utf-8"))
        for k in range(vocab_size - 256):
            counts = pair_counts(ids)
            top = max(counts, key=counts.get)
            ids = replace_pair(ids, top, 256 + k)
            self.merges[top] = 256 + k
            self.vocab[256 + k] = self.vocab[top[0]] + self.vocab[top[1]]
            if verbose:
                print(f"merge {k + 1}: {top} -> {256 + k}")

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) > 1:
            counts = pair_counts(ids)
            best = min(counts, key=lambda p: self.merges.get(p, float("inf")))
            if best not in self.merges:
                break
            ids = replace_pair(ids, best, self.merges[best])
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
