"""The code a learner wrote for each exercise, read statically (parsed, never run).

    pieces = own_code("submissions/alice/04_naive_bpe.ipynb", root="submissions")
    pieces["merge"]    'def merge(ids, pair, idx):\\n    ...'   (plus the learner's own helpers it uses)

Only what the learner wrote counts: the exercise's function (or class, or `name = ...`) and the
helpers of their own it refers to, however deep. Left out: cells the course marks as given,
other exercises (each is compared under its own name), stubs that were never filled in, and
anything identical, after normalizing, to code the course itself defines (its demos and helpers).

What is given comes from the course's own copy of the workbook (course_copy), never from the
submission's metadata, which its author can edit: grading reads the same way. Code that hides its
body from a reading of its text (exec of a string, globals()[...], a wrapper around every name:
similarity/hiding.py) is not compared; it comes back as Hidden, with the reason.

Files are read as text with no link followed and nothing outside the class folder opened: a
symlink, a path that leaves the folder or a file over MAX_BYTES is refused with a one-line reason,
as is one nested deeper than can be read (100,000 `[` in a notebook's metadata).
"""

import ast
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from ..judge import exercises
from ..judge.exercises import REGISTRY
from ..similarity.fingerprint import normalize_tree
from ..similarity.hiding import hides, might_hide
from . import course_copy
from .course_copy import given_names
from .bounded import TOO_BIG, TOO_DEEP, load_json, parse_python
from .source import ipython_to_python

MAX_BYTES = 20 * 1024 * 1024  # a notebook full of pictures is a few MB; anything bigger is not code
STUB_BODIES = (ast.Pass, ast.Raise)  # what an untouched stub holds besides its docstring
SCAN_RE = re.compile(r"^(?:async\s+def|def|class)\s+([A-Za-z_]\w*)|^([A-Za-z_]\w*)\s*(?::[^=\n]*)?=", re.MULTILINE)


class Refused(Exception):
    """A submission this report does not read (a link, outside the class, too big, not code)."""


@dataclass(frozen=True)
class Hidden:
    """An exercise whose code hides itself from a reading of its text: not compared, and why."""

    reason: str


# ---------------------------------------------------------------------------- reading files safely


def read_safely(path, root):
    """The text of `path`, opened without following any link, refused unless it lies inside `root`."""
    path, root = Path(os.path.abspath(path)), Path(os.path.abspath(root))
    try:
        relative = path.relative_to(root)
    except ValueError:
        raise Refused(f"{path}: outside the class folder {root}") from None
    real_root = Path(os.path.realpath(root))
    if os.path.realpath(path) != str(real_root / relative):
        raise Refused(f"{path}: a symbolic link (or inside one); not read")
    try:  # no link followed, and a FIFO does not block the open
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise Refused(f"{path}: cannot open it ({e.strerror})") from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Refused(f"{path}: not a regular file; not read")
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise Refused(f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MB; not read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(f"{path}: not UTF-8 text") from None


def class_root(path):
    """The folder a submission must stay inside: its innermost submissions/ or submitted/, else its own folder."""
    path = Path(os.path.abspath(path))
    for parent in path.parents:
        if parent.name in ("submissions", "submitted"):
            return parent
    return path.parent


def code_cells(text, suffix):
    """[(source, given names)] for each code cell of one of the course's own notebooks (whose
    marks it trusts: the course wrote them), or the whole of a .py file."""
    if suffix == ".py":
        return [(text, [])]
    out = []
    for cell in notebook_cells(text):
        if cell.get("cell_type") == "code":
            metadata = cell.get("metadata") if isinstance(cell.get("metadata"), dict) else {}
            out.append((cell_source(cell), given_names({"metadata": metadata})))
    return out


def submission_cells(text, path):
    """(cells, learner's, workbook's exercises) for a handed-in file: cells as [(source, given
    names)], given as the course's copy of the workbook says (never the file's own metadata);
    learner's: the texts of the code cells that are not the course's."""
    path = Path(path)
    if path.suffix != ".ipynb":
        return [(text, [])], [text], []
    cells = notebook_cells(text)
    sources = [cell_source(cell) for cell in cells]
    workbook = course_copy.workbook_by_cells(sources) or course_copy.workbook_by_name(path)  # as identify() does
    known = course_copy.course_cells().get(workbook, {})
    out, learners = [], []
    for cell in cells:
        if cell.get("cell_type") != "code":
            continue
        source = cell_source(cell)
        out.append((source, list(course_copy.course_cell(source, workbook).given)))
        if course_copy.normalized(source) not in known:
            learners.append(source)
    return out, learners, exercises.workbook_exercises(workbook) if workbook else []


def notebook_cells(text):
    """The cells of a notebook's JSON text, each a dict; Refused if it is not a readable notebook."""
    try:
        notebook = load_json(text)
        cells = notebook["cells"]
    except (ValueError, KeyError, TypeError):
        raise Refused("not a readable notebook") from None
    return [cell for cell in cells if isinstance(cell, dict)] if isinstance(cells, list) else []


def cell_source(cell):
    source = cell.get("source", "")
    return "".join(map(str, source)) if isinstance(source, list) else str(source)


# ---------------------------------------------------------------------------- what a file defines


@dataclass
class Definition:
    """One top-level def, class or `name = ...`: its whole lines, the names it uses, whether it is given."""

    source: str
    node: ast.AST
    given: bool

    @property
    def refers_to(self):
        return {n.id for n in ast.walk(self.node) if isinstance(n, ast.Name)}

    @property
    def tokens(self):
        """The normalized tokens, as a tuple (computed once)."""
        if "_tokens" not in self.__dict__:
            self._tokens = tuple(normalize_tree([self.node]).tokens)
        return self._tokens


class Definitions:
    """What a file's cells define at top level; the last definition of a name wins, as when the
    notebook runs top to bottom. A cell is parsed only when a name it defines is asked for (a quick
    scan finds which names each cell defines), as most cells hold the course's demos."""

    def __init__(self, cells):
        self.cells, self.where, self.parsed = cells, {}, {}
        for number, (source, _) in enumerate(cells):
            for name in scan_names(source):
                self.where[name] = number

    def __contains__(self, name):
        return self.get(name) is not None

    @property
    def order(self):
        return list(self.where)

    def get(self, name):
        number = self.where.get(name)
        return None if number is None else self.cell(number).get(name)

    def cell(self, number):
        if number not in self.parsed:
            source, given = self.cells[number]
            self.parsed[number] = cell_definitions(source, given)
        return self.parsed[number]

    def items(self):
        for name in self.where:
            found = self.get(name)
            if found is not None:
                yield name, found


def scan_names(source):
    """Names a cell seems to define at top level (def, class, NAME =), from its text: a superset is fine."""
    return [m.group(1) or m.group(2) for m in SCAN_RE.finditer(source)]


def cell_definitions(source, given):
    """{name: Definition} for one cell (the last one of each name)."""
    tree = parse(source)
    if tree is None:
        return {}
    lines = tree.source.splitlines()
    found = {}
    for node in tree.body:
        for name in defined_names(node):
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            text = "\n".join(lines[first - 1:node.end_lineno])
            found[name] = Definition(text, node, name in given)
    return found


def definitions(cells):
    """{name: Definition} for every top-level definition in the cells."""
    return dict(Definitions(cells).items())


def parse(source):
    """The module of a cell (with its text as .source), trying IPython's syntax second; None if neither parses."""
    for convert in (str, ipython_to_python):  # IPython's converter is slow: only for cells that need it
        text = convert(source)
        try:
            tree = parse_python(text)
        except (SyntaxError, ValueError):
            continue
        tree.source = text
        return tree
    return None


def defined_names(node):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return [t.id for t in targets if isinstance(t, ast.Name)]
    return []


def is_stub(node):
    """A function still as the course handed it out: its body only a docstring, `pass`, `...` or a raise."""
    if isinstance(node, ast.Module):
        node = node.body[0] if len(node.body) == 1 else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    return all(isinstance(s, STUB_BODIES) for s in body)


# ---------------------------------------------------------------------------- a learner's own code


def exercise_parts(name):
    """The functions that make an exercise: its own name, or the ones it uses (save_load)."""
    exercise = REGISTRY[name]
    return list(exercise.uses) if exercise.uses else [name]


def own_code(path, root=None, course_tokens=frozenset(), stubs=frozenset()):
    """{exercise: the learner's code for it, as text, or Hidden} for one file; Refused if the file is not read.

    `course_tokens` holds the normalized tokens (as tuples) of every function the course defines:
    a helper identical to one of them is the course's, not the learner's. `stubs` holds the stubs
    and scaffolds as handed out (as stub_key gives them): an exercise still one of them was not written.
    """
    path = Path(path)
    text = read_safely(path, root if root is not None else class_root(path))
    try:
        cells, learners, expected = submission_cells(text, path)
    except Refused as e:
        raise Refused(f"{path}: {e}") from None
    found = code_by_exercise(cells, course_tokens, stubs)
    found.update(hidden_elsewhere(learners, expected, found))
    return found


def too_deep(source):
    """Whether Python's parser gives up on `source` for its depth (a copy wrapped in 100,000 nested
    brackets or terms defines nothing it can read); only text with that many brackets and operators is parsed."""
    if sum(source.count(c) for c in "([{+-*~") + source.count("not ") < 500:
        return False
    try:
        parse_python(source)
    except SyntaxError as e:
        return e.msg in (TOO_DEEP, TOO_BIG)
    except ValueError:
        return False
    return False


def hidden_elsewhere(learners, expected, found):
    """{exercise: Hidden} for the exercises a file should hold, or names, but does not define in
    plain text, when the learner's own cells hide code (exec("def merge..."), globals()["merge"] = ...)."""
    suspects = [source for source in learners if might_hide(source)]
    reasons = [reason for reason in (hides(tree.body) for tree in map(parse, suspects) if tree) if reason]
    reasons += ["nested deeper than can be read" for source in learners if too_deep(source)]
    if not reasons:
        return {}
    text = "\n".join(learners)
    named = [name for name in REGISTRY if re.search(rf"\b{re.escape(name)}\b", text)]
    return {name: Hidden(reasons[0]) for name in list(expected) + named if name not in found}


def stub_key(source):
    """A definition's text with its layout ignored: how an untouched stub is recognised."""
    return " ".join(source.split())


def code_by_exercise(cells, course_tokens=frozenset(), stubs=frozenset()):
    """{exercise: the learner's code for it, or Hidden} from code cells [(source, given names)]."""
    found = Definitions(cells)
    out = {}
    for name in REGISTRY:
        parts = [found.get(part) for part in exercise_parts(name)]
        if any(part is None or part.given for part in parts):
            continue
        if any(is_stub(part.node) or stub_key(part.source) in stubs for part in parts):
            continue
        chosen = helpers(found, exercise_parts(name), course_tokens)
        reason = hides([found.get(part).node for part in chosen]) if any(
            might_hide(found.get(part).source) for part in chosen) else None
        out[name] = Hidden(reason) if reason else "\n\n".join(found.get(part).source for part in chosen)
    return out


def helpers(found, parts, course_tokens):
    """`parts` and, after them, the learner's own definitions they refer to, transitively, in the
    file's order; other exercises, given cells and the course's own code are not followed."""
    chosen, todo = list(parts), list(parts)
    while todo:
        for name in sorted(found.get(todo.pop()).refers_to):
            if name in chosen or name in REGISTRY:
                continue
            helper = found.get(name)
            if helper is None or helper.given or helper.tokens in course_tokens:
                continue
            chosen.append(name)
            todo.append(name)
    order = found.order
    return list(parts) + sorted(chosen[len(parts):], key=order.index)
