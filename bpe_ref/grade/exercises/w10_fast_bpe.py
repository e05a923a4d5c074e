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
    + trainer_bugs(text_ids, train_model),
    probes=lambda: [("abcdcdab", 260), ("abab", 260), ("aaab", 260), ("abcabc", 258)],
    work=WorkCheck(vocab_size=256 + 24, max_ratio=0.35,
                   hint="count the pairs once, before the loop; after each merge, change only the counts of "
                        "the pairs around each replaced occurrence (take away (left, a) and (b, right), add "
                        "(left, idx) and (idx, right)), never count the whole list again"),
    examples=60,
)
