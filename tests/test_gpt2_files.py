"""GPT-2's encoder.json and vocab.bpe: made byte for byte from r50k_base, read, written, offline."""

import hashlib
import os
import subprocess
import sys

import pytest
import tiktoken

from bpe_ref import RegexTokenizer, from_tiktoken, get_encoding
from bpe_ref.encodings import CACHE_DIR, GPT2_FILES, cache_file_name, verify_rank_file
from bpe_ref.gpt2_files import bytes_to_unicode, gpt2_file_texts, load_gpt2_files, save_gpt2_files

TEXT = "Hello, world! 안녕하세요 세계. مرحبا بالعالم. It's 2024; naïve café 😀 <|endoftext|> तुम"


def cached(name):
    return CACHE_DIR / cache_file_name(name)


def test_cache_holds_gpt2s_files_with_the_hashes_tiktoken_checks():
    for name in GPT2_FILES:
        verify_rank_file(name, cached(name))
    assert cache_file_name("vocab.bpe") == hashlib.sha1(
        b"https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/vocab.bpe").hexdigest()


def test_writer_gives_gpt2s_files_byte_for_byte():
    encoder_text, merges_text = gpt2_file_texts(from_tiktoken("gpt2"))
    assert hashlib.sha256(encoder_text.encode("utf-8")).hexdigest() == GPT2_FILES["encoder.json"]
    assert hashlib.sha256(merges_text.encode("utf-8")).hexdigest() == GPT2_FILES["vocab.bpe"]


def test_tiktokens_own_gpt2_loads_and_equals_r50k():
    gpt2 = tiktoken.get_encoding("gpt2")
    r50k = tiktoken.get_encoding("r50k_base")
    assert gpt2._mergeable_ranks == r50k._mergeable_ranks
    assert get_encoding("gpt2").encode(TEXT, allowed_special="all") == gpt2.encode(TEXT, allowed_special="all")


def test_loaded_files_match_tiktoken_token_for_token(corpus):
    tok = load_gpt2_files(cached("encoder.json"), cached("vocab.bpe"), special_tokens=["<|endoftext|>"])
    enc = tiktoken.get_encoding("gpt2")
    assert tok.special_tokens == {"<|endoftext|>": 50256}
    assert tok.encode(corpus, allowed_special="all") == enc.encode(corpus, allowed_special="all")
    for line in corpus.splitlines(keepends=True):
        assert tok.encode_ordinary(line) == enc.encode_ordinary(line), f"differs on {line!r}"
    assert tok.decode(enc.encode(TEXT, allowed_special="all")) == TEXT


def test_without_special_tokens_endoftext_only_decodes():
    tok = load_gpt2_files(cached("encoder.json"), cached("vocab.bpe"))
    assert tok.special_tokens == {} and tok.extra_tokens == {50256: b"<|endoftext|>"}
    assert tok.decode([50256]) == "<|endoftext|>"
    assert 50256 not in tok.encode("<|endoftext|>")


@pytest.mark.parametrize("specials", [{}, {"<|endoftext|>": 600, "<|a b|>": 601, "<|é|>": 602}])
def test_trained_tokenizer_round_trips_through_gpt2_files(tmp_path, specials):
    tok = RegexTokenizer()
    tok.train(TEXT * 3 + " the cat sat on the mat", 400)
    tok.register_special_tokens(specials)
    save_gpt2_files(tok, tmp_path / "encoder.json", tmp_path / "vocab.bpe")
    loaded = load_gpt2_files(tmp_path / "encoder.json", tmp_path / "vocab.bpe", pattern=tok.pattern,
                             special_tokens=list(specials))
    assert loaded.vocab == tok.vocab and loaded.merges == tok.merges
    assert loaded.special_tokens == specials
    text = TEXT + "".join(specials)
    allowed = {"allowed_special": "all"} if specials else {"disallowed_special": ()}
    assert loaded.encode(text, **allowed) == tok.encode(text, **allowed)
    with open(tmp_path / "vocab.bpe", encoding="utf-8") as f:
        assert f.readline() == "#version: 0.2\n"


def test_hugging_face_reads_the_written_files(tmp_path, corpus):
    """HF's byte-level BPE loads the pair (its vocab.json/merges.txt) and gives the same ids."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    tok = RegexTokenizer()
    tok.train(corpus, 600)
    save_gpt2_files(tok, tmp_path / "vocab.json", tmp_path / "merges.txt")
    hf = Tokenizer(models.BPE.from_file(str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt")))
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    hf.decoder = decoders.ByteLevel()
    for word in ["hello", " world", "안녕하세요", " naïve", "1234"]:
        assert hf.encode(word).ids == tok.encode(word), word


def test_bytes_to_unicode_is_the_table_tiktoken_and_hugging_face_use():
    from tokenizers.pre_tokenizers import ByteLevel

    table = bytes_to_unicode()
    assert len(set(table.values())) == 256
    assert sorted(table.values()) == sorted(ByteLevel.alphabet())
    assert table[0] == "Ā" and table[32] == "Ġ" and table[255] == "ÿ"


def test_bad_files_say_what_is_wrong(tmp_path):
    (tmp_path / "e.json").write_text("[1, 2]", encoding="utf-8")
    (tmp_path / "m.txt").write_text("#version: 0.2\na b c\n", encoding="utf-8")
    with pytest.raises(ValueError, match="JSON object"):
        load_gpt2_files(tmp_path / "e.json", tmp_path / "m.txt")
    save_gpt2_files(RegexTokenizer(), tmp_path / "e.json", tmp_path / "ok.txt")
    with pytest.raises(ValueError, match="line 2: expected two tokens"):
        load_gpt2_files(tmp_path / "e.json", tmp_path / "m.txt")


READ_ONLY_PACKAGE = """
import os, sys
from pathlib import Path
import bpe_ref.encodings as encodings

shipped = Path(sys.argv[1])
encodings.CACHE_DIR = shipped
real_write = encodings._write_atomically

def refuse_inside_package(path, data):
    if Path(path).parent == shipped:
        raise PermissionError(f"read-only: {path}")
    real_write(path, data)

encodings._write_atomically = refuse_inside_package
del os.environ["TIKTOKEN_CACHE_DIR"]
encodings.install_offline_cache()  # the set-up
encodings.use_offline_cache()  # what a later import does
print(os.environ["TIKTOKEN_CACHE_DIR"])
import tiktoken
assert tiktoken.get_encoding("gpt2").encode("hello world") == [31373, 995]
"""


def test_read_only_package_folder_uses_the_user_cache(tmp_path):
    """A non-editable install may not write next to its files: the cache moves to ~/.cache."""
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    for name in ["r50k_base", "cl100k_base", "o200k_base"]:
        (shipped / cache_file_name(name)).write_bytes(cached(name).read_bytes())
    dead = "http://127.0.0.1:9"
    env = {k: v for k, v in os.environ.items() if k not in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR")}
    env.update(XDG_CACHE_HOME=str(tmp_path / "xdg"), HTTP_PROXY=dead, HTTPS_PROXY=dead, http_proxy=dead,
               https_proxy=dead, NO_PROXY="")
    done = subprocess.run([sys.executable, "-c", READ_ONLY_PACKAGE, str(shipped)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    user_cache = tmp_path / "xdg" / "bpe-course" / "tiktoken_cache"
    assert done.stdout.strip() == str(user_cache)
    assert sorted(p.name for p in shipped.iterdir()) == sorted(cache_file_name(n) for n in
                                                               ["r50k_base", "cl100k_base", "o200k_base"])
    for name in GPT2_FILES:
        verify_rank_file(name, user_cache / cache_file_name(name))


def test_a_cache_folder_of_the_users_choice_gets_every_file(tmp_path):
    dead = "http://127.0.0.1:9"
    env = {k: v for k, v in os.environ.items() if k not in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR")}
    env.update(TIKTOKEN_CACHE_DIR=str(tmp_path), HTTP_PROXY=dead, HTTPS_PROXY=dead, http_proxy=dead,
               https_proxy=dead, NO_PROXY="")
    code = ("from bpe_ref.encodings import install_offline_cache; install_offline_cache()\n"  # the set-up
            "import tiktoken; assert tiktoken.get_encoding('gpt2').encode('hi') == [5303]")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    for name in [*GPT2_FILES, "r50k_base", "cl100k_base", "o200k_base"]:
        verify_rank_file(name, tmp_path / cache_file_name(name))
