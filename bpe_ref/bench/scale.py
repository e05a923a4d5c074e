"""Training at scale: 10 MB to 1 GB read from a file, ours with workers and on one process
against Hugging Face; the summary, the table and the chart (drawn by bpe_ref.course.plots)."""

import contextlib
import json
import math
import shutil
import sys
import tempfile
from pathlib import Path

from .corpora import write_corpus
from .measure import run_job
from .plan import LARGE_REPEATS_MB, TARGETS
from .report import fmt_row, pair_text, shared_tokens, time_ratios, without_tokens

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
SCALE_ROWS = {"fast2": "fast   Tokenizer.train(path, workers={workers})",
              "fast1": "fast   Tokenizer.train(path, workers=1)",
              "hf": "HF     Tokenizer.train([path]), BpeTrainer"}
CHART_LABELS = {"fast2": "bpe_ref, workers={workers}", "fast1": "bpe_ref, workers=1", "hf": "HF tokenizers"}


def write_scale_corpus(plan, folder):
    """Write the corpus of each size in plan['scale_mb'] to `folder`; {mb: description}."""
    files = {}
    for mb in plan["scale_mb"]:
        print(f"  writing the {mb:g} MB corpus", file=sys.stderr, flush=True)
        files[mb] = write_corpus(Path(folder) / f"corpus-{mb:g}MB.txt", mb)
    return files


@contextlib.contextmanager
def scale_corpus(plan, corpus_dir=None):
    """The scale corpus files ({mb: description}), written to `corpus_dir` and kept, or to a
    temporary folder removed when the block ends."""
    folder = corpus_dir or tempfile.mkdtemp(prefix="bpe-bench-")
    Path(folder).mkdir(parents=True, exist_ok=True)
    try:
        yield write_scale_corpus(plan, folder)
    finally:
        if not corpus_dir:
            shutil.rmtree(folder, ignore_errors=True)


def run_scale(plan, files):
    """Train from each corpus file: ours on `workers` processes and on one, then HF. Above
    plan['one_process_max_mb'] ours runs with workers only, and each run happens once from
    LARGE_REPEATS_MB on."""
    rows, vocab = {}, plan["scale_vocab"]
    for mb, described in files.items():
        path = described["path"]
        reps = 1 if mb >= LARGE_REPEATS_MB else plan["scale_repeats"]
        for who, workers in (("fast2", plan["workers"]), ("fast1", 1)):
            if who == "fast1" and mb > plan["one_process_max_mb"]:
                rows[("scale", who, mb)] = {"mb": mb, "error": "not run at this size (workers only)"}
                continue
            rows[("scale", who, mb)] = run_job({"job": "train", "algorithm": "fast", "mb": mb, "path": path,
                                                "vocab": vocab, "workers": workers, "repeats": reps})
        rows[("scale", "hf", mb)] = run_job({"job": "hf_train", "mb": mb, "path": path, "vocab": vocab,
                                             "repeats": reps})
    return rows


def summarise_scale(plan, rows):
    """Per size: our time and memory over HF's; then how memory grows from size to size."""
    summary, sizes = {}, plan["scale_mb"]
    for mb in sizes:
        ours, one, hf = (rows[("scale", who, mb)] for who in ("fast2", "fast1", "hf"))
        failed = any("error" in row for row in (ours, hf))
        one_ran = "error" not in one
        summary[f"{mb:g}MB"] = None if failed else {
            "time_vs_hf": time_ratios(ours, hf), "one_process_time_vs_hf": time_ratios(one, hf) if one_ran else None,
            "memory_vs_hf": ours["peak_mb"] / hf["peak_mb"], "shared_tokens": shared_tokens(ours, hf),
            "same_merges_one_or_more_processes": ours["merges_sha256"] == one["merges_sha256"] if one_ran else None,
            "distinct_chunks": ours.get("distinct_chunks")}
    for who in ("fast2", "hf"):
        summary[f"memory_growth_{who}"] = [
            {"from_mb": a, "to_mb": b, "exponent": growth(rows[("scale", who, a)], rows[("scale", who, b)], a, b)}
            for a, b in zip(sizes, sizes[1:])]
    return summary


def growth(small, large, small_mb, large_mb):
    """The exponent k in memory ~ size**k between two rows (1: linear; below 1: sub-linear)."""
    if "error" in small or "error" in large or min(small["peak_mb"], large["peak_mb"]) <= 0:
        return None
    return math.log(large["peak_mb"] / small["peak_mb"]) / math.log(large_mb / small_mb)


def print_scale(plan, rows, summary, corpora):
    widths = [44, 6, 7, 7, 7, 60]
    print(f"\nTRAINING AT SCALE (RegexTokenizer, GPT-4 split, vocab {plan['scale_vocab']}, read from a file; "
          f"best of {plan['scale_repeats']})")
    for mb, described in corpora.items():
        distinct = rows[("scale", "fast2", mb)].get("distinct_chunks")
        print(f"  {mb:g} MB corpus: {described['documents']} documents, {distinct or '?'} distinct chunks "
              f"(GPT-4 split), sha256 {described['sha256'][:16]}")
    print(fmt_row(["what", "MB", "wall s", "cpu s", "peak MB", "note"], widths))
    for mb in plan["scale_mb"]:
        figures = summary[f"{mb:g}MB"]
        for who, label in SCALE_ROWS.items():
            row = rows[("scale", who, mb)]
            label = label.format(workers=plan["workers"])
            if "error" in row:
                print(fmt_row([label, f"{mb:g}", "-", "-", "-", "error: " + row["error"]], widths))
                continue
            note = _scale_note(who, mb, figures, row)
            print(fmt_row([label, f"{mb:g}", f"{row['seconds']:.2f}", f"{row['cpu_seconds']:.2f}",
                           f"{row['peak_mb']:.1f}", note], widths))
    for who, name in (("fast2", "ours"), ("hf", "HF")):
        steps = [f"{g['from_mb']:g}->{g['to_mb']:g} MB: size^{g['exponent']:.2f}"
                 for g in summary[f"memory_growth_{who}"] if g["exponent"] is not None]
        print(f"  peak memory growth, {name}: " + ("; ".join(steps) or "-") + " (1.00 is linear)")


def _scale_note(who, mb, figures, row):
    if figures is None:
        return ""
    at_target = mb == TARGETS["scale_target_mb"]
    if who == "fast2":
        time_ratio, memory = figures["time_vs_hf"], figures["memory_vs_hf"]
        note = f"{pair_text(time_ratio, '.2f')} HF's time, {memory:.2f}x its memory"
        if at_target:
            met_time = time_ratio["wall"] <= TARGETS["scale_time_vs_hf"]
            met_memory = memory <= TARGETS["scale_memory_vs_hf"]
            note += (f" (targets <= {TARGETS['scale_time_vs_hf']}x: {'met' if met_time else 'MISSED'}, "
                     f"<= {TARGETS['scale_memory_vs_hf']}x: {'met' if met_memory else 'MISSED'})")
        if mb >= 1000:
            met_time = time_ratio["wall"] <= TARGETS["gb_time_vs_hf"]
            met_memory = row["peak_mb"] <= TARGETS["gb_peak_mb"]
            note += (f" (targets <= {TARGETS['gb_time_vs_hf']}x: {'met' if met_time else 'MISSED'}, "
                     f"< {TARGETS['gb_peak_mb']} MB: {'met' if met_memory else 'MISSED'})")
        return note
    if who == "fast1":
        same = "yes" if figures["same_merges_one_or_more_processes"] else "NO"
        return f"{pair_text(figures['one_process_time_vs_hf'], '.2f')} HF's time; same merges as with workers: {same}"
    return f"{figures['shared_tokens']:.0%} of our tokens shared"


def _growth_caption(plan, rows):
    """'40->160 MB: memory ~ size^0.30 (bpe_ref), size^0.40 (HF)' for the last two sizes."""
    if len(plan["scale_mb"]) < 2:
        return ""
    a, b = plan["scale_mb"][-2:]
    ours, theirs = (growth(rows[("scale", who, a)], rows[("scale", who, b)], a, b) for who in ("fast2", "hf"))
    if ours is None or theirs is None:
        return ""
    return f"{a:g}->{b:g} MB: memory ~ size^{ours:.2f} (bpe_ref), size^{theirs:.2f} (HF)"


def draw_chart(plan, rows, path):
    """Log-log chart of training time and peak memory against corpus size; saved as a PNG.

    The rows become one series per trainer; bpe_ref.course.plots draws them."""
    from ..course.plots import training_scale_chart  # only when a chart is drawn: matplotlib is slow to load

    series = {}
    for who, label in CHART_LABELS.items():
        done = [(mb, rows[("scale", who, mb)]) for mb in plan["scale_mb"] if "error" not in rows[("scale", who, mb)]]
        if done:
            series[who] = (label.format(workers=plan["workers"]), [(mb, row["seconds"], row["peak_mb"]) for mb, row in done])
    title = f"BPE training, GPT-4 split, vocab {plan['scale_vocab']}: bpe_ref vs Hugging Face tokenizers"
    return training_scale_chart(series, plan["scale_mb"], _growth_caption(plan, rows), title, path)


def run_scale_only(plan, args):
    """--scale: the corpus files, the training-at-scale rows and the chart; figures to --out."""
    with scale_corpus(plan, args.corpus_dir) as files:
        rows = run_scale(plan, files)
    summary = summarise_scale(plan, rows)
    print_scale(plan, rows, summary, files)
    chart_if_asked(plan, rows, args)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"plan": plan, "targets": TARGETS, "scale": summary, "scale_corpus": files,
                   "rows": [without_tokens(row) for row in rows.values()]}, f, indent=2)


def chart_if_asked(plan, rows, args):
    """Draw the chart to --chart, or to its default place unless --quick, and say where."""
    chart = args.chart or (None if args.quick else default_chart_path())
    if chart:
        print(f"\nchart: {draw_chart(plan, rows, chart)}")


def default_chart_path():
    """docs/img/training_scale.png in a source checkout, else in the current folder."""
    return DOCS_IMG / "training_scale.png" if DOCS_IMG.is_dir() else Path("training_scale.png")
