"""Open the course in JupyterLab: `python -m bpe_ref.course.lab [--workspace DIR] [JupyterLab options]`.

`python3 course.py lab` runs this in the course's .venv (conda users run it themselves). It
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
- writes GPT-2's files into tiktoken's offline cache and a .pth line into site-packages, so
  that `tiktoken.get_encoding("gpt2")` works offline in any Python process of the environment.
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from ..formats.encodings import install_offline_cache
from .workspace import prepare

COURSE = Path(__file__).resolve().parents[2]
FIRST_WORKBOOK = "00_start_here.ipynb"
SETTINGS = {  # JupyterLab's overrides.json: {plugin: {setting: value}}
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Markdown Preview"}},
}
CONTENTS_MANAGER = "bpe_ref.course.read_only.CourseContentsManager"


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
    """Write the terminal and notification settings into the environment at `prefix`, and make
    tiktoken find its files offline in every Python process of that environment."""
    prefix = Path(prefix)
    write_if_changed(site_packages(prefix) / TIKTOKEN_PTH, tiktoken_pth_line(install_offline_cache()))
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


TIKTOKEN_PTH = "bpe_course_tiktoken.pth"  # run by Python at every start in this environment


def site_packages(prefix):
    """The environment's site-packages folder (where .pth files are read)."""
    return Path(sysconfig.get_path("purelib", vars={"base": str(prefix), "platbase": str(prefix)}))


def tiktoken_pth_line(folder):
    """A .pth line that points tiktoken at `folder`, unless the user chose a cache folder."""
    return (f"import os; os.environ.get('DATA_GYM_CACHE_DIR') or "
            f"os.environ.setdefault('TIKTOKEN_CACHE_DIR', {str(folder)!r})\n")


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


def split_args(argv):
    """(workspace, the rest for jupyter lab) from our --workspace DIR and jupyter's own options."""
    workspace, rest = COURSE / "workspace", []
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
    configure()
    if argv == ["--configure"]:  # course.py setup: the settings only
        return 0
    workspace, rest = split_args(argv)
    for note in prepare(COURSE, workspace):
        print(f"workspace: {note}", flush=True)
    print(f"workspace: your work is saved in {workspace}", flush=True)
    return subprocess.call(lab_command(workspace, rest), cwd=workspace)


def lab_command(workspace, rest=()):
    """`jupyter lab` on the workspace, 00 first, the course's material read only."""
    as_root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []  # containers
    return [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={workspace}",
            f"--LabApp.default_url=/lab/tree/{FIRST_WORKBOOK}",
            f"--ServerApp.contents_manager_class={CONTENTS_MANAGER}", *as_root, *rest]


if __name__ == "__main__":
    sys.exit(main())
