"""What a trained word-level class leaves on itself (merges of strings, splits, word counts), read
from its attributes, and the replay that judges it: each merge a most frequent pair of what is left.
"""

import dataclasses

from ..display import show, times
from .corpus import FEW, first_split, merge_symbols, pair_counts, word_counts
from .verdicts import raised_text


@dataclasses.dataclass
class WordState:
    """Where a trained word-level class keeps what it learned, and how it spells a word."""

    merges_name: str
    merges: list  # (a, b) in merge order
    joined: dict  # {(a, b): what it stored for the merge}, when merges are a dict
    splits_name: str = None
    splits: dict = None
    counts_name: str = None
    counts: dict = None
    marker: str = ""
    prefix: str = ""


def string_pairs(value):
    if isinstance(value, dict):
        keys = list(value)
    elif isinstance(value, list):
        keys = value
    else:
        return None
    if all(isinstance(k, tuple) and len(k) == 2 and all(isinstance(s, str) for s in k) for k in keys):
        return keys
    return None


def find_word_state(attributes):
    """The WordState of a trained object's attributes, or None when it is no word-level BPE: merges
    of strings (or an empty table named for merges) beside splits {word: [symbols]}."""
    merges_name = splits_name = counts_name = None
    for name, value in attributes.items():
        if not isinstance(name, str):
            continue
        pairs = string_pairs(value)
        if pairs is not None and (pairs or "merge" in name.lower()) and merges_name is None:
            merges_name = name
        elif isinstance(value, dict) and value and all(
                isinstance(k, str) and isinstance(v, list) and all(isinstance(s, str) for s in v)
                for k, v in value.items()):
            splits_name = splits_name or name
        elif isinstance(value, dict) and value and any(w in name.lower() for w in ("freq", "count")) \
                and all(isinstance(k, str) and type(v) is int for k, v in value.items()):
            counts_name = counts_name or name
    if merges_name is None or splits_name is None:
        return None
    value = attributes[merges_name]
    state = WordState(merges_name, list(string_pairs(value)), value if isinstance(value, dict) else None,
                      splits_name, attributes[splits_name], counts_name,
                      attributes.get(counts_name) if counts_name else None)
    state.marker = marker_of(state.splits)
    return state if state.marker is not None else None


def marker_of(splits):
    """The end-of-word marker each word's symbols spell after the word ('</w>'), '' for none, or
    None when the words are not all spelt the same way."""
    markers = set()
    for word, symbols in splits.items():
        joined = "".join(symbols)
        if not joined.startswith(word):
            return None
        markers.add(joined[len(word):])
    return markers.pop() if len(markers) == 1 else None


def replay(state, counts):
    """None when each of the state's merges is a most frequent pair of what is left (any of several
    tied), stored as its two symbols joined; else what differs. The splits it keeps are not judged:
    a trainer may work on a copy and leave them as they were, which no merge reads."""
    return replayed(state, counts)[0]


def replayed(state, counts):
    """(what replay finds wrong or None, the words' symbols after the merges replayed so far)."""
    splits = {word: first_split(word, state.marker, state.prefix) for word in counts}
    for k, pair in enumerate(state.merges, 1):
        pairs = pair_counts(splits, counts)
        best = max(pairs.items(), key=lambda item: item[1], default=None)
        if pair not in pairs:
            return f"merge #{k} is {pair!r}, which does not occur in the words at that point", splits
        if pairs[pair] < best[1]:
            return (f"merge #{k} picked {pair!r}, which occurs {times(pairs[pair])}, but {best[0]!r} "
                    f"occurs {times(best[1])}"), splits
        stored = state.joined.get(pair) if state.joined is not None else None
        if isinstance(stored, (str, tuple, list)) and stored != pair[0] + pair[1]:
            return (f"merge #{k}, {pair!r}, is stored as {show(stored)}, not the symbol it makes, "
                    f"{pair[0] + pair[1]!r}"), splits
        splits = {word: merge_symbols(symbols, pair) for word, symbols in splits.items()}
    if not state.merges and (left := pair_counts(splits, counts)):
        top = max(left.items(), key=lambda item: item[1])
        return (f"it made no merges: .{state.merges_name} is empty after training, though {top[0]!r} occurs "
                f"{times(top[1])}"), splits
    return None, splits


def trained_wrong(state, counts):
    """What differs between a trained state and a right training on words of these counts, or None."""
    wrong = replay(state, counts)
    if wrong is None and state.counts is not None and set(state.counts) == set(counts) \
            and dict(state.counts) != dict(counts):
        word = next(w for w in counts if state.counts[w] != counts[w])
        wrong = f".{state.counts_name}[{word!r}] is {state.counts[word]}, but the corpus has it {times(counts[word])}"
    return wrong


def left_unmerged(state, counts):
    """What is wrong when a trainer asked for more merges than the words allow ends with pairs left
    (it must stop only when no pair is left), or makes a merge that does not occur; None when right."""
    wrong, splits = replayed(state, counts)
    if wrong and state.merges:
        return wrong
    left = pair_counts(splits, counts)
    return (f"it stopped after {len(state.merges)} merges, though {max(left, key=left.get)!r} was left and more "
            "were allowed: stop only when no pair is left") if left else None


def exhausted(train, state):
    """(call, what is wrong or None) when a trainer is asked for more merges than a few words allow,
    and handed no text at all: it must stop when no pair is left, and never crash. `train(lines)`
    trains it on them as it was trained before: (call in words, reply, the merges it learned)."""
    for lines, what in ((FEW, f"the words {FEW[0]!r}"), ([], "an empty corpus")):
        call, reply, merges = train(lines)
        call = f"on {what}, {call}"
        if reply.kind != "ok":
            return call, raised_text(reply) if reply.kind == "raised" else f"it gave no answer ({reply.kind})"
        wrong = left_unmerged(dataclasses.replace(state, merges=merges or []), word_counts(lines))
        if wrong:
            return call, wrong
    return None, None
