"""Workbook 05, decoding: `build_vocab` and `decode`."""

from hypothesis import strategies as st

from .._private import naive
from .common import MIXED_TEXT, Bug, equal_to, exercise, trained_merges

BYTES = naive.build_vocab({})


def vocab_model(start, piece, order=lambda merges: merges.items()):
    """build_vocab starting from `start` and making each merged token with `piece(vocab, p0, p1)`."""
    def build_vocab(merges):
        vocab = dict(start)
        for (p0, p1), idx in order(merges):
            vocab[idx] = piece(vocab, p0, p1)
        return vocab
    return build_vocab


def joined(vocab, p0, p1):
    return vocab[p0] + vocab[p1]


def merged_tokens_only(merges):
    vocab = naive.build_vocab(merges)
    return {idx: vocab[idx] for idx in merges.values()}


def has_merged_tokens_only(args, got):
    """The merged tokens are right, but none of the single bytes is there."""
    return isinstance(got, dict) and not any(b in got for b in range(256)) and all(
        got.get(idx) == token for idx, token in merged_tokens_only(*args).items())


# A vocab where a merge uses an id made by a later line of the sorted merges (sorting breaks it).
REORDERED = {(104, 105): 256, (32, 256): 257, (97, 257): 258, (33, 33): 259}

exercise(
    name="build_vocab", signature="build_vocab(merges) -> dict[int, bytes]",
    workbook="05_decoding", section="1. The vocab: which bytes each id stands for",
    task="start from the 256 single bytes, then vocab[idx] = vocab[p0] + vocab[p1] for each merge, in order",
    cases=lambda: [({},), (naive.train("aaabdaaabac", 259),), (naive.train("안녕 안녕", 262),)],
    strategy=st.tuples(trained_merges()),
    judge=equal_to(naive.build_vocab),
    hint="start from {i: bytes([i]) for i in range(256)}, then vocab[idx] = vocab[p0] + vocab[p1] in merge order",
    bugs=(
        Bug("no_single_bytes", "start from the 256 single bytes, {i: bytes([i]) for i in range(256)}, "
                               "then add the merges", merged_tokens_only, agrees=has_merged_tokens_only),
        Bug("pair_as_bytes", "an id above 255 stands for several bytes: vocab[idx] = vocab[p0] + vocab[p1], "
                             "not bytes((p0, p1))", vocab_model(BYTES, lambda vocab, p0, p1: bytes((p0, p1)))),
        Bug("sorted_merges", "build in merge order (merges.items() as they come): a merge may use an id "
                             "that an earlier merge made", vocab_model(BYTES, joined, lambda m: sorted(m.items()))),
    ),
    probes=lambda: [(REORDERED,), ({(98, 99): 256, (97, 256): 257},), (naive.train("hello hello world", 270),)],
)


def decode_model(decode_bytes, per_token=False):
    def decode(ids, vocab):
        if per_token:
            return "".join(decode_bytes(vocab[idx]) for idx in ids)
        return decode_bytes(b"".join(vocab[idx] for idx in ids))
    return decode


@st.composite
def decode_args(draw):
    merges = draw(trained_merges())
    vocab = naive.build_vocab(merges)
    ids = draw(st.lists(st.sampled_from(sorted(vocab)), max_size=8)
               | MIXED_TEXT.map(lambda t: naive.encode(t, merges)))
    return ids, vocab


def decode_probes():
    merges = naive.train("aaabdaaabac", 257)
    vocab = naive.build_vocab(merges)
    return [([0xC3, 0xA9], BYTES), ([0xE2, 0x82, 0xAC, 0x80], BYTES), ([104, 0xFF, 105], BYTES),
            ([256, 0xC3], vocab), ([0xE9], BYTES)]


exercise(
    name="decode", signature="decode(ids, vocab) -> str",
    workbook="05_decoding", section="3. `decode`: join all the bytes, then decode once",
    task="join vocab[idx] for every id into one bytes object, then .decode('utf-8', errors='replace')",
    cases=lambda: [([], BYTES), ([104, 105], BYTES), ([0x80], BYTES), ([0xF0, 0x9F], BYTES),
                   ([256, 100], naive.build_vocab(naive.train("aaabdaaabac", 257)))],
    strategy=decode_args(),
    judge=equal_to(naive.decode),
    hint="join the bytes of every id, then .decode('utf-8', errors='replace'): "
         "a token may end inside a character",
    bugs=(
        Bug("strict", "bytes that are not valid UTF-8 must not raise: decode with errors='replace'",
            decode_model(lambda b: b.decode("utf-8"))),
        Bug("per_token", "join the bytes of all the ids first, then decode once: a character's bytes may be "
                         "split over two tokens", decode_model(lambda b: b.decode("utf-8", errors="replace"),
                                                               per_token=True)),
        Bug("ignores_bad_bytes", "errors='replace', not 'ignore': a byte that is not valid UTF-8 becomes "
                                 "U+FFFD, it does not vanish", decode_model(lambda b: b.decode("utf-8", "ignore"))),
        Bug("ids_as_bytes", "look every id up in vocab: an id above 255 stands for several bytes, so "
                            "bytes(ids) cannot hold it", lambda ids, vocab: bytes(ids).decode("utf-8", errors="replace")),
        Bug("latin1", "decode the bytes as UTF-8: latin-1 makes one character of every byte",
            decode_model(lambda b: b.decode("latin-1"))),
    ),
    probes=decode_probes,
)
