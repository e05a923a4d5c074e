"""Encode many texts, or one long text, on every core, as tiktoken's encode_batch does.

Python runs Python code on one core at a time per process, so the work goes to worker
processes: each gets a copy of the tokenizer (inherited by fork where the system has it,
pickled otherwise) and encodes a share of the text parts, in order. Long texts are cut at
safe places first (bpe_ref.core.stream), which keeps the ids exactly those of one process.
"""

import multiprocessing
import os

SMALL = 200_000  # characters: below this, starting processes costs more than it saves
TASKS_PER_WORKER = 8  # smaller tasks even out the workers' loads

_worker_tokenizer = None  # the tokenizer inside a worker process


def default_workers():
    """How many processes to use by default: the cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def encode_ordinary_parts(tok, parts, num_workers=None):
    """[tok.encode_ordinary(part) for part in parts], computed by `num_workers` processes."""
    num_workers = default_workers() if num_workers is None else num_workers
    if not isinstance(num_workers, int) or isinstance(num_workers, bool) or num_workers < 1:
        raise ValueError(f"num_workers must be a positive int, got {num_workers!r}")
    total = sum(map(len, parts))
    if num_workers == 1 or total < SMALL or len(parts) < 2:
        return tok.encode_ordinary_many(parts)
    tasks = _tasks(parts, total / (num_workers * TASKS_PER_WORKER))
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    with context.Pool(min(num_workers, len(tasks)), initializer=_start_worker, initargs=(tok,)) as pool:
        results = pool.map(_encode_task, tasks)
    return [ids for task in results for ids in task]


def _tasks(parts, size):
    """Consecutive parts grouped into lists of about `size` characters."""
    tasks, current, length = [], [], 0
    for part in parts:
        current.append(part)
        length += len(part)
        if length >= size:
            tasks.append(current)
            current, length = [], 0
    if current:
        tasks.append(current)
    return tasks


def _start_worker(tok):
    global _worker_tokenizer
    _worker_tokenizer = tok


def _encode_task(parts):
    return _worker_tokenizer.encode_ordinary_many(parts)
