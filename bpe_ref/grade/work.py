"""Measuring the work a trainer does: how many times it looks up a pair of ids.

A recount after every merge looks up every pair of the text once per merge; the incremental
update looks up only the pairs around each occurrence of the merged pair. The two give the same
merges, so only the work tells them apart, and time cannot: the course's incremental loop still
walks the whole list once per merge, only with fewer dictionary updates.

So the trainer gets a text whose `encode()` yields byte ids that count their own hashing: every
dict or set operation on a pair holding such an id counts. The naive loop's count on the same
text is the yardstick. Standard library only: the sandbox worker loads this file by its path.
"""

import random
import string


class CountedId(int):
    """A byte id that counts how often it is hashed (a pair is hashed when it is looked up)."""

    hashes = 0

    def __hash__(self):
        CountedId.hashes += 1
        return int.__hash__(self)


COUNTED = [CountedId(b) for b in range(256)]


class CountedBytes(bytes):
    """UTF-8 bytes whose iteration yields CountedId: list(text.encode("utf-8")) counts."""

    def __iter__(self):
        return (COUNTED[b] for b in bytes.__iter__(self))


class CountedText(str):
    """A str whose encode() returns CountedBytes."""

    def encode(self, encoding="utf-8", errors="strict"):
        return CountedBytes(str(self).encode(encoding, errors))


def sample_text(size=4000, letters=12, seed=11):
    """Random words over a small alphabet: many pair occurrences, few distinct pairs, no ties to speak of."""
    chooser = random.Random(seed)
    alphabet = string.ascii_lowercase[:letters]
    words = []
    while sum(len(w) + 1 for w in words) < size:
        words.append("".join(chooser.choice(alphabet) for _ in range(chooser.randint(2, 7))))
    return " ".join(words)[:size]


def count_lookups(trainer, text, vocab_size):
    """(what trainer(text, vocab_size) returned, how many times it looked up a pair of byte ids).

    `trainer` gets the text as CountedText. The count depends only on the code and the text, not
    on the machine or its load, so the learner's count and the naive loop's can be taken apart.
    """
    CountedId.hashes = 0
    result = trainer(CountedText(text), vocab_size)
    return result, CountedId.hashes
