"""Workbook 04, naive BPE: `get_stats`, `merge`, `train`, and the training loop's known mistakes,
which `train_regex` (07) and `train_incremental` (10) share.
"""

from hypothesis import strategies as st

from .._private import naive
from .common import IDS, SMALL_TEXT, Bug, Mismatch, Raised, equal_to, exercise, same, same_order

# ---------------------------------------------------------------------------- get_stats


def judge_get_stats(args, got):
    expected = naive.get_stats(*args)
    if same_order(got, expected) or (same(got, expected) and ties_in_order(got, expected)):
        return None
    if same(got, expected):
        return Mismatch(expected, "the counts are right, but the pairs are not in the order they first occur")
    return Mismatch(expected)


def ties_in_order(got, expected):
    """Whether pairs of equal count come in the order they first occur: all that train's tie-break
    reads, so counts sorted most frequent first (Counter.most_common, a stable sort) are right."""
    def by_count(stats):
        groups = {}
        for pair in stats:
            groups.setdefault(stats[pair], []).append(pair)
        return groups
    return isinstance(got, dict) and by_count(got) == by_count(expected)


def stats_model(pairs_of):
    """get_stats counting the pairs that `pairs_of(ids)` visits."""
    def get_stats(ids):
        counts = {}
        for pair in pairs_of(ids):
            counts[pair] = counts.get(pair, 0) + 1
        return counts
    return get_stats


exercise(
    name="get_stats", signature="get_stats(ids) -> dict[(int, int), int]",
    workbook="04_naive_bpe", section="2. Counting pairs",
    task="count every consecutive pair (a dict: pair -> count)",
    cases=lambda: [([],), ([1],), ([1, 2],), ([1, 1, 1],), ([1, 2, 3, 1, 2],), ([5, 5, 5, 5],), ([3, 1, 2, 1],)],
    strategy=st.tuples(IDS),
    judge=judge_get_stats,
    hint="count every consecutive pair, in the order they first occur: for pair in zip(ids, ids[1:])",
    bugs=(
        Bug("last_pair_missing", "the last pair is missing: zip(ids, ids[1:]) visits every neighbour, "
                                 "including the last", stats_model(lambda ids: zip(ids[:-1], ids[1:-1]))),
        Bug("sorted_keys", "keep the pairs in the order they first occur, not sorted: train's tie-break "
                           "(max takes the first of equal counts) relies on that order",
            lambda ids: dict(sorted(naive.get_stats(ids).items()))),
        Bug("each_once", "count every occurrence: a pair that occurs 3 times has the count 3",
            lambda ids: dict.fromkeys(zip(ids, ids[1:]), 1)),
        Bug("every_other", "step by one, not two: in [1, 2, 3] both (1, 2) and (2, 3) are pairs",
            stats_model(lambda ids: zip(ids[::2], ids[1::2]))),
        Bug("reads_past_the_end", "the last id has no right neighbour: stop at range(len(ids) - 1), or use "
                                  "zip(ids, ids[1:])", stats_model(lambda ids: [(ids[i], ids[i + 1]) for i in range(len(ids))])),
        Bug("wraps_around", "there is no pair from the last id back to the first",
            stats_model(lambda ids: zip(ids, ids[1:] + ids[:1]) if len(ids) > 1 else [])),
    ),
    probes=lambda: [([2, 1, 1, 2, 3],), ([1, 2, 1, 2],), ([4, 3],)],
)

# ---------------------------------------------------------------------------- merge


def merge_model(step=2, to_the_end=True, bounded=True):
    """merge with one classic slip (defaults: right). step: how far to move after a match (1 lets
    matches overlap: [5, 5, 5] -> [256, 256, 5]); to_the_end: whether the walk reaches the last
    id; bounded: whether i + 1 < len(ids) is checked before ids[i + 1] is read."""
    def merge(ids, pair, idx):
        out, i = [], 0
        while i < (len(ids) if to_the_end else len(ids) - 1):
            if (not bounded or i + 1 < len(ids)) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
                out.append(idx)
                i += step
            else:
                out.append(ids[i])
                i += 1
        return out
    return merge


def merge_skipping_second_half(ids, pair, idx):
    """Each match replaced, and each id after a match skipped: matches overlap ([5, 5, 5] -> [256, 256])."""
    out = []
    for i in range(len(ids)):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
        elif not (i > 0 and (ids[i - 1], ids[i]) == pair):
            out.append(ids[i])
    return out


def merge_in_place(ids, pair, idx):
    i = 0
    while i < len(ids) - 1:
        if (ids[i], ids[i + 1]) == pair:
            ids[i:i + 2] = [idx]
        i += 1
    return ids


def merge_first_only(ids, pair, idx):
    for i in range(len(ids) - 1):
        if (ids[i], ids[i + 1]) == pair:
            return ids[:i] + [idx] + ids[i + 2:]
    return list(ids)


def merge_recursive(ids, pair, idx):
    """A merge that calls itself on the rest of the list after each match: right, until Python's
    limit of about 1,000 nested calls."""
    if sum(1 for a, b in zip(ids, ids[1:]) if (a, b) == pair) > 900:
        raise RecursionError("maximum recursion depth exceeded")
    return naive.merge(ids, pair, idx)


LONG_RUN = [1, 2] * 12_000  # a merge that recurses once per match goes past the recursion limit (the sandbox's is 10,000)


def merge_by_replace(ids, pair, idx):
    """The ids written out as text and the pair replaced as a substring: digits of two neighbours
    can spell the pair ('197 97' holds '97 97', so [197, 97] becomes [1256])."""
    text = " ".join(map(str, ids)).replace(f"{pair[0]} {pair[1]}", str(idx))
    return [int(part) for part in text.split()]


exercise(
    name="merge", signature="merge(ids, pair, idx) -> list[int]",
    workbook="04_naive_bpe", section="3. Merging a pair",
    task="build a new list: idx where the pair starts (then skip 2), else the id itself",
    cases=lambda: [([], (1, 2), 256), ([1], (1, 2), 256), ([1, 2], (1, 2), 256),
                   ([5, 5, 5], (5, 5), 256), ([1, 2, 3, 1, 2], (1, 2), 300), ([3, 1], (1, 2), 256),
                   ([197, 97], (97, 97), 256), ([132, 32, 32], (32, 32), 256), (LONG_RUN, (1, 2), 256)],
    strategy=st.tuples(IDS, st.tuples(st.integers(0, 3), st.integers(0, 3)), st.integers(256, 300)),
    judge=equal_to(naive.merge),
    hint="walk left to right; where ids[i], ids[i+1] is the pair, append idx and jump 2, else append ids[i]",
    bugs=(
        Bug("overlap", "matches overlap: after replacing a pair, skip both of its ids (i += 2)",
            merge_model(step=1), also=(merge_skipping_second_half,)),
        Bug("in_place", "build a new list and return it: changing `ids` itself changes the caller's list",
            merge_in_place),
        Bug("drops_last", "the last id (the trailing token) is dropped when it is not part of a match: walk "
                          "while i < len(ids), and copy it",
            merge_model(to_the_end=False)),
        Bug("first_only", "replace every occurrence of the pair, not only the first", merge_first_only),
        Bug("unbounded", "at the last position there is no ids[i + 1]: check i + 1 < len(ids) first",
            merge_model(bounded=False)),
        Bug("string_replace", "merge the ids as numbers, not as text: in '197 97' the substring '97 97' looks "
                              "like the pair (97, 97), so [197, 97] came out as [1256]; walk the list and "
                              "compare ids[i], ids[i + 1] with the pair", merge_by_replace),
        Bug("recursive", "merge with a loop, not by calling merge again on the rest: Python stops after a "
                         "fixed number of nested calls (1,000 by default), and a long text has more matches", merge_recursive,
            errors=("RecursionError",)),
    ),
    probes=lambda: [([1, 2, 1], (1, 2), 256), ([11, 1, 2], (1, 1), 256), ([5, 5, 5, 5], (5, 5), 256), ([2, 1], (1, 2), 256),
                    ([1, 2, 1, 2], (1, 2), 256), ([3, 4, 1, 2], (1, 2), 256)],
    checks_mutation=True,
)

# ---------------------------------------------------------------------------- train and its mistakes


def combined_stats(chunks):
    stats = {}
    for ids in chunks:
        naive.get_stats(ids, stats)
    return stats


def train_chunks(chunks, vocab_size, first_id=256, pick=max, extra=0, update=True, crash=False, most=None,
                 counter=None):
    """The training loop over id lists, with one of the classic slips when asked (defaults: right).

    first_id: the first new id; pick: max or min by count; extra: merges made beyond the count
    asked for (+1/-1); update: whether the merged ids replace the old ones; crash: raise (as
    max() of nothing does) when no pair is left; most: at most this many merges (None: no cap);
    counter: how the chunks' pair counts are put together (None: added up).
    """
    counter = counter or combined_stats
    wanted = vocab_size - 256 + extra
    if most is not None:
        wanted = min(wanted, most)
    merges = {}
    for step in range(max(0, wanted)):
        stats = counter(chunks)
        if not stats:
            if crash:
                raise ValueError("max() arg is an empty sequence")
            break
        pair = pick(stats, key=stats.get)
        merges[pair] = first_id + step
        if update:
            chunks = [naive.merge(ids, pair, first_id + step) for ids in chunks]
    return merges


NO_PAIR_LEFT = "no pair was left to merge, so training should have stopped"
SPENT = "it occurred earlier, and merges took every one apart"


def replay_mismatch(expected, problem):
    """The Mismatch for a replay's problem. A merge, once no pair was left, of a pair that occurred
    earlier is its own evidence: a spent pair kept at count 0. One that never occurred inside a
    chunk says only that the chunks differ (a merge across two of them), so it names no cause."""
    hint = (f"{problem}: stop when no pair is left (if not stats: break), instead of merging a pair "
            "that occurs nowhere") if SPENT in problem else ""
    return Mismatch(expected, problem, hint)


def replay(chunks, merges, vocab_size, first_id=256, pick=max, extra=0, most=None, counter=None):
    """None if `merges` is what train_chunks(...) with these settings could give, ties broken any
    way; else what is wrong, in words."""
    counter = counter or combined_stats
    if not isinstance(merges, dict):
        return f"should return a dict {{(id, id): new_id}}, not {type(merges).__name__}"
    wanted = max(0, vocab_size - 256 + extra if most is None else min(vocab_size - 256 + extra, most))
    seen = set()  # every pair counted so far
    for step, (pair, idx) in enumerate(merges.items()):
        # the pair is judged before its id: a pair counted wrongly can be picked again and again,
        # and its id overwritten each time, so a wrong id may only be the trace of a counting bug
        stats = counter(chunks)
        seen.update(stats)
        if not stats:
            spent = f" ({SPENT})" if pair in seen else ""
            return f"merge #{step + 1} {pair!r}{spent}: {NO_PAIR_LEFT}"
        best = pick(stats.values())
        if stats.get(pair, 0) != best or pair not in stats:
            top = pick(stats, key=stats.get)
            return (f"merge #{step + 1} picked {pair!r}, which occurs {count(stats.get(pair, 0), 'time')}, "
                    f"but {top!r} occurs {count(best, 'time')}")
        if idx != first_id + step:
            return f"merge #{step + 1} got id {idx!r}; new ids run 256, 257, ... so it should be {256 + step}"
        chunks = [naive.merge(ids, pair, idx) for ids in chunks]
    if len(merges) > wanted:
        return f"made {count(len(merges), 'merge')}; vocab_size={vocab_size} allows {vocab_size - 256}"
    if len(merges) < wanted and counter(chunks):
        return (f"stopped after {count(len(merges), 'merge')}, but {vocab_size - 256} were asked for "
                "and pairs were left")
    return None


def count(n, noun):
    return f"{n} {noun}" + ("" if n == 1 else "s")


def text_ids(args):
    return [list(args[0].encode("utf-8"))]


def judge_train(args, got):
    text, vocab_size = args
    if isinstance(got, Raised):
        return Mismatch(naive.train(text, vocab_size))
    problem = replay(text_ids(args), got, vocab_size)
    return None if problem is None else replay_mismatch(naive.train(text, vocab_size), problem)


def unused_ids_agree(chunks_of):
    """The merged list is assigned to another name: the same pair wins every time and is recorded
    again under each new id, so one merge is left, with the last id."""
    def agrees(args, got):
        stats, wanted = combined_stats(chunks_of(args)), args[1] - 256
        if wanted <= 0 or not stats:
            return same(got, {})
        top = max(stats.values())
        return (isinstance(got, dict) and len(got) == 1 and stats.get(next(iter(got))) == top
                and list(got.values()) == [255 + wanted])
    return agrees


def crash_agrees(chunks_of):
    """Right until no pair is left, then it raises instead of stopping."""
    def agrees(args, got):
        chunks, vocab_size = chunks_of(args), args[1]
        runs_out = len(train_chunks(chunks, vocab_size)) < vocab_size - 256
        return isinstance(got, Raised) if runs_out else replay(chunks, got, vocab_size) is None
    return agrees


def replay_agrees(chunks_of, **settings):
    def agrees(args, got):
        return not isinstance(got, Raised) and replay(chunks_of(args), got, args[1], **settings) is None
    return agrees


def trainer_bugs(chunks_of, model_of):
    """The training loop's classic mistakes. `chunks_of(args)` gives the id lists trained on;
    `model_of(**settings)` makes the exercise's function with train_chunks' settings."""
    def bug(name, hint, **settings):
        return Bug(name, hint, model_of(**settings), agrees=replay_agrees(chunks_of, **settings))

    return (
        bug("ids_from_257", "the first new id is 256 (ids 0 to 255 are the single bytes): "
                            "256 + i, with i counting from 0", first_id=257),
        bug("ids_from_255", "255 is already a byte (0xFF): new ids start at 256", first_id=255),
        bug("least_frequent", "merge the MOST frequent pair: max(stats, key=stats.get), not min", pick=min),
        bug("one_too_many", "one merge too many: vocab_size - 256 merges, as range(256, vocab_size) gives",
            extra=1),
        bug("one_too_few", "one merge short: vocab_size - 256 merges, as range(256, vocab_size) gives",
            extra=-1),
        Bug("ids_never_updated", "the merged list never replaces the old one, so the same pair wins every "
                                 "time: assign it back (ids = merge(ids, pair, idx))",
            model_of(update=False), agrees=unused_ids_agree(chunks_of)),
        Bug("raises_when_no_pair", "stop when no pair is left (a text under 2 bytes, or all merged into "
                                   "one token): if not stats: break, before max()",
            model_of(crash=True), agrees=crash_agrees(chunks_of)),
    )


def train_model(**settings):
    return lambda text, vocab_size: train_chunks(text_ids((text,)), vocab_size, **settings)


def code_point_ids(args):
    return [[ord(ch) for ch in args[0]]]


CODE_POINTS = Bug("code_points", "train on the bytes of the text, list(text.encode('utf-8')), not on its code "
                                 "points (ord): ids 0-255 are bytes, and 'é' or '안' is 2 or 3 of them",
                  lambda text, vocab_size: train_chunks(code_point_ids((text,)), vocab_size),
                  agrees=replay_agrees(code_point_ids))


TRAIN_PROBES = [("aaab", 260), ("abcabc", 258), ("ab", 258), ("aab", 257), ("abab", 261)]

exercise(
    name="train", signature="train(text, vocab_size) -> dict[(int, int), int]",
    workbook="04_naive_bpe", section="4. Training",
    task="loop: count pairs, merge the most frequent under the next id, record it; stop if no pair is left",
    cases=lambda: [("", 260), ("a", 260), ("ab", 256), ("ab", 260), ("aaabdaaabac", 259),
                   ("hello hello world", 270), ("안녕 안녕", 262), ("Ą    ", 259)],
    strategy=st.tuples(SMALL_TEXT, st.integers(256, 270)),
    judge=judge_train,
    hint="repeat vocab_size - 256 times: count pairs, merge the most frequent with ids 256, 257, ...; "
         "stop when no pair is left",
    bugs=trainer_bugs(text_ids, train_model) + (CODE_POINTS,),
    probes=lambda: TRAIN_PROBES + [("éé", 257), ("aé", 257)],
    examples=60,
)
