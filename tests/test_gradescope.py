"""The Gradescope route, as Gradescope runs it: the bundle built by the course's own command,
unpacked into a recreated /autograder layout (a temporary folder: BPE_AUTOGRADER_ROOT), setup.sh
run as root (it creates the unprivileged user), then run_autograder on an upload, with bubblewrap
and without it (the learner's code then runs as that user). results.json is checked against
Gradescope's documented format, and a submission probes from inside that it is not root and can
neither read the course nor touch the results. Needs root (setup.sh's useradd): a skip fails CI.
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import uuid
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from bpe_ref.grade.classroom.gradescope import VISIBILITY, build_bundle

ROOT = Path(__file__).resolve().parent.parent
PROBE = '''
import os

ROOT = {root!r}


def _walled():
    """True only if this code is not root and cannot read the course or write the results."""
    if os.geteuid() == 0 or os.access(ROOT + "/source", os.R_OK):
        return False
    try:
        open(ROOT + "/results/results.json", "w").write("{{}}")
    except OSError:
        return True
    return False


try:  # a learner who tries anyway, at load time
    open(ROOT + "/results/pwned", "w").write("x")
except OSError:
    pass


def get_stats(ids):
    counts = {{}}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts if _walled() else {{}}
'''


def skip_or_fail(reason):
    if os.environ.get("BPE_COURSE_CI") == "1":
        pytest.fail(f"GRADESCOPE TEST SKIPPED IN CI: {reason}")
    pytest.skip(f"GRADESCOPE TEST SKIPPED: {reason}")


def shared_python():
    """A Python of this version whose standard library every user can read (the learner's user
    runs on it); ours may live under /root, out of other users' reach: each is tried as nobody."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (f"/usr/bin/{version}", f"/usr/local/bin/{version}", sys._base_executable):
        if os.path.exists(candidate) and subprocess.run(
                ["runuser", "-u", "nobody", "--", candidate, "-c", "import json, unicodedata"], cwd="/",
                capture_output=True, timeout=60).returncode == 0:
            return candidate
    return None


@pytest.fixture(scope="module")
def autograder():
    """/autograder recreated: source/ (the unpacked bundle, set up), and the user's name."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0 or not shutil.which("useradd"):
        skip_or_fail("it needs Linux and root (setup.sh creates a user, as on Gradescope)")
    if not shutil.which("runuser"):
        skip_or_fail("no runuser here")
    python = shared_python()
    if not python:
        skip_or_fail(f"no system python{sys.version_info.major}.{sys.version_info.minor} for the bundle's environment")
    # not under pytest's tmp_path: that is root's alone (0700) and would wall the user off by itself
    scratch = Path(tempfile.mkdtemp(prefix="bpe-gradescope-test-"))
    scratch.chmod(0o755)
    root = scratch / "autograder"
    root.mkdir(mode=0o755)
    user = f"bpe-gs-{uuid.uuid4().hex[:8]}"
    bundle = build_bundle(scratch / "autograder.zip", ["--timeout", "10"], user)
    with zipfile.ZipFile(bundle) as z:
        names = z.namelist()
        assert {"setup.sh", "run_autograder"} <= set(names)  # at the zip's root, as Gradescope wants
        assert f"bpe_course-{metadata.version('bpe-course')}.tar.gz" in names  # the course, pinned to this version
        z.extractall(root / "source")
    for name in ("setup.sh", "run_autograder"):
        (root / "source" / name).chmod(0o755)
    # The course's environment, made before setup.sh so that it installs nothing (no network in
    # tests): a venv of the system Python that sees this checkout and this test's packages.
    venv = root / "source" / "venv"
    subprocess.run([python, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    site = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "bpe_course_test.pth").write_text(f"{ROOT}\n{sysconfig.get_paths()['purelib']}\n", encoding="utf-8")
    env = {**os.environ, "BPE_AUTOGRADER_ROOT": str(root)}
    try:
        setup = subprocess.run(["bash", str(root / "source" / "setup.sh")], env=env, capture_output=True,
                               text=True, timeout=300)
        assert setup.returncode == 0, setup.stdout + setup.stderr
        assert subprocess.run(["id", "-u", user], capture_output=True).returncode == 0  # setup.sh made it
        assert (root / "source").stat().st_mode & 0o777 == 0o700
        shutil.copy(root / "source" / "run_autograder", root / "run_autograder")  # as Gradescope does
        yield root, user
    finally:
        subprocess.run(["userdel", user], capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)


def run_autograder(root, submission_files, bwrap):
    """A fresh submission/ and results/, then run_autograder as Gradescope runs it; results.json."""
    for name in ("submission", "results"):
        shutil.rmtree(root / name, ignore_errors=True)
    (root / "submission").mkdir()
    for name, text in submission_files.items():
        (root / "submission" / name).write_text(text, encoding="utf-8")
    env = {**os.environ, "BPE_AUTOGRADER_ROOT": str(root), "BPE_GRADESCOPE_NO_BWRAP": "" if bwrap else "1"}
    run = subprocess.run([str(root / "run_autograder")], cwd=root, env=env, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    return json.loads((root / "results" / "results.json").read_text(encoding="utf-8")), run


def check_format(results):
    """results.json as Gradescope's specification describes it."""
    assert isinstance(results["score"], (int, float))
    assert results["visibility"] in VISIBILITY and results["stdout_visibility"] in VISIBILITY
    assert results["tests"]
    for test in results["tests"]:
        assert {"name", "score", "max_score", "output", "visibility", "status"} <= set(test)
        assert isinstance(test["name"], str) and isinstance(test["output"], str)
        assert 0 <= test["score"] <= test["max_score"]
        assert test["visibility"] in VISIBILITY and test["status"] in ("passed", "failed")
    assert results["score"] == sum(test["score"] for test in results["tests"])
    assert results["extra_data"]["maximum"] == sum(test["max_score"] for test in results["tests"])


@pytest.mark.parametrize("bwrap", [False, True], ids=["as-the-user", "bubblewrap"])
def test_run_autograder_writes_results_json(autograder, bwrap):
    root, user = autograder
    notebook = (ROOT / "solutions" / "05_decoding.ipynb").read_text(encoding="utf-8")
    results, run = run_autograder(root, {"05_decoding.ipynb": notebook, "probe.py": PROBE.format(root=str(root))},
                                  bwrap)
    check_format(results)
    tests = {test["name"]: test for test in results["tests"]}
    assert tests["get_stats"]["status"] == "passed", tests["get_stats"]["output"]  # the walls held, from inside
    assert tests["build_vocab"]["status"] == tests["decode"]["status"] == "passed"
    assert results["score"] == results["extra_data"]["maximum"]
    assert not (root / "results" / "pwned").exists()
    assert (root / "results").stat().st_mode & 0o777 == 0o700
    if not bwrap:
        assert f"runs as {user}" in run.stderr


def test_failing_work_gets_the_learner_facing_message(autograder):
    root, _ = autograder
    buggy = (ROOT / "tests" / "learners" / "bug_decode_strict.py").read_text(encoding="utf-8")
    results, _ = run_autograder(root, {"decode.py": buggy}, bwrap=False)
    check_format(results)
    decode = next(test for test in results["tests"] if test["name"] == "decode")
    assert decode["status"] == "failed" and decode["score"] == 0 and decode["output"]
    assert results["score"] < results["extra_data"]["maximum"]
    assert next(test for test in results["tests"] if test["name"] == "get_stats")["status"] == "passed"


def test_an_upload_with_nothing_to_grade_still_gets_results(autograder):
    root, _ = autograder
    results, _ = run_autograder(root, {"answers.txt": "def decode(ids, vocab): ..."}, bwrap=False)
    assert results["score"] == 0 and "Nothing could be graded" in results["output"]


def test_the_bundle_fits_gradescope(tmp_path):
    """setup.sh makes a venv even without python3-venv and installs only what grading needs; each
    sandbox asks for less than the container's 768 MB; the assignment travels with the bundle."""
    (tmp_path / "ps.json").write_text('{"workbooks": ["04", "05", "06"]}', encoding="utf-8")
    bundle = build_bundle(tmp_path / "autograder.zip", assignment=tmp_path / "ps.json")
    with zipfile.ZipFile(bundle) as z:
        setup, run = z.read("setup.sh").decode(), z.read("run_autograder").decode()
        needs = z.read("requirements-grade.txt").decode().split()
        assert z.read("assignment.json") == (tmp_path / "ps.json").read_bytes()
    for script in (setup, run):
        assert subprocess.run(["bash", "-n"], input=script, text=True).returncode == 0
    assert "apt-get install -y -qq python3-venv" in setup and "python3 -m virtualenv" in setup
    assert "--no-deps" in setup and "-r \"$SOURCE/requirements-grade.txt\"" in setup
    assert {n.split(">")[0] for n in needs} == {"regex", "tiktoken", "numpy", "nbformat", "hypothesis", "tqdm", "nltk"}
    assert "--memory 512 --jobs 1" in run and "--assignment" in run


def test_no_site_copy_is_left_in_tmp_by_a_run_as_class(autograder, tmp_path_factory):
    """--run-as with two files at once: the pool processes share the parent's copy of the allowed
    packages, which goes when the run ends."""
    root, user = autograder
    before = set(Path(tempfile.gettempdir()).glob("bpe-grade-site-*"))
    folder = root / "class"
    for student, learner in (("ann", "good_train_incremental.py"), ("bob", "bug_decode_strict.py")):
        (folder / student).mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "tests" / "learners" / learner, folder / student / "ps.py")
    subprocess.run(["chmod", "-R", "a+rX", str(folder)], check=True)
    run = subprocess.run([sys.executable, "-m", "bpe_ref.grade.cli", str(folder), "--run-as", user, "--no-isolation",
                          "--jobs", "2", "--csv", str(root / "class.csv")], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode in (0, 1), run.stderr[-2000:]
    assert (root / "class.csv").exists()
    assert set(Path(tempfile.gettempdir()).glob("bpe-grade-site-*")) == before
