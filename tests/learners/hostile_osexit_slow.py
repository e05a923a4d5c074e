"""HOSTILE: merge closes every inherited file descriptor, then takes half a second to die with
posix._exit(3) (the real one, not the sandbox's os._exit). The grader sees its pipe close before the process has exited, and must still
report the real exit code (3). get_stats is right. Closing the grader's pipe is reaching into it:
merge earns nothing for that before its exit is even seen (the pipe's end is kept in
tests/test_fail_closed.py, a worker that exits mid-call).

expect: get_stats pass, merge error
shows: merge reaches into the grader (os.closerange
"""

import os
import time


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    os.closerange(3, 256)
    time.sleep(0.5)
    import posix
    posix._exit(3)
