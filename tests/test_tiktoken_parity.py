"""The reference against the real thing: from_tiktoken(name) must equal tiktoken token for token."""

import functools
import textwrap
from pathlib import Path

import pytest
import regex
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_ref import (
    GPT2_SPLIT_PATTERN,
    GPT4_SPLIT_PATTERN,
    O200K_SPLIT_PATTERN,
    from_tiktoken,
    get_encoding,
)
from bpe_ref.encodings import RANK_FILES, CACHE_DIR, cache_file_name, verify_rank_file

NAMES = ["gpt2", "cl100k_base", "o200k_base"]
PATTERNS = {"gpt2": GPT2_SPLIT_PATTERN, "cl100k_base": GPT4_SPLIT_PATTERN, "o200k_base": O200K_SPLIT_PATTERN}

# characters that stress the patterns: letters of many scripts, marks, digits, apostrophes,
# whitespace of every kind, and pieces of special tokens
TRICKY = list("aZ éÉ\u0301\u0308'’sStTdDmMlLvVrRe 0123456789١٢\t\r\n  \u00a0\u3000.,!?<|>_-/\\"
              "한국어中文ひカاَلعربيةשָׁदेवนาไ😀👍🏽\u200d🇯🇵𝐌Ｆ")


@functools.lru_cache(maxsize=None)
def reference(name):
    return from_tiktoken(name)


@pytest.fixture(scope="module", params=NAMES)
def pair(request):
    return reference(request.param), get_encoding(request.param)


def test_rank_files_are_the_ones_tiktoken_expects():
    for name in RANK_FILES:
        verify_rank_file(name, CACHE_DIR / cache_file_name(name))


def test_tiktoken_itself_loads_offline():
    for name in ["gpt2", "r50k_base", "cl100k_base", "o200k_base"]:
        assert tiktoken.get_encoding(name).encode("hello world")


def test_gpt2_is_r50k_under_its_own_name():
    gpt2, r50k = get_encoding("gpt2"), get_encoding("r50k_base")
    assert gpt2.name == "gpt2" and gpt2.n_vocab == r50k.n_vocab == 50257
    assert gpt2.encode("Hello <|endoftext|>", allowed_special="all") == r50k.encode(
        "Hello <|endoftext|>", allowed_special="all")


def test_unknown_encoding_name():
    with pytest.raises(ValueError, match="cl100k_base"):
        get_encoding("cl200k")


@pytest.mark.parametrize("name", NAMES)
def test_patterns_are_tiktokens(name):
    assert get_encoding(name)._pat_str == PATTERNS[name]
    assert reference(name).special_tokens == get_encoding(name)._special_tokens


def test_corpus_line_by_line(pair, corpus):
    tok, enc = pair
    for line in corpus.splitlines(keepends=True):
        assert tok.encode_ordinary(line) == enc.encode_ordinary(line), f"differs on {line!r}"
        expected = enc.encode(line, allowed_special="all")
        assert tok.encode(line, allowed_special="all") == expected, f"differs on {line!r}"
        assert tok.decode(expected) == enc.decode(expected)


def test_whole_corpus(pair, corpus):
    tok, enc = pair
    assert tok.encode(corpus, allowed_special="all") == enc.encode(corpus, allowed_special="all")
    assert tok.encode_ordinary(corpus) == enc.encode_ordinary(corpus)


def test_disallowed_special_raises_like_tiktoken(pair):
    tok, enc = pair
    with pytest.raises(ValueError):
        enc.encode("x <|endoftext|>")
    with pytest.raises(ValueError, match="allowed_special"):
        tok.encode("x <|endoftext|>")
    assert tok.encode("x <|endoftext|>", disallowed_special=()) == enc.encode("x <|endoftext|>", disallowed_special=())


def test_decode_partial_characters_like_tiktoken(pair):
    tok, enc = pair
    ids = enc.encode("😀한")
    for i in range(len(ids) + 1):
        assert tok.decode(ids[:i]) == enc.decode(ids[:i])


def chunks_are_token_boundaries(enc, pattern, text):
    """The regex chunks must be what tiktoken encoded: same tokens chunk by chunk."""
    chunks = regex.findall(pattern, text)
    assert "".join(chunks) == text
    per_chunk = [t for c in chunks for t in enc.encode_ordinary(c)]
    return per_chunk == enc.encode_ordinary(text)


def test_split_matches_tiktokens_chunks(corpus):
    for name in NAMES:
        assert chunks_are_token_boundaries(get_encoding(name), PATTERNS[name], corpus), name


@settings(max_examples=150)
@given(st.text(alphabet=st.sampled_from(TRICKY), max_size=40) | st.text(max_size=20))
def test_hypothesis_parity(text):
    for name in NAMES:
        tok, enc = reference(name), get_encoding(name)
        assert tok.encode_ordinary(text) == enc.encode_ordinary(text), (name, text)
        assert tok.encode(text, allowed_special="all", disallowed_special=()) == enc.encode(
            text, allowed_special="all", disallowed_special=()), (name, text)
        assert chunks_are_token_boundaries(enc, PATTERNS[name], text), (name, text)
        ids = enc.encode_ordinary(text)
        assert tok.decode(ids) == enc.decode(ids)


ENCODINGS_OFFLINE = (
    "import bpe_ref, tiktoken\n"
    "for n in ['gpt2', 'r50k_base', 'cl100k_base', 'o200k_base']: assert tiktoken.get_encoding(n).encode('hi')\n"
    "assert bpe_ref.get_encoding('gpt2').encode('hi')\n")
REFUSE_SOCKETS = (  # any connection attempt fails loudly, whatever proxy settings a library reads
    "import socket\n"
    "def refuse(*args, **kwargs):\n"
    "    raise OSError('a network connection was attempted')\n"
    "socket.socket.connect = socket.socket.connect_ex = socket.create_connection = refuse\n")


def workbook_script(name):
    """The code cells of a solution workbook as one script: magics made `pass`, and a cell that raises
    on purpose inside try/except, as Run All goes on past it."""
    import nbformat

    from bpe_ref.grade.reading.course_copy import raises_on_purpose

    notebook = nbformat.read(Path(__file__).parent.parent / "solutions" / f"{name}.ipynb", as_version=4)
    cells = []
    for cell in notebook.cells:
        if cell.cell_type == "code":
            source = "\n".join(line[:len(line) - len(line.lstrip())] + "pass" if line.lstrip().startswith("%") else line
                               for line in cell.source.split("\n"))  # a magic, even inside a block, does nothing
            if raises_on_purpose(cell):
                source = "try:\n" + textwrap.indent(source, "    ") + "\nexcept Exception:\n    pass"
            cells.append(source)
    return "\n".join(cells)


@pytest.mark.parametrize("what", ["encodings", "03a_word_tokenization"])
def test_nothing_is_downloaded(tmp_path, what):
    """With every proxy pointing nowhere, sockets refused and no cache variable set, all encodings
    still load, tiktoken's own "gpt2" (GPT-2's encoder.json and vocab.bpe) included; and workbook
    03a runs whole: NLTK's regexp_tokenize needs no NLTK data, and its texts ship with bpe_ref."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR")}
    dead = "http://127.0.0.1:9"
    temp, home = tmp_path / "tmp", tmp_path / "home"
    temp.mkdir(), home.mkdir()
    env.update(HTTP_PROXY=dead, HTTPS_PROXY=dead, http_proxy=dead, https_proxy=dead, NO_PROXY="", TMPDIR=str(temp),
               HOME=str(home), NLTK_DATA=str(home / "nltk_data"), MPLCONFIGDIR=str(tmp_path / "mpl"),
               MPLBACKEND="Agg", HYPOTHESIS_STORAGE_DIRECTORY=str(tmp_path / "hypothesis"))  # check()'s examples
    code = REFUSE_SOCKETS + (ENCODINGS_OFFLINE if what == "encodings" else workbook_script(what))
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert not any(temp.iterdir()), "something was cached in the temp folder: a download?"
    assert not list(home.rglob("nltk_data")), "NLTK data was looked for or fetched"
