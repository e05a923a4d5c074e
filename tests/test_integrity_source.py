"""What a submission cannot talk its way around: the by-hand rules, what is graded, how a file is read.

- By-hand rules: each kind of shortcut seen (a format spec reached through a non-literal template
  or nested in an f-string, int reached through its constructor, encode reached through a name
  given as text or a function handed to C code), in several spellings, is refused; honest code
  written with the same tools is not. Checked the way the grader checks, statically and while the
  function runs (bpe_ref.grade.inside.byhand), on functions written to a real file.
- What is graded comes from the course's own copy of a workbook, not from the submission's metadata.
- Source is read as Python reads it (PEP 263), and a file that cannot be read says why.
"""

import importlib.util
import re
import textwrap
from pathlib import Path

import nbformat
import pytest

from bpe_ref.grade.inside import byhand, calling
from bpe_ref.grade.reading.source import UnreadableSubmission, read_submission
from bpe_ref.grade.submission import grade_file


def shortcuts(tmp_path, source, name, rule, args):
    """Everything the grader refuses in function `name` of `source`: read first, then watched while
    it runs on `args` (as the sandbox worker does)."""
    path = tmp_path / "learner.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("learner_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, name)
    mine = lambda filename: filename == str(path)  # noqa: E731
    found = byhand.static_shortcuts(fn, rule, mine)
    outcome = calling.call(fn, args, seconds=5, refuses=byhand.refuser(rule))
    return found + outcome.get("shortcuts", []), outcome


TEMPLATES = {  # a format spec reached through a non-literal template
    "a %-template in a constant": 'FMT = "%x"\ndef to_hex(n):\n    return FMT % n\n',
    "a %-template built from pieces": 'def to_hex(n):\n    t = "%" + "0" + "x"\n    return t % n\n',
    "a %-template from a table": 'T = {"hex": "%X"}\ndef to_hex(n):\n    return T["hex"].lower() % n\n',
    "a %-template with a mapping key": 'def to_hex(n):\n    return "%(v)x" % {"v": n}\n',
    "operator.mod of a template": 'import operator\nF = "%x"\ndef to_hex(n):\n    return operator.mod(F, n)\n',
    "a helper kept in a dict": ('def digits(n):\n    return "%x" % n\nHELPERS = {"hex": digits}\n'
                                'def to_hex(n):\n    return HELPERS["hex"](n)\n'),
    "str.format handed to map": 'def to_hex(n):\n    return "".join(map("{:x}".format, [n]))\n',
    "str.__mod__ called": 'def to_hex(n):\n    return "%x".__mod__(n)\n',
    "str.format of a constant": 'FMT = "{:x}"\ndef to_hex(n):\n    return FMT.format(n)\n',
    "format() with a spec variable": 'SPEC = "x"\ndef to_hex(n):\n    return format(n, SPEC)\n',
    "the spec passed to str.format": 'def to_hex(n):\n    return "{:{}}".format(n, "x")\n',
    "the spec passed by keyword": 'K = "X"\ndef to_hex(n):\n    return "{0:{k}}".format(n, k=K.lower())\n',
}

NESTED_SPECS = {  # a format spec nested in an f-string
    "a constant": 'SPEC = "x"\ndef to_hex(n):\n    return f"{n:{SPEC}}"\n',
    "a literal": 'def to_hex(n):\n    return f"{n:{\'x\'}}"\n',
    "a parameter's default": 'def to_hex(n, spec="x"):\n    return f"{n:{spec}}"\n',
    "a helper's return value": 'def kind():\n    return "x"\ndef to_hex(n):\n    return f"{n:{kind()}}"\n',
    "a lambda's return value": 'kind = lambda: "X".lower()\ndef to_hex(n):\n    return f"{n:{kind()}}"\n',
    "a width then the letter": 'def to_hex(n, w=1):\n    return f"{n:{w}x}"\n',
    "chr of its code": 'def to_hex(n):\n    return f"{n:{chr(120)}}"\n',
}

INT_CONSTRUCTORS = {  # int reached through __new__ or another name
    "int.__new__": 'def from_hex(s):\n    return int.__new__(int, s, 16)\n',
    "type(0)": 'def from_hex(s):\n    return type(0)(s, 16)\n',
    "type(0) kept in a name": 'def from_hex(s):\n    parse = type(0)\n    return parse(s, base=16)\n',
    "getattr(builtins, 'int')": 'import builtins\ndef from_hex(s):\n    return getattr(builtins, "int")(s, 16)\n',
    "type(1).__new__ in a table": 'P = {"i": type(1).__new__}\ndef from_hex(s):\n    return P["i"](int, s, 16)\n',
    "int.__call__": 'def from_hex(s):\n    return int.__call__(s, 16)\n',
    "a partial of int.__new__": ('import functools\nP = functools.partial(int.__new__, int, base=16)\n'
                                 'def from_hex(s):\n    return P(s)\n'),
}

ENCODERS = {  # encode reached by a name given as text, or handed to C code that calls it
    "operator.methodcaller": ('import operator\ndef utf8_encode(text):\n'
                              '    return operator.methodcaller("encode")(text)\n'),
    "a methodcaller kept in a name": ('import operator\nE = operator.methodcaller("encode", "utf-8")\n'
                                      'def utf8_encode(text):\n    return E(text)\n'),
    "str.encode handed to map": 'def utf8_encode(text):\n    return b"".join(map(str.encode, text))\n',
    "str.encode as a default": 'def utf8_encode(text, how=str.encode):\n    return how(text)\n',
    "getattr with a built name": 'def utf8_encode(text):\n    return getattr(text, "enc" + "ode")()\n',
    "a methodcaller with a keyword": ('import operator\nE = operator.methodcaller("encode", errors="strict")\n'
                                      'def utf8_encode(text):\n    return E(text)\n'),
    "attrgetter": 'import operator\ndef utf8_encode(text):\n    return operator.attrgetter("encode")(text)()\n',
    "bytearray.__init__": ('def utf8_encode(text):\n    out = bytearray()\n'
                           '    bytearray.__init__(out, text, "utf-8")\n    return bytes(out)\n'),
    "codecs.encode handed to map": ('import codecs\ndef utf8_encode(text):\n'
                                    '    return b"".join(map(codecs.encode, text))\n'),
}

HONEST = {  # the same tools, used honestly: nothing may be refused
    "%s joins and a padded f-string": ("to_hex", "int to hex", (300,), '''
        PIECE = "%s%s"
        DIGITS = "0123456789abcdef"
        def to_hex(n, width=1):
            out = ""
            while n or not out:
                n, r = divmod(n, 16)
                out = PIECE % (DIGITS[r], out)
            return f"{out:0>{width}}"
        '''),
    "a width passed to str.format": ("to_hex", "int to hex", (300,), '''
        def to_hex(n):
            out = []
            while n or not out:
                n, r = divmod(n, 16)
                out.append("0123456789abcdef"[r])
            return "{:>{}}".format("".join(reversed(out)), len(out))
        '''),
    "methodcaller and getattr of harmless methods": ("from_hex", "hex to int", ("0xFF",), '''
        import operator
        LOWER = operator.methodcaller("lower")
        def from_hex(s):
            s = getattr(LOWER(s), "removeprefix")("0x")
            n = 0
            for ch in s:
                n = n * 16 + (int(ch) if ch.isdigit() else "abcdef".index(ch) + 10)
            return n
        '''),
    "ord handed to map, bytes of a list": ("utf8_encode", "text to utf-8", ("é€",), '''
        def utf8_encode(text):
            out = []
            for cp in map(ord, text):
                if cp < 0x80:
                    out.append(cp)
                elif cp < 0x800:
                    out += [0xC0 | cp >> 6, 0x80 | cp & 0x3F]
                else:
                    out += [0xE0 | cp >> 12, 0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F]
            return bytes(out)
        '''),
}


@pytest.mark.parametrize("spelling", TEMPLATES)
def test_a_format_spec_through_a_non_literal_template_is_refused(tmp_path, spelling):
    found, _ = shortcuts(tmp_path, TEMPLATES[spelling], "to_hex", "int to hex", (255,))
    assert found, spelling


@pytest.mark.parametrize("spelling", NESTED_SPECS)
def test_a_format_spec_nested_in_an_f_string_is_refused(tmp_path, spelling):
    found, _ = shortcuts(tmp_path, NESTED_SPECS[spelling], "to_hex", "int to hex", (255,))
    assert any("f-string" in what for what in found), (spelling, found)


@pytest.mark.parametrize("spelling", INT_CONSTRUCTORS)
def test_int_reached_through_its_constructor_is_refused(tmp_path, spelling):
    found, _ = shortcuts(tmp_path, INT_CONSTRUCTORS[spelling], "from_hex", "hex to int", ("ff",))
    assert found, spelling


@pytest.mark.parametrize("spelling", ENCODERS)
def test_encode_reached_by_name_or_through_c_code_is_refused(tmp_path, spelling):
    found, _ = shortcuts(tmp_path, ENCODERS[spelling], "utf8_encode", "text to utf-8", ("hé",))
    assert found, spelling


@pytest.mark.parametrize("spelling", HONEST)
def test_honest_code_with_the_same_tools_is_not_refused(tmp_path, spelling):
    name, rule, args, source = HONEST[spelling]
    found, outcome = shortcuts(tmp_path, source, name, rule, args)
    assert found == [], spelling
    assert "ok" in outcome, outcome


def test_reading_the_source_runs_no_learner_code(tmp_path):
    """Following names must not run the learner's code: __index__, __str__, a property, __eq__,
    __getattr__, a lying __class__, __init_subclass__ (type() with three arguments)."""
    source = '''
        RAN = []
        def ran(what):
            RAN.append(what)
            raise RuntimeError(what)
        class Sneaky:
            def __index__(self):
                ran("__index__")
            def __str__(self):
                ran("__str__")
            @property
            def spec(self):
                ran("spec")
            def __eq__(self, other):
                ran("__eq__")
            def __getattr__(self, name):
                ran("__getattr__")
            @property
            def __class__(self):
                ran("__class__")
            def __init_subclass__(cls):
                ran("__init_subclass__")
            def __call__(self, n):
                return "0123456789abcdef"[n % 16]
        S = Sneaky()
        NS = {}
        def to_hex(n):
            made = type("Made", (Sneaky,), NS)
            return (f"{n:{chr(S)}}" + f"{n:{str(S)}}" + f"{n:{S.spec}}" + S.missing + getattr(S, "encode")(n)
                    + getattr(S, "x", "y") + S(n) + f"{made}")
        '''
    path = tmp_path / "learner.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("sneaky_learner", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for fn in (module.to_hex, module.S):
        assert byhand.static_shortcuts(fn, "int to hex", lambda f: f == str(path)) == []
    assert module.RAN == []


# ---------------------------------------------------------------------------- reading source as Python does

GET_STATS = "def get_stats(ids):\n    counts = {}\n    for pair in zip(ids, ids[1:]):\n" \
            "        counts[pair] = counts.get(pair, 0) + 1\n    return counts\n"


@pytest.mark.parametrize("encoding, header", [
    ("latin-1", "# -*- coding: latin-1 -*-\n"),
    ("cp1252", "#!/usr/bin/env python3\n# vim: set fileencoding=cp1252 :\n"),
    ("utf-8-sig", ""),
])
def test_a_py_file_in_its_declared_encoding_is_graded(tmp_path, encoding, header):
    path = tmp_path / "caf\u00e9.py"
    path.write_bytes((header + '"""Caf\u00e9 na\u00efve: \u00e9\u00e8"""\n' + GET_STATS).encode(encoding))
    result = grade_file(path, timeout=10)
    assert result["exercises"]["get_stats"]["status"] == "pass", result


@pytest.mark.parametrize("content, reason", [
    (b"# coding: klingon\n" + GET_STATS.encode(), "unknown encoding: klingon"),
    (b'"""na\xefve"""\n' + GET_STATS.encode(), "no coding line (PEP 263"),
    (b"# coding: utf-8\n" + GET_STATS.encode() + b"# \xe9\n", "line 7 is not valid utf-8 text (byte 0xe9)"),
    (b"\xef\xbb\xbf# coding: latin-1\n" + GET_STATS.encode(), "byte order mark"),
    (GET_STATS.encode("utf-16"), "saved as UTF-16"),
    (GET_STATS.encode() + b"x = 1\x00\n", "line 6 holds a NUL byte"),
])
def test_a_py_file_that_cannot_be_decoded_says_why(tmp_path, content, reason):
    path = tmp_path / "learner.py"
    path.write_bytes(content)
    with pytest.raises(UnreadableSubmission, match=re.escape(reason)):
        read_submission(path)
    result = grade_file(path, timeout=10)
    assert reason in result["error"] and result["exercises"] == {}


@pytest.mark.parametrize("content, reason", [
    ("", "the file is empty"),
    ('{"cells": [{"cell_type": "code", "sou', "not valid JSON, line 1, column 34: Unterminated string"),
    ("[1, 2]", "the top level is a JSON list"),
    ('{"cells": [], "metadata": {}}', "no nbformat version number"),
    ('{"nbformat": 4, "nbformat_minor": 5, "metadata": {}}', "no list of cells"),
    ('{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "id": "a", '
     '"metadata": {}, "outputs": [], "execution_count": null, "source": 7}]}', "cell 1 has no cell_type or source"),
])
def test_a_broken_notebook_says_what_is_broken(tmp_path, content, reason):
    path = tmp_path / "04_naive_bpe.ipynb"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UnreadableSubmission, match=re.escape(reason)):
        read_submission(path)


def test_a_file_where_nothing_parses_says_so_and_is_not_missing(tmp_path):
    broken = tmp_path / "learner.py"
    broken.write_text("counts = {(1, 2): 1\nprint(counts\n", encoding="utf-8")
    result = grade_file(broken, timeout=10)
    assert "does not parse as Python, line 2: '(' was never closed" in result["error"]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("for x in\n"),
                                               nbformat.v4.new_code_cell("print((")])
    with pytest.raises(UnreadableSubmission, match="none of its 2 code cells parses as Python"):
        read_submission(saved(notebook, tmp_path / "learner.ipynb"))
    written = tmp_path / "merge.py"  # an exercise is found: graded, with its own syntax error
    written.write_text("def merge(ids, pair, idx)\n    return ids\n", encoding="utf-8")
    assert grade_file(written, timeout=10)["exercises"]["merge"]["status"] == "error"


def test_a_permission_problem_is_called_a_permission_problem(tmp_path, monkeypatch):
    """As root every file is readable, so the refusal is the operating system's, simulated."""
    path = tmp_path / "learner.py"
    path.write_text(GET_STATS, encoding="utf-8")

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(UnreadableSubmission, match="permission denied") as raised:
        read_submission(path)
    assert "UTF-8" not in str(raised.value)
    with pytest.raises(UnreadableSubmission, match="permission denied"):
        read_submission(path.with_suffix(".ipynb"))


def test_a_folder_or_a_missing_file_is_not_called_text(tmp_path):
    (tmp_path / "folder.py").mkdir()
    with pytest.raises(UnreadableSubmission, match="a folder, not a file"):
        read_submission(tmp_path / "folder.py")
    with pytest.raises(UnreadableSubmission, match="no such file"):
        read_submission(tmp_path / "gone.ipynb")


# ---------------------------------------------------------------------------- what is graded: the course's copy

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def course_notebook(workbook):
    """A fresh copy of the course's learner notebook of `workbook`, to tamper with."""
    return nbformat.read(NOTEBOOKS / f"{workbook}.ipynb", as_version=4)


def saved(notebook, path):
    nbformat.write(notebook, path)
    return path


def cell_with(notebook, text):
    return next(cell for cell in notebook.cells if text in cell.source)


def test_the_courses_given_cell_is_given_with_or_without_its_mark(tmp_path):
    notebook = course_notebook("06_encoding")
    given_cell = next(cell for cell in notebook.cells if cell.metadata.get("bpe_course", {}).get("given"))
    cells, _ = read_submission(saved(notebook, tmp_path / "06_encoding.ipynb"))
    assert [c["given"] for c in cells if c["given"]] == [["get_stats", "merge"]]
    given_cell.metadata.pop("bpe_course")  # a learner's editor may drop cell metadata
    cells, _ = read_submission(saved(notebook, tmp_path / "06_encoding.ipynb"))
    assert [c["given"] for c in cells if c["given"]] == [["get_stats", "merge"]]


@pytest.mark.parametrize("tamper", ["a learner's cell marked given", "the given cell edited"])
def test_a_cell_marked_given_is_graded_unless_it_is_the_courses(tmp_path, tamper):
    notebook = course_notebook("06_encoding")
    if tamper == "a learner's cell marked given":
        stub = cell_with(notebook, "def encode(")
        stub.metadata["bpe_course"] = {"given": ["encode"]}
    else:
        given_cell = next(cell for cell in notebook.cells if cell.metadata.get("bpe_course", {}).get("given"))
        given_cell.source = given_cell.source.replace("return newids", "return ids")
    cells, _ = read_submission(saved(notebook, tmp_path / "06_encoding.ipynb"))
    assert all(c["given"] == [] for c in cells if "def encode(" in c["source"] or "return ids" in c["source"])


def test_a_cell_raises_on_purpose_only_where_the_course_says_so(tmp_path):
    notebook = course_notebook("03_utf8")
    demo = next(cell for cell in notebook.cells if "raises-exception" in cell.metadata.get("tags", []))
    demo.metadata["tags"] = []  # the course's demonstration still counts without its tag
    mine = nbformat.v4.new_code_cell("# NBVAL_RAISES_EXCEPTION\ndef utf8_encode(text):\n    raise ValueError('x')",
                                     metadata={"tags": ["raises-exception"]})
    notebook.cells.append(mine)
    cells, _ = read_submission(saved(notebook, tmp_path / "03_utf8.ipynb"))
    on_purpose = {c["source"].strip(): c["raises_on_purpose"] for c in cells}
    assert on_purpose[demo.source.strip()] is True
    assert on_purpose[mine.source.strip()] is False


@pytest.mark.parametrize("metadata", [
    {"exercises": [], "workbook": "01_hex"},
    {"exercises": ["to_hex"]},
    "drill",
])
def test_the_exercises_come_from_the_course_not_the_metadata(tmp_path, metadata):
    notebook = course_notebook("07_regex_splitting")
    notebook.metadata["bpe_course"] = metadata
    _, course = read_submission(saved(notebook, tmp_path / "homework.ipynb"))  # told by its cells
    assert course == {"workbook": "07_regex_splitting",
                      "exercises": ["split_text", "train_regex", "encode_ordinary"]}


def test_a_workbook_without_the_courses_cells_is_told_by_its_file_name(tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("def get_stats(ids):\n    return {}")])
    notebook.metadata["bpe_course"] = {"exercises": ["to_hex"], "workbook": "01_hex"}
    _, course = read_submission(saved(notebook, tmp_path / "bob_04_naive_bpe (1).ipynb"))
    assert course["exercises"] == ["get_stats", "merge", "train"]
    _, course = read_submission(saved(notebook, tmp_path / "homework.ipynb"))
    assert course == {}  # none of the course's: graded on what it defines, whatever its metadata says


def test_a_deleted_exercise_is_missing_whatever_the_metadata_lists(tmp_path):
    notebook = course_notebook("06_encoding")
    notebook.cells = [cell for cell in notebook.cells if "def encode(" not in cell.source]
    notebook.metadata["bpe_course"] = {"exercises": []}
    result = grade_file(saved(notebook, tmp_path / "homework.ipynb"), timeout=10)
    assert {name: ex["status"] for name, ex in result["exercises"].items()} == {"encode": "missing"}


def test_a_drill_is_graded_on_its_levels_exercises_whatever_its_metadata_says(tmp_path):
    from bpe_ref.practice import new_drill
    from bpe_ref.practice.levels import LEVELS

    path = new_drill(tmp_path, "regex")
    notebook = nbformat.read(path, as_version=4)
    notebook.metadata["bpe_course"]["exercises"] = []
    _, course = read_submission(saved(notebook, path))
    assert course == {"drill": "regex", "exercises": list(LEVELS["regex"].exercises)}
