"""Merges recovered from tiktoken's ranks, kept on disk so that a new process needs no recovery.

Recovering cl100k_base's 100,000 merges from its ranks (encodings.recover_merges) takes about a
second, in every process. The first time, the result is written to the user's cache folder
($XDG_CACHE_HOME/bpe-course/merges, else ~/.cache/bpe-course/merges: never next to the package,
which may be read-only on a shared hub), in a file named after the SHA-256 of the rank file it
came from. The file is a JSON header line, then the merges as little-endian uint32 triples
(left, right, new id). The header holds the payload's SHA-256, so a damaged or cut-short file
is noticed: it is rebuilt, never trusted. A cache folder that cannot be written is skipped.
"""

import array
import hashlib
import json
import os
import sys
import uuid
from pathlib import Path

FORMAT = "bpe-course merges v1"


def cache_folder():
    """Where recovered merges are kept: the user's cache folder, as the XDG spec says."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "bpe-course" / "merges"


def cache_path(rank_file_sha256):
    return cache_folder() / f"{rank_file_sha256}.merges"


def load_merges(rank_file_sha256):
    """The cached {"merges": {(a, b): id}, "byte_shuffle": [...], ...} for this rank file, or
    None if there is none or it is damaged (a damaged file is removed)."""
    path = cache_path(rank_file_sha256)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        return _parse(data, rank_file_sha256)
    except (ValueError, KeyError, TypeError, IndexError):
        _remove(path)
        return None


def _parse(data, rank_file_sha256):
    header_line, _, payload = data.partition(b"\n")
    header = json.loads(header_line)
    if header["format"] != FORMAT or header["rank_file_sha256"] != rank_file_sha256:
        raise ValueError("not this rank file's merges")
    if hashlib.sha256(payload).hexdigest() != header["payload_sha256"]:
        raise ValueError("damaged payload")
    triples = array.array("I")
    triples.frombytes(payload)
    if sys.byteorder == "big":
        triples.byteswap()
    if len(triples) != 3 * header["merges"]:
        raise ValueError("wrong number of merges")
    merges = dict(zip(zip(triples[0::3], triples[1::3]), triples[2::3]))
    return {"merges": merges, "byte_shuffle": header["byte_shuffle"], "pattern": header["pattern"],
            "special_tokens": header["special_tokens"]}


def save_merges(rank_file_sha256, merges, byte_shuffle, pattern, special_tokens):
    """Write the cache file atomically; True if it was written."""
    triples = array.array("I", [x for (left, right), idx in merges.items() for x in (left, right, idx)])
    if sys.byteorder == "big":
        triples.byteswap()
    payload = triples.tobytes()
    header = {"format": FORMAT, "rank_file_sha256": rank_file_sha256, "merges": len(merges),
              "payload_sha256": hashlib.sha256(payload).hexdigest(), "byte_shuffle": list(byte_shuffle),
              "pattern": pattern, "special_tokens": special_tokens}
    path = cache_path(rank_file_sha256)
    temporary = path.with_name(f"{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(json.dumps(header).encode("utf-8") + b"\n" + payload)
        os.replace(temporary, path)
    except OSError:
        return False  # a read-only home: recover again next time
    finally:
        _remove(temporary)
    return True


def _remove(path):
    try:
        path.unlink()
    except OSError:
        pass
