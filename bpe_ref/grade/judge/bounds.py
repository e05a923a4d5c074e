"""How much work the grader does on one submission's data, in its own process, before refusing.

A learner's merges are rebuilt into tokens here (the vocab, encode's observations, the
drill's checks). Forty well-formed merges where each token joins the last one to itself make
a 2**40-byte token, so the sizes are added up as numbers first, and the vocab is only built
when it is small enough. Refusing is that exercise's `error`, never the class run's end.
"""

from ._private import naive

MAX_TOKEN_BYTES = 1 << 20  # one token: a megabyte is far beyond any text the course trains on
MAX_VOCAB_BYTES = 64 << 20  # all tokens together
MAX_REPLAY_WORK = 20_000_000  # pairs looked at when replaying a learner's training on its own text


class TooLarge(ValueError):
    """A submission's data the grader will not rebuild: the message says what and how big."""


def token_lengths(merges):
    """{id: length in bytes} of every token the merges make (in the order given), computed as
    numbers; TooLarge when a token or the whole vocab would pass the limits. Pairs that name an id
    not made yet are skipped here (building the vocab raises for them, as it always did).

    >>> token_lengths({(97, 97): 256, (256, 256): 257})
    {256: 2, 257: 4}
    """
    lengths, total = {}, 256
    for pair, idx in merges.items():
        parts = [_length(lengths, p) for p in pair] if isinstance(pair, tuple) and len(pair) == 2 else [None]
        if None in parts or not _hashable(idx):
            continue
        lengths[idx] = parts[0] + parts[1]  # an id below 256 may be made again, and grow, too
        total += lengths[idx]
        if lengths[idx] > MAX_TOKEN_BYTES:
            raise TooLarge(f"merge {pair!r} -> {idx!r} makes a token of {lengths[idx]:,} bytes; the grader "
                           f"rebuilds tokens of at most {MAX_TOKEN_BYTES:,} bytes (does each merge join "
                           "the last token to itself?)")
        if total > MAX_VOCAB_BYTES:
            raise TooLarge(f"the merges make tokens of more than {MAX_VOCAB_BYTES:,} bytes in all; "
                           "the grader rebuilds no vocab that large")
    return lengths


def _length(lengths, part):
    """A part's length in bytes: made by an earlier merge, else a single byte, else None."""
    if _hashable(part) and part in lengths:
        return lengths[part]
    return 1 if _is_byte(part) else None


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _is_byte(value):
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 256


def vocab_of(merges):
    """naive.build_vocab(merges), once token_lengths has found it small enough."""
    token_lengths(merges)
    return naive.build_vocab(merges)


def replay_problem(text_bytes, merges):
    """Why replaying `merges` on a text of `text_bytes` bytes is too much work, or None."""
    work = text_bytes * max(1, len(merges))
    if work > MAX_REPLAY_WORK:
        return (f"{len(merges):,} merges over a {text_bytes:,}-byte text is too much to check here (the "
                f"grader replays at most {MAX_REPLAY_WORK:,} pair lookups): train on a shorter `text`")
    return None
