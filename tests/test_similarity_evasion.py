"""Attacks on the similarity report (issues 29 and 31), each kind in two spellings: a fake `given`
mark, code run from strings, names looked up indirectly, a wrapper around every name, loops
rewritten as comprehensions, a helper pulled out, deep nesting; and the per-disguise figures."""

import json
from pathlib import Path

import pytest

from bpe_ref.grade.classroom.feedback import write_feedback
from bpe_ref.grade.classroom.points import DEFAULT_POINTS
from bpe_ref.grade.classroom.results import class_results
from bpe_ref.grade.reading.source import function_source
from bpe_ref.grade.similarity import report as similarity
from bpe_ref.grade.similarity.disguise import disguise
from bpe_ref.grade.similarity.fingerprint import normalize
from bpe_ref.grade.similarity.page import similarity_section
from bpe_ref.grade.similarity.report import Course, compare_exercise, piece, similarity_report, write_similarity_csv

ROOT = Path(__file__).resolve().parent.parent
STYLES = ROOT / "tests" / "data" / "similarity" / "styles"
WORKBOOK = ROOT / "notebooks" / "04_naive_bpe.ipynb"


@pytest.fixture(scope="module")
def course():
    return Course()


def style(name):
    return (STYLES / f"{name}.py").read_text(encoding="utf-8")


def code_cell(source, metadata=None):
    return {"cell_type": "code", "execution_count": None, "metadata": metadata or {}, "outputs": [], "source": source}


def hand_in(folder, student, cells, name="04_naive_bpe.ipynb"):
    """folder/student/name: the course's workbook 04 with `cells` added at its end (a .py when name says so)."""
    path = folder / "submissions" / student / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if name.endswith(".py"):
        path.write_text(cells, encoding="utf-8")
        return path
    notebook = json.loads(WORKBOOK.read_text(encoding="utf-8"))
    notebook["cells"] += cells
    path.write_text(json.dumps(notebook), encoding="utf-8")
    return path


def class_report(paths, course):
    book = class_results([{"path": str(p), "exercises": {}, "notes": []} for p in paths], DEFAULT_POINTS)
    return book, similarity_report(book, course=course)


def pairs(report, exercise):
    found = {e.name: e for e in report.exercises}.get(exercise)
    return {frozenset((m.a.student, m.b.student)) for m in found.matches} if found else set()


def hidden(report):
    return {(student, e.name) for e in report.exercises for student, _, _ in e.hidden}


# ---------------------------------------------------------------------------- the course's copy decides what is given


GIVEN_MARK = {"bpe_course": {"given": ["get_stats", "merge", "train", "encode"]}}


@pytest.mark.parametrize("spelling", ["metadata only", "the course's given header too"])
def test_a_fake_given_mark_does_not_hide_a_copy(tmp_path, course, spelling):
    original = style("ada")
    copy = disguise(original, seed=5, keep={"get_stats", "merge", "train", "encode"})
    if spelling != "metadata only":
        copy = "# Given, as in bpe_ref/core/naive.py\n" + copy
    paths = [hand_in(tmp_path, "ann", [code_cell(original)]),
             hand_in(tmp_path, "ben", [code_cell(copy, GIVEN_MARK)])]
    _, report = class_report(paths, course)
    for exercise in ("merge", "train", "encode"):
        assert pairs(report, exercise) == {frozenset(("ann", "ben"))}, exercise


# ---------------------------------------------------------------------------- code that hides itself


EXEC_SPELLINGS = {
    "exec of a string": lambda code: f"SOURCE = {code!r}\nexec(SOURCE)\n",
    "exec reached through eval": lambda code: f"run = eval('ex' + 'ec')\nrun({code!r})\n",
}
INDIRECT_SPELLINGS = {
    "globals()[...] inside the functions": lambda code: code.replace("= get_stats(", "= globals()['get_' + 'stats'](")
    .replace("= merge(", "= globals()['mer' + 'ge']("),
    "vars() at the top": lambda code: code.replace("def merge(", "def _m(") + "\nvars()['mer' + 'ge'] = _m\n",
}


def identity_everywhere(code):
    """Every name the functions read wrapped in I(...), an identity function of the file's own."""
    import ast

    class Wrap(ast.NodeTransformer):
        def visit_Name(self, node):
            if isinstance(node.ctx, ast.Load) and node.id not in ("I", "len", "list", "range", "max", "min"):
                return ast.Call(func=ast.Name(id="I", ctx=ast.Load()), args=[node], keywords=[])
            return node

    tree = Wrap().visit(ast.parse(code))
    return "def I(x):\n    return x\n\n\n" + ast.unparse(ast.fix_missing_locations(tree))


def lambda_everywhere(code):
    return identity_everywhere(code).replace("def I(x):\n    return x\n", "I = lambda v: v\n")


HIDDEN = {"globals()[...] inside the functions": "train", "vars() at the top": "merge"}  # else every exercise


@pytest.mark.parametrize("attack", [*EXEC_SPELLINGS.values(), *INDIRECT_SPELLINGS.values(), identity_everywhere,
                                    lambda_everywhere],
                         ids=[*EXEC_SPELLINGS, *INDIRECT_SPELLINGS, "identity function", "identity lambda"])
def test_code_that_hides_itself_is_listed_as_not_compared(tmp_path, course, attack, request):
    original = style("cy")
    attacked = attack(original)
    namespace = {}
    exec(compile(attacked, "attack.py", "exec"), namespace)  # the attack still works: the test's own check
    assert namespace["merge"]([1, 2, 1, 2, 3], (1, 2), 9) == [9, 9, 3]
    paths = [hand_in(tmp_path, "ann", original, "solution.py"), hand_in(tmp_path, "ben", attacked, "solution.py")]
    _, report = class_report(paths, course)
    exercise = HIDDEN.get(request.node.callspec.id, "merge")
    assert ("ben", exercise) in hidden(report) and not [h for h in hidden(report) if h[0] == "ann"]
    assert not any("ben" in pair for pair in pairs(report, exercise))
    write_similarity_csv(report, tmp_path / "similarity.csv")
    csv_text = (tmp_path / "similarity.csv").read_text(encoding="utf-8")
    assert "ben" in csv_text and "could not be compared: hides its code" in csv_text
    assert "Could not be compared: hides its code" in similarity_section(report)
    assert any("could not be compared: hides its code" in line for line in similarity.summary_lines(report))


def test_honest_code_is_not_taken_for_hiding(course):
    from bpe_ref.grade.similarity.hiding import hides
    import ast

    for path in sorted(STYLES.glob("*.py")) + sorted((ROOT / "tests" / "data" / "similarity").glob("*/*.py")):
        assert hides(ast.parse(path.read_text(encoding="utf-8")).body) is None, path
    assert hides(ast.parse("import re\nPATTERN = re.compile(r'\\w+')\n").body) is None


# ---------------------------------------------------------------------------- rewrites that keep a copy a copy


LOOP_SPELLINGS = {
    "list": ("out = []\nfor x in xs:\n    if x > 0:\n        out.append(x * 2)\n",
             "out = [x * 2 for x in xs if x > 0]\n"),
    "dict": ("table = {}\nfor i, b in enumerate(bs):\n    table[i] = bytes([b])\n",
             "table = {i: bytes([b]) for i, b in enumerate(bs)}\n"),
}


@pytest.mark.parametrize("kind", LOOP_SPELLINGS)
def test_a_loop_and_its_comprehension_read_the_same(kind):
    loop, comprehension = LOOP_SPELLINGS[kind]
    assert normalize(loop).tokens == normalize(comprehension).tokens


HELPER_SPELLINGS = {
    "one-line helper": ("def f(ids, pair):\n"
                        "    return [i for i in range(len(ids) - 1) if (ids[i], ids[i + 1]) == pair]\n",
                        "def hit(ids, i, pair):\n    return (ids[i], ids[i + 1]) == pair\n\n\n"
                        "def f(ids, pair):\n    return [i for i in range(len(ids) - 1) if hit(ids, i, pair)]\n"),
    "loop moved out": ("def f(ids):\n    n = 0\n    for i in ids:\n        n += i * i\n    return n\n",
                       "def f(ids):\n    n = 0\n    n = g(ids, n)\n    return n\n\n\n"
                       "def g(ids, n):\n    for i in ids:\n        n += i * i\n    return n\n"),
}


@pytest.mark.parametrize("kind", HELPER_SPELLINGS)
def test_a_helper_is_read_where_it_is_called(kind):
    inline, extracted = HELPER_SPELLINGS[kind]
    a, b = normalize(inline).tokens, normalize(extracted).tokens
    shared = sum(1 for k in range(len(a) - 4) if any(a[k:k + 5] == b[j:j + 5] for j in range(len(b) - 4)))
    assert shared >= 0.7 * (len(a) - 4), (a, b)


def test_the_comprehension_and_helper_disguises_are_found(course):
    """Both new disguises (disguise.py's REWRITES), on every style they change, score as copies."""
    for name in ("bo", "eun", "fil"):
        original = style(name)
        for kinds in (("comprehensions",), ("helper",)):
            copy = disguise(original, seed=3, keep={"get_stats", "merge", "train", "encode"}, kinds=kinds)
            for exercise in ("train", "encode"):
                a = function_source([{"source": original}], exercise)
                b = function_source([{"source": copy}], exercise)
                report = compare_exercise(exercise, [piece("a", "a", a), piece("b", "b", b)], course)
                assert report.matches or report.short, (name, kinds, exercise)


# ---------------------------------------------------------------------------- one floor, both sides


def test_short_course_solutions_are_not_matched(course):
    """encode_ordinary's 29-token version in workbook 08 is too short to tell a copy from an honest
    answer: an honest, longer encode_ordinary that contains it is not like the solution."""
    short = [s for s in course.solutions["encode_ordinary"] if s.tokens < similarity.MIN_TOKENS]
    assert short
    honest = short[0].text + "\n\n\ndef count_chunks(text):\n    total = 0\n    for part in text.split():\n" \
                             "        if part:\n            total += len(part)\n    return total\n"
    honest = honest.replace("return ", "_ = count_chunks(text)\n    return ", 1)
    report = compare_exercise("encode_ordinary", [piece("ann", "a.py", honest)], course)
    assert report.solution == []


# ---------------------------------------------------------------------------- deep nesting


@pytest.mark.parametrize("spelling", ["dead branch", "top of a cell"])
def test_1500_terms_of_dead_code_do_not_stop_the_report(tmp_path, course, spelling):
    terms = "+".join(["0"] * 1500)
    original = style("dev")
    if spelling == "dead branch":
        attacked = original.replace("def merge(ids, pair, idx):\n", f"def merge(ids, pair, idx):\n    if False:\n"
                                    f"        x = {terms}\n", 1)
    else:
        attacked = f"PADDING = {terms}\n\n\n" + original
    paths = [hand_in(tmp_path, "ann", [code_cell(original)]), hand_in(tmp_path, "ben", [code_cell(attacked)]),
             hand_in(tmp_path, "cat", [code_cell(original)])]
    book, report = class_report(paths, course)
    assert frozenset(("ann", "cat")) in pairs(report, "train")
    written = write_feedback(book, tmp_path / "feedback", [similarity_section(report)])
    assert "Similar code" in written[0].read_text(encoding="utf-8")


@pytest.mark.parametrize("padding", ["x = " + "+".join(["0"] * 100_000), "x = " + "-" * 100_000 + "0"])
def test_a_copy_in_a_cell_too_deep_to_parse_is_not_compared(tmp_path, course, padding):
    """A cell Python's parser gives up on defines nothing the report can read: its exercises are
    listed as not compared, never as no match."""
    original = style("dev")
    paths = [hand_in(tmp_path, "ann", [code_cell(original)]),
             hand_in(tmp_path, "ben", [code_cell(original + "\n\n" + padding + "\n")])]
    _, report = class_report(paths, course)
    assert ("ben", "merge") in hidden(report) and ("ben", "train") in hidden(report)
    assert not pairs(report, "train")


@pytest.mark.parametrize("where", ["a cell's metadata", "the notebook's metadata"])
def test_100000_nested_brackets_are_one_students_line(tmp_path, course, where):
    original = style("dev")
    paths = [hand_in(tmp_path, "ann", [code_cell(original)]), hand_in(tmp_path, "cat", [code_cell(original)])]
    deep = "[" * 100_000 + "]" * 100_000
    notebook = json.loads(WORKBOOK.read_text(encoding="utf-8"))
    notebook["cells"].append(code_cell(original, {"x": 0}))
    text = json.dumps(notebook)
    if where == "a cell's metadata":
        text = text.replace('"metadata": {"x": 0}', f'"metadata": {{"x": {deep}}}')
    else:
        text = text.replace('"nbformat":', f'"deep": {deep}, "nbformat":', 1)
    bad = tmp_path / "submissions" / "ben" / "04_naive_bpe.ipynb"
    bad.parent.mkdir(parents=True)
    bad.write_text(text, encoding="utf-8")
    book, report = class_report(paths + [bad], course)
    assert [line for line in report.refused if line.startswith("ben: ")], report.refused
    assert frozenset(("ann", "cat")) in pairs(report, "train")
    write_similarity_csv(report, tmp_path / "similarity.csv")
    written = write_feedback(book, tmp_path / "feedback", [similarity_section(report)])
    assert "ben" in written[0].read_text(encoding="utf-8")


# ---------------------------------------------------------------------------- the class page


def test_every_member_of_a_group_and_each_pair_across_exercises(tmp_path, course):
    original = style("fil")
    paths = [hand_in(tmp_path, f"s{n}", [code_cell(disguise(original, seed=n, keep={"merge", "train", "encode",
                                                                                     "get_stats"}))])
             for n in range(6)]
    _, report = class_report(paths, course)
    section = similarity_section(report)
    train = {e.name: e for e in report.exercises}["train"]
    assert train.clusters == [[f"s{n}" for n in range(6)]]
    for n in range(6):
        assert f"s{n} and " in section or f"and s{n}: score" in section
    summaries = similarity.pair_summaries(report)
    assert len(summaries) == 15 and all(len(p.flagged) <= p.compared and p.compared >= 2 for p in summaries)
    assert "Pairs across exercises" in section and f"flagged on {len(summaries[0].flagged)} of" in section


# ---------------------------------------------------------------------------- the figures


def test_per_disguise_precision_and_recall_at_the_default_threshold(course):
    """The labelled class of per_disguise.py: F1 >= 0.8 with precision >= 0.8, for students and for
    solution matches, and every disguise found."""
    from bpe_ref.grade.similarity.per_disguise import DISGUISES, evaluate, f1

    counts = evaluate(similarity.THRESHOLD, course)
    for what in ("students", "solution"):
        whole = counts[(what, "")]
        assert whole.precision >= 0.8 and f1(whole) >= 0.8, (what, whole)
    for name in DISGUISES:
        c = counts.get(("students", name))
        if c is not None and c.tp + c.fn:
            assert c.recall >= 0.8, (name, c)
    assert counts[("short", "")].tp + counts[("short", "")].fp == 0  # short code is left out, never guessed at


# ---------------------------------------------------------------------------- the CSV


@pytest.mark.parametrize("student", ['=HYPERLINK("evil.example","open")', "@SUM(A1)"])
def test_a_student_named_like_a_formula_is_text_in_the_csv(tmp_path, course, student):
    import csv

    original = style("fil")
    paths = [hand_in(tmp_path, student, [code_cell(original)]), hand_in(tmp_path, "ann", [code_cell(original)])]
    _, report = class_report(paths, course)
    write_similarity_csv(report, tmp_path / "similarity.csv")
    with open(tmp_path / "similarity.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows and all(not r[key].startswith(("=", "@", "+")) for r in rows for key in r)
    assert any(r["student_a"] == "'" + student or r["student_b"] == "'" + student for r in rows)


def test_a_report_that_fails_grader_side_is_one_line_and_the_pages_still_come(tmp_path, monkeypatch):
    """bpe-grade --similarity: whatever breaks inside the report, the class page and gradebook
    written after it are not lost; the instructor reads one line saying why."""
    import io
    from types import SimpleNamespace

    from bpe_ref.grade.similarity import page

    def broken(book, threshold):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(page, "similarity_report", broken)
    out = io.StringIO()
    options = SimpleNamespace(similarity_threshold=None, similarity=True, csv=None, feedback=str(tmp_path))
    assert page.similarity_sections(object(), options, out) == []
    assert "similarity: no report" in out.getvalue() and "RecursionError" in out.getvalue()
