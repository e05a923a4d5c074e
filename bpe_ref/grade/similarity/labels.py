"""How often the similarity report is right: precision and recall on a labelled class, per code length.

    python -m bpe_ref.grade.similarity.labels               the table at the default threshold
    python -m bpe_ref.grade.similarity.labels --sweep       the same for thresholds 0.5 to 0.95

Needs a checkout of the course (tests/data/similarity/ and tests/learners/). The labelled class:

- independent answers: the authors in tests/data/similarity/independent/ and
  tests/learners/good_styles.py (the other correct learners there reuse the course's solution in
  places, so they are not independent of it);
- disguised copies: each of those authors copied twice by disguise.py (renamed, reformatted,
  reordered, comments and dead code added; a fixed seed per copier), the course's solution copied
  twice the same way, and copies reworked by hand in tests/data/similarity/copies/ ("copy of: NAME");
- unrelated code: each author's code for another exercise, put under this exercise's name.

Two students are a true pair when their code for an exercise comes from the same author. A pair
whose origin is the course is not a student pair (both are listed under the solution); matches
with the solution are scored on their own line.
"""

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from .disguise import disguise
from ..judge.exercises import REGISTRY
from ..reading.learner_code import code_by_exercise, code_cells
from .report import MIN_TOKENS, THRESHOLD, Course, compare_exercise, piece

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "tests" / "data" / "similarity"
LEARNERS = ROOT / "tests" / "learners"
EXERCISES = ("get_stats", "merge", "train", "build_vocab", "decode", "encode")
BANDS = ((0, MIN_TOKENS, f"short (< {MIN_TOKENS} tokens)"), (MIN_TOKENS, 100, f"medium ({MIN_TOKENS}-99)"),
         (100, 10 ** 9, "long (100 or more)"))
SEEDS = (1, 2)
# tests/learners' correct file written apart from the course (the others reuse its solution in places)
INDEPENDENT_LEARNERS = ("good_styles.py",)
# unrelated code under an exercise's name: the same author's code for another exercise, one that
# does not do this one's job inside it (train holds a merge loop, so it does not stand in for merge)
UNRELATED = {"get_stats": "decode", "merge": "build_vocab", "train": "decode", "build_vocab": "get_stats",
             "decode": "get_stats", "encode": "build_vocab"}


@dataclass
class Student:
    name: str
    origin: str  # the author the code comes from: a name, 'course' or 'unrelated:...'
    code: dict  # exercise -> text


def read_code(path, course):
    return code_by_exercise(code_cells(path.read_text(encoding="utf-8"), path.suffix), course.tokens,
                            course.stub_texts)


def authors(course):
    """{author: {exercise: code}} for every independent author."""
    files = sorted((DATA / "independent").glob("*.py")) + [LEARNERS / name for name in INDEPENDENT_LEARNERS]
    out = {}
    for path in files:
        code = {name: text for name, text in read_code(path, course).items() if name in EXERCISES}
        if code:
            out[path.stem] = code
    return out


def labelled_class(course):
    """Every student of the labelled class, with where their code comes from."""
    found = authors(course)
    students = [Student(name, name, code) for name, code in found.items()]
    keep = set(REGISTRY)
    for number, (name, code) in enumerate(found.items()):
        for seed in SEEDS:  # each copier disguises in their own way: a seed of their own
            students.append(Student(f"{name}~copy{seed}", name,
                                    {ex: disguise(text, 100 * number + seed, keep) for ex, text in code.items()}))
        students.append(Student(f"{name}~unrelated", f"unrelated:{name}",
                                {ex: renamed(code[UNRELATED[ex]], ex) for ex in code if UNRELATED[ex] in code}))
    solution = {ex: course_solution(course, ex) for ex in EXERCISES}
    for seed in SEEDS:
        students.append(Student(f"course~copy{seed}", "course",
                                {ex: disguise(text, seed, keep) for ex, text in solution.items()}))
    for path in sorted((DATA / "copies").glob("*.py")):
        origin = path.read_text(encoding="utf-8").split("copy of:", 1)[1].split(".", 1)[0].strip()
        students.append(Student(f"{path.stem}~byhand", origin,
                                {ex: t for ex, t in read_code(path, course).items() if ex in EXERCISES}))
    return students


def course_solution(course, exercise):
    """The solution notebook's version of an exercise (bpe_ref's when there is none)."""
    versions = course.solutions[exercise]
    notebooks = [v for v in versions if v.file.startswith("solutions/")]
    return (notebooks or versions)[0].text


def renamed(text, name):
    """Code of another exercise with its first function renamed `name`: unrelated code under this name."""
    head, rest = text.split("(", 1)
    return f"def {name}(" + rest if head.startswith("def ") else text


# ---------------------------------------------------------------------------- scoring


def evaluate(threshold=THRESHOLD, course=None, min_tokens=MIN_TOKENS):
    """{(what, band): Counts} over the labelled class at `threshold`; what is 'students' or 'solution'.
    Code shorter than `min_tokens` is left out, so it is never flagged (0 shows what it would give)."""
    course = course or Course()
    students = labelled_class(course)
    origin = {s.name: s.origin for s in students}
    counts = {}
    for exercise in EXERCISES:
        pieces = [piece(s.name, s.name, s.code[exercise]) for s in students if exercise in s.code]
        report = compare_exercise(exercise, pieces, course, threshold, min_tokens)
        flagged = {frozenset((m.a.student, m.b.student)) for m in report.matches}
        for i, a in enumerate(pieces):
            for b in pieces[i + 1:]:
                if origin[a.student] == "course" and origin[b.student] == "course":
                    continue
                truth = origin[a.student] == origin[b.student] and not origin[a.student].startswith("unrelated")
                tally(counts, ("students", band(min(a.tokens, b.tokens))), truth,
                      frozenset((a.student, b.student)) in flagged)
        like_solution = {m.a.student for m in report.solution}
        longest = max(s.tokens for s in course.solutions[exercise])  # the floor holds for the course's side too
        for p in pieces:
            tally(counts, ("solution", band(min(p.tokens, longest))), origin[p.student] == "course",
                  p.student in like_solution)
    return counts


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    @property
    def precision(self):
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self):
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None


def tally(counts, key, truth, flagged):
    c = counts.setdefault(key, Counts())
    if truth and flagged:
        c.tp += 1
    elif truth:
        c.fn += 1
    elif flagged:
        c.fp += 1
    else:
        c.tn += 1


def band(tokens):
    return next(label for low, high, label in BANDS if low <= tokens < high)


def table(counts, threshold):
    """The precision/recall table as text lines."""
    lines = [f"threshold {threshold:.2f}", f"  {'compared':<9} {'length of the shorter piece':<28} "
             f"{'true pairs':>10} {'others':>7} {'flagged':>7} {'precision':>9} {'recall':>7}"]
    for what in ("students", "solution"):
        for _, _, label in BANDS:
            c = counts.get((what, label))
            if c is None:
                continue
            shown = [f"{v:.2f}" if v is not None else "-" for v in (c.precision, c.recall)]
            lines.append(f"  {what:<9} {label:<28} {c.tp + c.fn:>10} {c.fp + c.tn:>7} {c.tp + c.fp:>7} "
                         f"{shown[0]:>9} {shown[1]:>7}")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threshold", type=float, default=THRESHOLD)
    parser.add_argument("--sweep", action="store_true", help="thresholds 0.5, 0.6, ..., 0.95")
    parser.add_argument("--min-tokens", type=int, default=MIN_TOKENS,
                        help=f"leave out shorter code (default {MIN_TOKENS}; 0 judges everything)")
    options = parser.parse_args(argv)
    if not DATA.is_dir():
        raise SystemExit(f"similarity_labels needs a checkout of the course; not found: {DATA}")
    course = Course()
    for threshold in ((0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95) if options.sweep else (options.threshold,)):
        print("\n".join(table(evaluate(threshold, course, options.min_tokens), threshold)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
