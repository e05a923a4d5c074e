"""Generate the learners' notebooks from the solutions: the one source of truth.

    python tools/make_notebooks.py            regenerate notebooks/ (and the given cells of solutions/)
    python tools/make_notebooks.py --check    fail if anything is not what this script generates
    python tools/make_notebooks.py --execute solutions/04_naive_bpe.ipynb
                                              re-run a solution in place (fresh outputs for nbval)

Six things are generated, each from one place:
- the loader at the top of each workbook's first code cell (LOADER): it loads the course's
  helpers, says in one line how to install the course where it is missing, and installs it on
  Colab (or wherever $BPE_COURSE_INSTALL names a wheel, folder or URL to install) first;
- a stub for every `### BEGIN SOLUTION` ... `### END SOLUTION` region (nbgrader's markers): the
  region becomes `# YOUR CODE HERE` and `raise NotImplementedError()`, after a comment with the
  exercise's task, which comes from the grader's catalogue (bpe_ref.grade.judge.exercises);
- given helpers: a code cell whose metadata says {"bpe_course": {"given": ["get_stats", "merge"]}}
  holds exactly those functions of bpe_ref/core/naive.py (or basics/codepoints.py), in the solution and in
  the learner's copy;
- pictures: a markdown cell whose metadata says {"bpe_course": {"attach": ["docs/img/x.png"]}}
  carries those files as attachments, shown by `![...](attachment:x.png)`. A relative link would
  break somewhere (the learner's workbooks and the solutions sit at different depths in the
  workspace, and nbgrader releases the notebook alone); an attachment travels with the notebook;
- samples of the grader's output: the ```text block of a markdown cell whose metadata says
  {"bpe_course": {"sample": {"bpe-grade": "docs/samples/04_naive_bpe.py"}}} (what `bpe-grade` prints
  for that file) or {"sample": {"check": "u_plus", "source": "def u_plus(ch): ..."}} (what `check`
  prints for that function) is what the grader prints now, never typed;
- the learner's copy: outputs cleared, and metadata.bpe_course.exercises listing the exercises its
  `check(...)` calls grade.
"""

import argparse
import ast
import base64
import functools
import inspect
import io
import json
import re
import sys
import textwrap
from pathlib import Path

import nbformat

from bpe_ref.basics import codepoints
from bpe_ref.core import naive
from bpe_ref.grade.cli import print_table
from bpe_ref.grade.judge.checks import grade_function, report
from bpe_ref.grade.judge.exercises import REGISTRY
from bpe_ref.grade.submission import grade_file
from bpe_ref.grade.reading.course_copy import given_names, raises_on_purpose

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS, NOTEBOOKS = ROOT / "solutions", ROOT / "notebooks"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
CHECK_RE = re.compile(r"\bcheck\(\s*([A-Za-z_]\w*)")
STUB_WIDTH = 88  # characters a stub's lines may take, indentation included: the editor does not wrap
GIVEN_FROM = (naive, codepoints)  # where given helpers are written, once
LOAD_LINE = "%load_ext bpe_ref.course.workbook"  # the loader's last line: the cell's own lines follow it
LOADER = """\
# Loads the course: its checks, token viewer and plots. Without the course this says how
# to install it; on Colab it installs it first ($BPE_COURSE_INSTALL: what to install).
import importlib, importlib.util, os, sys
colab = "google.colab" in sys.modules
course_source = os.environ.get("BPE_COURSE_INSTALL") or (colab and "bpe-course")
if course_source and not importlib.util.find_spec("bpe_ref"):
    %pip install --quiet "$course_source"
    importlib.invalidate_caches()
if not importlib.util.find_spec("bpe_ref"):
    class CourseMissing(Exception):
        _render_traceback_ = lambda self: [str(self)]  # one line, not a traceback
    how = "run `%pip install bpe-course` (or `%pip install` its folder or wheel)"
    raise CourseMissing(f"This workbook needs the course: {how}, then this cell again.")
""" + LOAD_LINE + "\n"
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif"}


def enclosing_function(source, line_number):
    """The name of the top-level function or class whose lines include `line_number` (1-based)."""
    lines = source.split("\n")
    masked = "\n".join(line.split("###")[0] + "pass" if BEGIN in line or END in line else line for line in lines)
    for node in ast.parse(masked).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.lineno <= line_number <= node.end_lineno:
            return node.name
    return None


def task_of(name):
    """The one-line task of exercise `name`, from the catalogue."""
    if name is None:
        raise ValueError("a solution region outside any function: put it inside the exercise's def")
    if name not in REGISTRY or not REGISTRY[name].task:
        raise ValueError(f"a solution region in {name!r}, which the exercise catalogue has no task for")
    return REGISTRY[name].task


def stub_lines(indent, task):
    """`# Task: ...` wrapped to the editor's width, then nbgrader's two stub lines."""
    width = max(40, STUB_WIDTH - len(indent) - 2)
    lines = textwrap.wrap(f"Task: {task}", width=width)
    return [f"{indent}# {line}" for line in lines] + [f"{indent}# YOUR CODE HERE", f"{indent}raise NotImplementedError()"]


def strip_solutions(source, task_for=task_of):
    """Replace every solution region with a stub that states the task of its function."""
    out, inside = [], False
    for number, line in enumerate(source.split("\n"), start=1):
        if BEGIN in line:
            if inside:
                raise ValueError(f"nested {BEGIN} in:\n{source}")
            if line.strip() != BEGIN:
                raise ValueError(f"put nothing after {BEGIN!r} (tasks live in the catalogue): {line.strip()!r}")
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            out += stub_lines(indent, task_for(enclosing_function(source, number)))
        elif END in line:
            if not inside:
                raise ValueError(f"{END} without {BEGIN} in:\n{source}")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise ValueError(f"{BEGIN} without {END} in:\n{source}")
    return "\n".join(out)


def reference_function(name):
    """(module, function) of a reference helper a workbook may be given, written once in bpe_ref."""
    for module in GIVEN_FROM:
        function = getattr(module, name, None)
        if inspect.isfunction(function) and function.__module__ == module.__name__:
            return module, function
    places = ", ".join(map(source_file, GIVEN_FROM))
    raise ValueError(f"the given helper {name!r} is not a function of {places}")


def source_file(module):
    """bpe_ref.core.naive -> 'bpe_ref/core/naive.py'."""
    return module.__name__.replace(".", "/") + ".py"


def given_source(names):
    """The source of a given-helpers cell: those reference functions, written once in bpe_ref."""
    found = [reference_function(name) for name in names]
    files = sorted({source_file(module) for module, _ in found})
    header = f"# Given, as in {' and '.join(files)}: {', '.join(names)}"
    if len(header) > STUB_WIDTH:
        header = f"# Given, as in {' and '.join(files)}:"
    bodies = [inspect.getsource(function).rstrip() for _, function in found]
    return header + "\n" + "\n\n\n".join(bodies)


def course_list(cell, key):
    """The list a cell's metadata holds under bpe_course[key] ([] if none)."""
    value = cell.get("metadata", {}).get("bpe_course", {}).get(key, [])
    return list(value) if isinstance(value, list) else []


def fill_given(notebook):
    """Write the generated source into every given-helpers cell; True if one changed."""
    changed = False
    for cell in notebook.cells:
        names = given_names(cell)
        if cell.cell_type == "code" and names:
            wanted = given_source(names)
            if cell.source != wanted:
                cell.source, changed = wanted, True
    return changed


def attached_paths(cell):
    return course_list(cell, "attach")


def attachments(paths, root=ROOT):
    """{file name: {mime type: base64}} for image files given relative to `root`."""
    found = {}
    for name in paths:
        path = root / name
        kind = IMAGE_TYPES.get(path.suffix.lower())
        if kind is None:
            raise ValueError(f"cannot attach {name}: attach a picture ({', '.join(IMAGE_TYPES)})")
        if not path.is_file():
            raise ValueError(f"cannot attach {name}: there is no such file under {root}; "
                             "give its path from the repository's root, e.g. docs/img/chart.png")
        found[path.name] = {kind: base64.b64encode(path.read_bytes()).decode("ascii")}
    return found


def fill_attachments(notebook, root=ROOT):
    """Attach the listed images to every markdown cell that asks for some; True if one changed."""
    changed = False
    for cell in notebook.cells:
        paths = attached_paths(cell)
        if cell.cell_type == "markdown" and paths:
            wanted = attachments(paths, root)
            if cell.get("attachments") != wanted:
                cell.attachments, changed = wanted, True
    return changed


SAMPLE_RE = re.compile(r"```text\n.*?```", re.S)


@functools.lru_cache(maxsize=None)
def sample_text(spec_json):
    """What the grader prints for one sample (see the module's docstring), as the block's lines."""
    spec = json.loads(spec_json)
    if "bpe-grade" in spec:
        path = ROOT / spec["bpe-grade"]
        out = io.StringIO()
        print_table(grade_file(path), out=out)
        lines = out.getvalue().splitlines()
        return "\n".join([f"$ bpe-grade {path.name}", path.name, *lines[1:]]) + "\n"
    namespace = {}
    exec(spec["source"], namespace)  # noqa: S102 - the course's own sample function
    return report(grade_function(namespace[spec["check"]])) + "\n"


def fill_samples(notebook):
    """Write the grader's real output into every sample block; True if one changed."""
    changed = False
    for cell in notebook.cells:
        spec = cell.metadata.get("bpe_course", {}).get("sample")
        if cell.cell_type == "markdown" and spec:
            block = "```text\n" + sample_text(json.dumps(spec, sort_keys=True)) + "```"
            source = SAMPLE_RE.sub(lambda _: block, cell.source, count=1)
            if source != cell.source:
                cell.source, changed = source, True
    return changed


def fill_loader(notebook):
    """The first code cell starts with LOADER, whatever loader (or bare LOAD_LINE) it had; True if changed."""
    cell = next((c for c in notebook.cells if c.cell_type == "code"), None)
    if cell is None or LOAD_LINE not in cell.source.splitlines():
        raise ValueError("a workbook's first code cell must load the course: start it with " + LOAD_LINE)
    own = cell.source.split(LOAD_LINE + "\n", 1)[1] if LOAD_LINE + "\n" in cell.source else ""
    wanted = LOADER + own
    changed = cell.source != wanted
    cell.source = wanted
    return changed


def fill_generated(notebook):
    """The loader, given cells, attached pictures and the grader's samples, written from their one
    source; True if any changed."""
    loader = fill_loader(notebook)
    given = fill_given(notebook)
    attached = fill_attachments(notebook)
    sampled = fill_samples(notebook)
    return loader or given or attached or sampled


def learner_copy(solution):
    """The learner's notebook for one solution notebook (a new NotebookNode)."""
    notebook = nbformat.from_dict(nbformat.reads(nbformat.writes(solution), as_version=4))
    fill_generated(notebook)
    exercises, given = [], set()
    for cell in notebook.cells:
        given.update(given_names(cell))
        if cell.cell_type != "code":
            continue
        cell.source = strip_solutions(cell.source)
        cell.outputs, cell.execution_count = [], None
        cell.metadata.pop("execution", None)
        exercises += [name for name in CHECK_RE.findall(cell.source) if name not in exercises]
    notebook.metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
        "bpe_course": {"exercises": [name for name in exercises if name not in given]},
    }
    notebook.nbformat, notebook.nbformat_minor = 4, 5  # 4.5: cells carry ids
    return notebook


def render(notebook):
    return nbformat.writes(notebook) + "\n"


def generate(check_only=False):
    """Write (or, with check_only, compare) every generated file; returns the stale names."""
    stale = []
    for path in sorted(SOLUTIONS.glob("*.ipynb")):
        solution = nbformat.read(path, as_version=4)
        if fill_generated(solution):
            stale.append(f"{path.name} (given cells, pictures or samples, in solutions/)")
            if not check_only:
                nbformat.write(solution, path)
        wanted = render(learner_copy(solution))
        target = NOTEBOOKS / path.name
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if current != wanted:
            stale.append(path.name)
            if not check_only:
                NOTEBOOKS.mkdir(exist_ok=True)
                target.write_text(wanted, encoding="utf-8")
    extra = {p.name for p in NOTEBOOKS.glob("*.ipynb")} - {p.name for p in SOLUTIONS.glob("*.ipynb")}
    return stale + sorted(f"{name} (no solution)" for name in extra)


def execute(path):
    """Run a solution notebook top to bottom in place, so its stored outputs are fresh."""
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    fill_generated(notebook)
    for cell in notebook.cells:
        if raises_on_purpose(cell):  # nbclient goes on past an error only in a tagged cell
            tags = cell.metadata.setdefault("tags", [])
            if "raises-exception" not in tags:
                tags.append("raises-exception")
    NotebookClient(notebook, timeout=600, kernel_name="python3", coalesce_streams=True,  # one print, one output
                   resources={"metadata": {"path": str(Path(path).parent)}}).execute()
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(notebook, path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--execute", nargs="+", metavar="SOLUTION")
    options = parser.parse_args(argv)
    if options.execute:
        for path in options.execute:
            print(f"executing {path}")
            execute(path)
    stale = generate(check_only=options.check)
    if options.check and stale:
        print("out of date: " + ", ".join(stale))
        print("run: python tools/make_notebooks.py")
        return 1
    if stale and not options.check:
        print("regenerated: " + ", ".join(stale))
    return 0


if __name__ == "__main__":
    sys.exit(main())
