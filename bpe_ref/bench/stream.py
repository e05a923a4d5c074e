"""Streaming: encode_iterable's peak memory over a file of lines (--stream)."""

import tempfile
from pathlib import Path

from .corpora import MB, corpus
from .measure import measure, run_job


def job_stream(spec):
    """Stream a file of lines through encode_iterable; peak memory against the file's size."""
    import tempfile

    import bpe_ref

    tok = bpe_ref.from_tiktoken("cl100k_base")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "lines.txt"
        size = write_lines_file(path, spec["mb"])

        def stream():
            with open(path, encoding="utf-8") as f:
                return sum(1 for _ in tok.encode_iterable(f, disallowed_special=()))

        result, count = measure(stream, 1)
    result.update(file_megabytes=size / MB, token_count=count)
    return result


def write_lines_file(path, megabytes):
    """A file of `megabytes` MB: the benchmark corpus's lines, over and over; its size in bytes."""
    lines = "".join(corpus(min(megabytes, 10))).splitlines(keepends=True)
    size = 0
    with open(path, "w", encoding="utf-8") as f:
        while size < megabytes * MB:
            for line in lines:
                f.write(line)
                size += len(line.encode("utf-8"))
    return size


def run_stream(megabytes):
    """--stream: encode_iterable over a file of lines; print and return its figures."""
    row = run_job({"job": "stream", "mb": megabytes})
    print(f"\nSTREAMING cl100k_base encode_iterable over a {megabytes:g} MB file of lines")
    if "error" in row:
        print("error: " + row["error"])
        return row
    print(f"file {row['file_megabytes']:.1f} MB, {row['token_count']} tokens in {row['seconds']:.1f} s "
          f"({row['file_megabytes'] / row['seconds']:.2f} MB/s); peak RSS rose by {row['peak_mb']:.1f} MB "
          f"({row['peak_mb'] / row['file_megabytes']:.3f} MB per MB of input)")
    return row
