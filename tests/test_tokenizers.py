"""BasicTokenizer and RegexTokenizer: training, special tokens, save/load."""

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from bpe_ref import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, O200K_SPLIT_PATTERN
from bpe_ref import BasicTokenizer, RegexTokenizer, train
from bpe_ref.patterns import alternatives

TEXT = "Hello, world! 안녕하세요 세계. مرحبا بالعالم. Hello again, world!! 1234 5678"


def test_basic_tokenizer_trains_like_the_free_function():
    tok = BasicTokenizer()
    tok.train(TEXT, 300)
    assert tok.merges == train(TEXT, 300)
    assert tok.decode(tok.encode(TEXT)) == TEXT
    assert tok.pattern is None


def test_regex_tokenizer_merges_never_cross_chunks():
    tok = RegexTokenizer()
    tok.train("dog. dog! dog? dog", 270)
    for token in tok.vocab.values():
        assert len(tok.split(token.decode("utf-8", "replace"))) <= 1


def test_train_verbose_prints_each_merge(capsys):
    RegexTokenizer().train("aaaa bbbb aaaa", 258, verbose=True)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[0].startswith("merge 1/2: (97, 97) -> 256")


def test_train_rejects_small_vocab():
    with pytest.raises(ValueError, match="at least 256"):
        RegexTokenizer().train(TEXT, 100)


def special_tokenizer():
    tok = RegexTokenizer()
    tok.train(TEXT, 280)
    tok.register_special_tokens({"<|endoftext|>": 1000, "<|user|>": 1001})
    return tok


def test_special_tokens_raise_by_default_with_a_fix_it_message():
    tok = special_tokenizer()
    with pytest.raises(ValueError, match=r"allowed_special=\{'<\|endoftext\|>'\}"):
        tok.encode("hi <|endoftext|> there")
    with pytest.raises(ValueError, match="disallowed_special=()"):
        tok.encode("<|user|>")


def test_special_tokens_allowed_and_ordinary():
    tok = special_tokenizer()
    text = "hi<|endoftext|>there<|user|>"
    ids = tok.encode(text, allowed_special="all")
    assert ids[-1] == 1001 and 1000 in ids
    assert tok.decode(ids) == text
    only_eot = tok.encode(text, allowed_special={"<|endoftext|>"}, disallowed_special=())
    assert 1000 in only_eot and 1001 not in only_eot
    assert tok.encode(text, disallowed_special=()) == tok.encode_ordinary(text)
    assert 1000 not in tok.encode_ordinary(text)


def test_special_token_id_clash_is_an_error():
    tok = special_tokenizer()
    with pytest.raises(ValueError, match="already has"):
        tok.register_special_tokens({"<|x|>": 260})


def test_decode_unknown_id():
    with pytest.raises(ValueError, match="unknown token id 5000"):
        special_tokenizer().decode([5000])


@pytest.mark.parametrize("cls", [BasicTokenizer, RegexTokenizer])
def test_save_load_round_trip(tmp_path, cls):
    tok = cls()
    tok.train(TEXT + "\n\ttabs and \"quotes\"", 300)
    tok.register_special_tokens({"<|endoftext|>": 400, "<|a b|>": 401})
    model = tok.save(tmp_path / "tok")
    assert (tmp_path / "tok.vocab").read_text(encoding="utf-8")
    loaded = cls().load(model)
    assert loaded.merges == tok.merges and list(loaded.merges) == list(tok.merges)
    assert loaded.special_tokens == tok.special_tokens
    assert loaded.vocab == tok.vocab and loaded.pattern == tok.pattern
    assert loaded.encode(TEXT + "<|a b|>", allowed_special="all") == tok.encode(TEXT + "<|a b|>", allowed_special="all")


def test_save_load_keeps_a_custom_pattern(tmp_path):
    tok = RegexTokenizer(GPT2_SPLIT_PATTERN)
    tok.train(TEXT, 270)
    loaded = RegexTokenizer().load(tok.save(tmp_path / "gpt2ish"))
    assert loaded.pattern == GPT2_SPLIT_PATTERN


def test_load_rejects_other_files(tmp_path):
    bad = tmp_path / "bad.model"
    bad.write_text("sentencepiece\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not a bpe-course tokenizer file"):
        RegexTokenizer().load(bad)
    bad.write_text("minbpe v1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not in minbpe's format"):
        RegexTokenizer().load(bad)
    bad.write_text("bpe-course tokenizer v9\n", encoding="utf-8")
    with pytest.raises(ValueError, match="this version reads"):
        RegexTokenizer().load(bad)


def test_basic_refuses_a_regex_model(tmp_path):
    tok = RegexTokenizer()
    tok.train(TEXT, 260)
    with pytest.raises(ValueError, match="load it with RegexTokenizer"):
        BasicTokenizer().load(tok.save(tmp_path / "r"))


@given(st.text(alphabet="ab é😀\n", max_size=50), st.integers(256, 280))
def test_regex_round_trip(text, vocab_size):
    tok = RegexTokenizer()
    tok.train(text, vocab_size)
    assert tok.decode(tok.encode_ordinary(text)) == text


@pytest.mark.parametrize("pattern", [GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, O200K_SPLIT_PATTERN])
def test_alternatives_cut_a_pattern_only_at_its_top_level_bars(pattern):
    parts = alternatives(pattern)
    assert "|".join(parts) == pattern and len(parts) >= 7
    for part in parts:
        regex.compile(part)  # each piece is a whole regex: no bar inside (...) or [...] was cut
    assert alternatives(r"a|(?:b|c)|[|\]]|\|") == ["a", "(?:b|c)", r"[|\]]", r"\|"]
    with pytest.raises(TypeError, match="must be a str"):
        alternatives(None)


def test_encode_ordinary_many_is_encode_ordinary_of_each_text():
    """One pass over many texts' new chunks gives what each text alone gives, cache cold or warm."""
    from bpe_ref import from_tiktoken

    tok = from_tiktoken("cl100k_base")
    texts = ["", "hello world", "مرحبا بالعالم", "안녕하세요 👋🏽", "𝐀𝐁 𠀀", "<|endoftext|>", "a\r\n\r\n  b", "hello world"]
    alone = [tok.encode_ordinary(text) for text in texts]
    tok._clear_cache()
    assert tok.encode_ordinary_many(texts) == alone
    assert tok.encode_ordinary_many(texts) == alone  # now from the cache
