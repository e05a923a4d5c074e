"""Count the distinct chunks of a corpus, streamed from a str, a file or an iterable of str.

Training needs only how often each distinct chunk occurs, in order of first appearance, not
the list of every chunk. The text is read in pieces, cut into parts at safe cuts and special
tokens (bpe_ref.core.stream), and each part is split and counted on its own. Once the input is
large, parts are counted in worker processes on every core and their counts are added in
the parts' order, so each chunk keeps its place of first appearance, as the tie-break
needs. Memory stays near the distinct chunks plus a few parts, whatever the input's size.
"""

import codecs
import os
from collections import Counter, deque
from itertools import chain
from multiprocessing import get_all_start_methods, get_context

from .parallel import default_workers
from .stream import iter_parts
from .unicode_classes import split_regex

# Parts, blocks and their chunk lists stay small: below glibc's mmap threshold (128 KB),
# memory freed after each part is reused, where large freed blocks would pile up unreturned.
PART_SIZE = 1 << 15  # characters split at a time
BLOCK_SIZE = 1 << 16  # bytes or characters read from a file at a time
BATCH_SIZE = 1 << 20  # characters of parts sent to a worker at once (fewer, larger counts to add)
PARALLEL_MIN = 1 << 22  # characters; below this, counting in worker processes does not pay


def count_chunks(source, pattern=None, special_tokens=None, *, workers=None, progress=None):
    """How often each chunk of `source` occurs: {chunk: count}, in order of first appearance.

    `source` is a str (the text itself), a path (os.PathLike), an open file, or an iterable
    of str (pieces of one text). Special tokens are cut out and not counted. `workers` is
    how many processes count (default: every core, once the input passes a few MB; 1: this
    process only). `progress`, a tqdm bar if given, moves on as parts are counted: in
    characters for a str, in bytes (UTF-8) otherwise.

    >>> count_chunks("the cat, the hat", r" ?\\w+|\\W")
    Counter({'the': 1, ' cat': 1, ',': 1, ' the': 1, ' hat': 1})
    """
    pieces, size = read_source(source)
    measure = len if isinstance(source, str) else _utf8_length
    if progress is not None:
        progress.unit = "char" if isinstance(source, str) else "B"
        progress.reset(total=size)
    pattern = pattern or None  # "" splits nothing, as None
    specials = frozenset(special_tokens or ())
    parts = (part for part in iter_parts(pieces, pattern, specials, PART_SIZE) if part not in specials)
    split = split_regex(pattern).findall if pattern else _whole
    workers = _worker_count(workers)
    counts = Counter()
    here = _in_process_budget(size, workers, pattern)
    for part in parts:
        if here <= 0:
            batches = _batches(chain([part], parts), BATCH_SIZE)
            for batch, batch_counts in _count_in_workers(batches, pattern, workers):
                counts.update(batch_counts)
                _report(progress, measure, batch)
            break
        counts.update(split(part))
        here -= len(part)
        _report(progress, measure, part)
    if progress is not None and size is not None:
        progress.update(max(0, size - progress.n))  # the special tokens, not counted above
    return counts


def read_text(source):
    """The whole text of `source` (see count_chunks) as one str."""
    pieces, _ = read_source(source)
    return "".join(pieces)


def read_source(source):
    """The text of `source` as an iterator of str pieces, and its size if known (else None):
    in characters for a str, in bytes for a path or a file."""
    if isinstance(source, str):
        return iter([source]), len(source)
    if isinstance(source, (bytes, bytearray)):
        raise TypeError("the text must be str, got bytes: decode it first, e.g. data.decode('utf-8')")
    if isinstance(source, os.PathLike):
        return _read_path(source), os.path.getsize(source)
    if hasattr(source, "read"):
        return _read_file(source), _file_size(source)
    try:
        return iter(source), None
    except TypeError:
        raise TypeError(
            f"cannot train on a {type(source).__name__}: pass a str, a path (pathlib.Path), "
            "an open file or an iterable of str"
        ) from None


def _read_path(path):
    with open(path, "rb") as f:  # bytes, decoded below as UTF-8, with \r\n kept as it is
        yield from _read_file(f)


def _read_file(f):
    """Yield a file's text in blocks; a file opened in binary mode is read as UTF-8."""
    decoder = None
    while True:
        block = f.read(BLOCK_SIZE)
        if not block:
            break
        if isinstance(block, bytes):
            decoder = decoder or codecs.getincrementaldecoder("utf-8")()
            block = decoder.decode(block)
        yield block
    if decoder is not None:
        yield decoder.decode(b"", final=True)  # raises on a truncated last character


def _file_size(f):
    try:
        return os.fstat(f.fileno()).st_size
    except (AttributeError, OSError, ValueError):
        return None  # not a real file (io.StringIO, a socket...)


def check_special_token_list(special_tokens):
    """The special tokens to train with, as a list of distinct non-empty str ([] for None)."""
    if special_tokens is None:
        return []
    if isinstance(special_tokens, (str, dict)):
        raise TypeError(
            "special_tokens must be a list of str, e.g. special_tokens=['<|endoftext|>'] "
            f"(got a {type(special_tokens).__name__}); training chooses their ids"
        )
    tokens = list(special_tokens)
    for token in tokens:
        if not isinstance(token, str) or not token:
            raise ValueError(f"a special token must be a non-empty str, got {token!r}")
    if len(set(tokens)) != len(tokens):
        raise ValueError(f"special_tokens has a token twice: {tokens}")
    return tokens


def _whole(text):
    return [text]


def _report(progress, measure, parts):
    """Move the bar on by the size of a part, or of a list of parts."""
    if progress is not None:
        progress.update(sum(map(measure, parts)) if isinstance(parts, list) else measure(parts))


def _utf8_length(text):
    return len(text.encode("utf-8"))


def _worker_count(workers):
    """How many processes may count: the cores this process may use, unless told."""
    if workers is None:
        workers = default_workers()
    elif not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a positive int (or None for every core), got {workers!r}")
    if "fork" not in get_all_start_methods():
        return 1  # Windows: a new process would re-run the caller's script
    return workers


def _in_process_budget(size, workers, pattern):
    """Characters to count in this process before handing the rest to workers."""
    if workers == 1 or pattern is None:  # without a pattern a part is one chunk: nothing to share
        return float("inf")
    if size is None:
        return PARALLEL_MIN  # a stream: count its start here, and use workers if it goes on
    return 0 if size >= PARALLEL_MIN else float("inf")


# ------------------------------------------------------------------ worker processes

_split_in_worker = None


def _start_worker(pattern):
    global _split_in_worker
    _split_in_worker = split_regex(pattern).findall


def _count_batch(parts):
    counts = Counter()
    for part in parts:
        counts.update(_split_in_worker(part))
    return counts


def _batches(parts, size):
    """Group parts into lists of about `size` characters, in order."""
    batch, length = [], 0
    for part in parts:
        batch.append(part)
        length += len(part)
        if length >= size:
            yield batch
            batch, length = [], 0
    if batch:
        yield batch


def _count_in_workers(batches, pattern, workers):
    """Yield (batch, chunk counts) for each batch of parts, in order, counted by `workers` processes.

    At most two batches per worker are in flight, so a huge input is never read far ahead.
    """
    with get_context("fork").Pool(workers, initializer=_start_worker, initargs=(pattern,)) as pool:
        pending = deque()
        for batch in batches:
            pending.append((batch, pool.apply_async(_count_batch, (batch,))))
            if len(pending) >= 2 * workers:
                done, result = pending.popleft()
                yield done, result.get()
        while pending:
            done, result = pending.popleft()
            yield done, result.get()
