"""Who wrote the same code: per exercise, every student against every other and against the course.

    report = similarity_report(book)              # book: classroom.class_results(...)
    write_similarity_csv(report, "similarity.csv")

A high score is a reason to look, not a verdict. For each exercise, each student's own code for
it (learner_code.py) is normalized and cut into fingerprints (fingerprint.py). Then:

- against the course: the share of the student's fingerprints found in one of the course's own
  versions of the exercise (the solution notebooks and bpe_ref), over the smaller of the two,
  with a higher bar (SOLUTION_MARGIN above the threshold): the solution is what every learner is
  shown, and honest code written after reading it often comes close;
- against each other: the same containment score over the fingerprints that are neither the
  course's stub nor in any course version, so two students who both pasted the solution are not a
  pair (they are each listed under the solution), while two who share anything else are.

Containment over the smaller piece (MOSS reports both directions; we keep both in the CSV) means
that padding a copy with dead code does not lower the score. Code too short to tell a copy from
an independent answer (fewer than MIN_TOKENS normalized tokens) is left out and counted.

Scale: students with the same remaining fingerprints are one group (a cluster of identical
copies) and are compared once; the overlap of every two groups is counted through an index from
fingerprint to groups into one matrix, so the work follows the fingerprints shared, not the
square of the class.
"""

from dataclasses import dataclass, field
from pathlib import Path

from ...course.material import course_root
from ..classroom.results import atomic_text
from ..outputs import csv_writer
from ..judge.exercises import REGISTRY
from .fingerprint import fingerprints, normalize
from ..reading.learner_code import Hidden, Refused, code_cells, definitions, exercise_parts, is_stub, own_code, stub_key

THRESHOLD = 0.6  # report a pair or a solution match at or above this score (see docs/instructors.md)
MIN_TOKENS = 50  # shorter code (on either side, the course's too): independent answers look alike, so it is left out
SOLUTION_MARGIN = 0.2  # a solution match needs threshold + this: honest code converges on the canonical form
MIN_OWN = 8  # two students are compared only on this many fingerprints each, at least, beyond the course's
COMMON = (10, 0.1)  # a fingerprint in more than 10 distinct pieces and 10 % of them is common code
COURSE_ROOT = course_root()  # solutions/ and notebooks/: a checkout's, or the installed package's copies
REFERENCE_FILES = ("core/naive.py", "basics/codepoints.py", "basics/hexadecimal.py", "basics/utf8.py")  # bpe_ref's own versions


@dataclass
class Piece:
    """One student's code for one exercise, normalized."""

    student: str
    file: str
    text: str
    tokens: int = 0
    prints: dict = field(default_factory=dict)  # fingerprint -> the lines it covers


@dataclass
class Match:
    """Two pieces (or a piece and a course version) that share most of their fingerprints."""

    exercise: str
    a: Piece
    b: Piece
    score: float  # shared fingerprints over the smaller piece's count
    a_in_b: float  # share of a's fingerprints found in b
    b_in_a: float
    solution: bool = False  # b is the course's own code
    cluster: int = 0


@dataclass
class ExerciseReport:
    """What one exercise shows: its student pairs and groups, and its matches with the course."""

    name: str
    pieces: int = 0  # students whose own code for it was read
    short: int = 0  # left out: too short to tell apart
    matches: list = field(default_factory=list)  # student pairs, by cluster then score
    solution: list = field(default_factory=list)  # matches with the course's code
    clusters: list = field(default_factory=list)  # [[student, ...]] of two or more, largest first
    hidden: list = field(default_factory=list)  # (student, file, reason): could not be compared, hides its code
    judged: set = field(default_factory=set)  # students whose code was compared (long enough, not hidden)


@dataclass
class SimilarityReport:
    """The whole class: an ExerciseReport per exercise someone wrote, and the files not read."""

    threshold: float
    exercises: list  # ExerciseReport, in course order
    refused: list = field(default_factory=list)  # one line per file not read

    @property
    def flagged(self):
        return sum(len(e.matches) + len(e.solution) for e in self.exercises)

    @property
    def hidden(self):
        return sum(len(e.hidden) for e in self.exercises)


# ---------------------------------------------------------------------------- the course's own code


class Course:
    """The course's versions of every exercise: stubs (shared by everyone, so not evidence) and solutions."""

    def __init__(self, root=COURSE_ROOT):
        self.stubs, self.solutions, self.tokens, self.stub_texts = {}, {}, set(), set()
        for label, defined in course_files(Path(root)):
            for name, found in defined.items():
                self.add(label, name, found, scaffold=label.startswith("notebooks/") and not found.given)

    def add(self, label, name, found, scaffold=False):
        """Take in one course definition: a stub (or a learner workbook's scaffold) or a solution."""
        source = found.source
        try:
            code = normalize(source)  # parsed again on its own, so that its line numbers are its own
        except SyntaxError:
            return
        self.tokens.add(found.tokens)
        for exercise in (n for n in REGISTRY if name in exercise_parts(n)):
            if scaffold or is_stub(found.node):
                self.stubs.setdefault(exercise, set()).update(fingerprints(code))
                self.stub_texts.add(stub_key(source))
            elif exercise_parts(exercise) == [name] and not self.known(exercise, code):
                self.solutions.setdefault(exercise, []).append(piece("the course", label, source, code))

    def known(self, exercise, code):
        """Whether this exercise already has a course version with these very tokens (kept once)."""
        return any(s.tokens == len(code.tokens) and s.prints.keys() == fingerprints(code).keys()
                   for s in self.solutions.get(exercise, []))

    def stub_prints(self, exercise):
        return self.stubs.get(exercise, set())


def course_files(root):
    """(label, definitions) for the course's code: solutions first (the name a match shows), then
    bpe_ref's references, then the learner workbooks (their stubs and given helpers). Without a
    checkout (solutions/ and notebooks/ missing) only bpe_ref's versions are known."""
    yield from notebook_files(root / "solutions")
    package = Path(__file__).resolve().parents[2]
    for name in REFERENCE_FILES:
        yield f"bpe_ref/{name}", definitions([((package / name).read_text(encoding="utf-8"), [])])
    yield from notebook_files(root / "notebooks")


def notebook_files(folder):
    for path in sorted(folder.glob("*.ipynb")):
        yield f"{folder.name}/{path.name}", definitions(code_cells(path.read_text(encoding="utf-8"), ".ipynb"))


def piece(student, file, text, code=None):
    """A Piece from source text, or Hidden (its reason kept); a SyntaxError if it does not parse."""
    if isinstance(text, Hidden):
        return HiddenPiece(student, file, text.reason)
    code = code or normalize(text)
    return Piece(student, file, text, len(code.tokens), fingerprints(code))


@dataclass
class HiddenPiece:
    """A student's code for an exercise that hides itself from the comparison (hiding.py)."""

    student: str
    file: str
    reason: str


# ---------------------------------------------------------------------------- reading the class


def class_pieces(book, course):
    """{exercise: [Piece]} from every row of a graded class, and the lines of files not read.

    A student's code for an exercise comes from the file whose verdict counts for it, else from
    the last of their files that defines it.
    """
    pieces, refused = {}, []
    for row in book.rows:
        found = {}
        for path in row.files:
            for name, text in read_file(row.name, path, course, refused).items():
                found.setdefault(name, {})[path] = text
        for name, by_file in found.items():
            graded = row.exercises.get(name, {}).get("file")
            path = graded if graded in by_file else list(by_file)[-1]
            try:
                pieces.setdefault(name, []).append(piece(row.name, path, by_file[path]))
            except SyntaxError:
                continue
    return pieces, refused


def read_file(student, path, course, refused):
    """{exercise: text or Hidden} for one file; a file that cannot be read (or breaks the reading,
    grader-side) is a line in `refused` and nothing else, so one file never stops the report."""
    try:
        return own_code(path, course_tokens=course.tokens, stubs=course.stub_texts)
    except Refused as e:
        refused.append(f"{student}: {e}")
    except Exception as e:  # noqa: BLE001 - fail closed for this file only: it is named, not compared
        refused.append(f"{student}: {path}: could not be read (grader-side: {type(e).__name__})")
    return {}


# ---------------------------------------------------------------------------- comparing


def compare_exercise(name, pieces, course, threshold=THRESHOLD, min_tokens=MIN_TOKENS):
    """The ExerciseReport of one exercise: solution matches, student pairs and their clusters."""
    report = ExerciseReport(name, pieces=len(pieces))
    stub = course.stub_prints(name)
    solutions = [s for s in course.solutions.get(name, []) if s.tokens >= min_tokens]  # one floor for both sides
    course_prints = set().union(*(s.prints for s in course.solutions.get(name, [])))
    judged = []
    for p in pieces:
        if isinstance(p, HiddenPiece):
            report.hidden.append((p.student, p.file, p.reason))
        elif p.tokens < min_tokens:
            report.short += 1
        else:
            judged.append(p)
    report.judged = {p.student for p in judged}
    for p in judged:
        best = best_solution_match(name, p, solutions, stub)
        if best and best.score >= solution_threshold(threshold):
            report.solution.append(best)
    report.matches = student_matches(name, judged, stub | course_prints, threshold)
    report.clusters = clusters(report.matches)
    report.solution.sort(key=lambda m: (-m.score, m.a.student))
    return report


def solution_threshold(threshold):
    """The score a match with the course's solution needs: higher than between students, since
    the solution is the form every learner is shown, and honest code often ends up close to it."""
    return min(1.0, threshold + SOLUTION_MARGIN)


def best_solution_match(name, p, solutions, stub):
    best = None
    for s in solutions:
        match = scored(name, p, s, set(p.prints) - stub, set(s.prints) - stub, solution=True)
        if match and (best is None or match.score > best.score):
            best = match
    return best


def scored(name, a, b, prints_a, prints_b, solution=False):
    if not prints_a or not prints_b:
        return None
    shared = len(prints_a & prints_b)
    return Match(name, a, b, shared / min(len(prints_a), len(prints_b)),
                 shared / len(prints_a), shared / len(prints_b), solution)


def student_matches(name, pieces, ignored, threshold):
    """Every two students whose fingerprints beyond `ignored` (stub and course code) match at or above threshold."""
    import numpy as np  # only when a report is asked for: bpe-grade starts without it

    own = [frozenset(set(p.prints) - ignored) for p in pieces]
    common = common_prints(set(own))
    own = [prints - common for prints in own]
    groups = {}
    for i, prints in enumerate(own):
        if len(prints) >= MIN_OWN:
            groups.setdefault(prints, []).append(i)
    keys = list(groups)
    matches = []
    for members in groups.values():  # identical copies: every two of them, score 1
        for x, i in enumerate(members):
            for j in members[x + 1:]:
                matches.append(Match(name, pieces[i], pieces[j], 1.0, 1.0, 1.0))
    shared = overlap_matrix(keys)
    sizes = np.array([len(k) for k in keys], dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = shared / np.minimum.outer(sizes, sizes)
    for g, h in zip(*np.nonzero(np.triu(scores >= threshold, k=1))):
        a_in_b, b_in_a = shared[g, h] / sizes[g], shared[g, h] / sizes[h]
        for i in groups[keys[g]]:
            for j in groups[keys[h]]:
                matches.append(Match(name, pieces[i], pieces[j], float(scores[g, h]), a_in_b, b_in_a))
    return matches


def common_prints(variants):
    """Fingerprints found in more of the distinct variants of an exercise than COMMON allows: what
    many students write (MOSS ignores a passage found in more than 10 programs), not a link
    between two. Students who hand in the same code are one variant, so a copied piece stays."""
    limit = max(COMMON[0], COMMON[1] * len(variants))
    counts = {}
    for prints in variants:
        for fp in prints:
            counts[fp] = counts.get(fp, 0) + 1
    return {fp for fp, n in counts.items() if n > limit}


def overlap_matrix(keys):
    """shared[g, h] = how many fingerprints groups g and h have in common, through an inverted index."""
    import numpy as np

    index = {}
    for g, prints in enumerate(keys):
        for fp in prints:
            index.setdefault(fp, []).append(g)
    shared = np.zeros((len(keys), len(keys)), dtype=np.int32)
    for holders in index.values():
        if len(holders) > 1:
            holders = np.array(holders)
            shared[np.ix_(holders, holders)] += 1
    return shared


def clusters(matches):
    """Groups of students linked by matches (union-find); each match gets its cluster's number, from 1."""
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for m in matches:
        parent[find(m.a.student)] = find(m.b.student)
    members = {}
    for student in parent:
        members.setdefault(find(student), []).append(student)
    ordered = sorted(members.values(), key=lambda group: (-len(group), sorted(group)))
    number = {find(group[0]): n for n, group in enumerate(ordered, 1)}
    for m in matches:
        m.cluster = number[find(m.a.student)]
    matches.sort(key=lambda m: (m.cluster, -m.score, m.a.student, m.b.student))
    return [sorted(group) for group in ordered]


# ---------------------------------------------------------------------------- the whole report


def similarity_report(book, threshold=THRESHOLD, course=None):
    """Compare every exercise of a graded class (classroom.ClassResults); nothing is run."""
    course = course or Course()
    pieces, refused = class_pieces(book, course)
    reports = [compare_exercise(name, pieces[name], course, threshold) for name in REGISTRY if name in pieces]
    return SimilarityReport(threshold, reports, refused)


@dataclass
class PairSummary:
    """Two students across the exercises: on how many of those both were compared they were flagged."""

    a: str
    b: str
    flagged: list  # exercise names, in course order
    compared: int  # exercises where both students' code was compared

    @property
    def line(self):
        return f"flagged on {len(self.flagged)} of {self.compared}"


def pair_summaries(report):
    """Every pair flagged on at least one exercise, most often flagged first ("flagged on 5 of 5")."""
    flagged = {}
    for e in report.exercises:
        for m in e.matches:
            flagged.setdefault(tuple(sorted((m.a.student, m.b.student))), []).append(e.name)
    out = [PairSummary(a, b, names, sum(a in e.judged and b in e.judged for e in report.exercises))
           for (a, b), names in flagged.items()]
    return sorted(out, key=lambda p: (-len(p.flagged), -len(p.flagged) / max(p.compared, 1), p.a, p.b))


CSV_HEADER = ["exercise", "kind", "cluster", "score", "student_a", "file_a", "student_b", "file_b",
              "a_in_b", "b_in_a", "tokens_a", "tokens_b", "note"]
HIDES = "could not be compared: hides its code"


def write_similarity_csv(report, path):
    """One row per match: student pairs (kind 'students'), matches with the course ('solution'),
    and code that could not be compared because it hides itself ('hides its code', the reason in note)."""
    summary = {(p.a, p.b): p.line for p in pair_summaries(report)}
    with atomic_text(path) as f:
        writer = csv_writer(f)
        writer.writerow(CSV_HEADER)
        for exercise in report.exercises:
            for m in exercise.matches + exercise.solution:
                note = "" if m.solution else summary.get(tuple(sorted((m.a.student, m.b.student))), "")
                writer.writerow([m.exercise, "solution" if m.solution else "students", m.cluster or "",
                                 f"{m.score:.2f}", m.a.student, m.a.file, m.b.student, m.b.file,
                                 f"{m.a_in_b:.2f}", f"{m.b_in_a:.2f}", m.a.tokens, m.b.tokens, note])
            for student, file, reason in exercise.hidden:
                writer.writerow([exercise.name, "hides its code", "", "", student, file, "", "", "", "", "", "",
                                 f"{HIDES} ({reason})"])


def summary_lines(report):
    """A few lines for the terminal: what was flagged per exercise, and where to look."""
    lines = [f"Similarity (a reason to look, not a verdict; threshold {report.threshold:.2f}):"]
    for e in report.exercises:
        lines.append(f"  {e.name:<18} {e.pieces} read, {e.short} too short to tell apart, "
                     f"{plural(len(e.clusters), 'group')} of students ({plural(len(e.matches), 'pair')}), "
                     f"{len(e.solution)} like the course's solution"
                     + (f", {len(e.hidden)} could not be compared (hides its code)" if e.hidden else ""))
    lines += [f"  {e.name}: {student}: {HIDES} ({reason})" for e in report.exercises for student, _, reason in e.hidden]
    lines += [f"  not read: {line}" for line in report.refused]
    return lines


def plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
