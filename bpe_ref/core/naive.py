"""Naive byte-level BPE: the functions learners write, in their simplest correct form.

These are the references the grader compares against. They favour clarity over speed;
see bpe_ref.core.fast for the trainer and encoder a real corpus needs. The workbooks' given cells
are generated from this file (tools/make_notebooks.py), so each helper is written once.
"""

import regex


def get_stats(ids, counts=None):
    """Count consecutive pairs, in order of first occurrence.

    [1, 2, 3, 1, 2] -> {(1, 2): 2, (2, 3): 1, (3, 1): 1}
    Pass `counts` to add to an existing dict (used when counting chunk by chunk).
    """
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    """Replace every occurrence of `pair` with `idx`, left to right, without overlaps.

    merge([5, 5, 5], (5, 5), 256) -> [256, 5]; the input list is not changed.
    """
    newids = []
    i = 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids


def check_vocab_size(vocab_size):
    """Raise a clear error for a vocab_size that cannot hold the 256 byte tokens."""
    if not isinstance(vocab_size, int) or isinstance(vocab_size, bool):
        raise TypeError(f"vocab_size must be an int, got {type(vocab_size).__name__}")
    if vocab_size < 256:
        raise ValueError(
            f"vocab_size must be at least 256 (one token per byte value), got {vocab_size}; "
            "ask for 256 + the number of merges you want"
        )


TIE_BREAKS = ("first", "lexicographic")


def check_tie_break(tie_break):
    """Raise a clear error for a tie-break rule that is not one of TIE_BREAKS."""
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be 'first' or 'lexicographic', got {tie_break!r}")


def best_pair(stats, vocab, tie_break="first"):
    """The pair to merge next: the most frequent; on a tie the first one in `stats` ("first")
    or the one whose (bytes, bytes) is greatest, as in CS336 ("lexicographic")."""
    if tie_break == "first":
        return max(stats, key=stats.get)
    return max(stats, key=lambda pair: (stats[pair], vocab[pair[0]], vocab[pair[1]]))


def train(text, vocab_size, *, tie_break="first"):
    """Learn `vocab_size - 256` merges from the UTF-8 bytes of `text`; ids run 256, 257, ...

    Each step merges the most frequent pair. Ties go to the pair that occurs first in the
    current ids, which is what `max(stats, key=stats.get)` does on an insertion-ordered dict
    (tie_break="lexicographic": to the pair whose bytes are greatest; see best_pair).
    Training stops early only when no pair is left (fewer than two ids).
    """
    check_vocab_size(vocab_size)
    check_tie_break(tie_break)
    ids = list(text.encode("utf-8"))
    vocab = {idx: bytes([idx]) for idx in range(256)}
    merges = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        pair = best_pair(stats, vocab, tie_break)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
        vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
    return merges


def build_vocab(merges):
    """Map every id to its bytes: the 256 single bytes, then each merge in order."""
    vocab = {idx: bytes([idx]) for idx in range(256)}
    for (p0, p1), idx in merges.items():
        vocab[idx] = vocab[p0] + vocab[p1]
    return vocab


def decode(ids, vocab):
    """Turn ids back into text; bytes that are not valid UTF-8 become U+FFFD."""
    parts = []
    for idx in ids:
        if idx not in vocab:
            raise ValueError(f"unknown token id {idx}: the vocab has no entry for it")
        parts.append(vocab[idx])
    return b"".join(parts).decode("utf-8", errors="replace")


def encode(text, merges):
    """Encode text: its UTF-8 bytes, then the merges, lowest rank (earliest) first."""
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break  # no pair left that a merge knows
        ids = merge(ids, pair, merges[pair])
    return ids


def encode_ordinary(text, merges, pattern):
    """Encode text chunk by chunk: split it with the pattern, `encode` each chunk alone.

    Merges never cross a chunk boundary; special tokens get no special treatment.
    """
    ids = []
    for chunk in regex.findall(pattern, text):
        ids.extend(encode(chunk, merges))
    return ids
