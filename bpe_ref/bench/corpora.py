"""The benchmark's corpus, built from files on this machine the same way everywhere (no network).

Round 0 is real text: the course's multilingual text (tests/data/multilingual.txt), then the
.txt, .rst and .py files of this Python's standard library in sorted order (about 32 MB on
Python 3.11). A larger corpus goes on with the same documents in rounds of deterministic
variation. In round k a share (k+1)**0.5 - k**0.5 of the distinct words (runs of letters) is
respelled, its letters rotated; a CRC-32 of the word and k picks which words and how far. So
the number of distinct words grows about as the square root of the corpus size, as it does
in real text (Heaps' law), and a 160 MB corpus is not 32 MB said five times.

    corpus(40)               # the first 40 MB (UTF-8), as a list of documents
    write_corpus(path, 40)   # the same text in one file, with its size and SHA-256
"""

import hashlib
import itertools
import sysconfig
import zlib
from pathlib import Path

import regex

MB = 1_000_000
MULTILINGUAL = Path(__file__).resolve().parents[2] / "tests" / "data" / "multilingual.txt"
STDLIB = Path(sysconfig.get_paths()["stdlib"])
HEAPS_EXPONENT = 0.5  # distinct words grow as (corpus size) ** this
WORD = regex.compile(r"\p{L}{2,}")


def corpus_files():
    """The corpus's files in a fixed order: the multilingual text, stdlib prose, stdlib code."""
    files = [MULTILINGUAL] if MULTILINGUAL.exists() else []
    found = [p for p in STDLIB.rglob("*") if p.suffix in (".txt", ".rst", ".py") and p.is_file()]
    found = [p for p in found if "site-packages" not in p.relative_to(STDLIB).parts]
    return files + sorted(found, key=lambda p: (p.suffix == ".py", p.relative_to(STDLIB).as_posix()))


def base_documents():
    """Round 0: the text of each corpus file, in order."""
    for path in corpus_files():
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            yield f.read()


def respell(word, round_no):
    """The word as round `round_no` spells it: rotated for a share of words, else unchanged.

    respell("python", 0) -> 'python'; in later rounds some words come out as e.g. 'honpyt'.
    """
    share = (round_no + 1) ** HEAPS_EXPONENT - round_no ** HEAPS_EXPONENT
    digest = zlib.crc32(f"{round_no}:{word}".encode("utf-8"))
    if round_no == 0 or digest >= share * 2**32:
        return word
    shift = 1 + digest % (len(word) - 1)
    return word[shift:] + word[:shift]


def varied_documents(documents, round_no):
    """The documents of round `round_no`: each word respelled the round's way."""
    spelled = {}

    def replace(match):
        word = match.group()
        new = spelled.get(word)
        if new is None:
            new = spelled[word] = respell(word, round_no)
        return new

    for doc in documents:
        yield doc if round_no == 0 else WORD.sub(replace, doc)


def iter_documents():
    """Every document of the corpus, round after round, without end."""
    for round_no in itertools.count():
        yield from varied_documents(base_documents(), round_no)


def corpus(megabytes):
    """The first `megabytes` MB (UTF-8) of the corpus, as a list of documents."""
    limit, size, docs = int(megabytes * MB), 0, []
    for text in iter_documents():
        data = text.encode("utf-8")
        if size + len(data) >= limit:
            docs.append(data[:limit - size].decode("utf-8", errors="ignore"))
            break
        docs.append(text)
        size += len(data)
    return docs


def write_corpus(path, megabytes):
    """Write the first `megabytes` MB of the corpus to `path`; what it holds, for the record."""
    digest, size, docs = hashlib.sha256(), 0, corpus(megabytes)
    with open(path, "w", encoding="utf-8", newline="") as f:
        for doc in docs:
            data = doc.encode("utf-8")
            digest.update(data)
            size += len(data)
            f.write(doc)
    return {"path": str(path), "megabytes": size / MB, "documents": len(docs), "sha256": digest.hexdigest()}


def describe_corpus(megabytes):
    """Size, document count and SHA-256 of the first `megabytes` MB, and where it came from."""
    docs = corpus(megabytes)
    data = "".join(docs).encode("utf-8")
    return {"megabytes": len(data) / MB, "documents": len(docs), "sha256": hashlib.sha256(data).hexdigest(),
            "multilingual_txt": MULTILINGUAL.exists(), "stdlib": str(STDLIB)}
