"""Set up and run the course with nothing but Python 3.10+: `python3 course.py lab | test | setup`.

    python3 course.py lab     create .venv if needed, install the course with JupyterLab, open it on
                              workspace/ (your own copies of the workbooks; see docs/workspace.md)
    python3 course.py test    the same set-up (with the test tools), then the whole test suite
    python3 course.py setup   only the set-up (the course with JupyterLab)

`lab` passes its other options to JupyterLab (e.g. --no-browser --port 8890), and takes
--workspace DIR to keep your work somewhere else than ./workspace. `test` passes its options to
pytest: with no path it runs tests/ and solutions/ (pyproject's testpaths), else the paths given.

Everything installs from the package index into ./.venv; nothing else is downloaded, ever:
the tiktoken rank files ship inside bpe_ref (see docs/reference.md, "Offline tiktoken").
"""

import hashlib
import json
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / "bpe-course-installed"
TEST_ARGS = ["-rs", "--nbval", "--nbval-current-env",
             "--nbval-sanitize-with", "nbval_sanitize.cfg", "-p", "no:cacheprovider",
             "--durations=15"]  # where the suite's time goes, in every run
EXTRAS_WITHIN = {"test": {"lab"}}  # pyproject.toml's chain: the test extra pulls bpe-course[lab]
MAX_TEST_WORKERS = 4  # each starts its own browser, hub or kernels: more would crowd a laptop


def parallel_args():
    """pytest-xdist's options: one test process per core (at most MAX_TEST_WORKERS), each taking
    whole files, so a module's shared fixture (a JupyterLab, a hub, a graded class) is built once
    and a notebook's nbval cells share their kernel. One core: no worker processes."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    workers = min(cores, MAX_TEST_WORKERS)
    return ["-n", str(workers), "--dist", "loadfile"] if workers > 1 else []


def venv_python():
    folder = "Scripts" if os.name == "nt" else "bin"
    return VENV / folder / ("python.exe" if os.name == "nt" else "python")


def run(cmd, **kwargs):
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.call([str(c) for c in cmd], cwd=ROOT, **kwargs)


def setup(extra=None):
    """Create .venv and install the course into it (with an optional extra, "lab" or "test"); redo
    the install when pyproject.toml changes or the extra is not in it yet (test holds lab). Then
    write the course's JupyterLab settings into .venv."""
    if sys.version_info < (3, 10):
        sys.exit(f"bpe-course needs Python 3.10 or newer; this is {sys.version.split()[0]}")
    if not venv_python().exists():
        print(f"creating {VENV.name}/ ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    project = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    try:
        installed = json.loads(STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        installed = {}
    extras = set(installed.get("extras", [])) if installed.get("pyproject") == project else set()
    held = extras.union(*(EXTRAS_WITHIN.get(name, set()) for name in extras))
    if installed.get("pyproject") != project or (extra and extra not in held):
        extras |= {extra} if extra else set()
        if run([venv_python(), "-m", "pip", "install", "--upgrade", "pip"]) != 0:
            sys.exit("could not upgrade pip in .venv")
        target = f".[{','.join(sorted(extras))}]" if extras else "."
        if run([venv_python(), "-m", "pip", "install", "-e", target]) != 0:
            sys.exit("installing the course failed; see pip's message above")
        STAMP.write_text(json.dumps({"pyproject": project, "extras": sorted(extras)}), encoding="utf-8")
    if run([venv_python(), "-m", "bpe_ref.course.lab", "--configure"]) != 0:
        sys.exit("could not write the course's JupyterLab settings into .venv")
    say_isolation()


def say_isolation():
    """One line: can bpe-grade run each submission in a sandbox here (needed to grade a class)?"""
    probe = "from bpe_ref.grade.walls import isolation; ok, why = isolation.status(); print(('yes: ' if ok else 'no: ') + why)"
    out = subprocess.run([str(venv_python()), "-c", probe], cwd=ROOT, capture_output=True, text=True)
    answer = out.stdout.strip() or "no: could not tell"
    print(f"grading in a sandbox (bubblewrap), needed to grade a class: {answer}", flush=True)


def course_env():
    """The environment every course process gets: tiktoken finds the shipped rank files, and
    bpe-grade / bpe-practice are on the PATH (in JupyterLab's terminals too)."""
    env = dict(os.environ)
    env["PATH"] = str(venv_python().parent) + os.pathsep + env.get("PATH", "")
    env.setdefault("TIKTOKEN_CACHE_DIR", str(ROOT / "bpe_ref" / "data" / "tiktoken_cache"))
    return env


def workspace_args(argv):
    """(the workspace folder, JupyterLab's options) from `lab`'s options: --workspace DIR or ./workspace."""
    workspace, rest = ROOT / "workspace", []
    args = iter(argv)
    for arg in args:
        if arg == "--workspace":
            workspace = Path(next(args, "")).resolve()
        elif arg.startswith("--workspace="):
            workspace = Path(arg.split("=", 1)[1]).resolve()
        else:
            rest.append(arg)
    return str(workspace), rest


def main(argv):
    command = argv[0] if argv else "help"
    if command not in ("lab", "test", "setup"):
        print(__doc__)
        return 0 if command in ("help", "-h", "--help") else 2
    setup("test" if command == "test" else "lab")
    if command == "lab":  # the installed course's own `bpe-course lab DIR`, on ./workspace
        workspace, rest = workspace_args(argv[1:])
        return run([venv_python(), "-m", "bpe_ref.course.cli", "lab", workspace, *rest], env=course_env())
    if command == "test":
        env = course_env()
        return run([venv_python(), "-m", "pytest", *TEST_ARGS, *parallel_args(), *argv[1:]], env=env)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
