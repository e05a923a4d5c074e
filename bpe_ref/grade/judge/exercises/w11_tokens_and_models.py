"""Workbook 11, what tokenization does to a model: `tokens_per_byte` (the token tax of a language)
and `unused_tokens` (the tokens a corpus never produces, which a model never learns)."""

import math

from hypothesis import strategies as st

from .._private import usage
from .common import MIXED_TEXT, Bug, Mismatch, equal_to, exercise

LANGUAGES = ["English", "Korean", "Arabic", "emoji", "Hindi"]


def rates_match(args, got):
    """Tokens per byte: the same languages, each rate within rounding of the reference's."""
    expected = usage.tokens_per_byte(*args)
    ok = isinstance(got, dict) and set(got) == set(expected) and all(
        isinstance(got[k], (int, float)) and not isinstance(got[k], bool)
        and math.isclose(got[k], v, rel_tol=1e-9, abs_tol=1e-12) for k, v in expected.items())
    return None if ok else Mismatch(expected)


def rates_model(size, divide=lambda tokens, size: tokens / size, guard=True):
    """tokens_per_byte with one slip: the text's size measured wrongly, the division turned round or
    rounded down, or an empty text divided by."""
    def tokens_per_byte(texts, ids):
        rates = {}
        for language, text in texts.items():
            n = size(text)
            rates[language] = (divide(len(ids[language]), n) if n else 0.0) if guard else divide(len(ids[language]), n)
        return rates
    return tokens_per_byte


def utf8_size(text):
    return len(text.encode("utf-8"))


@st.composite
def texts_and_ids(draw):
    languages = draw(st.lists(st.sampled_from(LANGUAGES), unique=True, max_size=4))
    texts = {lang: draw(MIXED_TEXT) for lang in languages}
    ids = {lang: draw(st.lists(st.integers(0, 300), max_size=12)) for lang in languages}
    return texts, ids


exercise(
    name="tokens_per_byte", signature="tokens_per_byte(texts, ids) -> dict[str, float]",
    workbook="11_tokens_and_models", section="2. Exercise: `tokens_per_byte`",
    task="for each language: len(ids[language]) / the number of UTF-8 bytes of texts[language]; 0.0 for an empty text",
    cases=lambda: [({}, {}), ({"English": ""}, {"English": []}), ({"English": "hi"}, {"English": [104, 105]}),
                   ({"Korean": "안녕"}, {"Korean": [1, 2]}), ({"emoji": "👍🏽"}, {"emoji": [1, 2, 3]}),
                   ({"English": "hello", "Arabic": "مرحبا"}, {"English": [31373], "Arabic": [1, 2, 3, 4]})],
    strategy=texts_and_ids(),
    judge=rates_match,
    hint="for each language, divide the number of its ids by the number of bytes of its text "
         "(len(text.encode('utf-8'))), and give an empty text 0.0",
    bugs=(
        Bug("per_character", "per *byte*: count len(text.encode('utf-8')), not len(text); a Korean syllable is "
                             "3 bytes and an emoji 4, so counting characters hides part of the tax",
            rates_model(len)),
        Bug("inverted", "tokens per byte is the number of tokens divided by the number of bytes, not bytes "
                        "per token", rates_model(utf8_size, lambda tokens, size: size / tokens if tokens else 0.0)),
        Bug("floor_division", "divide with /, not //: a rate is a fraction below 1, and // rounds it down to 0",
            rates_model(utf8_size, lambda tokens, size: tokens // size)),
        Bug("rounded", "return the exact ratio: round only when you print it",
            rates_model(utf8_size, lambda tokens, size: round(tokens / size, 2)),
            also=(rates_model(utf8_size, lambda tokens, size: round(tokens / size, 3)),
                  rates_model(utf8_size, lambda tokens, size: round(tokens / size, 4)))),
        Bug("empty_text", "an empty text has no bytes: give it 0.0 instead of dividing by zero",
            rates_model(utf8_size, guard=False), errors=("ZeroDivisionError",)),
    ),
    probes=lambda: [({"Korean": "안녕", "English": "", "emoji": "😀"}, {"Korean": [1], "English": [], "emoji": [1, 2]}),
                    ({"Hindi": "नमस्ते"}, {"Hindi": [1, 2, 3, 4, 5, 6]})],
)


def unused_model(take=lambda vocab: vocab, encoded_part=lambda encoded: encoded, finish=sorted,
                 produced=False):
    """unused_tokens with one slip: the wrong ids considered, only part of the documents read, the
    answer left in the vocab's order or as a set, or the produced ids returned instead."""
    def unused_tokens(vocab, encoded):
        seen = set()
        for ids in encoded_part(encoded):
            seen.update(ids)
        return finish(idx for idx in take(vocab) if (idx in seen) == produced)
    return unused_tokens


def flat_set(vocab, encoded):
    """set(encoded), as if encoded were the ids themselves: a list of lists is unhashable."""
    return sorted(set(vocab) - set(encoded))


@st.composite
def vocab_and_documents(draw):
    ids = draw(st.lists(st.integers(0, 400), unique=True, max_size=10))
    vocab = {idx: draw(st.binary(min_size=1, max_size=3)) for idx in ids}
    documents = st.lists(st.sampled_from(ids), max_size=6) if ids else st.just([])
    return vocab, draw(st.lists(documents, max_size=4))


BYTES = {i: bytes([i]) for i in range(256)}
SMALL_VOCAB = {**BYTES, 256: b"ab", 257: b"abc"}

exercise(
    name="unused_tokens", signature="unused_tokens(vocab, encoded) -> list[int]",
    workbook="11_tokens_and_models", section="8. Exercise: `unused_tokens`",
    task="collect every id of every list in encoded into a set; return the vocab's ids not in it, sorted",
    cases=lambda: [({}, []), ({0: b"a"}, []), ({0: b"a", 1: b"b", 7: b"ab"}, [[0, 7], [0]]),
                   ({0: b"a", 1: b"b"}, [[0], [1]]), ({7: b"ab", 0: b"a", 1: b"b"}, [[0]]),
                   ({5: b"x", 100257: b"<|endoftext|>"}, [[5, 5]]),
                   (SMALL_VOCAB, [[256, 99], [257]])],
    strategy=vocab_and_documents(),
    judge=equal_to(usage.unused_tokens),
    hint="gather the ids of every document into one set, then keep the vocab's ids that are not in it, "
         "in increasing order",
    bugs=(
        Bug("first_document_only", "look through every document of encoded, not only the first",
            unused_model(encoded_part=lambda encoded: encoded[:1])),
        Bug("merged_only", "the 256 single bytes are tokens of the vocab too: a byte such as 0xFF never occurs "
                           "in UTF-8 text, so it is never produced", unused_model(take=lambda v: [i for i in v if i >= 256])),
        Bug("by_position", "take the ids from the vocab's keys: they need not run 0, 1, 2, … (a special token "
                           "may be 100257)", unused_model(take=lambda v: range(len(v)))),
        Bug("vocab_order", "return the ids in increasing order: sorted(...), not the vocab's own order",
            unused_model(finish=list)),
        Bug("a_set", "return a list, sorted, not a set", unused_model(finish=set)),
        Bug("documents_as_ids", "encoded is a list of documents, each a list of ids: go through each "
                                "document's ids (a list cannot go into a set)", flat_set, errors=("TypeError",)),
        Bug("produced", "return the ids that never occur, not the ones that do", unused_model(produced=True)),
    ),
    probes=lambda: [({9: b"z", 3: b"c", 300: b"zz"}, [[3], [300]]), ({0: b"a", 1: b"b", 2: b"c"}, [[0], [], [2]]),
                    ({2: b"c", 256: b"ab"}, [[256]])],
)
