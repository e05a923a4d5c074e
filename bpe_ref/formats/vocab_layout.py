"""Read a vocabulary laid out by someone else: ids in any order, merges given as bytes.

GPT-2's encoder.json, a Hugging Face vocab or CS336's (vocab, merges) pair give each token an
id of their own choosing and list the merges, best first, as pairs of byte strings. BPE only
needs to know, for a pair of ids, its rank and the id it makes; `layout_from_vocab` finds
those, and checks that the vocab and the merges fit together.
"""

from typing import NamedTuple


class Layout(NamedTuple):
    """A tokenizer's ids in the form bpe_ref keeps them."""

    merges: dict  # (id, id) -> id, best first
    byte_shuffle: list  # byte value -> id of its one-byte token
    special_tokens: dict  # str -> id
    extra_tokens: dict  # id -> bytes: in the vocab, but neither a byte, a merge nor special


def tokenizer_from_vocab(cls, vocab, merges, *, pattern, special_tokens=None):
    """A `cls` tokenizer (RegexTokenizer or a subclass) with this vocab and these merges:
    RegexTokenizer.from_vocab's work (see layout_from_vocab)."""
    layout = layout_from_vocab(vocab, merges, special_tokens)
    tok = cls(pattern)
    tok.special_tokens = layout.special_tokens
    tok._set_merges(layout.merges, layout.byte_shuffle, layout.extra_tokens)
    return tok


def layout_from_vocab(vocab, merges, special_tokens=None):
    """Turn (id -> bytes, [(bytes, bytes), ...] best first, specials) into a Layout.

    `special_tokens` is a list of strings (each takes its id from the vocab, or the next free
    id if the vocab lacks it, as CS336 does) or a dict str -> id.
    {0: b'a', 1: b'b', 2: b'ab', ... the other 254 bytes}, [(b'a', b'b')] -> merges {(0, 1): 2}
    """
    ids = _ids_by_bytes(vocab)
    byte_shuffle = _byte_ids(ids)
    specials = _special_ids(special_tokens, ids, vocab)
    merged = {}
    made = set(byte_shuffle)
    for rank, pair in enumerate(merges):
        left, right = _merge_bytes(pair, rank)
        for part in (left, right):
            if ids.get(part) not in made:
                raise ValueError(
                    f"merge {rank} {pair!r} uses {part!r}, which is neither a byte nor made by an earlier "
                    "merge; list the merges in the order they were learned"
                )
        new = ids.get(left + right)
        if new is None:
            raise ValueError(f"merge {rank} {pair!r} makes {left + right!r}, which the vocab does not have")
        key = (ids[left], ids[right])
        if key in merged:
            raise ValueError(f"merge {rank} {pair!r} is listed twice; keep only its first place")
        merged[key] = new
        made.add(new)
    special_ids = set(specials.values())
    clash = made & special_ids
    if clash:
        raise ValueError(f"id {min(clash)} is both an ordinary token and a special token; give the special another id")
    extras = {idx: token for idx, token in vocab.items() if idx not in made and idx not in special_ids}
    return Layout(merged, byte_shuffle, specials, extras)


def _ids_by_bytes(vocab):
    """bytes -> id, refusing non-bytes and two ids for the same bytes."""
    if not isinstance(vocab, dict):
        raise TypeError(f"vocab must be a dict of id -> bytes, got {type(vocab).__name__}")
    ids = {}
    for idx, token in vocab.items():
        if not isinstance(idx, int) or isinstance(idx, bool) or idx < 0:
            raise TypeError(f"vocab ids must be non-negative ints, got {idx!r}")
        if not isinstance(token, bytes):
            raise TypeError(f"vocab[{idx}] must be bytes, got {token!r}; encode text with .encode('utf-8')")
        if token in ids:
            raise ValueError(f"ids {ids[token]} and {idx} both stand for {token!r}; a vocab needs one id per token")
        ids[token] = idx
    return ids


def _byte_ids(ids):
    """byte value -> id of its one-byte token; every byte must have one."""
    missing = [b for b in range(256) if bytes([b]) not in ids]
    if missing:
        raise ValueError(
            f"the vocab has no token for byte {missing[0]:#04x} ({len(missing)} bytes missing); "
            "a byte-level vocab needs all 256 single bytes"
        )
    return [ids[bytes([b])] for b in range(256)]


def _special_ids(special_tokens, ids, vocab):
    """str -> id for the special tokens, new ids after the vocab's largest for any it lacks."""
    if special_tokens is None:
        return {}
    if isinstance(special_tokens, dict):
        for token, idx in special_tokens.items():
            known = ids.get(token.encode("utf-8"))
            if known is not None and known != idx:
                raise ValueError(f"special token {token!r} has id {known} in the vocab, not {idx}")
        return dict(special_tokens)
    if isinstance(special_tokens, str):
        raise TypeError(f"special_tokens must be a list of strings, got the string {special_tokens!r}")
    specials = {}
    next_id = max(vocab, default=-1) + 1
    for token in special_tokens:
        if not isinstance(token, str) or not token:
            raise TypeError(f"a special token must be a non-empty str, got {token!r}")
        idx = ids.get(token.encode("utf-8"))
        if idx is None:
            idx, next_id = next_id, next_id + 1
        specials[token] = idx
    return specials


def _merge_bytes(pair, rank):
    if (not isinstance(pair, (tuple, list)) or len(pair) != 2
            or not all(isinstance(part, bytes) for part in pair)):
        raise TypeError(f"merge {rank} must be a pair of bytes such as (b'a', b'b'), got {pair!r}")
    return pair[0], pair[1]
