"""Precision and recall per disguise: each way of hiding a copy, measured on its own.

    python -m bpe_ref.grade.similarity.per_disguise            the table at the default threshold
    python -m bpe_ref.grade.similarity.per_disguise --dolos DIR   the same class scored by Dolos too

Needs a checkout of the course (tests/data/similarity/styles/). The labelled class, apart from
labels.py's:

- honest authors: tests/data/similarity/styles/, each written independently in a style of its
  own (while loops, the standard library, iterators, generators, in-place edits, small helpers);
- their copies, one student per author and disguise (DISGUISES): identical, renamed, reformatted,
  reordered, comments and dead code, loops as comprehensions (and back), a loop moved into a
  helper, and all of them at once; a disguise that leaves an exercise unchanged is not counted
  as one for it;
- the course's solution, copied each of those ways.

Two students are a true pair when their code comes from the same author; every other pair is
an honest negative. A copy of the course's solution must be listed under the solution, and
nobody else. Code under the length floor (MIN_TOKENS, on either side) is left out and counted.
"""

import argparse
import ast
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from .disguise import KINDS, REWRITES, disguise
from ..judge.exercises import REGISTRY
from .labels import Counts, course_solution, tally
from ..reading.learner_code import code_by_exercise, code_cells
from .report import MIN_TOKENS, THRESHOLD, Course, compare_exercise, piece

STYLES = Path(__file__).resolve().parents[3] / "tests" / "data" / "similarity" / "styles"
EXERCISES = ("get_stats", "merge", "train", "encode")
DISGUISES = {"identical": (), "renamed": ("rename",), "reformatted": ("reformat",), "reordered": ("reorder",),
             "comments and dead code": ("comments", "dead_code"), "loops as comprehensions": ("comprehensions",),
             "helper extracted": ("helper",), "all at once": KINDS + REWRITES}


def labelled_class(course, seed=0):
    """[(student, origin, disguise or '', {exercise: code})]: the authors, their copies, the course's."""
    keep = set(REGISTRY)
    originals = {path.stem: path.read_text(encoding="utf-8") for path in sorted(STYLES.glob("*.py"))}
    solution = "\n\n\n".join(course_solution(course, exercise) for exercise in EXERCISES)
    students = []
    for number, (author, text) in enumerate([*originals.items(), ("course", solution)]):
        original = exercise_code(text, course)
        if author != "course":
            students.append((author, author, "", original))
        for kind, (name, kinds) in enumerate(DISGUISES.items()):
            copy = exercise_code(disguise(text, seed + 100 * number + kind, keep, kinds) if kinds else text, course)
            changed = {ex: code for ex, code in copy.items() if not kinds or ex not in original
                       or not (same_tree(code, original[ex]) if set(kinds) - LAYOUT else code == original[ex])}
            students.append((f"{author}~{name}", author, name, changed))
    return students


def exercise_code(text, course):
    """{exercise: the code the report reads for it} from a .py file's text."""
    found = code_by_exercise(code_cells(text, ".py"), course.tokens, course.stub_texts)
    return {ex: code for ex, code in found.items() if ex in EXERCISES and isinstance(code, str)}


LAYOUT = {"reformat", "comments"}  # disguises that change the text only


def same_tree(a, b):
    return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))


# ---------------------------------------------------------------------------- scoring


def evaluate(threshold=THRESHOLD, course=None, scores=None):
    """{(what, disguise): Counts}: what is 'students' or 'solution'; disguise '' for the whole class.

    `scores`, when given, is {exercise: {frozenset(pair): score}} from another detector (Dolos),
    used instead of this report's student pairs (solution matches are this report's only)."""
    course = course or Course()
    students = labelled_class(course)
    origin = {s[0]: s[1] for s in students}
    kind = {s[0]: s[2] for s in students}
    counts = {}
    for exercise in EXERCISES:
        pieces = [piece(name, name, code[exercise]) for name, _, _, code in students if exercise in code]
        report = compare_exercise(exercise, pieces, course, threshold)
        if scores is None:
            flagged = {frozenset((m.a.student, m.b.student)) for m in report.matches}
        else:
            flagged = {pair for pair, score in scores[exercise].items() if score >= threshold}
        for i, a in enumerate(pieces):
            for b in pieces[i + 1:]:
                if origin[a.student] == "course" and origin[b.student] == "course":
                    continue  # both listed under the solution, not as a pair
                truth = origin[a.student] == origin[b.student]
                short = min(a.tokens, b.tokens) < MIN_TOKENS  # for Dolos too: the same pairs in each row
                for name in {"", kind[a.student], kind[b.student]}:
                    if truth and name and not (kind[a.student] in ("", name) and kind[b.student] in ("", name)):
                        continue  # a true pair belongs to its disguise (or to both copies' when they differ)
                    key = ("short" if short else "students", name)
                    tally(counts, key, truth, frozenset((a.student, b.student)) in flagged)
        longest = max(s.tokens for s in course.solutions[exercise])
        like_solution = {m.a.student for m in report.solution}
        for p in pieces:
            short = min(p.tokens, longest) < MIN_TOKENS
            for name in {"", kind[p.student]}:
                tally(counts, ("short solution" if short else "solution", name), origin[p.student] == "course",
                      p.student in like_solution)
    return counts


def f1(c):
    if not c.precision or not c.recall:
        return 0.0
    return 2 * c.precision * c.recall / (c.precision + c.recall)


def table(counts, threshold, title="this report"):
    """The per-disguise table as text lines."""
    lines = [f"{title}, threshold {threshold:.2f}",
             f"  {'compared':<9} {'disguise':<24} {'true':>5} {'found':>6} {'flagged':>8} {'precision':>9} "
             f"{'recall':>7} {'F1':>5}"]
    for what in ("students", "solution"):
        for name in ["", *DISGUISES]:
            c = counts.get((what, name))
            if c is None or c.tp + c.fn + c.fp == 0:
                continue
            shown = [f"{v:.2f}" if v is not None else "-" for v in (c.precision, c.recall)]
            lines.append(f"  {what:<9} {name or 'whole class':<24} {c.tp + c.fn:>5} {c.tp:>6} {c.tp + c.fp:>8} "
                         f"{shown[0]:>9} {shown[1]:>7} {f1(c):>5.2f}")
    for what in ("short", "short solution"):
        c = counts.get((what, ""), Counts())
        lines.append(f"  left out, under {MIN_TOKENS} tokens on one side ({what}): {c.tp + c.fn} true, "
                     f"{c.fp + c.tn} others, {c.tp + c.fp} flagged")
    return lines


# ---------------------------------------------------------------------------- Dolos beside it


DOLOS_SCRIPT = """
const { Dolos } = require("@dodona/dolos-lib");
(async () => {
  const files = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const report = await new Dolos({ language: "python" }).analyzePaths(files);
  const out = report.allPairs().map(p => [p.leftFile.path, p.rightFile.path, p.similarity]);
  process.stdout.write(JSON.stringify(out));
})();
"""


def dolos_scores(node_folder, course=None):
    """{exercise: {frozenset(pair): similarity}} from Dolos (installed with npm in `node_folder`),
    each student's code for an exercise in a file of its own, as this report sees it."""
    course = course or Course()
    students = labelled_class(course)
    out = {}
    with tempfile.TemporaryDirectory(prefix="bpe-dolos-") as scratch:
        for exercise in EXERCISES:
            paths = {}
            for name, _, _, code in students:
                if exercise in code:
                    path = Path(scratch) / exercise / f"{len(paths):03d}.py"
                    path.parent.mkdir(exist_ok=True)
                    path.write_text(code[exercise], encoding="utf-8")
                    paths[str(path)] = name
            done = subprocess.run(["node", "-e", DOLOS_SCRIPT], input=json.dumps(list(paths)), cwd=node_folder,
                                  capture_output=True, text=True, encoding="utf-8", check=True, timeout=600)
            out[exercise] = {frozenset((paths[a], paths[b])): score for a, b, score in json.loads(done.stdout)}
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threshold", type=float, default=THRESHOLD)
    parser.add_argument("--dolos", metavar="DIR", help="a folder where `npm install @dodona/dolos-lib` was run")
    options = parser.parse_args(argv)
    if not STYLES.is_dir():
        raise SystemExit(f"per_disguise needs a checkout of the course; not found: {STYLES}")
    course = Course()
    print("\n".join(table(evaluate(options.threshold, course), options.threshold)))
    if options.dolos:
        scores = dolos_scores(options.dolos, course)
        for threshold in (options.threshold, 0.5, 0.4, 0.3):
            counts = evaluate(threshold, course, scores)
            lines = table(counts, threshold, "Dolos (each piece as this report reads it, no course code removed)")
            print("\n".join(line for line in lines if "solution" not in line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
