"""Measure the grader on real learners' code it was not tuned on: python -m bpe_ref.grade.heldout FOLDER

    python tools/collect_heldout.py --mirrors DIR        first, to rebuild heldout/ from the manifest
    python -m bpe_ref.grade.heldout heldout               the held-out set (tests/data/heldout/manifest.json)
    python -m bpe_ref.grade.heldout heldout-b             the second held-out set (tests/data/heldout-b/manifest.json)
    python -m bpe_ref.grade.heldout heldout-c             the third held-out set (tests/data/heldout-c/manifest.json)
    python -m bpe_ref.grade.heldout tuning                the public tuning set (tests/data/tuning/manifest.json)
    python -m bpe_ref.grade.heldout ../shared/learner-corpus/as-written-1   the tuning set (its expectations.json)
    python -m bpe_ref.grade.heldout ../shared/learner-corpus/as-written-2   a per-file truth (passed, min_found, why)

Each file of the truth is graded as a user would grade it, `bpe-grade --json --jobs 1 FILE`, one
file at a time, with the grader as it is; the verdicts are then scored against the truth
(bpe_ref.grade.judge.heldout_score, or judge.file_score for a truth given per file) and a
summary is printed. --details adds one line per judgment
that went wrong; --json FILE keeps the grader's reports, and --reports FILE scores them again
without grading. The truth is FOLDER/expectations.json when there is one, else the committed
manifest (held-out or tuning) that names the most of the folder's files.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

from .outputs import say
from .judge import file_score
from .judge.heldout_score import Tally, score_file, summary

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
MANIFEST = DATA / "heldout" / "manifest.json"
MANIFESTS = (MANIFEST, DATA / "heldout-b" / "manifest.json", DATA / "heldout-c" / "manifest.json",
             DATA / "tuning" / "manifest.json")


def default_truth(folder):
    """FOLDER/expectations.json, else the committed manifest naming the most files in `folder`."""
    if (folder / "expectations.json").exists():
        return folder / "expectations.json"
    present = {path.name for path in folder.iterdir()} if folder.is_dir() else set()

    def overlap(manifest):
        with open(manifest, encoding="utf-8") as f:
            return len(present & set(json.load(f)["files"]))
    return max((m for m in MANIFESTS if m.exists()), key=overlap, default=MANIFEST)


def read_truth(folder, path=None):
    """(path, {file name: truth}) from --truth, FOLDER/expectations.json or the manifest."""
    path = Path(path) if path else default_truth(folder)
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    files = data.get("files", data)
    usable = {name: truth for name, truth in files.items()
              if "pass" in truth or "notpass" in truth or file_score.is_file_truth(truth)}
    if not usable:
        raise ValueError(f"{path} names no file with pass/notpass verdicts or passed/min_found: "
                         "give the truth with --truth FILE")
    return path, usable


def grade(path, timeout):
    """The grader's --json object for one file, or None when it gave none."""
    command = [sys.executable, "-m", "bpe_ref.grade.cli", "--json", "--jobs", "1", str(path)]
    if timeout:
        command += ["--timeout", str(timeout)]
    done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8")
    try:
        reports = json.loads(done.stdout)
    except json.JSONDecodeError:
        return None
    return reports[0] if reports else None


def measure(folder, truths, timeout=None, progress=None):
    """(Tally, FileTally) of every file of `truths` found in `folder` (a missing file: nothing found)."""
    reports = {}
    for name in sorted(truths):
        path = folder / name
        reports[name] = grade(path, timeout) if path.exists() else None
        if progress:
            progress(name, reports[name])
    return score(truths, reports)


def score(truths, reports):
    """(Tally, FileTally): the files with per-exercise truths, and those with a per-file one."""
    tally, file_tally = Tally(), file_score.FileTally()
    for name, truth in sorted(truths.items()):
        if file_score.is_file_truth(truth):
            file_score.score_file(name, truth, reports.get(name), file_tally)
        else:
            score_file(name, truth, reports.get(name), tally)
    return tally, file_tally


def print_summary(tally, file_tally, label, details):
    """Print the summaries of what was scored, and with `details` what went wrong."""
    if tally.files:
        for line in summary(tally, label):
            say(line)
        if details:
            for line in ["", "what went wrong:"] + ["  " + line for line in tally.lines]:
                say(line)
    if file_tally.files:
        for line in file_score.summary(file_tally, label):
            say(line)
        for line in [""] + file_tally.lines:
            say(line)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bpe_ref.grade.heldout", description=__doc__.splitlines()[0])
    parser.add_argument("folder", help="the folder of learners' files (heldout/, or a learner-corpus folder)")
    parser.add_argument("--truth", help="the true verdicts (default: FOLDER/expectations.json, else the manifest)")
    parser.add_argument("--timeout", type=float, help="passed to bpe-grade --timeout")
    parser.add_argument("--details", action="store_true", help="also print each judgment that went wrong")
    parser.add_argument("--json", metavar="FILE", help="also write the grader's reports, by file, to FILE")
    parser.add_argument("--reports", metavar="FILE", help="score the reports a run saved with --json instead of grading again")
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    if not folder.is_dir():
        parser.error(f"{folder} is not a folder: collect the held-out set first (python tools/collect_heldout.py)")
    try:
        truth_path, truths = read_truth(folder, args.truth)
    except ValueError as error:
        parser.error(str(error))
    if args.reports:
        with open(args.reports, encoding="utf-8") as f:
            reports = json.load(f)
        tally, file_tally = score(truths, reports)
    else:
        reports = {}
        tally, file_tally = measure(folder, truths, args.timeout,
                                    progress=lambda name, report: reports.__setitem__(name, report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(reports, f, indent=1, ensure_ascii=False)
    print_summary(tally, file_tally, f"{folder} (truth: {truth_path})", args.details)
    return 0


if __name__ == "__main__":
    sys.exit(main())
