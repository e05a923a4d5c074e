"""HOSTILE: answers that claim to equal anything (a lying __eq__), as an object and as a list
subclass. They must not pass; decode is right.

expect: decode pass, get_stats fail, merge fail
"""


class Anything:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


class EqualList(list):
    def __eq__(self, other):
        return True

    __hash__ = None


def get_stats(ids):
    return Anything()


def merge(ids, pair, idx):
    return EqualList([0])


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
