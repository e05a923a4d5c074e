"""The course's own copy of each workbook: what a submission is graded on comes from here, never
from the submission's metadata, which its author can edit.

- A notebook is recognised as a workbook by the course's cells it still holds (the prose, demos
  and checks every learner copy starts with), else by its file name ('04_naive_bpe.ipynb',
  'alice-04_naive_bpe.ipynb'); a drill by its level's steps. Its exercises are then the
  catalogue's for that workbook (or the drill level's).
- A cell is given (a ready-made helper such as get_stats in workbook 06, not graded) only when its
  text is the course's given cell, and it raises on purpose only when the course's copy of that
  cell is marked so (nbval's `raises-exception` tag or `# NBVAL_RAISES_EXCEPTION` comment).

The course's copies are its learner notebooks: notebooks/ in a checkout, or the copies an installed
wheel carries (bpe_ref.course.material finds either); without them no cell counts as given and
workbooks are told by name alone.
"""

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

from ...course.material import course_root
from ..judge import exercises

COURSE_NOTEBOOKS = course_root() / "notebooks"


@dataclass(frozen=True)
class CourseCell:
    """One cell of the course's copy of a workbook: what it gives, whether it raises on purpose."""

    given: tuple = ()  # names the cell gives ready-made (the course's bpe_course.given)
    raises_on_purpose: bool = False


def normalized(source):
    """A cell's text compared line by line, without trailing spaces or blank edges (editors add them)."""
    return "\n".join(line.rstrip() for line in source.strip().splitlines())


GIVEN_HEADER = "# Given, as in "  # a given cell's first line (tools/make_notebooks.py): where its helpers live


def given_body(text):
    """A given cell's text without its header line, which names the helpers' file: files move
    (bpe_ref/naive.py became bpe_ref/core/naive.py), and a learner's older copy names the old one."""
    first, _, rest = text.partition("\n")
    return rest if first.startswith(GIVEN_HEADER) else text


def given_names(cell):
    """Names a cell of the course's own notebooks gives the learner ready-made (metadata
    {"bpe_course": {"given": [...]}}). Read from the course's files only (here, make_notebooks):
    in a submission the same mark is the learner's to edit."""
    course = cell.get("metadata", {}).get("bpe_course", {})
    given = course.get("given", []) if isinstance(course, dict) else []
    return [name for name in given if isinstance(name, str)] if isinstance(given, list) else []


def raises_on_purpose(cell):
    """A cell the course marks as demonstrating an error (nbval's marker comment or tag); read from
    the course's files only, as given_names is."""
    return (cell.source.lstrip().startswith("# NBVAL_RAISES_EXCEPTION")
            or "raises-exception" in cell.get("metadata", {}).get("tags", []))


@functools.lru_cache(maxsize=4)
def course_cells(folder=COURSE_NOTEBOOKS):
    """{workbook: {normalized source: CourseCell}} from the course's own notebooks."""
    workbooks = {}
    for path in sorted(Path(folder).glob("*.ipynb")):
        cells = workbooks[path.stem] = {}
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.source.strip():
                text = normalized(cell.source)
                raises = cell.cell_type == "code" and raises_on_purpose(cell)
                cells[text] = CourseCell(tuple(given_names(cell)), raises)
                if cells[text].given:
                    cells.setdefault(given_body(text), cells[text])  # found under any header too
    return workbooks


def identify(path, sources, folder=COURSE_NOTEBOOKS):
    """What the course knows about a notebook: {'workbook', 'exercises'}, or {} if it is none of
    the course's. `sources` are the texts of all its cells, markdown included."""
    drill = drill_level(sources)
    if drill is not None:
        return {"drill": drill.name, "exercises": list(drill.exercises)}
    workbook = workbook_by_cells(sources, folder) or workbook_by_name(path)
    if workbook is None:
        return {}
    return {"workbook": workbook, "exercises": exercises.workbook_exercises(workbook)}


def workbook_by_cells(sources, folder=COURSE_NOTEBOOKS):
    """The course workbook whose cells the notebook holds most of (None if none, or a tie)."""
    texts = {normalized(source) for source in sources if source.strip()}
    shared = {name: len(texts & cells.keys()) for name, cells in course_cells(folder).items()}
    best = max(shared.values(), default=0)
    leaders = [name for name, count in shared.items() if count == best]
    return leaders[0] if best > 0 and len(leaders) == 1 else None


def workbook_by_name(path):
    """The workbook a file's name spells out in full: '04_naive_bpe' in 'bob_04_naive_bpe (1).ipynb'."""
    stem = Path(path).stem
    named = [name for name in workbook_names() if re.search(rf"(?<![0-9A-Za-z]){re.escape(name)}(?![0-9A-Za-z])", stem)]
    return named[0] if len(named) == 1 else None


def workbook_names():
    return sorted({ex.workbook for ex in exercises.REGISTRY.values() if ex.workbook})


def drill_level(sources):
    """The drill level whose steps the notebook holds (a drill written by `bpe-practice new`); the
    fullest level when one level's steps include another's."""
    from ...practice.levels import LEVELS  # a drill is the course's too; imported late: practice imports the grader

    texts = [normalized(source) for source in sources]
    held = [level for level in LEVELS.values() if any(normalized(level.steps) in text for text in texts)]
    return max(held, key=lambda level: len(level.steps), default=None)


def course_cell(source, workbook=None, folder=COURSE_NOTEBOOKS):
    """The course's CourseCell with exactly this text, in `workbook` (or any workbook when it is
    not known); an empty CourseCell when the course has no such cell (the learner's own)."""
    text = normalized(source)
    places = course_cells(folder)
    for name in ([workbook] if workbook in places else sorted(places)):
        for key in (text, given_body(text)):
            if key in places[name]:
                return places[name][key]
    return CourseCell()
