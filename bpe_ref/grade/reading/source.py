"""Read a submission (.ipynb or .py) into cells of plain Python for the worker, each named the
way the learner sees it: JupyterLab shows no cell numbers, so a cell is 'the cell defining
merge' or 'the cell starting `for _ in range(50):`'; a .py file is its file name.
"""

import ast
import codecs
import io
import json
import re
import tokenize
from pathlib import Path

import nbformat

from . import course_copy
from .bounded import load_json, parse_python
from ..judge import exercises

DEF_RE = re.compile(r"^(?:def|class)\s+([A-Za-z_]\w*)|^([A-Za-z_]\w*)\s*=", re.MULTILINE)


class UnreadableSubmission(Exception):
    """The file is not a notebook or Python source we can read."""


def ipython_to_python(source):
    """Turn notebook-only syntax (%magics, !shell) into plain Python calls."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:
        return source
    try:
        return TransformerManager().transform_cell(source)
    except Exception:  # noqa: BLE001 - leave it to the worker's compile() to report
        return source


def read_submission(path):
    """(cells, course): cells as [{'name', 'source', 'raises_on_purpose', 'given'}]; course is what
    the course knows about the file ({'workbook' or 'drill', 'exercises'}, or {}: see course_copy).

    Whether a cell is given or raises on purpose, and which exercises the file is graded on, come
    from the course's own copy of the workbook, never from the submission's metadata.
    Raises UnreadableSubmission, with the true reason, for a file that was handed in but cannot
    be read (missing, a folder, no permission, not text in its encoding, a broken notebook)."""
    path = Path(path)
    if path.suffix == ".py":
        cells = [{"name": path.name, "source": read_python(path), "raises_on_purpose": False, "given": []}]
        must_parse(path, cells)
        return cells, {}
    if path.suffix != ".ipynb":
        raise UnreadableSubmission(f"{path}: expected a .ipynb or .py file")
    notebook = read_notebook(path)
    course = course_copy.identify(path, [cell.source for cell in notebook.cells])
    cells = []
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.source.strip():
            known = course_copy.course_cell(cell.source, course.get("workbook"))
            cells.append({"name": cell_label(cell.source), "source": ipython_to_python(cell.source),
                          "raises_on_purpose": known.raises_on_purpose, "given": list(known.given),
                          "course": known.course})
    name_twins(cells)
    must_parse(path, cells)
    return cells, course


def must_parse(path, cells):
    """Raise UnreadableSubmission when no cell parses as Python and no exercise can even be found
    by name: nothing could be graded, and the learner must hear why, not "not handed in". (Where an
    exercise is found, each gets its own syntax error with the cell and line.)"""
    problems = [syntax_problem(cell["source"]) for cell in cells]
    if not cells or not all(problems):
        return
    if any(names_in(cell["source"]) & set(exercises.CONTRACT) for cell in cells):
        return
    if len(cells) == 1:
        raise UnreadableSubmission(f"{path}: does not parse as Python, {problems[0]}")
    raise UnreadableSubmission(f"{path}: none of its {len(cells)} code cells parses as Python "
                               f"({cells[0]['name']}, {problems[0]})")


def syntax_problem(source):
    """'line 3: invalid syntax' when the source does not parse, else None."""
    try:
        parse_python(source)
    except SyntaxError as e:
        return f"line {e.lineno}: {e.msg}" if e.lineno else e.msg
    except ValueError as e:  # e.g. NUL bytes in a notebook cell
        return str(e)
    return None


def read_python(path):
    """A .py file's text, decoded as Python decodes it: a BOM or a PEP 263 coding line
    (`# -*- coding: latin-1 -*-`) says the encoding, else it is UTF-8."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise UnreadableSubmission(os_reason(path, e)) from e
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise UnreadableSubmission(f"{path}: saved as UTF-16, which Python does not read: save it as UTF-8")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        with io.TextIOWrapper(io.BytesIO(data), encoding=encoding) as f:  # newlines as Python reads them
            text = f.read()
    except SyntaxError as e:  # detect_encoding: an unknown coding, or not UTF-8 with no coding line
        raise UnreadableSubmission(f"{path}: {coding_problem(e)}") from e
    except UnicodeDecodeError as e:
        raise UnreadableSubmission(f"{path}: {undecodable(e)}") from e
    if "\0" in text:
        line = text[:text.index("\0")].count("\n") + 1
        raise UnreadableSubmission(f"{path}: line {line} holds a NUL byte, so this is not Python source "
                                   "(a binary file saved as .py?)")
    return text


def read_notebook(path):
    """A notebook (nbformat 4), or UnreadableSubmission saying what is broken in it."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise UnreadableSubmission(os_reason(path, e)) from e
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UnreadableSubmission(f"{path}: a notebook is UTF-8 JSON, but {undecodable(e)}") from e
    if not text.strip():
        raise UnreadableSubmission(f"{path}: the file is empty (saved while the notebook was still loading?)")
    try:
        raw = load_json(text)
    except json.JSONDecodeError as e:
        raise UnreadableSubmission(f"{path}: not valid JSON, line {e.lineno}, column {e.colno}: {e.msg} "
                                   "(cut short, or edited by hand?)") from e
    except ValueError as e:  # nested too deeply (100,000 `[`): not a notebook anyone saved
        raise UnreadableSubmission(f"{path}: not a readable notebook: {e}") from e
    problem = notebook_problem(raw)
    if problem:
        raise UnreadableSubmission(f"{path}: not a notebook: {problem}")
    try:
        notebook = nbformat.reads(text, as_version=4)
    except Exception as e:  # noqa: BLE001 - nbformat raises many kinds; its first line says which
        raise UnreadableSubmission(f"{path}: not a readable notebook ({str(e).splitlines()[0][:120]})") from e
    for number, cell in enumerate(notebook.cells, 1):
        if not isinstance(cell.get("source"), str) or not isinstance(cell.get("cell_type"), str):
            raise UnreadableSubmission(f"{path}: not a notebook: cell {number} has no cell_type or source text")
    return notebook


def notebook_problem(raw):
    """What keeps JSON from being a notebook nbformat can read, in words (None if nothing)."""
    if not isinstance(raw, dict):
        return f"the top level is a JSON {type(raw).__name__}, not an object"
    if not isinstance(raw.get("nbformat"), int):
        return "no nbformat version number"
    if raw["nbformat"] >= 4 and not isinstance(raw.get("cells"), list):
        return "no list of cells"
    return None


def os_reason(path, error):
    """Why the file system would not give us the file, in the learner's and instructor's words."""
    if isinstance(error, FileNotFoundError):
        return f"{path}: no such file"
    if isinstance(error, PermissionError):
        return f"{path}: permission denied: the grader may not read this file (check its permissions)"
    if isinstance(error, IsADirectoryError):
        return f"{path}: a folder, not a file"
    return f"{path}: cannot be read: {error.strerror or error}"


def coding_problem(error):
    """tokenize's SyntaxError about the encoding, as advice."""
    message = getattr(error, "msg", None) or str(error)
    if message.startswith("encoding problem"):
        return "it starts with UTF-8's byte order mark, but its coding line names another encoding"
    if message.startswith("invalid or missing encoding declaration"):
        return ("not UTF-8, and no coding line (PEP 263, e.g. `# -*- coding: latin-1 -*-`) says what it is: "
                "save it as UTF-8")
    return re.sub(r" for .*?(?=: )| for \S+$", "", message)  # "unknown encoding for x.py: klingon"


def undecodable(error):
    """'line 3 is not valid latin-1: byte 0xe9 ...' from a UnicodeDecodeError."""
    line = error.object[:error.start].count(b"\n") + 1
    return f"line {line} is not valid {error.encoding} text (byte {error.object[error.start]:#04x})"


def cell_label(source):
    """'the cell defining get_stats and merge', or 'the cell starting `x = 1`'."""
    try:
        tree = parse_python(ipython_to_python(source))
        defined = [node.name for node in tree.body
                   if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    except (SyntaxError, ValueError):
        defined = re.findall(r"^(?:def|class)\s+([A-Za-z_]\w*)", source, re.MULTILINE)
    if len(defined) > 4:
        return f"the cell defining {', '.join(defined[:3])} and {len(defined) - 3} more"
    if defined:
        return f"the cell defining {' and '.join([', '.join(defined[:-1]), defined[-1]] if len(defined) > 1 else defined)}"
    first = next(line.strip() for line in source.splitlines() if line.strip())
    return f"the cell starting `{first[:40]}{'…' if len(first) > 40 else ''}`"


def name_twins(cells):
    """Cells with the same label get 'the 2nd', 'the 3rd' ... so that every name is unique."""
    seen = {}
    for cell in cells:
        count = seen[cell["name"]] = seen.get(cell["name"], 0) + 1
        if count > 1:
            cell["name"] = cell["name"].replace("the cell", f"the {ordinal(count)} cell", 1)


def ordinal(n):
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def names_in(source):
    """Top-level names a piece of source tries to define (def, class, NAME = ...), even if it does not parse."""
    return {m.group(1) or m.group(2) for m in DEF_RE.finditer(source)}


def function_source(cells, name):
    """The source of the last top-level `def name` or `name = ...` among the cells (or None);
    the feedback pages show it as text."""
    found = None
    for cell in cells:
        try:
            tree = parse_python(cell["source"])
        except (SyntaxError, ValueError):
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                found = ast.get_source_segment(cell["source"], node)
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == name for t in node.targets):
                found = ast.get_source_segment(cell["source"], node)  # e.g. to_hex = lambda n: ...
    return found
