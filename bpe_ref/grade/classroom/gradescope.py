"""Gradescope: the results.json its autograder reads, and the bundle an instructor uploads.

    bpe-grade submission/ --gradescope results/results.json      one learner's results for Gradescope
    python -m bpe_ref.grade.classroom.gradescope autograder.zip            the bundle: setup.sh, run_autograder, the course

Gradescope's autograder specification (gradescope-autograders.readthedocs.io, "Autograder
Specifications"): the zip holds setup.sh and run_autograder at its root; the bundle is unpacked in
/autograder/source, the learner's upload is put in /autograder/submission, run_autograder runs as
root with /autograder as its working folder, and /autograder/results/results.json is what
Gradescope reads: a top-level score, and tests each with name, score, max_score, status, output
and visibility (visible, hidden, after_due_date or after_published).

The bundle's setup.sh installs the course from its source archive inside the zip (this version, pinned;
only PyPI is reached, for its dependencies) and creates an unprivileged user. It installs only what
grading needs (GRADING: no JupyterLab, no matplotlib, no benchmark; requirements-grade.txt in the
zip, the course itself with --no-deps), and makes its venv with python3-venv, installing that
package (or virtualenv) first when the base image lacks it, as Ubuntu 22.04's does. Each
submission's sandbox gets --memory MB (default 512, under the container's 768 MB), one file at a
time (--jobs 1). The bundle's assignment (--assignment, --workbooks) fixes the maximum, so an
upload of one workbook out of three shows what is missing as 0 of its points. run_autograder grades
the upload with bubblewrap's sandbox where it can run, and otherwise runs the learner's code as
that user (--run-as): the course and the results folder are root's alone (mode 700).
"""

import argparse
import json
import re
import shlex
import sys
import tarfile
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

from .results import NOT_HANDED_IN, atomic_text, class_results
from .assignment import load_assignment
from .points import load_points, show_points

VISIBILITY = ("visible", "hidden", "after_due_date", "after_published")
GRADING = ("regex", "tiktoken", "numpy", "nbformat", "hypothesis", "tqdm", "nltk")  # what grading imports
BUNDLE_MEMORY_MB = 512  # per submission's sandbox: under Gradescope's default container memory, 768 MB
LEARNER_USER = "bpe-learner"
ROOT = Path(__file__).resolve().parents[3]
SDIST = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "bpe_ref", "tiktoken_ext",
         "notebooks", "solutions", "docs")  # what the wheel is built from (tests/test_package.py's SOURCES)


# ---------------------------------------------------------------------------- results.json


def test_output(verdict):
    """What the learner reads under one test: the verdict's message, its hint, an override's comment."""
    lines = [verdict.get("message", "")]
    if verdict.get("status") != "pass" and verdict.get("hint"):
        lines.append(f"hint: {verdict['hint']}")
    return "\n".join(line for line in lines if line)


def gradescope_results(results, table, visibility="visible", seconds=None, assignment=None):
    """The results.json object for one learner's graded files (all counted as one submission):
    a test per exercise of the assignment, so what was not handed in shows as 0 of its points."""
    book = class_results([{**result, "student": "submission"} for result in results], table, assignment)
    row = book.rows[0] if book.rows else None
    tests = []
    for number, name in enumerate(book.columns, 1):
        verdict = row.exercises[name] if row else dict(NOT_HANDED_IN)
        score = book.points(row, name) if row else 0
        tests.append({"name": name, "number": str(number), "score": score, "max_score": book.table[name],
                      "status": "passed" if score >= book.table[name] else "failed",
                      "output": test_output(verdict), "visibility": visibility})
    score = book.score(row) if row else 0
    notes = row.notes if row else ["no .ipynb or .py file was found in the submission"]
    output = f"{show_points(score)} of {show_points(book.maximum)} points"
    out = {"score": score, "output": "\n".join([output, *notes]), "output_format": "text",
           "visibility": visibility, "stdout_visibility": "hidden",
           "extra_data": {"maximum": book.maximum}, "tests": tests}
    if seconds is not None:
        out["execution_time"] = round(seconds)
    return out


def write_gradescope(path, results, table, visibility="visible", seconds=None, assignment=None):
    """Write results.json atomically (a temporary file, then a rename)."""
    with atomic_text(path) as f:
        json.dump(gradescope_results(results, table, visibility, seconds, assignment), f, indent=2,
                  ensure_ascii=False)


# ---------------------------------------------------------------------------- the bundle

SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image.
set -euo pipefail
AUTOGRADER="${{BPE_AUTOGRADER_ROOT:-/autograder}}"
SOURCE="$AUTOGRADER/source"
VENV="${{BPE_GRADESCOPE_VENV:-$SOURCE/venv}}"
make_venv() {{   # python3-venv is missing from Gradescope's Ubuntu 22.04 image: install it, else use virtualenv
    python3 -m venv "$VENV" 2>/dev/null && return 0
    rm -rf "$VENV"
    if command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-pip >/dev/null \
            && python3 -m venv "$VENV" && return 0
        rm -rf "$VENV"
    fi
    python3 -m pip install --quiet virtualenv && python3 -m virtualenv --quiet "$VENV" && return 0
    echo "setup.sh: python3 can make no venv here (no python3-venv, no virtualenv); choose an image with python3-venv"
    return 1
}}
if ! "$VENV/bin/python" -c "import bpe_ref.grade.cli" 2>/dev/null; then
    make_venv || exit 1
    # only what grading needs: the course pinned without its dependencies, then requirements-grade.txt
    "$VENV/bin/pip" install --no-cache-dir --no-deps "$SOURCE/{package}"
    "$VENV/bin/pip" install --no-cache-dir -r "$SOURCE/requirements-grade.txt"
fi
id -u {user} >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin {user}
chmod 700 "$SOURCE"   # the course, its wheel and its environment: root's alone
"""

RUN = """#!/usr/bin/env bash
# Gradescope runs this for every submission, as root, in /autograder.
set -uo pipefail
AUTOGRADER="${{BPE_AUTOGRADER_ROOT:-/autograder}}"
VENV="${{BPE_GRADESCOPE_VENV:-$AUTOGRADER/source/venv}}"
mkdir -p "$AUTOGRADER/results"
chmod 700 "$AUTOGRADER/results" "$AUTOGRADER/source"
WORK="$(mktemp -d /tmp/bpe-submission-XXXXXX)"   # a copy the learner's user may read, never write
cp -r "$AUTOGRADER/submission/." "$WORK/"
chown -R root:root "$WORK"
chmod -R a+rX,go-w "$WORK"
EXTRA=()
if [ -f "$AUTOGRADER/source/points.json" ]; then EXTRA+=(--points "$AUTOGRADER/source/points.json"); fi
if [ -f "$AUTOGRADER/source/assignment.json" ]; then EXTRA+=(--assignment "$AUTOGRADER/source/assignment.json"); fi
if [ "${{BPE_GRADESCOPE_NO_BWRAP:-}}" = 1 ]; then EXTRA+=(--no-isolation); fi
"$VENV/bin/python" -m bpe_ref.grade.cli "$WORK" --run-as {user} {options} \\
    --gradescope "$AUTOGRADER/results/results.json" "${{EXTRA[@]}}"
status=$?
rm -rf "$WORK"
if [ ! -f "$AUTOGRADER/results/results.json" ]; then   # nothing graded: say so to the learner
    echo '{{"score": 0, "output": "Nothing could be graded: hand in your .ipynb (or .py) files themselves, not a folder or a zip of them."}}' \
        > "$AUTOGRADER/results/results.json"
fi
exit 0
"""


def build_sdist(folder):
    """The course's own source archive (this checkout's files that the wheel is built from: bpe_ref/,
    the tiktoken plugin and the course's material, so the autograder tells workbooks by their cells),
    which pip installs as it would the sdist; its path in `folder`. Built here, nothing downloaded."""
    version = metadata.version("bpe-course")
    top = f"bpe_course-{version}"
    target = Path(folder) / f"{top}.tar.gz"
    with tarfile.open(target, "w:gz") as archive:
        for name in SDIST:
            if (ROOT / name).exists():
                archive.add(ROOT / name, f"{top}/{name}", filter=without_caches)
    return target


def without_caches(info):
    """tarfile's filter: leave out __pycache__ and .ipynb_checkpoints folders and compiled files."""
    parts = Path(info.name).parts
    if "__pycache__" in parts or ".ipynb_checkpoints" in parts or info.name.endswith(".pyc"):
        return None
    return info


def grading_requirements():
    """The course's own requirement lines (with their versions) for the packages grading needs."""
    lines = [r for r in metadata.requires("bpe-course") or [] if "extra ==" not in r]
    return [line for line in lines if re.match(r"[A-Za-z0-9._-]+", line)[0].lower() in GRADING]


def build_bundle(target, options=(), user=LEARNER_USER, package=None, points=None, assignment=None,
                 memory=BUNDLE_MEMORY_MB):
    """Write the autograder zip at `target`: setup.sh, run_autograder (each sandbox given `memory`
    MB, one file at a time), the course (its source archive, or the sdist or wheel given), what
    grading needs (requirements-grade.txt), and the points and assignment files (if any)."""
    with tempfile.TemporaryDirectory(prefix="bpe-bundle-") as scratch:
        package = Path(package) if package else build_sdist(scratch)
        flags = " ".join([*options, "--memory", str(int(memory)), "--jobs", "1"])
        files = {"setup.sh": SETUP.format(package=package.name, user=user),
                 "run_autograder": RUN.format(user=user, options=flags),
                 "requirements-grade.txt": "\n".join(grading_requirements()) + "\n"}
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as bundle:
            for name, text in files.items():
                info = zipfile.ZipInfo(name)
                info.external_attr = 0o100755 << 16  # executable once unpacked
                bundle.writestr(info, text)
            bundle.write(package, package.name)
            if points:
                bundle.write(points, "points.json")
            if assignment:
                bundle.write(assignment, "assignment.json")
    return Path(target)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bpe_ref.grade.classroom.gradescope",
                                     description="Build the Gradescope autograder zip for this version of the course.")
    parser.add_argument("zip", help="where to write the bundle, e.g. autograder.zip")
    parser.add_argument("--user", default=LEARNER_USER, help=f"the unprivileged user setup.sh creates (default {LEARNER_USER})")
    parser.add_argument("--timeout", type=float, help="bpe-grade --timeout for every submission")
    parser.add_argument("--points", help="a points file (JSON) to ship and use")
    parser.add_argument("--assignment", help="the assignment file (JSON: workbooks, exercises, points) to ship and use")
    parser.add_argument("--workbooks", help="the assignment's workbooks, e.g. 04,05,06 (instead of --assignment)")
    parser.add_argument("--memory", type=int, default=BUNDLE_MEMORY_MB, metavar="MB",
                        help=f"memory of each submission's sandbox (default {BUNDLE_MEMORY_MB}; "
                             "Gradescope's container has 768 MB unless raised)")
    parser.add_argument("--visibility", choices=VISIBILITY, default="visible", help="of every test (default visible)")
    parser.add_argument("--package", help="ship this sdist or wheel of the course instead of this checkout's source")
    options = parser.parse_args(argv)
    if Path(options.zip).is_dir() or not Path(options.zip).absolute().parent.is_dir():
        parser.error(f"{options.zip}: give a file name in a folder that exists")
    flags = ["--gradescope-visibility", options.visibility]
    if options.timeout:
        flags += ["--timeout", f"{options.timeout:g}"]
    if options.workbooks:
        flags += ["--workbooks", options.workbooks]
    if not 128 <= options.memory <= 65536:
        parser.error(f"--memory must be from 128 to 65536 MB, not {options.memory}")
    try:
        load_points(options.points)
        declared = load_assignment(options.assignment, options.points,
                                   [w.strip() for w in options.workbooks.split(",")] if options.workbooks else None)
    except ValueError as e:
        parser.error(str(e))
    if declared is None:
        print("note: no assignment declared (--assignment or --workbooks): each upload is graded on the "
              "exercises it contains, so a partial upload can look complete", file=sys.stderr)
    target = build_bundle(options.zip, [shlex.quote(f) for f in flags], options.user, options.package, options.points,
                          options.assignment, options.memory)
    print(f"wrote {target}: upload it as the assignment's autograder (Gradescope: Configure Autograder, zip file)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
