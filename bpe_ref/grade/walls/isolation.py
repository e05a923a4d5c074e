"""The sandbox's walls: how one worker is started under bubblewrap (Linux), seeing the standard
library and the packages installed for the Python that grades, as a learner's own Python would.

Inside: its own user, PID, network, IPC and UTS namespaces and session; no network at all; a
read-only view of the Python it runs on (its own site-packages hidden), of the grading Python's
site-packages (at /sandbox/site, /sandbox/site-2, ...; the reference's packages in them hidden)
and of the grader's six worker files; a private 64 MB /tmp; a bare environment. Not inside:
bpe_ref, tiktoken, solutions/, the course, other submissions, the instructor's files. The sandbox dies
with the grader (bwrap's --die-with-parent: its PID 1 goes, and the kernel ends every process of
the namespace with it). Limits are set by the worker itself before any learner code runs:
run as root, it first becomes a fresh unprivileged uid (RLIMIT_NPROC does not bind root).

Where bubblewrap cannot run but the grader is root (Gradescope's containers), `--run-as USER`
starts the worker outside any walls but dropped to that account (dropped_command): the one
protection left is the operating system's, so the course and the results must be root's alone.
"""

import atexit
import functools
import importlib.metadata
import importlib.util
import os
import secrets
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

# What learner code may import outside bubblewrap (--run-as: a copy is made), and what these need in
# turn. Inside the walls it sees every package of the grading Python (site_folders) but HIDDEN.
ALLOWED_PACKAGES = ("regex", "nltk")
# The reference's packages (as the worker's REFERENCE_ROOTS): never readable inside the walls, and
# every other top-level module of the distributions that install them.
HIDDEN = ("bpe_ref", "tiktoken", "tiktoken_ext", "minbpe")
# Numerical libraries start a thread per core on import (numpy's OpenBLAS): on a machine of many
# cores that alone passes --processes, so they are told to use one, as a learner's laptop would not need.
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
# Learner code runs under one fixed hash seed, so a set's order, and with it a verdict, never changes
# from run to run. This seed puts the shortest of the cases' overlapping special tokens first in any
# set of them, so special tokens joined in a set's order fail every time (test_hash_seed checks it).
HASH_SEED = "5"
LEARNER_ENVIRONMENT = {**ONE_THREAD, "PYTHONHASHSEED": HASH_SEED}
# `python -I` without its -E: the environment is bare already, and it has to carry the seed.
SAFE_PATH = ["-P", "-s"]
WORKER_FLAGS = [*SAFE_PATH, "-X", "utf8"]
# The grader's side of the wall that must run inside it: standard library only, loaded by path.
WORKER_FILES = ("worker.py", "wire.py", "calling.py", "byhand.py", "work.py")
HERE = Path(__file__).resolve().parents[1] / "inside"  # the worker's files
PATTERNS = HERE.parents[1] / "core" / "patterns.py"
INSIDE_GRADER = "/grader"  # where the worker files are seen inside
# The handed-in file, read-only, in the learner's working folder: a few folders deep, so that code
# which finds its project from its own path at import (Path(__file__).parents[2]) still runs.
INSIDE_SUBMISSION = "/submission/project/code"
INSIDE_SITE = "/sandbox/site"  # where the allowed packages are seen inside
TMP_BYTES = 64 * 1024 * 1024
INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)"


class IsolationUnavailable(Exception):
    """bubblewrap cannot run here: the message says why and what to do."""


@functools.lru_cache(maxsize=1)
def status():
    """(True, "how") when a sandbox can be started here, else (False, why-and-what-to-do)."""
    if not sys.platform.startswith("linux"):
        return False, f"bubblewrap needs Linux; this is {sys.platform}"
    if shutil.which("bwrap") is None:
        return False, f"bubblewrap (bwrap) is not installed: {INSTALL_HINT}"
    try:
        probe = subprocess.run(sandbox_command([interpreter(), "-I", "-c", "pass"], worker_dir(), 256),
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, f"bubblewrap could not start a sandbox: {e}"
    if probe.returncode != 0:
        reason = probe.stderr.decode("utf-8", "replace").strip().splitlines()
        return False, (f"bubblewrap could not start a sandbox ({reason[-1] if reason else probe.returncode}); "
                       "user namespaces may be disabled on this machine")
    who = "root: the learner's code runs as a fresh unprivileged uid" if os.geteuid() == 0 else "as you"
    return True, f"bubblewrap {bwrap_version()}, {who}"


def bwrap_version():
    try:
        out = subprocess.run(["bwrap", "--version"], capture_output=True, text=True, timeout=10).stdout
        return out.split()[-1]
    except (OSError, subprocess.TimeoutExpired, IndexError):
        return "?"


def interpreter():
    """The real Python binary under this one (a venv's python is a copy or a link to it)."""
    base = getattr(sys, "_base_executable", None) or sys.executable
    return os.path.realpath(base)


_SHARED = {}  # the parent's copies ("site", "worker"), handed to each pool process (share_copies)
_MADE = []  # the temporary folders this process made, removed at exit (remove_copies)


def share_copies(site=None, worker=None):
    """Use the parent's copies (of the allowed packages, of the worker's files) in this pool process
    instead of making its own: a pool process ends without running atexit, so its own would stay in /tmp."""
    _SHARED.update((key, folder) for key, folder in (("site", site), ("worker", worker)) if folder)


def remove_copies():
    """Remove the copies this process made: at exit, or when a process that ends without atexit
    (a test session's worker) is done grading."""
    for folder in _MADE:
        shutil.rmtree(folder, ignore_errors=True)
    _MADE.clear()
    _own_worker_dir.cache_clear()
    _own_site_copy.cache_clear()


atexit.register(remove_copies)


def temporary_folder(prefix):
    """A new folder in the temporary folder, removed by remove_copies."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    _MADE.append(folder)
    return folder


def worker_dir():
    """A private folder holding only the worker's files (a copy): what the sandbox sees of the grader.
    It sits alone in a folder of its own: the worker takes its parent for the reference's (calling.py)."""
    return _SHARED.get("worker") or _own_worker_dir()


@functools.lru_cache(maxsize=1)
def _own_worker_dir():
    private = temporary_folder("bpe-grade-worker-")
    folder = private / "grader"
    folder.mkdir()
    private.chmod(0o755)
    for name in WORKER_FILES:
        shutil.copyfile(HERE / name, folder / name)
    shutil.copyfile(PATTERNS, folder / "patterns.py")
    for path in [folder, *folder.iterdir()]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return str(folder)


@functools.lru_cache(maxsize=4)
def allowed_modules(names=ALLOWED_PACKAGES):
    """{top-level module: its file or folder} for the allowed packages that are installed, and
    the packages they require (nltk needs click, joblib, tqdm, regex)."""
    found, todo, seen = {}, list(names), set()
    distributions = importlib.metadata.packages_distributions()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin in (None, "built-in", "frozen") and not spec.submodule_search_locations:
            continue
        if is_standard_library(spec):
            continue
        found[name] = (spec.submodule_search_locations[0] if spec.submodule_search_locations else spec.origin)
        for dist in distributions.get(name, []):
            todo += [requirement_name(r) for r in importlib.metadata.requires(dist) or [] if "extra ==" not in r]
    return found


def requirement_name(requirement):
    """'click>=7 ; python_version > "3"' -> 'click' (as a module name)."""
    for stop in " ;<>=!~[(":
        requirement = requirement.split(stop)[0]
    return requirement.strip().lower().replace("-", "_")


def is_standard_library(spec):
    stdlib = os.path.realpath(sysconfig.get_paths()["stdlib"])
    origin = os.path.realpath(spec.origin or "")
    return origin.startswith(stdlib + os.sep) and "site-packages" not in origin


def python_prefix():
    """The folder of the Python installation the sandbox runs (its lib/ holds the standard library)."""
    return os.path.realpath(sys.base_prefix)


def inside_path(file):
    """Where the handed-in file is inside the walls (the learner's __file__), or None."""
    return f"{INSIDE_SUBMISSION}/{os.path.basename(file)}" if file else None


def sandbox_command(command, grader_dir, memory_mb, file=None):
    """The bwrap argument list that runs `command` (an argv) inside the walls; `file`, the
    handed-in file, is the only file of the submission's folder the learner's code sees there
    (read-only, in a writable folder of its own: a classmate's folder is never in reach)."""
    prefix = python_prefix()
    args = ["bwrap", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
            "--hostname", "sandbox", "--die-with-parent", "--new-session", "--clearenv",
            "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp",
            "--setenv", "LANG", "C.UTF-8", "--setenv", "MPLBACKEND", "Agg"]
    for name, value in LEARNER_ENVIRONMENT.items():
        args += ["--setenv", name, value]
    if os.geteuid() != 0:
        args += ["--unshare-user", "--cap-drop", "ALL"]  # as root, the worker drops to a uid of its own
    for folder in ("/usr/lib", "/usr/lib64", "/usr/lib32"):
        if os.path.isdir(folder):
            args += open_folders(folder) + ["--ro-bind", folder, folder]
    for link in ("/lib", "/lib64", "/lib32"):
        if os.path.islink(link):
            args += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            args += ["--ro-bind", link, link]
    args += open_folders(prefix) + ["--ro-bind", prefix, prefix]
    for site in package_folders():  # a conda env or a system Python keeps packages here: hide them
        args += ["--tmpfs", site]
    args += open_folders(INSIDE_GRADER) + ["--ro-bind", grader_dir, INSIDE_GRADER]
    for folder, target in zip(site_folders(), inside_sites()):
        args += open_folders(target) + ["--ro-bind", folder, target] + list(hide_reference(folder, target))
    args += ["--proc", "/proc", "--dev", "/dev", "--size", str(TMP_BYTES), "--perms", "01777", "--tmpfs", "/tmp",
             "--size", str(TMP_BYTES), "--perms", "01777", "--tmpfs", "/dev/shm"]  # multiprocessing's locks
    if file:
        args += ["--size", str(TMP_BYTES), "--perms", "01777", "--tmpfs", INSIDE_SUBMISSION,
                 "--ro-bind", os.path.realpath(file), inside_path(file), "--chdir", INSIDE_SUBMISSION]
    else:
        args += ["--chdir", "/tmp"]
    return args + list(command)


@functools.lru_cache(maxsize=1)
def site_folders():
    """The site-packages and dist-packages folders of the Python that grades (its sys.path, not
    what a .pth adds to it such as an editable checkout): the learner's code sees what they hold."""
    folders = []
    for entry in sys.path:
        folder = os.path.realpath(entry) if entry else ""
        if folder.rstrip(os.sep).endswith(("site-packages", "dist-packages")) and os.path.isdir(folder) \
                and folder not in folders:
            folders.append(folder)
    return tuple(folders)


def inside_sites():
    """Where site_folders() are seen inside the walls: /sandbox/site, /sandbox/site-2, ..."""
    return tuple(INSIDE_SITE if i == 0 else f"{INSIDE_SITE}-{i + 1}" for i in range(len(site_folders())))


@functools.lru_cache(maxsize=1)
def hidden_names():
    """HIDDEN, and the other top-level modules of the distributions that install any of them."""
    distributions = importlib.metadata.packages_distributions()
    reference = {dist for name in HIDDEN for dist in distributions.get(name, [])}
    return tuple(sorted(set(HIDDEN) | {name for name, dists in distributions.items() if reference & set(dists)}))


@functools.lru_cache(maxsize=8)
def hide_reference(folder, target):
    """bwrap arguments that put an empty read-only folder over each of the reference's packages in
    a site folder seen at `target`, and an empty file over each of its single-file modules: nothing
    of them can be read (the worker's stand-ins answer their imports). One bind of the whole folder
    and a few over it start much faster than a bind per package."""
    args = []
    for entry in sorted(os.listdir(folder)):
        if entry.split(".")[0] not in hidden_names() or entry.endswith((".dist-info", ".egg-info", ".pth")):
            continue
        inside = f"{target}/{entry}"
        if os.path.isdir(os.path.join(folder, entry)):
            args += ["--tmpfs", inside, "--remount-ro", inside]
        else:
            args += ["--ro-bind", "/dev/null", inside]
    return tuple(args)


def open_folders(path):
    """bwrap arguments that make every folder above `path` plain 0755 (a parent such as /root is
    0700 on the host, and a dropped uid could not walk through it)."""
    args, parts = [], Path(path).parts
    for i in range(2, len(parts)):
        args += ["--perms", "0755", "--dir", str(Path(*parts[:i]))]
    return args


@functools.lru_cache(maxsize=1)
def package_folders():
    """The site-packages and dist-packages folders the sandbox's Python would put on sys.path
    (asked of that Python itself: Debian's adds /usr/lib/python3/dist-packages, for one)."""
    probe = "import sys; print('\\n'.join(sys.path))"
    try:
        out = subprocess.run([interpreter(), "-I", "-c", probe], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        out = ""
    folders = {os.path.realpath(p) for p in out.splitlines() if p.rstrip("/").endswith(("site-packages", "dist-packages"))}
    folders |= {os.path.realpath(sysconfig.get_paths()[key]) for key in ("purelib", "platlib")}
    shown = (python_prefix() + os.sep, "/usr/")  # only what the sandbox binds needs hiding
    return sorted(f for f in folders if os.path.isdir(f) and f.startswith(shown))


def worker_command(memory_mb, processes=1, file=None):
    """The argv of one isolated worker, with a fresh uid for it when the grader runs as root."""
    argv = [interpreter(), *WORKER_FLAGS, f"{INSIDE_GRADER}/worker.py", str(memory_mb),
            "--site", os.pathsep.join(inside_sites()), "--processes", str(processes)]
    if os.geteuid() == 0:
        argv += ["--uid", str(fresh_uid())]
    return sandbox_command(argv, worker_dir(), memory_mb, file)


BARE_ENVIRONMENT = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8", "MPLBACKEND": "Agg",
                    **LEARNER_ENVIRONMENT}


def learner_account(name):
    """(uid, gid) of the account `name` that learner code runs as when a root grader has no
    bubblewrap (--run-as); ValueError (one line) when it cannot be used."""
    import pwd  # Unix only, like running as root

    if os.geteuid() != 0:
        raise ValueError(f"--run-as {name}: only a grader running as root can run learner code as another user")
    try:
        account = pwd.getpwnam(name)
    except KeyError:
        raise ValueError(f"--run-as {name}: no such user here (create it, e.g. useradd --system {name})") from None
    if account.pw_uid == 0 or account.pw_gid == 0:
        raise ValueError(f"--run-as {name}: that account is root's (uid or gid 0); give an unprivileged one")
    return account.pw_uid, account.pw_gid


def dropped_command(memory_mb, run_as, processes=1):
    """The argv of a worker that is not behind bubblewrap but drops to `run_as` (uid, gid): the
    worker's files and the allowed packages are copies it can read, the course is not on its path."""
    uid, gid = run_as
    return [sys.executable, *WORKER_FLAGS, str(Path(worker_dir()) / "worker.py"), str(memory_mb),
            "--site", site_copy(), "--uid", str(uid), "--gid", str(gid), "--processes", str(processes)]


def site_copy():
    """A private, world-readable copy of the allowed packages (for a worker outside bubblewrap
    that can no longer read the grader's site-packages); made once per run, by the parent."""
    return _SHARED.get("site") or _own_site_copy()


@functools.lru_cache(maxsize=1)
def _own_site_copy():
    folder = temporary_folder("bpe-grade-site-")
    for place in allowed_modules().values():
        target = folder / os.path.basename(place)
        if os.path.isdir(place):
            shutil.copytree(place, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copyfile(place, target)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return str(folder)


def fresh_uid():
    """An unprivileged uid no account uses, one per sandbox, so that each has its own process count."""
    return 1_000_000 + secrets.randbelow(1_000_000_000)
