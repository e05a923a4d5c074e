"""BUG in train_regex: the learner's trainer reads its corpus from a file, and the adapter writes the
text to a file and reads it back in text mode, which turns '\r\n' into '\n'. Pairs are counted
inside chunks: "never count across two chunks" would be the wrong hint. (split_text is right.)

The file-reading trainer itself is graded too (it takes a path, a vocab size and a pattern).

expect: split_text pass, merge pass, train_regex fail, train_from_file fail
cause: train_regex newlines_changed
cause: train_from_file newlines_changed
"""

import os
import tempfile

import regex


def split_text(text, pattern):
    return regex.findall(pattern, text)


def train_from_file(path, vocab_size, pattern):
    with open(path, encoding="utf-8") as f:  # the bug: newline="" keeps '\r\n'
        text = f.read()
    chunks = [list(chunk.encode("utf-8")) for chunk in split_text(text, pattern)]
    merges = {}
    for idx in range(256, vocab_size):
        stats = {}
        for ids in chunks:
            for pair in zip(ids, ids[1:]):
                stats[pair] = stats.get(pair, 0) + 1
        if not stats:
            break
        pair = max(stats, key=stats.get)
        merges[pair] = idx
        chunks = [merge(ids, pair, idx) for ids in chunks]
    return merges


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_regex(text, vocab_size, pattern):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "corpus.txt")
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return train_from_file(path, vocab_size, pattern)
