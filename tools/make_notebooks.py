"""Generate the learners' notebooks from the solutions: the one source of truth.

    python tools/make_notebooks.py            regenerate notebooks/ from solutions/
    python tools/make_notebooks.py --check    fail if notebooks/ is not what solutions/ generates
    python tools/make_notebooks.py --execute solutions/04_naive_bpe.ipynb
                                              re-run a solution in place (fresh outputs for nbval)

In a solution, code between `### BEGIN SOLUTION` and `### END SOLUTION` (nbgrader's markers)
becomes a stub that raises NotImplementedError with the task; the task is the text after
`### BEGIN SOLUTION` on the marker line. Outputs are cleared. Each learner notebook records
the exercises it checks (from its `check(name)` calls) in metadata.bpe_course.exercises.
"""

import argparse
import re
import sys
from pathlib import Path

import nbformat

from bpe_ref.grade.source import raises_on_purpose

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS, NOTEBOOKS = ROOT / "solutions", ROOT / "notebooks"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
CHECK_RE = re.compile(r"\bcheck\(\s*([A-Za-z_]\w*)")


def strip_solutions(source):
    """Replace every solution region with a stub that states the task."""
    out, inside = [], False
    for line in source.split("\n"):
        if BEGIN in line:
            if inside:
                raise ValueError(f"nested {BEGIN} in:\n{source}")
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            task = line.split(BEGIN, 1)[1].strip(" -:—") or "write this part"
            out.append(f"{indent}# YOUR CODE HERE")
            out.append(f"{indent}raise NotImplementedError({task!r})")
        elif END in line:
            if not inside:
                raise ValueError(f"{END} without {BEGIN} in:\n{source}")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise ValueError(f"{BEGIN} without {END} in:\n{source}")
    return "\n".join(out)


def learner_copy(solution):
    """The learner's notebook for one solution notebook (a new NotebookNode)."""
    notebook = nbformat.from_dict(nbformat.reads(nbformat.writes(solution), as_version=4))
    exercises = []
    for cell in notebook.cells:
        cell.pop("id", None)
        if cell.cell_type != "code":
            continue
        cell.source = strip_solutions(cell.source)
        cell.outputs, cell.execution_count = [], None
        cell.metadata.pop("execution", None)
        exercises += [name for name in CHECK_RE.findall(cell.source) if name not in exercises]
    notebook.metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
        "bpe_course": {"exercises": exercises},
    }
    notebook.nbformat, notebook.nbformat_minor = 4, 4
    for i, cell in enumerate(notebook.cells):
        cell["id"] = f"cell-{i:02d}"
    return notebook


def render(notebook):
    return nbformat.writes(notebook) + "\n"


def generate(check_only=False):
    """Write (or, with check_only, compare) every learner notebook; returns the stale names."""
    stale = []
    for path in sorted(SOLUTIONS.glob("*.ipynb")):
        wanted = render(learner_copy(nbformat.read(path, as_version=4)))
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
    for cell in notebook.cells:
        if raises_on_purpose(cell):  # nbclient goes on past an error only in a tagged cell
            tags = cell.metadata.setdefault("tags", [])
            if "raises-exception" not in tags:
                tags.append("raises-exception")
    NotebookClient(notebook, timeout=600, kernel_name="python3",
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
        print("notebooks/ is out of date for: " + ", ".join(stale))
        print("run: python tools/make_notebooks.py")
        return 1
    if stale and not options.check:
        print("regenerated: " + ", ".join(stale))
    return 0


if __name__ == "__main__":
    sys.exit(main())
