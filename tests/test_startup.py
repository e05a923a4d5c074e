"""Starting the course: `import bpe_ref` writes nothing, tiktoken works offline in any process of
the environment, and from_tiktoken's merges come from the user's cache folder after the first time."""

import os
import subprocess
import sys

import pytest

from bpe_ref import from_tiktoken, get_encoding
from bpe_ref.merges_cache import cache_path, load_merges

DEAD = "http://127.0.0.1:9"
NO_CACHE_VARIABLES = ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR")


def run_python(code, tmp_path, **extra_env):
    """`code` in a fresh process of this environment: no cache variable, proxies pointing nowhere,
    the user's cache folder and temp folder inside tmp_path."""
    env = {k: v for k, v in os.environ.items() if k not in NO_CACHE_VARIABLES}
    env.update(HTTP_PROXY=DEAD, HTTPS_PROXY=DEAD, http_proxy=DEAD, https_proxy=DEAD, NO_PROXY="",
               XDG_CACHE_HOME=str(tmp_path / "xdg"), TMPDIR=str(tmp_path / "tmp"), PYTHONDONTWRITEBYTECODE="1",
               **extra_env)
    (tmp_path / "tmp").mkdir(exist_ok=True)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


WRITES_NOTHING = """
import os, sys
writes = []
def hook(event, args):
    if event == "open" and (any(c in str(args[1] or "") for c in "wax+")
                            or args[2] & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)):
        writes.append(args[0])
    elif event in ("os.mkdir", "os.rename", "os.replace", "os.remove", "shutil.copyfile"):
        writes.append((event, args[0]))
sys.addaudithook(hook)
import bpe_ref
import bpe_ref.bench, bpe_ref.lab, bpe_ref.grade, bpe_ref.workbook
assert not writes, writes
print(os.environ["TIKTOKEN_CACHE_DIR"])
"""


def test_import_writes_nothing(tmp_path):
    folder = run_python(WRITES_NOTHING, tmp_path).strip()
    assert os.path.isdir(folder)


def test_plain_tiktoken_works_offline_in_any_process_of_the_environment(tmp_path):
    """No bpe_ref import, no variable: the course's tiktoken_ext plugin points tiktoken at the files."""
    code = ("import tiktoken\n"
            "for name in ['gpt2', 'r50k_base', 'cl100k_base', 'o200k_base']:\n"
            "    assert tiktoken.get_encoding(name).encode('hello world')\n")
    run_python(code, tmp_path)
    assert not any((tmp_path / "tmp").iterdir()), "tiktoken cached a download in the temp folder"


def test_merges_are_cached_in_the_users_cache_folder_and_reused(tmp_path):
    code = ("import bpe_ref.encodings as e\n"
            "tok = e.from_tiktoken('cl100k_base')\n"
            "print(len(tok.merges))\n")
    assert run_python(code, tmp_path).strip() == "100000"
    files = list((tmp_path / "xdg" / "bpe-course" / "merges").iterdir())
    assert [f.name for f in files] == ["223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7.merges"]
    # a second process loads them: recovering is made to fail there
    code = ("import bpe_ref.encodings as e\n"
            "def refuse(ranks): raise AssertionError('recovered again despite the cache')\n"
            "e.recover_merges = refuse\n"
            "tok = e.from_tiktoken('cl100k_base')\n"
            "enc = e.get_encoding('cl100k_base')\n"
            "text = 'Hello, naïve world! 1234 한국어 😀'\n"
            "assert tok.encode(text) == enc.encode(text)\n"
            "print(len(tok.merges))\n")
    assert run_python(code, tmp_path).strip() == "100000"


@pytest.mark.parametrize("damage", ["flip a byte", "cut short", "garbage header", "empty"])
def test_a_damaged_cache_is_rebuilt_never_trusted(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    import bpe_ref.encodings as encodings

    digest = "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930"  # r50k_base
    encodings._recovered.cache_clear()
    good = from_tiktoken("r50k_base")
    path = cache_path(digest)
    data = path.read_bytes()
    damaged = {"flip a byte": data[:-7] + bytes([data[-7] ^ 1]) + data[-6:], "cut short": data[:len(data) // 2],
               "garbage header": b"{nonsense\n" + data, "empty": b""}[damage]
    path.write_bytes(damaged)
    assert load_merges(digest) is None and not path.exists()
    path.write_bytes(damaged)
    encodings._recovered.cache_clear()
    again = from_tiktoken("r50k_base")
    assert again.merges == good.merges
    assert list(again.merges) == list(good.merges)
    assert load_merges(digest)["merges"] == good.merges  # rebuilt
    text = "Hello world, it's 2024!"
    assert again.encode(text) == get_encoding("r50k_base").encode(text)
    encodings._recovered.cache_clear()


def test_a_read_only_cache_folder_is_skipped(tmp_path, monkeypatch):
    (tmp_path / "bpe-course").write_text("a file where the folder should be", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    import bpe_ref.encodings as encodings

    encodings._recovered.cache_clear()
    try:
        tok = from_tiktoken("r50k_base")
        assert tok.encode("hello world") == [31373, 995]
    finally:
        encodings._recovered.cache_clear()


@pytest.mark.parametrize("name", ["gpt2", "r50k_base", "cl100k_base", "o200k_base"])
def test_special_tokens_and_pattern_are_tiktokens(name):
    tok, enc = from_tiktoken(name), get_encoding(name)
    assert tok.special_tokens == enc._special_tokens
    assert tok.pattern == enc._pat_str
    assert tok.whole_tokens == enc._mergeable_ranks
