"""Shared fixtures: the parity corpus, hypothesis profiles and the bpe-grade command."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import bpe_ref  # noqa: F401  (points tiktoken at the shipped rank files before any test runs)

DATA = Path(__file__).parent / "data"
collect_ignore_glob = ["learners/*"]

settings.register_profile(
    "course", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "course"))


@pytest.fixture(scope="session")
def corpus():
    """The multilingual parity text the project ships (exact bytes: CRLF, tabs, trailing spaces)."""
    with open(DATA / "multilingual.txt", encoding="utf-8", newline="") as f:
        return f.read()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item, so fixtures can see whether the test failed."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


def pytest_terminal_summary(terminalreporter):
    """Say loudly when the browser test or the hub test did not run."""
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if "BROWSER TEST SKIPPED" in str(r.longrepr)]
    if skipped:
        reason = str(skipped[0].longrepr[-1]) if isinstance(skipped[0].longrepr, tuple) else str(skipped[0].longrepr)
        terminalreporter.write_sep("!", "THE BROWSER TEST DID NOT RUN", red=True, bold=True)
        terminalreporter.write_line(reason)
        terminalreporter.write_line("JupyterLab was not tried in a real browser; see tests/test_browser.py.")
    hub = [r for r in terminalreporter.stats.get("skipped", []) if "HUB TEST SKIPPED" in str(r.longrepr)]
    if hub:
        terminalreporter.write_sep("!", "THE JUPYTERHUB TEST DID NOT RUN", red=True, bold=True)
        terminalreporter.write_line(str(hub[0].longrepr[-1]) if isinstance(hub[0].longrepr, tuple) else str(hub[0].longrepr))
        terminalreporter.write_line("The course was not tried on a real JupyterHub; see tests/test_hub.py.")


def run_bpe_grade(*args, cwd, env=None):
    """Run the bpe-grade command (the installed script, else the module) and capture what it says."""
    script = Path(sys.executable).with_name("bpe-grade")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "bpe_ref.grade.cli"]
    return subprocess.run(command + [str(a) for a in args], cwd=cwd, capture_output=True,
                          text=True, encoding="utf-8", timeout=300, env=env)


@pytest.fixture(scope="session")
def bpe_grade():
    """bpe_grade(*args, cwd=...): the bpe-grade command line, as a learner or instructor runs it."""
    return run_bpe_grade


def pytest_sessionfinish(session):
    """Remove this process's copies of the worker and of the allowed packages: an xdist worker
    ends without running atexit, which is what removes them after a bpe-grade run."""
    from bpe_ref.grade.walls import isolation

    isolation.remove_copies()
