"""tiktoken's encodings, offline: verified rank files shipped with the package, and
`from_tiktoken`, which rebuilds a RegexTokenizer from an encoding's ranks.

tiktoken looks for `$TIKTOKEN_CACHE_DIR/<sha1 of the download URL>` before it downloads, and
checks the file's SHA-256. bpe_ref/data/tiktoken_cache holds the three rank files under those
names, so pointing TIKTOKEN_CACHE_DIR there (done on `import bpe_ref` when the variable is
unset; nothing is written) makes `tiktoken.get_encoding` work with no network, on any machine.
tiktoken's own "gpt2" reads GPT-2's encoder.json and vocab.bpe instead: they are the r50k_base
ranks in another dress, written from them byte for byte (`ensure_gpt2_files`) and shipped beside
them. The course's tiktoken_ext plugin (tiktoken_ext/bpe_course_offline.py) points every process
that asks tiktoken for an encoding at the folder, whether it imports bpe_ref or not;
`install_offline_cache` fills a cache folder the user chose instead.

`from_tiktoken` recovers the merges from the ranks once and keeps them in the user's cache
folder (bpe_ref.formats.merges_cache), so a new process loads them instead of recovering them again.
"""

import functools
import hashlib
import base64
import os
import uuid
from pathlib import Path

from .merges_cache import load_merges, save_merges
from ..core.patterns import (GPT2_SPECIAL_TOKENS, GPT2_SPLIT_PATTERN, GPT4_SPECIAL_TOKENS, O200K_SPECIAL_TOKENS,
                       SPLIT_PATTERNS)
from ..core.regex_tokenizer import RegexTokenizer

CACHE_DIR = Path(__file__).parent.parent / "data" / "tiktoken_cache"
BASE_URL = "https://openaipublic.blob.core.windows.net/encodings/"
GPT2_URL = "https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/"

# name -> SHA-256 that tiktoken itself expects for the file
RANK_FILES = {
    "r50k_base": "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
}
# GPT-2's own files, which tiktoken's "gpt2" reads, and the SHA-256 it expects of each
GPT2_FILES = {
    "encoder.json": "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
    "vocab.bpe": "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
}
ENCODING_NAMES = ("gpt2", "r50k_base", "cl100k_base", "o200k_base")


def cache_file_name(name):
    """The file name tiktoken gives the cached download of `name` (an encoding or a GPT-2 file)."""
    url = f"{GPT2_URL}{name}" if name in GPT2_FILES else f"{BASE_URL}{name}.tiktoken"
    return hashlib.sha1(url.encode()).hexdigest()


def verify_rank_file(name, path):
    """Raise if the file at `path` is not the exact file tiktoken expects for `name`."""
    expected = GPT2_FILES.get(name) or RANK_FILES[name]
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    if digest != expected:
        raise ValueError(f"{path} is not {name}: SHA-256 {digest}, expected {expected}")


def use_offline_cache():
    """Point tiktoken at the shipped rank files when no cache folder is chosen. Writes nothing.

    With no cache variable set, TIKTOKEN_CACHE_DIR becomes the shipped folder, or the user's
    cache folder if the set-up had to put GPT-2's files there (a read-only package folder).
    """
    if "TIKTOKEN_CACHE_DIR" in os.environ or "DATA_GYM_CACHE_DIR" in os.environ:
        return
    folder = CACHE_DIR
    if not _has_gpt2_files(CACHE_DIR) and _has_gpt2_files(user_cache_dir()):
        folder = user_cache_dir()
    os.environ["TIKTOKEN_CACHE_DIR"] = str(folder)


def install_offline_cache():
    """The set-up's part (course.py setup, python -m bpe_ref.course.lab): write GPT-2's files beside the
    rank files, or into the user's cache folder when the package folder is read-only; fill a
    cache folder the user chose too. Returns the course's own folder, for tiktoken to use."""
    target = os.environ.get("TIKTOKEN_CACHE_DIR", os.environ.get("DATA_GYM_CACHE_DIR"))
    if target and Path(target).resolve() != CACHE_DIR.resolve():
        fill_cache(Path(target))
    if ensure_gpt2_files(CACHE_DIR):
        return CACHE_DIR
    if fill_cache(user_cache_dir()):
        return user_cache_dir()
    return CACHE_DIR


def _has_gpt2_files(folder):
    return all((Path(folder) / cache_file_name(name)).exists() for name in GPT2_FILES)


def user_cache_dir():
    """Where the files go when the package's own folder cannot be written to."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "bpe-course" / "tiktoken_cache"


def fill_cache(folder):
    """Copy the rank files into `folder` and write GPT-2's files there; True if all are there."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in RANK_FILES:
            destination = folder / cache_file_name(name)
            if not destination.exists():
                _write_atomically(destination, (CACHE_DIR / cache_file_name(name)).read_bytes())
    except OSError:
        return False  # read-only cache: tiktoken will fetch what it can itself
    return ensure_gpt2_files(folder)


def ensure_gpt2_files(folder):
    """Write GPT-2's encoder.json and vocab.bpe into tiktoken's cache `folder` if missing.

    They are made from the r50k_base ranks and checked against the SHA-256 tiktoken expects
    before they are written. True if both are there afterwards.
    """
    paths = {name: Path(folder) / cache_file_name(name) for name in GPT2_FILES}
    if all(path.exists() for path in paths.values()):
        return True
    from .gpt2_files import gpt2_file_texts

    texts = gpt2_file_texts(_gpt2_from_ranks())
    try:
        for (name, path), text in zip(paths.items(), texts):
            data = text.encode("utf-8")
            if hashlib.sha256(data).hexdigest() != GPT2_FILES[name]:
                raise ValueError(f"the {name} made from r50k_base is not GPT-2's; please report this")
            _write_atomically(path, data)
    except OSError:
        return False
    return True


def _gpt2_from_ranks():
    """GPT-2's tokenizer from the shipped r50k_base rank file (read here, not through tiktoken,
    which would look at the cache being filled)."""
    return from_tiktoken("r50k_base")


def _write_atomically(path, data):
    """Write to a temporary name, then rename: a reader never sees half a file."""
    temporary = path.with_name(f"{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    finally:
        if temporary.exists():
            temporary.unlink()


@functools.lru_cache(maxsize=None)
def get_encoding(name):
    """The tiktoken Encoding for 'gpt2', 'r50k_base', 'cl100k_base' or 'o200k_base', offline.

    >>> get_encoding("cl100k_base").encode("hello world")
    [15339, 1917]
    """
    import tiktoken

    if name not in ENCODING_NAMES:
        raise ValueError(f"unknown encoding {name!r}; choose one of {', '.join(ENCODING_NAMES)}")
    use_offline_cache()
    if name != "gpt2" or _gpt2_files_cached():
        return tiktoken.get_encoding(name)
    r50k = tiktoken.get_encoding("r50k_base")  # GPT-2's ranks, should its files be out of reach
    return tiktoken.Encoding(
        name="gpt2",
        pat_str=GPT2_SPLIT_PATTERN,
        mergeable_ranks=r50k._mergeable_ranks,
        special_tokens=dict(GPT2_SPECIAL_TOKENS),
        explicit_n_vocab=50257,
    )


def _gpt2_files_cached():
    return _has_gpt2_files(os.environ.get("TIKTOKEN_CACHE_DIR", ""))


def bpe(mergeable_ranks, token, max_rank):
    """Split `token` the way BPE would, using only merges ranked below `max_rank`.

    Run on a token's own bytes with max_rank = its rank, this stops one step early and
    leaves the two parts whose merge made the token.
    """
    parts = [bytes([b]) for b in token]
    while True:
        min_idx, min_rank = None, None
        for i, pair in enumerate(zip(parts, parts[1:])):
            rank = mergeable_ranks.get(pair[0] + pair[1])
            if rank is not None and (min_rank is None or rank < min_rank):
                min_idx, min_rank = i, rank
        if min_rank is None or min_rank >= max_rank:
            return parts
        parts = parts[:min_idx] + [parts[min_idx] + parts[min_idx + 1]] + parts[min_idx + 2:]


def recover_merges(mergeable_ranks):
    """Turn tiktoken's ranks (bytes -> rank) into merges ((id, id) -> id), in rank order."""
    merges = {}
    for token, rank in sorted(mergeable_ranks.items(), key=lambda item: item[1]):
        if len(token) == 1:
            continue
        pair = bpe(mergeable_ranks, token, max_rank=rank)
        if len(pair) != 2:
            raise ValueError(f"token {token!r} (rank {rank}) is not the merge of two tokens")
        merges[(mergeable_ranks[pair[0]], mergeable_ranks[pair[1]])] = rank
    return merges


SPECIAL_TOKENS = {"gpt2": GPT2_SPECIAL_TOKENS, "r50k_base": GPT2_SPECIAL_TOKENS,
                  "cl100k_base": GPT4_SPECIAL_TOKENS, "o200k_base": O200K_SPECIAL_TOKENS}


def read_ranks(name):
    """The shipped rank file of encoding `name` (gpt2's are r50k_base's) as bytes -> rank, and
    the file's SHA-256, checked against the one tiktoken expects."""
    file_name = "r50k_base" if name == "gpt2" else name
    data = (CACHE_DIR / cache_file_name(file_name)).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != RANK_FILES[file_name]:
        raise ValueError(f"the shipped {file_name} rank file is damaged: SHA-256 {digest}; reinstall bpe_ref")
    ranks = {}
    for line in data.splitlines():
        token, rank = line.split()
        ranks[base64.b64decode(token)] = int(rank)
    return ranks, digest


@functools.lru_cache(maxsize=None)
def _recovered(name):
    """(pattern, merges, byte_shuffle, special_tokens) of encoding `name`: from the user's cache
    folder if an earlier process recovered them, else recovered now and cached there."""
    if name not in ENCODING_NAMES:
        raise ValueError(f"unknown encoding {name!r}; choose one of {', '.join(ENCODING_NAMES)}")
    file_name = "r50k_base" if name == "gpt2" else name
    digest = hashlib.sha256((CACHE_DIR / cache_file_name(file_name)).read_bytes()).hexdigest()
    cached = load_merges(digest)
    if cached is not None:
        return cached["pattern"], cached["merges"], cached["byte_shuffle"], cached["special_tokens"]
    ranks, digest = read_ranks(name)
    merges = recover_merges(ranks)
    byte_shuffle = [ranks[bytes([b])] for b in range(256)]
    pattern, special_tokens = SPLIT_PATTERNS[name], dict(SPECIAL_TOKENS[name])
    save_merges(digest, merges, byte_shuffle, pattern, special_tokens)
    return pattern, merges, byte_shuffle, special_tokens


def from_tiktoken(name):
    """A RegexTokenizer equal, token for token, to tiktoken's encoding `name`.

    The merges are recovered from tiktoken's ranks the first time (about a second for
    cl100k_base) and read from the user's cache folder after that (bpe_ref.formats.merges_cache).

    >>> tok = from_tiktoken("cl100k_base")
    >>> tok.encode("hello world") == get_encoding("cl100k_base").encode("hello world")
    True
    """
    pattern, merges, byte_shuffle, special_tokens = _recovered(name)
    tok = RegexTokenizer(pattern)
    tok.special_tokens = dict(special_tokens)
    tok._set_merges(merges, byte_shuffle)
    tok.whole_tokens = tok._trained_tokens()  # as in tiktoken: every token is its own bytes' BPE
    return tok
