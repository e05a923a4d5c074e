"""Progress bars for long trainings (tqdm, on stderr): shown when verbose or in a terminal."""

import sys

from tqdm import tqdm

QUIET_SECONDS = 1.0  # unless verbose, a bar appears only once its work has taken this long


def progress_bar(desc, unit, verbose, total=None, unit_scale=True):
    """A tqdm bar that shows when `verbose` or when stderr is a terminal (else a silent one)."""
    show = verbose or _stderr_is_terminal()
    return tqdm(total=total, desc=desc, unit=unit, unit_scale=unit_scale, disable=not show,
                delay=0 if verbose else QUIET_SECONDS, file=sys.stderr)


class MergeReporter:
    """The trainer's on_merge: moves the "merging" bar on and, when verbose, prints each merge.

    merge 1/3: (97, 97) -> 256 ('aa') had 4 occurrences
    """

    def __init__(self, n_merges, verbose):
        self.n_merges = n_merges
        self.verbose = verbose
        self.vocab = {idx: bytes([idx]) for idx in range(256)}
        self.bar = None

    def __call__(self, merges, pair, idx, count):
        self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]
        self.bar.update(1)
        if self.verbose:
            shown = self.vocab[idx].decode("utf-8", errors="replace")
            tqdm.write(f"merge {idx - 255}/{self.n_merges}: {pair} -> {idx} ({shown!r}) "
                       f"had {count} occurrences", file=sys.stdout)

    def __enter__(self):
        self.bar = progress_bar("merging", "merge", self.verbose, total=self.n_merges, unit_scale=False)
        return self

    def __exit__(self, *exc):
        self.bar.close()


def _stderr_is_terminal():
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False  # replaced or closed stderr
