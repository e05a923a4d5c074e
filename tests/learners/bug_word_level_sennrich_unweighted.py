"""BUG in get_stats: word-level BPE in Sennrich's form ({'l o w </w>': 5}) whose pair counter adds 1
for each pair it meets, not the word's count, so a frequent word weighs no more than a rare one.
merge_vocab is right.

expect: get_stats fail, merge_vocab pass
shows: get_stats not multiples of the word's count
"""
import re
from collections import Counter


def get_stats(vocab):
    pairs = Counter()
    for word in vocab:
        symbols = word.split()
        pairs.update(zip(symbols, symbols[1:]))
    return dict(pairs)


def merge_vocab(pair, vocab):
    pattern = re.compile(r"(?<!\S)" + re.escape(pair[0]) + " " + re.escape(pair[1]) + r"(?!\S)")
    return {pattern.sub(pair[0] + pair[1], word): count for word, count in vocab.items()}
