"""Read a submission (.ipynb or .py) into named cells of plain Python for the worker."""

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
    """(cells, metadata): cells as [{'name': 'cell 3', 'source': ...}], metadata a dict."""
    path = Path(path)
    if not path.exists():
        raise UnreadableSubmission(f"{path}: no such file")
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError) as e:
        raise UnreadableSubmission(f"{path}: cannot read it as UTF-8 text ({e})") from e
    if path.suffix == ".py":
        return [{"name": path.name, "source": text}], {}
    if path.suffix != ".ipynb":
        raise UnreadableSubmission(f"{path}: expected a .ipynb or .py file")
    try:
        notebook = nbformat.reads(text, as_version=4)
    except (json.JSONDecodeError, nbformat.reader.NotJSONError, Exception) as e:  # noqa: BLE001
        raise UnreadableSubmission(f"{path}: not a readable notebook ({str(e).splitlines()[0][:120]})") from e
    cells = [
        {"name": f"cell {number}", "source": ipython_to_python(cell.source),
         "raises_on_purpose": raises_on_purpose(cell)}
        for number, cell in enumerate(notebook.cells, start=1)
        if cell.cell_type == "code" and cell.source.strip()
    ]
    metadata = notebook.metadata.get("bpe_course", {})
    return cells, dict(metadata) if isinstance(metadata, dict) else {}


def raises_on_purpose(cell):
    """A cell the course marks as demonstrating an error (nbval's marker comment or tag)."""
    return (cell.source.lstrip().startswith("# NBVAL_RAISES_EXCEPTION")
            or "raises-exception" in cell.get("metadata", {}).get("tags", []))


def names_in(source):
    """Top-level names a piece of source tries to define (def, class, NAME = ...), even if it does not parse."""
    return {m.group(1) or m.group(2) for m in DEF_RE.finditer(source)}


def function_source(cells, name):
    """The source of the last top-level `def name` or `name = ...` among the cells (or None)."""
    import ast

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
