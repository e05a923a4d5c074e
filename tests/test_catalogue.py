"""The exercise catalogue against the places that list its exercises for people: docs/grading.md's
table of graded names and the map in workbook 00. A new exercise that one of them forgets fails here.
"""

import builtins
import re
from pathlib import Path

import nbformat

from bpe_ref.grade.judge.exercises import REGISTRY

ROOT = Path(__file__).resolve().parent.parent


def table_rows(markdown, first_column):
    """(first cell, second cell) of every row of the markdown table whose header starts with `first_column`."""
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_column} |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]
        rows.append((cells[0], cells[1]))
    return rows


def named(text):
    """The names a table cell shows as code (`merge(ids, pair, idx)`, `train_incremental`), but not
    Python's own (`hex`, `int(s, 16)`), which the by-hand notes mention."""
    return {name for name in re.findall(r"`(\w+)", text) if not hasattr(builtins, name)}


def test_the_grading_page_table_of_graded_names_is_the_catalogue():
    page = (ROOT / "docs" / "grading.md").read_text(encoding="utf-8")
    section = page.split("## The graded names", 1)[1]
    rows = table_rows(section, "workbook")
    where = {}  # exercise name -> the workbook numbers of the row that lists it
    for workbooks, names in rows:
        for name in named(names):
            where.setdefault(name, set()).update(re.findall(r"\d\d|drill", workbooks))
    for name, ex in REGISTRY.items():
        number = ex.workbook[:2] if ex.workbook else "drill"
        shown = name if ex.workbook else ex.uses[0]  # the drill's save_load is listed by its functions
        assert number in where.get(shown, set()), f"docs/grading.md's graded names lack {shown} in row {number}"
    unknown = {name for name in where if name not in REGISTRY} - {"merges", "vocab", "encode", "decode",
                                                                  "save_merges", "load_merges"}
    assert not unknown, f"docs/grading.md's graded names list what the catalogue does not grade: {unknown}"


def test_the_map_in_00_names_every_exercise_of_its_workbook():
    notebook = nbformat.read(ROOT / "solutions" / "00_start_here.ipynb", as_version=4)
    the_map = next(c.source for c in notebook.cells if c.cell_type == "markdown" and "| workbook |" in c.source)
    rows = {workbook.strip("`"): named(text) for workbook, text in table_rows(the_map, "workbook")}
    for name, ex in REGISTRY.items():
        if ex.workbook:
            assert name in rows[ex.workbook], f"00's map does not name {name} in the row of {ex.workbook}"
