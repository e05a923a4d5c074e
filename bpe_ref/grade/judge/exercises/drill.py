"""The weekly drill's own exercise: `save_merges(merges, path)` then `load_merges(path)` must give
the merges back. One exercise made of two functions: `combine` runs the round trip, and the
judge sees what load_merges returned."""

import os
import secrets
import tempfile

from hypothesis import strategies as st

from .._private import naive
from .common import Bug, Mismatch, exercise, same_order, trained_merges


def round_trip(call, args, carry=None):
    """save_merges(merges, path) into a scratch file, then load_merges(path): its reply.

    The file is straight in /tmp, which a sandbox has too (its own, private one), so the same
    path works behind bubblewrap's walls and in a plain child process. `carry(path)`, where the
    caller has one (bpe-grade), moves the saved file into a fresh process of the submission before
    load_merges runs, so that merges kept in a variable of the first process do not come back."""
    folder = "/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir()
    path = os.path.join(folder, f"bpe-grade-{secrets.token_hex(8)}-merges.txt")
    try:
        saved = call("save_merges", [args[0], path])
        if saved.kind != "ok":
            return saved
        moved = carry(path) if carry is not None else None
        if moved is not None:
            return moved
        return call("load_merges", [path])
    finally:
        if os.path.exists(path):
            os.remove(path)


def ids_from_zero(merges):
    """load_merges numbering the merges from 0, as the lines are numbered."""
    return {pair: idx - 256 for pair, idx in merges.items()}


def judge_round_trip(args, got):
    (merges,) = args
    return None if same_order(got, merges) else Mismatch(merges)


exercise(
    name="save_load", signature="save_merges(merges, path), then load_merges(path) -> merges",
    workbook="", section="", uses=("save_merges", "load_merges"),  # the full drill's, not a workbook's
    task="write one 'p0 p1' line per merge in id order after a version line; read them back with ids 256, 257, ...",
    combine=round_trip,
    cases=lambda: [({},), (naive.train("aaabdaaabac", 259),), (naive.train("hello world, héllo wörld! 안녕 😀😀", 268),)],
    strategy=st.tuples(trained_merges()),
    judge=judge_round_trip,
    hint="write the merges in id order, one 'p0 p1' line each (encoding='utf-8'); read them back as ints, "
         "giving ids 256, 257, ... in line order",
    bugs=(
        Bug("ids_from_zero", "the first merge read back gets id 256, not 0: idx = 256 + line number",
            ids_from_zero),
        Bug("order_lost", "keep the merges in id order: write them sorted by id, read them in line order",
            lambda merges: dict(sorted(merges.items()))),
    ),
    examples=6,  # each one starts the submission afresh for load_merges
)
