"""The code a learner wrote for each exercise, read statically (parsed, never run).

    pieces = own_code("submissions/alice/04_naive_bpe.ipynb", root="submissions")
    pieces["merge"]    'def merge(ids, pair, idx):\\n    ...'   (plus the learner's own helpers it uses)

Only what the learner wrote counts: the exercise's function (or class, or `name = ...`) and the
helpers of their own it refers to, however deep. Left out: cells the course marks as given,
other exercises (each is compared under its own name), stubs that were never filled in, and
anything identical, after normalizing, to code the course itself defines (its demos and helpers).

Files are read as text with no link followed and nothing outside the class folder opened: a
symlink, a path that leaves the folder or a file over MAX_BYTES is refused with a one-line reason.
"""

import ast
import json
import os
from pathlib import Path

from .exercises import REGISTRY
from .fingerprint import normalize
from .source import given_names, ipython_to_python

MAX_BYTES = 20 * 1024 * 1024  # a notebook full of pictures is a few MB; anything bigger is not code
STUB_BODIES = (ast.Pass, ast.Raise)  # what an untouched stub holds besides its docstring


class Refused(Exception):
    """A submission this report does not read (a link, outside the class, too big, not code)."""


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
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as e:
        raise Refused(f"{path}: cannot open it ({e.strerror})") from None
    with os.fdopen(fd, "rb") as f:
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
    """[(source, given names)] for each code cell of a notebook's text, or the whole of a .py file."""
    if suffix == ".py":
        return [(text, [])]
    try:
        notebook = json.loads(text)
        cells = notebook["cells"]
    except (ValueError, KeyError, TypeError):
        raise Refused("not a readable notebook") from None
    out = []
    for cell in cells if isinstance(cells, list) else []:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        metadata = cell.get("metadata") if isinstance(cell.get("metadata"), dict) else {}
        out.append((source, given_names({"metadata": metadata})))
    return out


# ---------------------------------------------------------------------------- what a file defines


def definitions(cells):
    """{name: (source, names it refers to, given)} for each top-level def, class or `name = ...`;
    the last definition of a name wins, as when the notebook is run top to bottom."""
    found = {}
    for source, given in cells:
        tree = parse(source)
        if tree is None:
            continue
        source = tree.source
        for node in tree.body:
            for name in defined_names(node):
                found[name] = (ast.get_source_segment(source, node) or "", referred_names(node), name in given)
    return found


def parse(source):
    """The module of a cell (with its text as .source), trying IPython's syntax second; None if neither parses."""
    for convert in (str, ipython_to_python):  # IPython's converter is slow: only for cells that need it
        text = convert(source)
        try:
            tree = ast.parse(text)
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


def referred_names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def is_stub(source):
    """A function still as the course handed it out: its body only a docstring, `pass`, `...` or a raise."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    if len(tree.body) != 1 or not isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = [s for s in tree.body[0].body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    return all(isinstance(s, STUB_BODIES) for s in body)


# ---------------------------------------------------------------------------- a learner's own code


def exercise_parts(name):
    """The functions that make an exercise: its own name, or the ones it uses (save_load)."""
    exercise = REGISTRY[name]
    return list(exercise.uses) if exercise.uses else [name]


def own_code(path, root=None, course_tokens=frozenset(), stub_tokens=frozenset()):
    """{exercise: the learner's code for it, as text} for one file; Refused if the file is not read.

    `course_tokens` holds the normalized tokens (as tuples) of every function the course defines:
    a helper identical to one of them is the course's, not the learner's. `stub_tokens` holds the
    stubs' and scaffolds' as handed out: an exercise still identical to one was not written.
    """
    path = Path(path)
    text = read_safely(path, root if root is not None else class_root(path))
    return code_by_exercise(code_cells(text, path.suffix), course_tokens, stub_tokens)


def code_by_exercise(cells, course_tokens=frozenset(), stub_tokens=frozenset()):
    """{exercise: the learner's code for it} from code cells [(source, given names)]."""
    found = definitions(cells)
    out = {}
    for name in REGISTRY:
        parts = exercise_parts(name)
        if not all(part in found and not found[part][2] for part in parts):
            continue
        if any(is_stub(found[part][0]) or course_made(found[part][0], stub_tokens) for part in parts):
            continue
        chosen = helpers(found, parts, course_tokens)
        out[name] = "\n\n".join(found[part][0] for part in chosen)
    return out


def helpers(found, parts, course_tokens):
    """`parts` and, after them, the learner's own definitions they refer to, transitively, in the
    file's order; other exercises, given cells and the course's own code are not followed."""
    chosen, todo = list(parts), list(parts)
    while todo:
        for name in sorted(found[todo.pop()][1]):
            if name in chosen or name not in found or name in REGISTRY or found[name][2]:
                continue
            if course_made(found[name][0], course_tokens):
                continue
            chosen.append(name)
            todo.append(name)
    order = list(found)
    return list(parts) + sorted(chosen[len(parts):], key=order.index)


def course_made(source, course_tokens):
    try:
        return tuple(normalize(source).tokens) in course_tokens
    except SyntaxError:
        return False
