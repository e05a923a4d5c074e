"""What a minbpe-style trainer left on its instance, under any name and in any of six shapes.

After the learner's own train, each attribute is read by its shape: merges {(id, id): id}, their
inverse {id: (id, id)}, a list of (pair, id) [((id, id), id), ...], a list of pairs in merge order
[(id, id), ...], their ranks {(id, id): 0, 1, ...}, or a vocab {id: bytes}.
train is judged on the merges that state holds (or that build its vocab, when that is all), and encode/decode are handed the course's merges
and vocab in the same shapes, under the same names, so the learner's code reads what it wrote.
"""

from collections import Counter
from dataclasses import dataclass

from ._private import naive

from .diagnosis import is_pair_dict
from .shapes import Malformed

# the shapes that hold the merges, most telling first
MERGE_SHAPES = ("merges", "inverse", "pair_ids", "pairs", "ranks")
LOOKED_FOR = ("merges {(id, id): id}, their inverse {id: (id, id)}, a list of pairs [(id, id), ...] or of "
              "(pair, id), their ranks {(id, id): 0, 1, ...} or a vocab {id: bytes}")


def _is_pair(value):
    return isinstance(value, (tuple, list)) and len(value) == 2 and all(isinstance(i, int) for i in value)


def _is_pair_id(item):
    return isinstance(item, (tuple, list)) and len(item) == 2 and _is_pair(item[0]) and isinstance(item[1], int)


def shape_of(value):
    """'merges', 'inverse', 'pair_ids', 'pairs', 'ranks', 'vocab' or None: which of the six shapes
    `value` has. A pair dict whose values are 0, 1, 2... holds ranks (merge_ranks), not ids."""
    if is_pair_dict(value) and all(_is_pair(k) and isinstance(v, int) for k, v in value.items()):
        return "ranks" if sorted(value.values()) == list(range(len(value))) else "merges"
    if isinstance(value, dict) and value and all(isinstance(k, int) for k in value):
        if all(_is_pair(v) for v in value.values()):
            return "inverse"
        if all(isinstance(v, bytes) for v in value.values()):
            return "vocab"
    if isinstance(value, list) and value and all(_is_pair(p) for p in value):
        return "pairs"
    if isinstance(value, list) and value and all(_is_pair_id(p) for p in value):
        return "pair_ids"
    return None


@dataclass
class State:
    """Where the merges and the vocab live: attribute names, and the merges' shape ('vocab': only
    a vocab was found, and the merges are read from it)."""
    merges: str = "merges"
    shape: str = "merges"
    vocab: str = "vocab"
    found: bool = True  # False: nothing after training held merges or a learned vocab, and no attribute is named merges
    opaque: tuple = ()  # other filled attributes of no known shape: an encoder may read them
    also: tuple = ()  # (name, shape) of further attributes that hold the same merges (self.merges and self.inverse)


def find_state(attributes):
    """The State of an instance's attributes after training. Nothing with a merges shape: the
    vocab, when there is one; else the attribute named `merges` is still read as merges, when
    there is one (an empty dict, a slip)."""
    shapes = {name: shape_of(value) for name, value in attributes.items()}
    vocab = next((name for name, shape in shapes.items() if shape == "vocab"), None)
    for wanted in MERGE_SHAPES:
        names = [name for name, shape in shapes.items() if shape == wanted]
        if names:
            name = max(names, key=lambda name: (wanted != "merges" or holds_new_ids(attributes[name]),
                                                "merge" in name.lower()))
            return State(name, wanted, vocab if vocab not in (None, name) else "vocab",
                         also=copies(attributes, shapes, name, wanted))
    if vocab is not None and any(idx >= 256 for idx in attributes[vocab]):  # it learned into the vocab
        opaque = tuple(name for name, value in attributes.items()
                       if shapes[name] is None and isinstance(value, (dict, list, tuple, set)) and value)
        return State(vocab, "vocab", vocab, opaque=opaque)
    return State(vocab=vocab or "vocab", found="merges" in attributes)


def copies(attributes, shapes, name, shape):
    """(name, shape) of the other attributes that hold the merges `name` holds, in another shape or
    the same one: every copy the learner's code may read is handed the course's merges."""
    merges = as_merges(attributes[name], shape)
    return tuple((other, kind) for other, kind in shapes.items()
                 if other != name and kind in MERGE_SHAPES and as_merges(attributes[other], kind) == merges)


def holds_new_ids(pairs):
    """Whether a {(id, id): int} dict maps its pairs to distinct ids past the bytes, as merges do:
    a table of pair counts kept on the instance (self.counts) has the same shape, not these values."""
    values = list(pairs.values())
    return all(v >= 256 for v in values) and len(set(values)) == len(values)


def as_merges(value, shape, chunks=()):
    """The course's merges {(a, b): id} from a value in the learner's shape; the value as it is
    when it does not have that shape (the judge then says what is wrong with it). `chunks`: the
    training text's ids, chunk by chunk, which tell how a vocab's tokens were made."""
    if shape in ("inverse", "pair_ids", "pairs", "ranks", "vocab") and isinstance(value, (dict, list)) and not value:
        return {}
    if shape == "inverse" and shape_of(value) == "inverse":
        return {tuple(pair): idx for idx, pair in value.items()}
    if shape == "pairs" and shape_of(value) == "pairs":
        return {tuple(pair): 256 + rank for rank, pair in enumerate(value)}
    if shape == "pair_ids" and shape_of(value) == "pair_ids":
        return {tuple(pair): idx for pair, idx in value}
    if shape == "ranks" and shape_of(value) == "ranks":
        return {tuple(pair): 256 + rank for pair, rank in value.items()}
    if shape == "vocab" and shape_of(value) == "vocab":
        merges = vocab_merges(value, chunks)
        return Malformed("its vocab has a token that is not two earlier tokens joined, so no merges build it") \
            if merges is None else merges
    return value


def vocab_merges(vocab, chunks):
    """The merges that build `vocab` when training on `chunks`: each new token, in id order, is
    the pair of earlier tokens spelling it that occurs most in the chunks merged so far (a vocab
    alone does not say which: b'aaa' is (a, aa) or (aa, a)). None when a token has no such pair."""
    first = {bytes([b]): b for b in range(256)}
    for idx in sorted(vocab):
        first.setdefault(vocab[idx], idx)
    merges, chunks = {}, [list(c) for c in chunks]
    for idx in sorted(i for i in vocab if i >= 256):
        token = vocab[idx]
        splits = [(first[token[:k]], first[token[k:]]) for k in range(1, len(token))
                  if first.get(token[:k], idx) < idx and first.get(token[k:], idx) < idx]
        if not splits:
            return None
        counts = Counter(pair for chunk in chunks for pair in zip(chunk, chunk[1:]))
        pair = max(splits, key=lambda split: counts.get(split, 0))
        merges[pair] = idx
        chunks = [naive.merge(chunk, pair, idx) for chunk in chunks]
    return merges


def in_shape(merges, shape):
    """The course's merges in the learner's shape (ranked by id for a list of pairs)."""
    if shape == "inverse":
        return {idx: pair for pair, idx in merges.items()}
    ranked = sorted(merges.items(), key=lambda item: item[1])
    if shape == "pairs":
        return [pair for pair, _ in ranked]
    if shape == "pair_ids":
        return ranked
    if shape == "ranks":
        return {pair: rank for rank, (pair, _) in enumerate(ranked)}
    return merges


def untrained_state(attributes):
    """The State of a fresh instance, for a class whose training did not run (it crashed, or there
    is none): its vocab (a dict of the 256 bytes, under any name), and its merges, kept under
    `merges` or, when no attribute is so named, in its one empty dict (self.bigram_tree = {})."""
    shapes = {name: shape_of(value) for name, value in attributes.items()}
    vocab = next((name for name, shape in shapes.items() if shape == "vocab"), "vocab")
    empty = [name for name, value in attributes.items() if isinstance(value, dict) and not value
             and name != vocab and not any(w in name.lower() for w in ("special", "cache"))]
    if "merges" not in attributes and len(empty) == 1:
        return State(empty[0], "merges", vocab)
    return State(vocab=vocab)


def values_for(state, merges, vocab):
    """{attribute: value} to set on a fresh instance: the merges in the learner's shape, and the
    vocab under its own name unless the merges already live there."""
    if state.shape == "vocab":
        return {state.vocab: vocab}
    values = {state.merges: in_shape(merges, state.shape)}
    values.update((name, in_shape(merges, shape)) for name, shape in state.also)
    if state.vocab != state.merges:
        values[state.vocab] = vocab
    return values


def described(attributes):
    """'_vocab (dict of 3: int -> tuple), ids (list of 5)': what an instance held, for a note."""
    parts = []
    for name, value in sorted(attributes.items()):
        if isinstance(value, dict) and value:
            key, item = next(iter(value.items()))
            parts.append(f"{name} (dict of {len(value)}: {type(key).__name__} -> {type(item).__name__})")
        elif isinstance(value, (list, tuple, set, dict)):
            parts.append(f"{name} ({type(value).__name__} of {len(value)})")
        else:
            parts.append(f"{name} ({type(value).__name__})")
    return ", ".join(parts) or "no attributes"
