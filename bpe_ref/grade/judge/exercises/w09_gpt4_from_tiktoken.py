"""Workbook 09, GPT-4 from tiktoken: `recover_merges`, tiktoken's ranks turned back into merges."""

from hypothesis import strategies as st

from .._private import naive
from ....formats.encodings import bpe
from ....formats.encodings import recover_merges as reference_recover_merges
from .common import Bug, equal_to, exercise, trained_merges


def parts_of(ranks, token, rank):
    """The two tokens whose merge made `token`: BPE on its bytes with the ranks below its own."""
    return bpe(ranks, token, max_rank=rank)


def recover_model(key):
    """recover_merges keying each merge by `key(ranks, part)` (the ranks of the parts are right)."""
    def recover_merges(mergeable_ranks):
        merges = {}
        for token, rank in sorted(mergeable_ranks.items(), key=lambda item: item[1]):
            if len(token) > 1:
                left, right = parts_of(mergeable_ranks, token, rank)
                merges[key(mergeable_ranks, left), key(mergeable_ranks, right)] = rank
        return merges
    return recover_merges


def split_after_first_byte(mergeable_ranks):
    merges = {}
    for token, rank in sorted(mergeable_ranks.items(), key=lambda item: item[1]):
        if len(token) > 1:
            merges[mergeable_ranks[token[:1]], mergeable_ranks[token[1:]]] = rank
    return merges


@st.composite
def rank_tables(draw):
    """bytes -> rank tables like tiktoken's, from a small trained tokenizer, bytes in a shuffled order."""
    merges = draw(trained_merges(max_merges=10))
    vocab = naive.build_vocab(merges)
    if len(set(vocab.values())) != len(vocab):
        merges = {}
        vocab = naive.build_vocab(merges)
    order = draw(st.permutations(range(256)))
    ranks = {bytes([b]): order[b] for b in range(256)}
    for idx in sorted(merges.values()):
        ranks[vocab[idx]] = idx
    try:
        reference_recover_merges(ranks)
    except ValueError:
        ranks = {bytes([b]): order[b] for b in range(256)}
    return ranks


def observe_recover(args, got, expected):
    """The multi-byte token behind the first merge that differs, and the parts it is made of."""
    (ranks,) = args
    if not isinstance(got, dict):
        return ""
    by_rank = {rank: token for token, rank in ranks.items()}
    for pair, rank in expected.items():
        if got.get(pair) != rank:
            mine = [p for p, r in got.items() if r == rank]
            left, right = (by_rank[p] for p in pair)
            return (f"the token {by_rank[rank]!r} (rank {rank}) is {left!r} + {right!r}, the tokens of rank "
                    f"{pair[0]} and {pair[1]}: expected {pair!r}: {rank}, got "
                    + (f"{mine[0]!r}: {rank}" if mine else "no merge with that rank"))
    extra = next(iter(set(got) - set(expected)), None)
    return f"{extra!r} is not a merge of these ranks" if extra is not None else ""


def shuffled(table):
    return {**{bytes([b]): 255 - b for b in range(256)}, **table}


exercise(
    name="recover_merges", signature="recover_merges(mergeable_ranks) -> dict[(int, int), int]",
    workbook="09_gpt4_from_tiktoken", section="3. From ranks back to merges",
    task="for each token of 2+ bytes: BPE over its bytes with ranks below its own; the two parts left give the pair (key by their ranks)",
    cases=lambda: [({bytes([b]): b for b in range(256)},),
                   ({**{bytes([b]): b for b in range(256)}, b"ab": 256, b"abc": 257},),
                   (shuffled({b"aa": 256, b"aaa": 257, b"aaaa": 258}),)],
    strategy=st.tuples(rank_tables()),
    judge=equal_to(reference_recover_merges),
    hint="for each token of 2+ bytes, run BPE on its bytes using only ranks below its own: the two parts "
         "left are its pair; key the merge by the parts' ranks",
    bugs=(
        Bug("byte_values", "a single byte's rank is not its byte value (tiktoken shuffles them): key every "
                           "part by its rank, mergeable_ranks[part]",
            recover_model(lambda ranks, part: part[0] if len(part) == 1 else ranks[part])),
        Bug("keyed_by_bytes", "key each merge by the ranks of its two parts (ints), not by their bytes",
            recover_model(lambda ranks, part: part)),
        Bug("first_byte_split", "a token is not its first byte + the rest: run BPE on its bytes with the ranks "
                                "below its own, and take the two parts left", split_after_first_byte,
            errors=("KeyError",)),
    ),
    probes=lambda: [(shuffled({b"ab": 256, b"abc": 257}),), (shuffled({b"bc": 256, b"abc": 257}),),
                    (shuffled({b"ab": 256, b"cd": 257, b"abcd": 258}),)],
    observe=observe_recover,
    examples=30,
)
