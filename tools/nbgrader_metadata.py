"""Give the solution notebooks nbgrader's cell metadata, so real nbgrader releases and autogrades them.

    python tools/nbgrader_metadata.py                       every notebook in solutions/, in place
    python tools/nbgrader_metadata.py solutions/04_naive_bpe.ipynb
    python tools/nbgrader_metadata.py --points points.json  test cells worth these points
    python tools/nbgrader_metadata.py --check               exit 1 if a notebook's metadata is missing or stale

nbgrader (`pip install -e .[instructor]`) only clears a `### BEGIN SOLUTION` region in a cell
whose metadata says it is a solution cell. This tool marks three kinds of cell:

- a code cell holding `### BEGIN SOLUTION`: an answer cell (solution, not graded itself), whose
  grade_id is the name of the function around the region, e.g. "merge";
- a cell that only calls check(name): an autograded test cell, locked, worth the exercise's
  points from the points table (bpe_ref.grade.classroom.points), grade_id "check_merge". Under nbgrader a
  check that does not pass raises (bpe_ref.grade.judge.checks.check), so the cell earns nothing;
- the cell that imports check: read-only (locked), since every test cell needs it.

nbgrader metadata on any other cell is removed. Running the tool twice changes nothing.
"""

import argparse
import ast
import json
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from bpe_ref.grade.classroom.points import load_points  # noqa: E402
from bpe_ref.grade.reading.source import ipython_to_python  # noqa: E402

SOLUTIONS = ROOT / "solutions"
BEGIN = "### BEGIN SOLUTION"
SCHEMA_VERSION = 3
CHECK_LINE = re.compile(r"check\(\s*([A-Za-z_]\w*)\s*(?:,[^()]*)?\)\s*(?:#.*)?")
IMPORTS_CHECK = re.compile(r"^\s*from\s+bpe_ref\.grade\s+import\s+[^\n]*\bcheck\b", re.MULTILINE)


def nbgrader_cell(grade_id, solution=False, grade=False, locked=False, points=None):
    """The metadata nbgrader 0.9 (schema 3) reads from a cell."""
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": SCHEMA_VERSION,
            "solution": solution}
    if grade:
        meta["points"] = points
    return meta


def enclosing_name(source):
    """The top-level function (or class) around the first solution region of a cell.

    >>> enclosing_name("def merge(ids, pair, idx):\\n    ### BEGIN SOLUTION\\n    return ids\\n    ### END SOLUTION")
    'merge'
    """
    line = next(n for n, text in enumerate(source.split("\n"), 1) if BEGIN in text)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        tree = ast.parse(ipython_to_python(source))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and node.lineno <= line <= node.end_lineno:
            return node.name
    raise ValueError(f"a solution region outside any function (line {line}): put it inside the exercise's def")


def checked_names(source):
    """The exercises a test cell checks, when the cell does nothing but call check(); else None.

    >>> checked_names("check(merge)"), checked_names("print(1)\\ncheck(merge)")
    (['merge'], None)
    """
    lines = [line.strip() for line in source.split("\n") if line.strip() and not line.strip().startswith("#")]
    matches = [CHECK_LINE.fullmatch(line) for line in lines]
    if not lines or not all(matches):
        return None
    return [m.group(1) for m in matches]


def cell_metadata(cell, table):
    """nbgrader's metadata for one cell, or None when the cell is not nbgrader's business."""
    if cell.cell_type != "code":
        return None
    if BEGIN in cell.source:
        return nbgrader_cell(enclosing_name(cell.source), solution=True)
    names = checked_names(cell.source)
    if names:
        unknown = [name for name in names if name not in table]
        if unknown:
            raise ValueError(f"check({unknown[0]}) names no exercise the grader knows")
        return nbgrader_cell("check_" + "_".join(names), grade=True, locked=True,
                             points=sum(table[name] for name in names))
    if IMPORTS_CHECK.search(cell.source):
        return nbgrader_cell("setup", locked=True)
    return None


def mark(notebook, table):
    """Set (or remove) every cell's nbgrader metadata; True if anything changed."""
    before = json.dumps([cell.metadata for cell in notebook.cells], sort_keys=True)
    seen = set()
    for cell in notebook.cells:
        meta = cell_metadata(cell, table)
        if meta is None:
            cell.metadata.pop("nbgrader", None)
            continue
        meta["grade_id"] = unique(meta["grade_id"], seen)
        cell.metadata["nbgrader"] = meta
    return json.dumps([cell.metadata for cell in notebook.cells], sort_keys=True) != before


def unique(grade_id, seen):
    """grade_id, or grade_id-2, -3 ... when a notebook uses it already (nbgrader needs them unique)."""
    wanted, n = grade_id, 1
    while wanted in seen:
        n += 1
        wanted = f"{grade_id}-{n}"
    seen.add(wanted)
    return wanted


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="*", type=Path, help="solution notebooks (default: solutions/*.ipynb)")
    parser.add_argument("--points", metavar="FILE", help="a JSON points file over the default table")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a notebook needs the tool")
    options = parser.parse_args(argv)
    try:
        table = load_points(options.points)
    except ValueError as e:
        parser.error(str(e))
    stale = []
    for path in options.notebooks or sorted(SOLUTIONS.glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        try:
            changed = mark(notebook, table)
        except ValueError as e:
            parser.error(f"{path}: {e}")
        if changed:
            stale.append(str(path))
            if not options.check:
                nbformat.write(notebook, path)
    if options.check and stale:
        print("nbgrader metadata missing or stale in: " + ", ".join(stale))
        print("run: python tools/nbgrader_metadata.py")
        return 1
    print(("updated: " + ", ".join(stale)) if stale else "nbgrader metadata up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
