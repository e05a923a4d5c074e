"""The benchmark's corpus and its training-at-scale summary and chart (not the timings)."""

import hashlib
from pathlib import Path

import pytest

from bpe_ref import bench
from bpe_ref import corpus as corpus_module
from bpe_ref.corpus import corpus, respell, write_corpus

MULTILINGUAL = Path(__file__).parent / "data" / "multilingual.txt"


@pytest.fixture
def small_base(monkeypatch):
    """A corpus whose round 0 is only the multilingual text (a few KB), so rounds come fast."""
    monkeypatch.setattr(corpus_module, "corpus_files", lambda: [MULTILINGUAL])
    with open(MULTILINGUAL, encoding="utf-8", newline="") as f:
        return f.read()


def test_round_zero_is_the_files_themselves(small_base):
    size = len(small_base.encode("utf-8"))
    docs = corpus(size / 1e6)
    assert docs == [small_base]


def test_later_rounds_respell_a_shrinking_share_of_words(small_base):
    size = len(small_base.encode("utf-8"))
    docs = corpus(5 * size / 1e6)  # round 0 and four varied rounds
    assert len(docs) == 5 and docs[0] == small_base
    assert all(len(doc) == len(small_base) for doc in docs)  # a rotation keeps every length
    words = set(corpus_module.WORD.findall(small_base))
    changed = [len(set(corpus_module.WORD.findall(doc)) - words) for doc in docs[1:]]
    assert all(changed) and changed[0] > changed[-1]  # new words each round, fewer as it goes
    assert corpus(5 * size / 1e6) == docs  # the same every time


def test_respell_rotates_letters_and_is_deterministic():
    assert respell("python", 0) == "python"
    spelled = [respell("python", k) for k in range(1, 40)]
    assert all(sorted(w) == sorted("python") for w in spelled)
    assert any(w != "python" for w in spelled) and spelled == [respell("python", k) for k in range(1, 40)]


def test_write_corpus_writes_the_documents(tmp_path, small_base):
    described = write_corpus(tmp_path / "c.txt", 0.02)
    data = (tmp_path / "c.txt").read_bytes()
    assert data == "".join(corpus(0.02)).encode("utf-8")
    assert described["sha256"] == hashlib.sha256(data).hexdigest() and described["megabytes"] == len(data) / 1e6


def fake_rows(sizes):
    """Scale rows as the jobs return them: ours grows as size**0.5, HF as size**0.8."""
    rows = {}
    for mb in sizes:
        for who, seconds, memory in (("fast2", 0.1, mb ** 0.5), ("fast1", 0.2, mb ** 0.5), ("hf", 0.15, mb ** 0.8)):
            rows[("scale", who, mb)] = {"seconds": seconds * mb, "cpu_seconds": 0.2 * mb, "peak_mb": memory,
                                        "merges_sha256": "same", "tokens": ["6162", "6364"]}
    return rows


def test_summary_gives_ratios_and_growth():
    plan = dict(bench.FULL, scale_mb=[10, 40, 160])
    summary = bench.summarise_scale(plan, fake_rows(plan["scale_mb"]))
    assert summary["40MB"]["time_vs_hf"]["wall"] == pytest.approx(0.1 / 0.15)
    assert summary["40MB"]["memory_vs_hf"] == pytest.approx(40 ** 0.5 / 40 ** 0.8)
    assert [g["exponent"] for g in summary["memory_growth_fast2"]] == pytest.approx([0.5, 0.5])
    assert [g["exponent"] for g in summary["memory_growth_hf"]] == pytest.approx([0.8, 0.8])
    assert summary["40MB"]["same_merges_one_or_more_processes"]


def test_failed_rows_leave_gaps_not_errors(tmp_path, capsys):
    plan = dict(bench.FULL, scale_mb=[10, 40])
    rows = fake_rows(plan["scale_mb"])
    rows[("scale", "hf", 40)] = {"error": "MemoryError"}
    summary = bench.summarise_scale(plan, rows)
    assert summary["40MB"] is None and summary["memory_growth_hf"][0]["exponent"] is None
    corpora = {mb: {"documents": 1, "sha256": "0" * 64} for mb in plan["scale_mb"]}
    bench.print_scale(plan, rows, summary, corpora)
    assert "error: MemoryError" in capsys.readouterr().out
    assert bench.draw_chart(plan, rows, tmp_path / "chart.png").exists()


def test_chart_is_a_png(tmp_path):
    plan = dict(bench.FULL, scale_mb=[10, 40, 160])
    path = bench.draw_chart(plan, fake_rows(plan["scale_mb"]), tmp_path / "scale.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
