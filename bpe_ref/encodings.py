"""tiktoken's encodings, offline: verified rank files shipped with the package, and
`from_tiktoken`, which rebuilds a RegexTokenizer from an encoding's ranks.

tiktoken looks for `$TIKTOKEN_CACHE_DIR/<sha1 of the download URL>` before it downloads, and
checks the file's SHA-256. bpe_ref/data/tiktoken_cache holds the three files under those
names, so pointing TIKTOKEN_CACHE_DIR there (done on `import bpe_ref` when the variable is
unset) makes `tiktoken.get_encoding` work with no network, on any machine.
"""

import functools
import hashlib
import os
import shutil
from pathlib import Path

from .patterns import GPT2_SPECIAL_TOKENS, GPT2_SPLIT_PATTERN
from .regex_tokenizer import RegexTokenizer

CACHE_DIR = Path(__file__).parent / "data" / "tiktoken_cache"
BASE_URL = "https://openaipublic.blob.core.windows.net/encodings/"

# name -> SHA-256 that tiktoken itself expects for the file
RANK_FILES = {
    "r50k_base": "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
}
ENCODING_NAMES = ("gpt2", "r50k_base", "cl100k_base", "o200k_base")


def cache_file_name(name):
    """The file name tiktoken gives the cached download of `name`."""
    return hashlib.sha1(f"{BASE_URL}{name}.tiktoken".encode()).hexdigest()


def verify_rank_file(name, path):
    """Raise if the file at `path` is not the exact rank file tiktoken expects for `name`."""
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    if digest != RANK_FILES[name]:
        raise ValueError(f"{path} is not {name}: SHA-256 {digest}, expected {RANK_FILES[name]}")


def use_offline_cache():
    """Make tiktoken find the shipped rank files instead of downloading them.

    With no cache variable set, point TIKTOKEN_CACHE_DIR at the shipped files. If the user
    chose a cache directory, copy the verified files into it where they are missing.
    """
    if "TIKTOKEN_CACHE_DIR" not in os.environ and "DATA_GYM_CACHE_DIR" not in os.environ:
        os.environ["TIKTOKEN_CACHE_DIR"] = str(CACHE_DIR)
        return
    target = os.environ.get("TIKTOKEN_CACHE_DIR", os.environ.get("DATA_GYM_CACHE_DIR"))
    if not target or Path(target).resolve() == CACHE_DIR.resolve():
        return  # caching disabled by the user, or already ours
    for name in RANK_FILES:
        destination = Path(target) / cache_file_name(name)
        if not destination.exists():
            try:
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(CACHE_DIR / cache_file_name(name), destination)
            except OSError:
                pass  # read-only cache: tiktoken will fetch it itself where it can


@functools.lru_cache(maxsize=None)
def get_encoding(name):
    """The tiktoken Encoding for 'gpt2', 'r50k_base', 'cl100k_base' or 'o200k_base', offline.

    'gpt2' is served from the r50k_base ranks, which are GPT-2's (tiktoken's own 'gpt2'
    wants two other files that no package ships).

    >>> get_encoding("cl100k_base").encode("hello world")
    [15339, 1917]
    """
    import tiktoken

    if name not in ENCODING_NAMES:
        raise ValueError(f"unknown encoding {name!r}; choose one of {', '.join(ENCODING_NAMES)}")
    use_offline_cache()
    if name != "gpt2":
        return tiktoken.get_encoding(name)
    r50k = tiktoken.get_encoding("r50k_base")
    return tiktoken.Encoding(
        name="gpt2",
        pat_str=GPT2_SPLIT_PATTERN,
        mergeable_ranks=r50k._mergeable_ranks,
        special_tokens=dict(GPT2_SPECIAL_TOKENS),
        explicit_n_vocab=50257,
    )


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


@functools.lru_cache(maxsize=None)
def _recovered(name):
    enc = get_encoding(name)
    ranks = enc._mergeable_ranks
    byte_shuffle = [ranks[bytes([b])] for b in range(256)]
    return enc._pat_str, recover_merges(ranks), byte_shuffle, dict(enc._special_tokens)


def from_tiktoken(name):
    """A RegexTokenizer equal, token for token, to tiktoken's encoding `name`.

    >>> tok = from_tiktoken("cl100k_base")
    >>> tok.encode("hello world") == get_encoding("cl100k_base").encode("hello world")
    True
    """
    pattern, merges, byte_shuffle, special_tokens = _recovered(name)
    tok = RegexTokenizer(pattern)
    tok._set_merges(merges, byte_shuffle)
    tok.whole_tokens = get_encoding(name)._mergeable_ranks
    tok.register_special_tokens(special_tokens)
    return tok
