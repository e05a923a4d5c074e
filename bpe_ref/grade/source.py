"""Read a submission (.ipynb or .py) into cells of plain Python for the worker, each named the
way the learner sees it: JupyterLab shows no cell numbers, so a cell is 'the cell defining
merge' or 'the cell starting `for _ in range(50):`'; a .py file is its file name.
"""

import ast
import json
import re
from pathlib import Path

import nbformat

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
    """(cells, metadata): cells as [{'name', 'source', 'raises_on_purpose', 'given'}], metadata a dict."""
    path = Path(path)
    if not path.exists():
        raise UnreadableSubmission(f"{path}: no such file")
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError) as e:
        raise UnreadableSubmission(f"{path}: cannot read it as UTF-8 text ({e})") from e
    if path.suffix == ".py":
        return [{"name": path.name, "source": text, "raises_on_purpose": False, "given": []}], {}
    if path.suffix != ".ipynb":
        raise UnreadableSubmission(f"{path}: expected a .ipynb or .py file")
    try:
        notebook = nbformat.reads(text, as_version=4)
    except (json.JSONDecodeError, nbformat.reader.NotJSONError, Exception) as e:  # noqa: BLE001
        raise UnreadableSubmission(f"{path}: not a readable notebook ({str(e).splitlines()[0][:120]})") from e
    cells = [
        {"name": cell_label(cell.source), "source": ipython_to_python(cell.source),
         "raises_on_purpose": raises_on_purpose(cell), "given": given_names(cell)}
        for cell in notebook.cells
        if cell.cell_type == "code" and cell.source.strip()
    ]
    name_twins(cells)
    metadata = notebook.metadata.get("bpe_course", {})
    return cells, dict(metadata) if isinstance(metadata, dict) else {}


def cell_label(source):
    """'the cell defining get_stats and merge', or 'the cell starting `x = 1`'."""
    try:
        tree = ast.parse(ipython_to_python(source))
        defined = [node.name for node in tree.body
                   if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    except SyntaxError:
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


def given_names(cell):
    """Names a cell gives the learner ready-made (metadata {"bpe_course": {"given": [...]}}): not graded."""
    course = cell.get("metadata", {}).get("bpe_course", {})
    given = course.get("given", []) if isinstance(course, dict) else []
    return [name for name in given if isinstance(name, str)] if isinstance(given, list) else []


def raises_on_purpose(cell):
    """A cell the course marks as demonstrating an error (nbval's marker comment or tag)."""
    return (cell.source.lstrip().startswith("# NBVAL_RAISES_EXCEPTION")
            or "raises-exception" in cell.get("metadata", {}).get("tags", []))


def names_in(source):
    """Top-level names a piece of source tries to define (def, class, NAME = ...), even if it does not parse."""
    return {m.group(1) or m.group(2) for m in DEF_RE.finditer(source)}


def function_source(cells, name):
    """The source of the last top-level `def name` or `name = ...` among the cells (or None);
    the feedback pages show it as text."""
    found = None
    for cell in cells:
        try:
            tree = ast.parse(cell["source"])
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                found = ast.get_source_segment(cell["source"], node)
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == name for t in node.targets):
                found = ast.get_source_segment(cell["source"], node)  # e.g. to_hex = lambda n: ...
    return found
