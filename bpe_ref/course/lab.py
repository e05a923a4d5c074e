"""Open the course in JupyterLab: `python -m bpe_ref.course.lab [--workspace DIR] [JupyterLab options]`.

`bpe-course lab [DIR]` and `python3 course.py lab` run this (bpe_ref.course.cli). It
- fills or tops up the learner's workspace (bpe_ref.course.workspace) and makes it the server's root,
  so the file browser holds the workbooks, the read-only solutions and the drills;
- makes 00_start_here the server's default page: the browser opens it, and so does the URL the
  server prints (with --no-browser too);
- has the server refuse writes to the course's read-only material, even as root (bpe_ref.course.read_only);
- writes settings into this Python environment, whatever later starts lab from it:
  JupyterLab's terminals get the course's commands on PATH (a login shell on Debian resets
  PATH from /etc/profile when lab was started without a terminal of its own), the
  "Jupyter news" pop-up and the update check are off (no network is needed, or wanted), and
  Markdown files (README.md, docs/) open rendered;
- copies the rank files into a tiktoken cache folder the user chose (TIKTOKEN_CACHE_DIR), so
  that tiktoken works offline there too (with no folder chosen, the tiktoken_ext plugin points
  every process at the shipped files: nothing to write).
"""

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from ..formats.encodings import install_offline_cache
from .material import CHECKOUT, course_root
from .workspace import prepare

COURSE = course_root()  # a checkout, or the installed package's copies of the course's files
FIRST_WORKBOOK = "00_start_here.ipynb"
SETTINGS = {  # JupyterLab's overrides.json: {plugin: {setting: value}}
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Markdown Preview"}},
}
CONTENTS_MANAGER = "bpe_ref.course.read_only.CourseContentsManager"
NO_JUPYTERLAB = ("JupyterLab is not installed in this Python: run `pip install 'bpe-course[lab]'` to open "
                 "the course in it, or `bpe-course workbooks DIR` to use a Jupyter you already have")


def require_jupyterlab():
    """JupyterLab is the `lab` extra, not the base (Colab and VS Code need none): without it, a
    sentence saying what to install, before anything is written."""
    if importlib.util.find_spec("jupyterlab") is None:
        raise ValueError(NO_JUPYTERLAB)


def terminal_rc(prefix):
    """A bash start-up file: what a login shell reads, then the environment's bin/ first on PATH."""
    bin_dir = Path(prefix) / ("Scripts" if os.name == "nt" else "bin")
    activate = bin_dir / "activate"
    lines = [
        "# JupyterLab terminals for bpe-course (written by bpe_ref.course.lab): a login shell's start-up,",
        "# then this environment's commands (bpe-grade, bpe-practice) first on PATH.",
        "[ -f /etc/profile ] && . /etc/profile",
        "if [ -f ~/.bash_profile ]; then . ~/.bash_profile",
        "elif [ -f ~/.bash_login ]; then . ~/.bash_login",
        "elif [ -f ~/.profile ]; then . ~/.profile; fi",
        f'. "{activate}"' if activate.exists() else f'export PATH="{bin_dir}:$PATH"',
    ]
    return "\n".join(lines) + "\n"


def configure(prefix=sys.prefix):
    """Write the terminal and notification settings into the environment at `prefix`, and fill a
    tiktoken cache folder the user chose with the course's files (the shipped folder needs nothing:
    the tiktoken_ext plugin points tiktoken at it in every process)."""
    prefix = Path(prefix)
    install_offline_cache()
    if os.name != "nt":  # Windows terminals inherit the server's PATH: nothing resets it
        bash = shutil.which("bash")
        rc = prefix / "etc" / "bpe-course" / "terminal.bashrc"
        if bash:
            command = [bash, "--rcfile", str(rc), "-i"]
        else:  # POSIX sh reads $ENV when interactive
            command = ["/usr/bin/env", f"ENV={rc}", "/bin/sh", "-i"]
        write_if_changed(rc, terminal_rc(prefix))
        # traitlets reads this file of the environment (not the jupyter_server_config.d/ folder,
        # which holds only extension switches)
        config = prefix / "etc" / "jupyter" / "jupyter_server_config.json"
        server = read_json(config)
        server.setdefault("ServerApp", {}).setdefault("terminado_settings", {})["shell_command"] = command
        write_if_changed(config, json.dumps(server, indent=2) + "\n")
    overrides = prefix / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    write_if_changed(overrides, json.dumps(with_settings(read_json(overrides)), indent=2) + "\n")


def with_settings(overrides):
    """The course's settings added to overrides.json's, keeping the learner's other settings of
    the same plugins."""
    merged = dict(overrides)
    for plugin, settings in SETTINGS.items():
        merged[plugin] = {**merged.get(plugin, {}), **settings}
    return merged


def read_json(path):
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def write_if_changed(path, text):
    path = Path(path)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def default_workspace():
    """A checkout's workspace/ (git ignores it); for an installed course, bpe-course/ in the current folder."""
    return COURSE / "workspace" if COURSE == CHECKOUT else Path.cwd() / "bpe-course"


def split_args(argv):
    """(workspace, the rest for jupyter lab) from our --workspace DIR and jupyter's own options."""
    workspace, rest = default_workspace(), []
    args = iter(argv)
    for arg in args:
        if arg == "--workspace":
            workspace = Path(next(args, "")).resolve()
        elif arg.startswith("--workspace="):
            workspace = Path(arg.split("=", 1)[1]).resolve()
        else:
            rest.append(arg)
    return workspace, rest


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--configure"]:  # course.py setup: the settings only, JupyterLab or not
        configure()
        return 0
    try:
        require_jupyterlab()
    except ValueError as error:
        print(f"bpe-course: {error}", file=sys.stderr)
        return 2
    configure()
    return open_lab(*split_args(argv))


def open_lab(workspace, jupyter_options=()):
    """Make the workspace current, then run JupyterLab on it until it stops; its exit status."""
    workspace = Path(workspace).resolve()
    for note in prepare(COURSE, workspace):
        print(f"workspace: {note}", flush=True)
    print(f"workspace: your work is saved in {workspace}", flush=True)
    return subprocess.call(lab_command(workspace, jupyter_options), cwd=workspace)


def lab_command(workspace, rest=()):
    """`jupyter lab` on the workspace, 00 first, the course's material read only."""
    as_root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []  # containers
    return [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={workspace}",
            f"--LabApp.default_url=/lab/tree/{FIRST_WORKBOOK}",
            f"--ServerApp.contents_manager_class={CONTENTS_MANAGER}", *as_root, *rest]


if __name__ == "__main__":
    sys.exit(main())
