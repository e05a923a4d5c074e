"""HOSTILE: re-exports the reference instead of writing the code: get_stats, merge and to_hex are
the course's own (status reference). decode is the learner's own and right.

expect: decode pass, get_stats reference, merge reference, to_hex reference
shows: merge bpe_ref.merge
"""

from bpe_ref import merge  # noqa: F401
from bpe_ref.naive import get_stats  # noqa: F401
import bpe_ref.hexadecimal

to_hex = bpe_ref.hexadecimal.to_hex


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
