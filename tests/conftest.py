"""Shared fixtures: the parity corpus and hypothesis profiles."""

import os
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
