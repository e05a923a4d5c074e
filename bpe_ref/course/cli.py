"""`bpe-course`: the course wherever Python is installed, following the Jupyter tools' conventions.

    bpe-course lab [DIR] [JupyterLab options]   make or update your workspace in DIR (default:
                                                ./bpe-course) and open it in JupyterLab
    bpe-course workbooks DIR                    copy the workbooks into DIR, for another front end
                                                (VS Code, Jupyter Notebook, an upload to Colab)
    bpe-course --version

Both keep your work: a workbook whose cells you changed is never overwritten; the course's newer
version goes beside it, in updates/. `python3 course.py lab` in a checkout runs the same code.
"""

import sys
from importlib import metadata
from pathlib import Path

USAGE = __doc__.split("\n\n")[1]
DEFAULT_FOLDER = "bpe-course"  # `bpe-course lab` with no DIR: this folder in the current one


def version():
    try:
        return metadata.version("bpe-course")
    except metadata.PackageNotFoundError:  # a checkout on sys.path without being installed
        return "unknown (not installed)"


def lab(argv):
    """`lab [DIR] [JupyterLab options]`: a DIR is the first argument when it is not an option."""
    from . import lab as jupyter_lab  # JupyterLab's settings and the server: only for this command

    named = bool(argv) and not argv[0].startswith("-")
    folder = Path(argv[0] if named else DEFAULT_FOLDER)
    jupyter_lab.require_jupyterlab()  # the `lab` extra: without it, what to install, and nothing made
    jupyter_lab.configure()
    return jupyter_lab.open_lab(folder, argv[1:] if named else argv)


def workbooks(argv):
    """`workbooks DIR`: the learner workbooks, copied by the workspace's rules."""
    from .material import course_root
    from .workspace import copy_workbooks

    if len(argv) != 1 or argv[0].startswith("-"):
        raise ValueError("say where the workbooks go: bpe-course workbooks DIR (e.g. `bpe-course workbooks .`)")
    folder = Path(argv[0]).resolve()
    notes = copy_workbooks(course_root(), folder)
    for note in notes:
        print(note)
    print(f"the workbooks are in {folder}" + ("" if notes else " (already up to date)"))
    return 0


COMMANDS = {"lab": lab, "workbooks": workbooks}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--version"]:
        print(f"bpe-course {version()}")
        return 0
    if not argv or argv[0] not in COMMANDS:
        print(USAGE, file=sys.stdout if argv[:1] in (["-h"], ["--help"]) else sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    try:
        return COMMANDS[argv[0]](argv[1:])
    except (ValueError, FileNotFoundError) as error:
        print(f"bpe-course: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
