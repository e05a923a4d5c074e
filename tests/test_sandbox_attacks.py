"""A class that may cheat: every kind of attack seen on the grader, each in two spellings or more,
graded for real by bpe-grade behind bubblewrap's walls, beside two honest students.

The honest rows must not change, the grader must finish and write its report, the course's files
must be unchanged on disk, and no secret, solution or fetched page may appear in any output.
Also: what a sandbox can see (its files, /proc, its descriptors, the network).

Needs bubblewrap (Debian: apt-get install bubblewrap; .ci/run installs it as root). Without it
these tests skip with a reason, except in CI (BPE_COURSE_CI=1), where a skip is a failure.
"""

import csv
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bpe_ref.grade.walls import isolation

ROOT = Path(__file__).resolve().parent.parent
LEARNERS = Path(__file__).parent / "learners"
SECRET = "hunter2-grader-secret"
PAGE = "SECRET-PAGE-FROM-THE-NETWORK"
AVAILABLE, WHY = isolation.status()

if not AVAILABLE:
    if os.environ.get("BPE_COURSE_CI"):
        pytest.fail(f"the isolation tests cannot run in CI: {WHY}", pytrace=False)
    pytestmark = pytest.mark.skip(reason=f"bubblewrap cannot run here: {WHY}")

GOOD = (LEARNERS / "good_functions.py").read_text(encoding="utf-8") if (LEARNERS / "good_functions.py").exists() else None


def honest_get_stats():
    return '''
def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
'''


def buggy_merge():
    return honest_get_stats().replace("i += 2", "i += 1")


def leak(expression):
    """A get_stats that raises with whatever `expression` finds, so that it would show in the report."""
    return f'''
def get_stats(ids):
    import os, sys, glob, socket
    raise ValueError("LEAK " + repr({expression}))
'''


def course_file(relative):
    return str(ROOT / relative)


def attackers(class_dir, port):
    """{student: source of their ps.py}: each kind of attack, in several spellings."""
    naive_py, csv_path = course_file("bpe_ref/core/naive.py"), str(class_dir / "class.csv")
    bob = str(class_dir / "submissions" / "bob" / "ps.py")
    return {
        # credit without the work: the reference, read from disk or imported past the guard
        "ref_exec_path": f'exec(open({naive_py!r}, encoding="utf-8").read())\n',
        "ref_exec_glob": 'import glob\nfor f in glob.glob("/**/bpe_ref/core/naive.py", recursive=True):\n'
                         '    exec(open(f).read())\n',
        "ref_spec": f'import importlib.util\ns = importlib.util.spec_from_file_location("n", {naive_py!r})\n'
                    'm = importlib.util.module_from_spec(s); s.loader.exec_module(m)\nget_stats, merge = m.get_stats, m.merge\n',
        "guard_removed": 'import sys\nsys.meta_path[:] = [f for f in sys.meta_path if "Fake" not in type(f).__name__]\n'
                         'sys.setprofile(None)\nfrom bpe_ref.naive import get_stats, merge\n',
        "guard_removed_2": 'import sys, importlib\ndel sys.meta_path[0]\nfor k in list(sys.modules):\n'
                           '    if k.startswith(("bpe_ref", "tiktoken")): del sys.modules[k]\n'
                           'get_stats = importlib.import_module("bpe_ref.naive").get_stats\n',
        "tiktoken_past_guard": 'import sys\nsys.meta_path.pop(0)\nimport tiktoken\n'
                               'def get_stats(ids):\n    return dict(tiktoken.get_encoding("gpt2")._mergeable_ranks)\n',
        # classmates: read, exec or rewrite another student's file
        "reads_bob": f'exec(open({bob!r}).read())\n',
        "reads_bob_relative": 'exec(open("../bob/ps.py").read())\n',
        "rewrites_bob": f'try:\n    open({bob!r}, "w").write("def get_stats(ids):\\n    return 0\\n")\n'
                        'except OSError:\n    pass\n' + buggy_merge(),
        "rewrites_bob_2": 'import os\nfor root, _, files in os.walk("/"):\n'
                          '    if "bob" in root and "ps.py" in files:\n'
                          '        open(os.path.join(root, "ps.py"), "w").write("")\n' + buggy_merge(),
        # the grader itself: signals, stray processes, forged output, its own code on disk
        "kills_parent": 'import os, signal\nfor pid in (os.getppid(), 1, -1):\n    try:\n'
                        '        os.kill(pid, signal.SIGKILL)\n    except OSError:\n        pass\n' + buggy_merge(),
        "stops_everyone": 'import os, signal\nfor p in os.listdir("/proc"):\n    if p.isdigit() and int(p) != os.getpid():\n'
                          '        for s in (signal.SIGSTOP, signal.SIGKILL):\n'
                          '            try: os.kill(int(p), s)\n            except OSError: pass\n' + buggy_merge(),
        "double_fork": f'import os\ntry:\n    if os.fork() == 0:\n        os.setsid()\n        if os.fork() == 0:\n'
                       f'            import time; time.sleep(3); open({csv_path!r}, "w").write("forged")\n'
                       'except OSError:\n    pass\n' + buggy_merge(),
        "spawns_shell": f'import subprocess\ntry:\n    subprocess.Popen(["sh", "-c", "sleep 3; echo forged > {csv_path}"], '
                        'start_new_session=True)\nexcept OSError:\n    pass\n' + buggy_merge(),
        "forges_output": 'import os\nfor p in os.listdir("/proc"):\n    for fd in ("1", "2"):\n'
                         '        try:\n            with open(f"/proc/{p}/fd/{fd}", "w") as f:\n'
                         '                f.write("FORGED  get_stats pass\\n")\n        except OSError:\n            pass\n'
                         + buggy_merge(),
        "patches_grader": f'for name in ("cli.py", "submission.py", "engine.py"):\n    try:\n'
                          f'        open({course_file("bpe_ref/grade")!r} + "/" + name, "a").write("\\nraise SystemExit(0)\\n")\n'
                          '    except OSError:\n        pass\n' + buggy_merge(),
        # leaks: the grader's environment, the solutions, the network
        "leaks_env": leak("dict(os.environ)"),
        "leaks_env_proc": leak('open(f"/proc/{os.getppid()}/environ").read()'),
        "leaks_solution": leak(f'open({course_file("solutions/04_naive_bpe.ipynb")!r}).read()'),
        "leaks_network": leak(f'socket.create_connection(("127.0.0.1", {port}), timeout=2).recv(100)'),
        # cost: endless work, memory, processes
        "fork_bomb": 'import os\ntry:\n    while True:\n        os.fork()\nexcept OSError:\n    pass\n' + buggy_merge(),
        "memory_hog": 'def get_stats(ids):\n    hog = bytearray(3 * 1024 ** 3)\n    return {}\n',
        "ignores_alarm": 'import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\n'
                         'def get_stats(ids):\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    while True:\n        pass\n',
    }


class Server(threading.Thread):
    """A page on the loopback that no sandbox may fetch."""

    def __init__(self):
        super().__init__(daemon=True)
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(50)
        self.port = self.socket.getsockname()[1]
        self.served = 0

    def run(self):
        while True:
            try:
                conn, _ = self.socket.accept()
            except OSError:
                return
            self.served += 1
            conn.sendall(PAGE.encode())
            conn.close()


def strays(folder):
    """Processes the run left behind: a bubblewrap started from the class folder, or a sandboxed
    worker with no bubblewrap among its ancestors (one that escaped its sandbox's PID namespace).
    A worker's own children (a learner's process pool) are still under their bubblewrap, whoever's
    grading, on this machine, started them."""
    found = set()
    for pid in subprocess.run(["pgrep", "-f", "bwrap|/grader/worker.py"], capture_output=True, text=True).stdout.split():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            cwd = os.readlink(f"/proc/{pid}/cwd")
            walled = under_bwrap(pid)
        except OSError:
            continue  # gone meanwhile
        if command[0].endswith(b"bwrap") and cwd == str(folder):
            found.add(pid)
        elif os.path.basename(command[0]).startswith(b"python") and b"/grader/worker.py" in command and not walled:
            found.add(pid)
    return found


def under_bwrap(pid):
    """Whether a bubblewrap is among the ancestors of `pid`."""
    while pid not in ("0", "1"):
        pid = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[1].decode()
        if Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"bwrap"):
            return True
    return False


def digest(folder):
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(Path(folder).rglob("*.py"))}


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """The class, graded once by bpe-grade: (run, rows of the CSV, the folder, the server, course digests)."""
    folder = tmp_path_factory.mktemp("class")
    server = Server()
    server.start()
    students = {"alice": honest_get_stats(), "bob": honest_get_stats(), **attackers(folder, server.port)}
    for name, source in students.items():
        (folder / "submissions" / name).mkdir(parents=True)
        (folder / "submissions" / name / "ps.py").write_text(source, encoding="utf-8")
    # a link to a classmate's file, and a nested submissions/ folder
    (folder / "submissions" / "linker").mkdir()
    (folder / "submissions" / "linker" / "ps.py").symlink_to("../bob/ps.py")
    (folder / "submissions" / "dave" / "submissions" / "zed").mkdir(parents=True)
    (folder / "submissions" / "dave" / "ps.py").write_text(buggy_merge(), encoding="utf-8")
    (folder / "submissions" / "dave" / "submissions" / "zed" / "ps.py").write_text(honest_get_stats(), encoding="utf-8")
    before = {**digest(ROOT / "bpe_ref"), **digest(folder / "submissions" / "bob")}
    env = {**os.environ, "BPE_SECRET_TOKEN": SECRET}
    script = Path(sys.executable).with_name("bpe-grade")
    start = time.monotonic()
    run = subprocess.run([str(script), "submissions", "--csv", "class.csv", "--json", "--feedback", "pages",
                          "--timeout", "3", "--file-timeout", "12", "--jobs", "2", "--memory", "1024",
                          "--exercises", "get_stats,merge"],  # the assignment, declared
                         cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    wall = time.monotonic() - start
    time.sleep(4)  # longer than any stray process's delay: a late write would show now
    with open(folder / "class.csv", encoding="utf-8", newline="") as f:
        rows = {row["student"]: row for row in csv.DictReader(f)}
    yield {"run": run, "rows": rows, "folder": folder, "server": server, "before": before, "wall": wall,
           "strays": strays(folder)}
    server.socket.close()


def test_the_grader_finishes_and_writes_everything(graded_class):
    run, folder = graded_class["run"], graded_class["folder"]
    assert run.returncode in (0, 1), run.stderr[-2000:]
    assert json.loads(run.stdout)  # whole, parseable JSON: nothing forged into it
    assert (folder / "pages" / "index.html").exists()
    assert graded_class["wall"] < 300


def test_honest_rows_are_right_and_unchanged(graded_class):
    rows = graded_class["rows"]
    for name in ("alice", "bob"):
        assert (rows[name]["get_stats"], rows[name]["merge"]) == ("pass", "pass"), rows[name]
        assert rows[name]["score"] == rows[name]["maximum"]
    assert graded_class["before"] == {**digest(ROOT / "bpe_ref"), **digest(graded_class["folder"] / "submissions" / "bob")}


@pytest.mark.parametrize("name", ["ref_exec_path", "ref_exec_glob", "ref_spec", "guard_removed", "guard_removed_2",
                                  "tiktoken_past_guard", "reads_bob", "reads_bob_relative"])
def test_no_credit_without_the_work(graded_class, name):
    row = graded_class["rows"][name]
    assert row["get_stats"] != "pass" and row["score"] == "0", row


@pytest.mark.parametrize("name", ["rewrites_bob", "rewrites_bob_2", "kills_parent", "stops_everyone", "double_fork",
                                  "spawns_shell", "forges_output", "patches_grader", "fork_bomb"])
def test_attacks_on_others_change_only_the_attackers_row(graded_class, name):
    row = graded_class["rows"][name]
    if name in REACHING_ATTACKERS:  # its module-level code reaches into the grader: nothing earns credit
        assert (row["get_stats"], row["merge"]) == ("error", "error") and "reaches into the grader" in row["notes"], row
        return
    assert (row["get_stats"], row["merge"]) == ("pass", "fail"), row  # graded as written: its own bug only


REACHING_ATTACKERS = {"kills_parent", "stops_everyone"}  # os.kill: read in the source, before any verdict


def test_no_stray_process_outlives_the_run(graded_class):
    text = (graded_class["folder"] / "class.csv").read_text(encoding="utf-8")
    assert "forged" not in text and text.startswith("student,")
    assert not graded_class["strays"], graded_class["strays"]


def test_a_link_and_a_nested_folder_are_not_other_students(graded_class):
    rows = graded_class["rows"]
    assert "zed" not in rows and rows["dave"]["merge"] in ("pass", "fail")
    assert "symbolic link" in rows["linker"]["notes"] and rows["linker"]["score"] == "0"


def test_nothing_secret_in_any_output(graded_class):
    folder, run = graded_class["folder"], graded_class["run"]
    outputs = [run.stdout, run.stderr, (folder / "class.csv").read_text(encoding="utf-8")]
    outputs += [p.read_text(encoding="utf-8", errors="replace") for p in (folder / "pages").rglob("*.html")]
    for text in outputs:
        assert SECRET not in text and PAGE not in text and "FORGED" not in text
        assert "BEGIN SOLUTION" not in text and '"nbgrader"' not in text  # nothing of a solution notebook
    assert graded_class["server"].served == 0
    for name in ("leaks_env", "leaks_env_proc", "leaks_solution", "leaks_network"):
        assert graded_class["rows"][name]["get_stats"] == "error"


def test_runaway_code_is_capped(graded_class):
    rows = graded_class["rows"]
    assert rows["memory_hog"]["get_stats"] in ("error", "fail")
    assert rows["ignores_alarm"]["get_stats"] in ("timeout", "error")


# ---------------------------------------------------------------------------- what a sandbox sees

PROBE = r'''
import json, os, socket, sys
uid = int(sys.argv[1])
sys.path.append("/sandbox/site")
if uid:
    os.setgroups([]); os.setresgid(uid, uid, uid); os.setresuid(uid, uid, uid)
import resource
resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))
seen = {"root": sorted(os.listdir("/")), "fds": sorted(os.listdir("/proc/self/fd")),
        "pids": sorted(p for p in os.listdir("/proc") if p.isdigit()), "uid": os.getuid(),
        "env": sorted(os.environ)}
readable = []
for path in sys.argv[2:]:
    try:
        with open(path, "rb") as f:
            f.read(1)
        readable.append(path)
    except OSError:
        pass
seen["readable"] = readable
try:
    socket.create_connection(("127.0.0.1", int(os.environ.get("PORT", "9"))), timeout=1)
    seen["network"] = "open"
except OSError as e:
    seen["network"] = type(e).__name__
try:
    os.fork()
    seen["fork"] = "allowed"
except OSError:
    seen["fork"] = "refused"
try:
    import regex
    seen["regex"] = "yes"
except ImportError:
    seen["regex"] = "no"
for name in ("bpe_ref", "tiktoken", "nbformat", "numpy"):
    try:
        module = __import__(name)
        seen[name] = "yes" if [a for a in dir(module) if not a.startswith("_")] else "empty"
    except ImportError:
        seen[name] = "no"
print(json.dumps(seen))
'''


def test_what_a_sandbox_can_see(tmp_path):
    server = Server()
    server.start()
    secret = tmp_path / "instructor.txt"
    secret.write_text("x", encoding="utf-8")
    tries = [str(secret), course_file("bpe_ref/core/naive.py"), course_file("solutions/04_naive_bpe.ipynb"),
             "/etc/passwd", "/etc/shadow", sys.executable, str(Path.home() / ".bashrc"),
             str(Path(isolation.__file__).parent / "engine.py"), "/grader/worker.py", "/grader/calling.py"]
    uid = str(isolation.fresh_uid()) if os.geteuid() == 0 else "0"
    command = isolation.sandbox_command([isolation.interpreter(), "-I", "-c", PROBE, uid, *tries],
                                        isolation.worker_dir(), 512)
    command[command.index("--clearenv") + 1:command.index("--clearenv") + 1] = ["--setenv", "PORT", str(server.port)]
    out = subprocess.run(command, capture_output=True, text=True, timeout=60, env={"PATH": os.environ["PATH"],
                                                                                "BPE_SECRET_TOKEN": SECRET})
    assert out.returncode == 0, out.stderr
    seen = json.loads(out.stdout)
    server.socket.close()
    assert seen["readable"] == ["/grader/worker.py", "/grader/calling.py"]  # the worker's copy, nothing else
    assert set(seen["root"]) <= {"dev", "grader", "lib", "lib32", "lib64", "proc", "sandbox", "tmp", "usr", "root",
                                 "opt", "home", "nix", "Users"} and "etc" not in seen["root"]
    assert seen["fds"] == ["0", "1", "2", "3"]  # stdio and the one listing itself: no descriptor of the grader's
    assert seen["pids"] == ["1", "2"] and seen["network"] != "open" and server.served == 0
    assert seen["fork"] == "refused" and seen["regex"] == "yes"
    # the grading Python's packages are there, read-only (issue 30, kind G); the reference's are not
    assert seen["nbformat"] == seen["numpy"] == "yes"
    assert seen["bpe_ref"] == "no" and seen["tiktoken"] in ("no", "empty")
    assert "BPE_SECRET_TOKEN" not in seen["env"] and set(seen["env"]) <= {"PATH", "HOME", "TMPDIR", "LANG",
                                                                         "MPLBACKEND", "PORT", "LC_CTYPE", "PWD",
                                                                         *isolation.LEARNER_ENVIRONMENT}
    if os.geteuid() == 0:
        assert seen["uid"] == int(uid)


def test_a_sandbox_costs_little_to_start():
    """Not timed as a pass/fail (the machine is noisy): it must start and answer at all."""
    command = isolation.sandbox_command([isolation.interpreter(), "-I", "-c", "print('up')"], isolation.worker_dir(), 256)
    assert subprocess.run(command, capture_output=True, text=True, timeout=60).stdout == "up\n"


# ---------------------------------------------------------------------------- cost and instructor input

SLEEPY = '''import signal, time
def get_stats(ids):
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    while True:
        pass


def merge(ids, pair, idx):
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    while True:
        pass
'''


def notebook(*sources):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    return nbformat.writes(nb)


def test_a_file_has_one_clock_however_its_cells_and_calls_hang(tmp_path, bpe_grade):
    """Cells that sleep just under the limit and calls that ignore SIGALRM: each timeout restarts
    the worker and reloads every cell, so without a cap per file one submission could take hours."""
    (tmp_path / "slow.ipynb").write_text(notebook(*["import time\ntime.sleep(0.8)"] * 4, SLEEPY), encoding="utf-8")
    start = time.monotonic()
    run = bpe_grade("slow.ipynb", "--json", "--timeout", "1", "--file-timeout", "6", cwd=tmp_path)
    took = time.monotonic() - start
    result = json.loads(run.stdout)[0]
    verdicts = result["exercises"]
    assert {v["status"] for v in verdicts.values()} <= {"timeout", "error"}, verdicts
    assert any("--file-timeout" in text for text in [*(v["message"] for v in verdicts.values()), *result["notes"]]), result
    assert took < 60  # 6 s of grading, whatever the machine's load; hours without the cap


@pytest.mark.parametrize("memory, status", [(200, "error"), (2048, "pass")])
def test_memory_limits_the_whole_sandbox(tmp_path, bpe_grade, memory, status):
    (tmp_path / "big.py").write_text('HOG = bytearray(400 * 1024 * 1024)\n\n\ndef get_stats(ids):\n'
                                     '    counts = {}\n    for pair in zip(ids, ids[1:]):\n'
                                     '        counts[pair] = counts.get(pair, 0) + 1\n    return counts\n',
                                     encoding="utf-8")
    run = bpe_grade("big.py", "--json", "--memory", str(memory), "--timeout", "20", cwd=tmp_path)
    assert json.loads(run.stdout)[0]["exercises"]["get_stats"]["status"] == status, run.stdout[-500:]


@pytest.mark.parametrize("args, says", [
    (["--timeout", "0"], "--timeout must be more than 0"),
    (["--timeout", "-5"], "--timeout must be more than 0"),
    (["--memory", "10"], "--memory must be at least 128 MB"),
    (["--jobs", "0"], "--jobs must be 1 or more"),
    (["--file-timeout", "1", "--timeout", "5"], "--file-timeout must be at least --timeout"),
    (["--csv", "nowhere/class.csv"], "the folder nowhere does not exist"),
    (["--csv", "."], "is a folder"),
    (["--feedback", "a.py"], "is a file"),
])
def test_instructor_input_is_checked_before_grading(tmp_path, bpe_grade, args, says):
    (tmp_path / "a.py").write_text("def get_stats(ids):\n    return {}\n", encoding="utf-8")
    run = bpe_grade("a.py", *args, cwd=tmp_path)
    assert run.returncode == 2 and says in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert run.stdout == ""  # nothing was graded


def test_a_file_that_cannot_be_read_is_an_error_with_its_reason(tmp_path, bpe_grade):
    for name, text in {"ann/04_naive_bpe.ipynb": "{not json", "ann/a.py": honest_get_stats(),
                       "ben/04_naive_bpe.ipynb": notebook(honest_get_stats())}.items():
        (tmp_path / "submissions" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "submissions" / name).write_text(text, encoding="utf-8")
    run = bpe_grade("submissions", "--csv", "class.csv", cwd=tmp_path)
    with open(tmp_path / "class.csv", encoding="utf-8", newline="") as f:
        rows = {row["student"]: row for row in csv.DictReader(f)}
    assert run.returncode == 1, run.stderr
    assert rows["ann"]["get_stats"] == "pass" and rows["ann"]["train"] == "error"  # handed in, not "missing"
    assert "04_naive_bpe.ipynb" in rows["ann"]["notes"] and "not valid JSON" in rows["ann"]["notes"]
    assert rows["ben"]["train"] == "missing"


def test_without_bubblewrap_a_class_is_refused_and_ones_own_work_is_graded(tmp_path):
    """PATH without bwrap: a class gets one line saying why and how; a learner's file is graded with a note."""
    (tmp_path / "submissions" / "ann").mkdir(parents=True)
    (tmp_path / "submissions" / "ann" / "a.py").write_text(honest_get_stats(), encoding="utf-8")
    script = Path(sys.executable).with_name("bpe-grade")
    env = {**os.environ, "PATH": str(Path(sys.executable).parent)}

    def bpe_grade(*args):
        return subprocess.run([str(script), *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)

    refused = bpe_grade("submissions")
    assert refused.returncode == 2 and "needs a sandbox" in refused.stderr and "--no-isolation" in refused.stderr
    assert "not installed" in refused.stderr and "apt-get install bubblewrap" in refused.stderr
    assert bpe_grade("submissions", "--no-isolation").returncode == 0
    own = bpe_grade("submissions/ann/a.py")
    assert own.returncode == 0 and "not isolated" in own.stderr
    assert bpe_grade("submissions/ann/a.py", "--csv", "c.csv").returncode == 2  # --csv makes it a class


@pytest.mark.skipif(os.geteuid() != 0 or not Path("/usr/bin/python3").exists(),
                    reason="needs root (to become nobody) and Debian's /usr/bin/python3")
def test_the_walls_hold_for_an_ordinary_user_too():
    """Run as `nobody` with the system Python, isolation.py builds the other kind of sandbox (a user
    namespace of its own): the same view, and the system's own packages hidden."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="bpe-nobody-", dir="/tmp"))  # pytest's tmp_path is root's alone
    # nobody may not reach the checkout (a home folder of mode 700): it gets a copy of what it runs
    package = Path(isolation.__file__).resolve().parents[2]
    for part in ("grade/walls/isolation.py", *(f"grade/inside/{f.name}" for f in (package / "grade" / "inside").glob("*.py")),
                 "core/patterns.py"):
        (folder / "bpe_ref" / part).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(package / part, folder / "bpe_ref" / part)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    script = folder / "probe.py"
    script.write_text(f'''
import importlib.util, json, subprocess
spec = importlib.util.spec_from_file_location("iso", {str(folder / "bpe_ref" / "grade" / "walls" / "isolation.py")!r})
iso = importlib.util.module_from_spec(spec); spec.loader.exec_module(iso)
ok, why = iso.status()
probe = "import json, os, sys; sys.path.append('/sandbox/site'); found = []\\n"
probe += "for n in ('bpe_ref', 'tiktoken', 'numpy', 'apt', 'regex'):\\n"
probe += "    try:\\n        __import__(n); found.append(n)\\n    except ImportError:\\n        pass\\n"
probe += "print(json.dumps({{'uid': os.getuid(), 'root': sorted(os.listdir('/')), 'found': found}}))"
out = subprocess.run(iso.sandbox_command([iso.interpreter(), "-I", "-c", probe], iso.worker_dir(), 256),
                     capture_output=True, text=True, timeout=60)
print(json.dumps({{"ok": ok, "why": why, "out": out.stdout, "err": out.stderr[-500:]}}))
''', encoding="utf-8")
    script.chmod(0o644)
    folder.chmod(0o755)
    try:
        run = subprocess.run(["runuser", "-u", "nobody", "--", "/usr/bin/python3", str(script)], cwd="/tmp",
                             capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    report = json.loads(run.stdout)
    if not report["ok"]:
        pytest.skip(f"no unprivileged user namespaces here: {report['why']}")
    seen = json.loads(report["out"])
    assert seen["uid"] != 0 and "etc" not in seen["root"] and "work" not in seen["root"] and "root" not in seen["root"]
    assert not {"bpe_ref", "tiktoken", "numpy", "apt"} & set(seen["found"]), seen
