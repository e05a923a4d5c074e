"""Measuring the work a trainer does: how many times it looks up a pair of ids.

A recount after every merge looks up every pair of the text once per merge; the incremental
update looks up only the pairs around each occurrence of the merged pair. The two give the same
merges, so only the work tells them apart, and time cannot: the course's incremental loop still
walks the whole list once per merge, only with fewer dictionary updates.

So the trainer gets a text whose `encode()` yields byte ids that count their own hashing: every
dict or set operation on a pair holding such an id counts. The naive loop's count on the same
text is the yardstick. Standard library only: the sandbox worker loads this file by its path.

In a class, a count kept inside the learner's process proves nothing on its own: the learner's
code could reset it. So there the ids are made costly to hash ("heavy"), and the grader reads the
worker's CPU time from outside (CPU seconds / the cost of one heavy hash, measured here) and
believes the count only as far as that CPU time bears it out (walls/sandbox.py, measure).
"""

import random
import string
import time

HEAVY_ROUNDS = 250  # the extra work of one heavy hash: a few microseconds


class CountedId(int):
    """A byte id that counts how often it is hashed (a pair is hashed when it is looked up)."""

    hashes = 0

    def __hash__(self):
        CountedId.hashes += 1
        return int.__hash__(self)


class HeavyId(CountedId):
    """A counted id whose hash also burns a fixed amount of CPU, which the grader can see."""

    def __hash__(self):
        CountedId.hashes += 1
        burn = 0
        for step in range(HEAVY_ROUNDS):
            burn += step
        return int.__hash__(self)


COUNTED = [CountedId(b) for b in range(256)]
HEAVY = [HeavyId(b) for b in range(256)]


class CountedBytes(bytes):
    """UTF-8 bytes whose iteration yields CountedId: list(text.encode("utf-8")) counts."""

    ids = COUNTED

    def __iter__(self):
        return (self.ids[b] for b in bytes.__iter__(self))

    def __getitem__(self, index):
        item = bytes.__getitem__(self, index)
        return self.ids[item] if isinstance(index, int) else item


class HeavyBytes(CountedBytes):
    ids = HEAVY


class CountedText(str):
    """A str whose encode() returns CountedBytes."""

    bytes_type = CountedBytes

    def encode(self, encoding="utf-8", errors="strict"):
        return self.bytes_type(str(self).encode(encoding, errors))


class HeavyText(CountedText):
    bytes_type = HeavyBytes


def sample_text(size=4000, letters=12, seed=11):
    """Random words over a small alphabet: many pair occurrences, few distinct pairs, no ties to speak of."""
    chooser = random.Random(seed)
    alphabet = string.ascii_lowercase[:letters]
    words = []
    while sum(len(w) + 1 for w in words) < size:
        words.append("".join(chooser.choice(alphabet) for _ in range(chooser.randint(2, 7))))
    return " ".join(words)[:size]


class StandIn(type):
    """bytes or bytearray as the learner's code sees them while its work is measured: the same,
    except that bytes(text, "utf-8") of the measured text gives its counted bytes, as
    text.encode("utf-8") does. isinstance, issubclass and bytes.fromhex behave as the real ones."""

    def __call__(cls, *args, **kwargs):
        if args and isinstance(args[0], CountedText) and (len(args) > 1 or "encoding" in kwargs):
            return args[0].encode(*args[1:], **kwargs)
        return cls.real(*args, **kwargs)

    def __instancecheck__(cls, obj):
        return isinstance(obj, cls.real)

    def __subclasscheck__(cls, subclass):
        return issubclass(subclass, cls.real)

    def __getattr__(cls, name):
        return getattr(cls.real, name)


STAND_INS = {"bytes": StandIn("bytes", (), {"real": bytes}), "bytearray": StandIn("bytearray", (), {"real": bytearray})}


def count_lookups(trainer, text, vocab_size, heavy=False, namespace=None):
    """(what trainer(text, vocab_size) returned, how many times it looked up a pair of byte ids).

    `trainer` gets the text as CountedText (HeavyText when `heavy`). The count depends only on the
    code and the text, not on the machine or its load, so the learner's count and the naive
    loop's can be taken apart. `namespace`, the learner's globals, gets the stand-ins for bytes
    and bytearray during the call (where the learner did not define those names).
    """
    added = [name for name in STAND_INS if namespace is not None and name not in namespace]
    for name in added:
        namespace[name] = STAND_INS[name]
    CountedId.hashes = 0
    try:
        result = trainer((HeavyText if heavy else CountedText)(text), vocab_size)
    finally:
        for name in added:
            if namespace.get(name) is STAND_INS[name]:
                del namespace[name]
    return result, CountedId.hashes


def heavy_hash_seconds(samples=3, hashes=2_000):
    """CPU seconds of one heavy hash on this machine, now (the least of a few runs: noise only adds).
    It is taken afresh around each measurement: on a busy machine a CPU second does less work,
    for the learner's trainer and for this yardstick alike."""
    ids = HEAVY[:64]
    best = float("inf")
    for _ in range(samples):
        start = time.thread_time()
        for i in range(hashes):
            hash(ids[i & 63])
        best = min(best, time.thread_time() - start)
    return best / hashes


def lookups_from_cpu(seconds, hash_seconds):
    """How many heavy hashes `seconds` of the worker's CPU time stand for (an upper bound: the
    learner's other work counts too, but a heavy hash costs far more than a list step)."""
    return int(seconds / hash_seconds)
