"""The token viewer: spans give back the text, the HTML is escaped and stable, counts are tiktoken's."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from bpe_ref import GPT4_SPLIT_PATTERN, RegexTokenizer, get_encoding  # noqa: E402
from bpe_ref.viewer import compare_token_counts, render_html, token_spans  # noqa: E402

TEXT = "Hello wörld!\n\tx = 12345  # 안녕하세요 😀👩‍👩‍👧 مَرْحَبًا <|endoftext|> & <b>"
ENCODINGS = ["gpt2", "cl100k_base", "o200k_base"]


@pytest.mark.parametrize("name", ENCODINGS)
def test_spans_join_back_into_the_text(name):
    spans = token_spans(TEXT, name)
    assert "".join(piece for _, piece in spans) == TEXT
    assert [idx for idx, _ in spans] == get_encoding(name).encode(TEXT, disallowed_special=())


def test_a_learners_pair_and_a_tokenizer_object():
    tok = RegexTokenizer(GPT4_SPLIT_PATTERN)
    tok.train("안녕하세요 안녕 hello hello 😀😀", 270)
    pair = (tok.encode_ordinary, dict(tok.vocab))
    for spec in (pair, tok):
        spans = token_spans(TEXT, spec)
        assert "".join(piece for _, piece in spans) == TEXT
        assert [idx for idx, _ in spans] == tok.encode_ordinary(TEXT)


def test_a_character_split_across_tokens_goes_to_the_token_that_completes_it():
    vocab = {i: bytes([i]) for i in range(256)}
    spans = token_spans("é", (lambda text: list(text.encode("utf-8")), vocab))
    assert spans == [(0xC3, ""), (0xA9, "é")]
    assert "(part of a character)" in render_html("é", {"bytes": (lambda t: list(t.encode()), vocab)})


def test_special_tokens_are_ordinary_text_unless_allowed():
    enc = get_encoding("cl100k_base")
    assert len(token_spans("<|endoftext|>", "cl100k_base")) > 1
    assert token_spans("<|endoftext|>", "cl100k_base", allowed_special="all") == [
        (enc.eot_token, "<|endoftext|>")]


def test_html_is_escaped_deterministic_and_shows_whitespace():
    page = render_html("a <|endoftext|> & <b>\n", {"GPT-4 <x>": "cl100k_base"})
    assert "<|" not in page and "&lt;|" in page
    special = render_html("<|endoftext|>", "cl100k_base", allowed_special="all")
    assert "<|endoftext|>" not in special and "&lt;|endoftext|&gt;" in special
    assert "&amp;" in page and "<b>" not in page and "GPT-4 &lt;x&gt;" in page
    assert "↵" in page and "white-space:pre-wrap" in page
    assert page == render_html("a <|endoftext|> & <b>\n", {"GPT-4 <x>": "cl100k_base"})
    assert " at 0x" not in page


def test_counts_equal_tiktoken():
    texts = {"English": "The quick brown fox.", "Korean": "안녕하세요, 세계!", "Code": "for i in range(10):\n    pass"}
    counts = compare_token_counts(texts)
    plt.close("all")
    for name in ENCODINGS:
        enc = get_encoding(name)
        assert counts[name] == {k: len(enc.encode(v)) for k, v in texts.items()}


def test_a_bad_tokenizer_is_a_clear_type_error():
    with pytest.raises(TypeError, match="encoding name"):
        token_spans("hi", 42)
