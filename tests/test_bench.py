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


def test_the_gigabyte_point_runs_with_workers_only_and_says_whether_it_met_its_targets(capsys):
    plan = dict(bench.FULL, scale_mb=[160, 1000])
    rows = fake_rows(plan["scale_mb"])
    rows[("scale", "fast1", 1000)] = {"mb": 1000, "error": "not run at this size (workers only)"}
    rows[("scale", "fast2", 1000)]["distinct_chunks"] = 123_456
    summary = bench.summarise_scale(plan, rows)
    assert summary["1000MB"]["one_process_time_vs_hf"] is None and summary["1000MB"]["distinct_chunks"] == 123_456
    corpora = {mb: {"documents": 1, "sha256": "0" * 64} for mb in plan["scale_mb"]}
    bench.print_scale(plan, rows, summary, corpora)
    out = capsys.readouterr().out
    assert "1000 MB corpus: 1 documents, 123456 distinct chunks" in out
    assert "(targets <= 0.7x: met, < 300 MB: met)" in out  # fake rows: 0.67x HF's time, ~32 MB


def test_encoding_ratios_cold_warm_one_thread_and_batch():
    rows = {("encode", name, encoder): {"seconds": seconds, "cpu_seconds": seconds}
            for name in bench.ENCODING_CORPORA
            for encoder, seconds in {"tiktoken": 1.0, "fast": 2.0, "fast_warm": 1.25, "hf": 3.0,
                                     "tiktoken_batch": 0.5, "fast_batch": 2.0, "fast_batch_warm": 1.0}.items()}
    ratios = bench.encoding_ratios(rows)
    assert ratios["encode_vs_tiktoken"]["multilingual"]["wall"] == 0.5
    assert ratios["encode_warm_vs_tiktoken"]["benchmark"]["wall"] == 0.8
    assert ratios["encode_batch_vs_tiktoken"]["benchmark"]["wall"] == 0.25
    assert ratios["encode_batch_warm_vs_tiktoken"]["multilingual"]["cpu"] == 0.5


def test_unicode16_text_needs_the_unicode16_split():
    from bpe_ref.patterns import GPT4_SPLIT_PATTERN
    from bpe_ref.unicode_classes import split_regex

    text = bench.unicode16_text(0.01)
    assert split_regex(GPT4_SPLIT_PATTERN).holds_disagreeing(text)
