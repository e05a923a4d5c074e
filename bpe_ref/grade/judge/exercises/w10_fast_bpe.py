"""Workbook 10, fast BPE: `train_incremental`, the naive trainer's merges exactly, by the incremental
update, and judged by its work as well as by its merges."""

from hypothesis import strategies as st

from .._private import naive
from .common import SMALL_TEXT, Bug, Raised, WorkCheck, equal_to, exercise
from .w04_naive_bpe import replay, text_ids, train_model, trainer_bugs


def first_in_counts_order(text, vocab_size):
    """The incremental update, with ties going to the pair first in the counts dict (which after
    updates is not the order of the ids)."""
    ids = list(text.encode("utf-8"))
    counts = naive.get_stats(ids)
    merges = {}
    for idx in range(256, vocab_size):
        if not counts:
            break
        pair = max(counts, key=counts.get)
        new = naive.merge(ids, pair, idx)
        for p, n in naive.get_stats(ids).items():
            counts[p] -= n
        for p, n in naive.get_stats(new).items():
            counts[p] = counts.get(p, 0) + n
        counts = {p: n for p, n in counts.items() if n}
        ids, merges[pair] = new, idx
    return merges


def first_at(ids, pair):
    """Where `pair` first occurs in ids, found with next() and no default, as learners write it:
    StopIteration when the pair does not occur at all."""
    return next(i for i in range(len(ids) - 1) if (ids[i], ids[i + 1]) == pair)


def incremental_model(drop_zeros=True, stale=False):
    """The incremental update with one classic slip: zero counts kept in `counts` (a pair that no
    longer occurs is still a candidate), or each occurrence's left neighbour read from the old
    list (stale when two occurrences touch, so counts go wrong). Ties: the first pair in the ids,
    found with next(), which fails on a pair that is not there."""
    def train_incremental(text, vocab_size):
        ids = list(text.encode("utf-8"))
        counts = naive.get_stats(ids)
        merges = {}
        for idx in range(256, vocab_size):
            if not counts:
                break
            pair = max(counts, key=lambda p: (counts[p], -first_at(ids, p)))
            new, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    left = (ids[i - 1] if stale else new[-1]) if i > 0 else None
                    right = ids[i + 2] if i + 2 < len(ids) else None
                    counts[pair] -= 1
                    if left is not None:
                        counts[(left, pair[0])] = counts.get((left, pair[0]), 0) - 1
                        counts[(left, idx)] = counts.get((left, idx), 0) + 1
                    if right is not None:
                        counts[(pair[1], right)] = counts.get((pair[1], right), 0) - 1
                        counts[(idx, right)] = counts.get((idx, right), 0) + 1
                    new.append(idx)
                    i += 2
                else:
                    new.append(ids[i])
                    i += 1
            if drop_zeros:
                counts = {p: n for p, n in counts.items() if n > 0}
            ids, merges[pair] = new, idx
        return merges
    return train_incremental


def never_adds_new_pairs(text, vocab_size):
    """The incremental update that takes away (left, a) and (b, right) at each occurrence but never
    adds (left, idx) and (idx, right): the new token is never in a pair, so it is never merged
    again, and taking one from a pair that holds it raises KeyError, as `counts[p] -= 1` does."""
    ids = list(text.encode("utf-8"))
    counts = naive.get_stats(ids)
    merges = {}
    for idx in range(256, vocab_size):
        if not counts:
            break
        pair = max(counts, key=lambda p: (counts[p], -first_at(ids, p)))
        new, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                if new:
                    counts[(new[-1], pair[0])] -= 1
                if i + 2 < len(ids):
                    counts[(pair[1], ids[i + 2])] -= 1
                new.append(idx)
                i += 2
            else:
                new.append(ids[i])
                i += 1
        counts.pop(pair, None)
        counts = {p: n for p, n in counts.items() if n > 0}
        ids, merges[pair] = new, idx
    return merges


def another_tie_break(args, got):
    """A greedy BPE, right but for how ties are broken (it may happen to break them the right way)."""
    return not isinstance(got, Raised) and replay(text_ids(args), got, args[1]) is None


exercise(
    name="train_incremental", signature="train_incremental(text, vocab_size) -> dict[(int, int), int]",
    workbook="10_fast_bpe", section="3. Exercise: `train_incremental`",
    task="stop if counts is empty; pick the pair (max count, ties: first in ids); merge it, updating counts at each occurrence; drop zero counts; record the merge",
    cases=lambda: [("", 260), ("a", 260), ("ab", 260), ("aaabdaaabac", 259), ("aaaa", 258),
                   ("abcd", 258), ("hello hello world", 270), ("안녕 안녕", 262)],
    strategy=st.tuples(SMALL_TEXT, st.integers(256, 272)),
    judge=equal_to(naive.train),
    hint="count pairs once; after each merge, subtract the pairs around every replaced occurrence and "
         "add the new ones, instead of recounting everything",
    bugs=(Bug("tie_break", "a valid BPE, but not the naive trainer's: on a tie, take the pair that occurs "
                           "first in the current ids", first_in_counts_order, agrees=another_tie_break),)
    + (Bug("zero_counts_kept", "drop a pair from counts when its count falls to 0: it no longer occurs in the "
                               "ids, yet it is still picked or looked for (next() finds nothing)",
           incremental_model(drop_zeros=False)),
       Bug("never_adds_new_pairs", "at each occurrence also add one to (left, idx) and (idx, right): without them "
                                   "the new token is in no pair of counts, so it is never merged again, and taking "
                                   "one from a pair that holds it fails", never_adds_new_pairs, errors=("KeyError",)),
       Bug("stale_neighbours", "take each occurrence's left neighbour from the list you are building (it may be "
                               "the new id just placed), not from the old list: where two occurrences touch, the "
                               "old neighbour is stale and the counts go wrong", incremental_model(stale=True)))
    + trainer_bugs(text_ids, train_model),
    probes=lambda: [("abcdcdab", 260), ("abab", 260), ("aaab", 260), ("abcabc", 258), ("aaaa", 258),
                    ("aaaaab", 259), ("abababab", 260), ("ab", 258),
                    ("abcabc", 260)],  # the new token never touches a later occurrence: no KeyError
    work=WorkCheck(vocab_size=256 + 24, max_ratio=0.35,
                   hint="count the pairs once, before the loop; after each merge, change only the counts of "
                        "the pairs around each replaced occurrence (take away (left, a) and (b, right), add "
                        "(left, idx) and (idx, right)), never count the whole list again"),
    examples=60,
)
