"""Workbook 06, encoding: `encode`, and the ways of choosing the next merge that are not the
lowest rank (the models are shared with `encode_ordinary` in 07 and the module-level style).
"""

from hypothesis import strategies as st

from .._private import naive
from ..bounds import vocab_of
from .common import MIXED_TEXT, SMALL_TEXT, TRAIN_TEXTS, Bug, Mismatch, Raised, equal_to, exercise, same, trained_merges

INF = float("inf")


# ---------------------------------------------------------------------------- how to pick a pair

def known_pairs(ids, merges):
    return [p for p in naive.get_stats(ids) if p in merges]


def lowest_rank(ids, merges):
    known = known_pairs(ids, merges)
    return min(known, key=merges.get) if known else None


def highest_rank(ids, merges):
    known = known_pairs(ids, merges)
    return max(known, key=merges.get) if known else None


def most_frequent(ids, merges):
    stats = naive.get_stats(ids)
    known = [p for p in stats if p in merges]
    return max(known, key=stats.get) if known else None


def leftmost_known(ids, merges):
    known = known_pairs(ids, merges)
    return known[0] if known else None


def encode_leftmost_occurrence(text, merges):
    """Merge only the leftmost occurrence of the leftmost known pair, then look again."""
    ids = list(text.encode("utf-8"))
    while True:
        at = next((i for i in range(len(ids) - 1) if (ids[i], ids[i + 1]) in merges), None)
        if at is None:
            return ids
        ids = ids[:at] + [merges[ids[at], ids[at + 1]]] + ids[at + 2:]


def max_with_inf_default(ids, merges):
    pair = max(naive.get_stats(ids), key=lambda p: merges.get(p, INF))
    return pair if pair in merges else None


def min_unchecked(ids, merges):
    """The lowest rank, without checking that the pair is a merge at all (merges[pair] then fails)."""
    return min(naive.get_stats(ids), key=lambda p: merges.get(p, INF))


def min_of_all_pairs(ids, merges):
    """The lowest rank, where min() meets an empty dict when fewer than two ids are left."""
    pair = min(naive.get_stats(ids), key=lambda p: merges.get(p, INF))
    return pair if pair in merges else None


def min_of_get(ids, merges):
    """min(stats, key=merges.get): None for an unknown pair, which no number can be compared with."""
    pair = min(naive.get_stats(ids), key=merges.get)
    return pair if pair in merges else None


def encode_picking(pick, while_at_least=2, skip_up_to=0):
    """encode(text, merges) that merges the pair `pick(ids, merges)` chooses until it gives None.

    while_at_least: the loop's condition on len(ids) (0: loop until pick stops it);
    skip_up_to: texts of at most this many bytes are returned as bytes, unmerged.
    """
    def encode(text, merges):
        ids = list(text.encode("utf-8"))
        if skip_up_to and len(ids) <= skip_up_to:
            return ids
        return merged_picking(ids, merges, pick, while_at_least)
    return encode


def merged_picking(ids, merges, pick=lowest_rank, while_at_least=2):
    """`ids` with the pair `pick(ids, merges)` chooses merged until it gives None (see encode_picking)."""
    while len(ids) >= while_at_least:
        pair = pick(ids, merges)
        if pair is None:
            break
        ids = naive.merge(ids, pair, merges[pair])
    return ids


def sweep(ids, merges):
    """One left-to-right pass merging every known pair met, whatever its rank; a new id is not looked at again."""
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) in merges:
            out.append(merges[ids[i], ids[i + 1]])
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def encode_by_position(text, merges):
    """Sweep left to right merging every known pair met, and sweep again until nothing changes."""
    ids = list(text.encode("utf-8"))
    while (out := sweep(ids, merges)) != ids:
        ids = out
    return ids


def encode_one_sweep(text, merges):
    """A single left-to-right sweep: the pairs a merge makes are never merged further."""
    return sweep(list(text.encode("utf-8")), merges)


def encode_in_dict_order(text, merges):
    """Every merge applied once, in the order the dict lists them (right only for a dict in rank order)."""
    ids = list(text.encode("utf-8"))
    for pair, idx in merges.items():
        ids = naive.merge(ids, pair, idx)
    return ids


DICT_ORDER = Bug("dict_order", "you apply the merges in the order the dict lists them; apply them by rank, the "
                               "lowest merge id first: a merges dict read from a file or built by hand need not "
                               "be in rank order", encode_in_dict_order)

def encode_to_tokens(as_text=False):
    """The right tokens, returned as themselves (bytes, or strings of symbols) instead of their ids."""
    def encode(text, merges):
        vocab = ranked_vocab(merges)
        tokens = [vocab[idx] for idx in naive.encode(text, merges)]
        return [t.decode("utf-8", errors="replace") for t in tokens] if as_text else tokens
    return encode


def encode_keeping_bytes(text, merges):
    """The ids start as text.encode("utf-8") and stay a bytes object when no merge applies."""
    ids = naive.encode(text, merges)
    return bytes(ids) if all(idx < 256 for idx in ids) else ids


ENCODE_BUGS = (
    Bug("highest_rank", "you apply the highest-ranked merge first; apply the lowest (earliest learned) "
                        "first: min, not max", encode_picking(highest_rank)),
    Bug("max_inf_default", "no merge was applied at all. If you pick with max() and a default of inf for "
                           "unknown pairs, the pick is a pair that is not in merges and the loop stops at once: "
                           "take the min() instead", encode_picking(max_with_inf_default)),
    Bug("most_frequent", "you merge the pair that occurs most often; encode merges the pair with the lowest "
                         "merge id, however often it occurs (frequency only matters in training)",
        encode_picking(most_frequent)),
    Bug("leftmost_known", "you choose pairs by their position, the first known pair from the left; choose by "
                          "rank: among all pairs present, merge the one with the lowest merge id, wherever it is",
        encode_picking(leftmost_known), also=(encode_leftmost_occurrence, encode_by_position, encode_one_sweep)),
    Bug("stops_at_two", "two ids can still merge into one (a two-byte text may be a single token): keep "
                        "merging while len(ids) >= 2",
        encode_picking(lowest_rank, while_at_least=3), also=(encode_picking(lowest_rank, skip_up_to=2),)),
    Bug("crashes_when_short", "empty and one-byte text have no pairs, and merging may leave one id: loop "
                              "while len(ids) >= 2, and return the ids as they are",
        encode_picking(min_of_all_pairs, while_at_least=0)),
    Bug("none_rank", "merges.get(pair) is None for a pair that is not a merge, and None cannot be compared "
                     "with a number: rank unknown pairs as infinite, merges.get(pair, float('inf'))",
        encode_picking(min_of_get), errors=("TypeError",)),
    Bug("unknown_pair", "stop when the lowest-ranked pair present is not in merges (if pair not in merges: "
                        "break): merges[pair] fails for it", encode_picking(min_unchecked), errors=("KeyError",)),
    Bug("tokens_not_ids", "return the ids (ints: 0-255 for bytes, merge ids above), not the tokens themselves: "
                          "look each token up in the vocab to get its id", encode_to_tokens(),
        also=(encode_to_tokens(as_text=True),)),
)
# a bytes object for the whole text: per chunk (encode_ordinary) the ids are joined into a list anyway
BYTES_NOT_LIST = Bug("bytes_not_list", "return a list of ids: text.encode('utf-8') is a bytes object, and it "
                                       "stays one when no merge applies; start from list(text.encode('utf-8'))",
                     encode_keeping_bytes)


# ---------------------------------------------------------------------------- what was observed

def token_spans(ids, vocab):
    spans, start = [], 0
    for idx in ids:
        spans.append((start, start + len(vocab[idx]), idx))
        start += len(vocab[idx])
    return spans


def piece(vocab, idx):
    return repr(vocab[idx].decode("utf-8", errors="replace")) if vocab[idx].isascii() else repr(vocab[idx])


def ranked_vocab(merges):
    """The vocab of merges listed in any order: built in rank (id) order, refused (bounds.TooLarge)
    when the tokens would be too large to hold."""
    return vocab_of(dict(sorted(merges.items(), key=lambda item: item[1])))


def observe_encoding(data, got, expected, merges):
    """Where the learner's ids first split `data` (bytes) differently from the right ones, and
    which merge was applied there, in words."""
    vocab = ranked_vocab(merges)
    if not isinstance(got, (list, tuple)) or not all(isinstance(i, int) and i in vocab for i in got):
        return "every id should be a byte (0-255) or a new id from merges"
    if b"".join(vocab[i] for i in got) != data:
        return f"your ids stand for {b''.join(vocab[i] for i in got)!r}, not the text's bytes {data!r}"
    mine, right = token_spans(got, vocab), token_spans(expected, vocab)
    at = next(k for k, (a, b) in enumerate(zip(mine, right)) if a != b)
    start, end, idx = mine[at]
    want = right[at][2]
    text = f"at byte {start} you have {idx} ({piece(vocab, idx)}), expected {want} ({piece(vocab, want)})"
    rivals = [i for s, e, i in right if s < end and e > start and i >= 256 and (idx < 256 or i < idx)]
    if idx >= 256 and rivals:
        first = min(rivals)
        return text + (f": merge {first} ({piece(vocab, first)}) was learned before {idx} and needs some of "
                       "the same bytes, so it is applied first")
    if idx < 256 and want >= 256:
        return text + f": the merges inside {want} ({piece(vocab, want)}) are all in merges, so they apply"
    return text


def observe_encode(args, got, expected):
    return observe_encoding(args[0].encode("utf-8"), got, expected, args[-1])


@st.composite
def shuffled(draw, merges):
    """The same merges, listed in another order: the ranks are the ids, not the dict's order."""
    return dict(draw(st.permutations(list(merges.items()))))


@st.composite
def encode_args(draw):
    merges = draw(trained_merges())
    if draw(st.booleans()):
        merges = draw(shuffled(merges))
    return draw(MIXED_TEXT | SMALL_TEXT | st.sampled_from(TRAIN_TEXTS)), merges


def encode_probes():
    """Texts where the ways of picking a pair disagree: competing merges, repeats, two-byte texts
    (found by a search over short texts; a test checks that they tell every two bugs apart)."""
    return [("ababc", {(97, 98): 256, (98, 99): 257}), ("abcbc", {(97, 98): 256, (98, 99): 257}),
            ("ab", {(97, 98): 256}), ("xabc", {(98, 99): 256, (97, 98): 257}),
            ("acad", {(97, 100): 256, (100, 100): 257, (257, 98): 258}),
            ("aba", {(97, 98): 256, (256, 97): 257, (257, 97): 258}),
            ("ccacacb", {(97, 99): 256, (99, 98): 257, (97, 256): 258, (258, 99): 259, (259, 257): 260}),
            ("cdabcc", {(99, 99): 256, (97, 98): 257, (257, 99): 258, (258, 100): 259, (259, 256): 260}),
            ("bacbcbc", {(97, 99): 256, (99, 98): 257, (257, 98): 258, (258, 256): 259}),
            ("cbacbb", {(100, 100): 256, (97, 99): 257, (98, 97): 258, (258, 256): 259}),
            ("abc", {(97, 98): 257, (98, 99): 256}), ("abcab", {(97, 98): 257, (98, 99): 256})]


def judge_again(args, first, second):
    """A right first answer, and a second call with the same text and the same merges dict (the
    same object, as the learner's own code would pass it) must give it again: if not, the first
    call changed the dict, or kept something between calls."""
    if same(second, first):
        return None
    again = second if isinstance(second, Raised) else f"returned {str(second)[:80]}"
    return Mismatch(first, f"right the first time, but called again with the same merges dict it {again}: "
                           "the first call changed that dict (or kept something from it)",
                    hint="read merges, never change it: whatever encode removes from the caller's dict is "
                         "gone for every later call; to cross merges off as you go, work on a copy "
                         "(remaining = dict(merges))")


exercise(
    name="encode", signature="encode(text, merges) -> list[int]",
    workbook="06_encoding", section="2. Every merge has a rank",
    task="start from the UTF-8 bytes; while 2+ ids, merge the pair with the lowest rank; stop when it is not in merges",
    cases=lambda: [("", naive.train("hello", 258)), ("h", naive.train("hello", 258)),
                   ("é", naive.train("é é", 257)),
                   ("abc", {(98, 99): 256, (97, 98): 257}),
                   ("aaabdaaabac", naive.train("aaabdaaabac", 259)),
                   ("abc", {(97, 98): 257, (98, 99): 256})],
    strategy=encode_args(),
    judge=equal_to(naive.encode),
    hint="while two or more ids: among the pairs present, take the one with the LOWEST merge id; "
         "stop when none is in merges; empty and one-byte text return at once",
    bugs=ENCODE_BUGS + (DICT_ORDER, BYTES_NOT_LIST),
    probes=encode_probes,
    observe=observe_encode,
    again=judge_again,
)
