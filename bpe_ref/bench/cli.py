"""Benchmark bpe_ref's trainer and encoder against the naive loop, Hugging Face tokenizers and tiktoken.

    python -m bpe_ref.bench                   # the full run: 1 MB, then 10, 40, 160 and 1000 MB (~20 minutes)
    python -m bpe_ref.bench --scale           # only training at scale (10 MB to 1 GB) and its chart
    python -m bpe_ref.bench --small           # only a small training (2 MB, vocab 2048) against HF
    python -m bpe_ref.bench --startup         # only start-up costs: import, Unicode 16, from_tiktoken
    python -m bpe_ref.bench --quick           # a smoke run on small slices
    python -m bpe_ref.bench --out bench.json  # where the figures go as JSON (the default)
    python -m bpe_ref.bench --stream          # peak memory of encode_iterable over a 100 MB file
    python -m bpe_ref.bench --chart scale.png # where the training-at-scale chart goes

The corpus needs no network (bpe_ref.bench.corpora): the course's multilingual text, then the .txt,
.rst and .py files of this Python's standard library (about 32 MB), then the same documents
again with a growing share of their words respelled, as far as the size asked for. Each
size's SHA-256 is printed, so runs on the same Python compare. Training at scale reads the
corpus from a file, both ours and Hugging Face's (each library's own way of reading files).

Every row runs in a fresh process. Its "peak MB" is how far the process's peak resident
set (VmHWM on Linux, reset just before the call; ru_maxrss elsewhere) rose above its size
when the measured call began, so it counts Rust allocations (tiktoken, HF) too; memory the
process had freed before the call and reuses is not counted (hence ~0 for small encoders).
When our trainer counts chunks in worker processes, each worker's own peak rise is added
(an upper bound: it assumes all peaks at once), and so is their CPU time.
Times are wall clock and CPU (all threads and workers). Ratios and targets are printed,
never asserted.
"""

import argparse
import json
import os
import platform
import time

from .corpora import describe_corpus
from .encoding import encoding_ratios, job_encode, print_encoding, run_encoding
from .measure import peak_method, run_job
from .plan import FULL, QUICK, TARGETS
from .report import shared_tokens, time_ratios, without_tokens
from .scale import chart_if_asked, print_scale, run_scale, run_scale_only, scale_corpus, summarise_scale
from .startup import job_startup, run_startup
from .stream import job_stream, run_stream
from .training import job_hf_train, job_train, print_start, print_training, run_start

JOBS = {  # what `--job SPEC` runs, in a fresh process
        "train": job_train, "hf_train": job_hf_train, "encode": job_encode, "stream": job_stream,
        "startup": job_startup}


def run_all(plan, files):
    """Every measurement of the plan, in order (progress goes to stderr). `files`: the corpus
    file of each size in plan['scale_mb']."""
    reps = plan["repeats"]
    rows = {"naive": run_job({"job": "train", "algorithm": "naive", "mb": plan["naive_mb"],
                              "vocab": plan["naive_vocab"], "repeats": 1})}
    for mb in sorted({plan["naive_mb"], plan["small_mb"]}):
        rows[("fast", mb, plan["naive_vocab"])] = run_job(
            {"job": "train", "algorithm": "fast", "mb": mb, "vocab": plan["naive_vocab"], "repeats": reps})
    mb = plan["small_mb"]
    for vocab in plan["vocabs"]:
        rows[("fast", mb, vocab)] = run_job(
            {"job": "train", "algorithm": "fast", "mb": mb, "vocab": vocab, "repeats": reps})
        rows[("hf", mb, vocab)] = run_job({"job": "hf_train", "mb": mb, "vocab": vocab, "repeats": reps})
    rows.update(run_start(plan))
    rows.update(run_scale(plan, files))
    rows.update(run_encoding(plan))
    return rows


def summarise(plan, rows):
    """The ratios, by wall time and by CPU time: {'fast_vs_naive_speedup': {'wall': .., 'cpu': ..}, ..}."""
    small, vocab = plan["small_mb"], plan["naive_vocab"]
    naive, fast = rows["naive"], rows[("fast", small, vocab)]
    sample = rows[("fast", plan["naive_mb"], vocab)]
    ratios = {"fast_vs_naive_speedup": time_ratios(naive, fast, scale=small / plan["naive_mb"]),
              "same_merges_as_naive": naive.get("merges_sha256", "failed") == sample.get("merges_sha256"),
              "fast_over_hf_time": {}, "shared_tokens": {}}
    for vocab in plan["vocabs"]:
        fast, hf = rows[("fast", small, vocab)], rows[("hf", small, vocab)]
        key = f"{small:g}MB_{vocab}"
        ratios["fast_over_hf_time"][key] = time_ratios(fast, hf)
        ratios["shared_tokens"][key] = shared_tokens(fast, hf)
    ratios["scale"] = summarise_scale(plan, rows)
    ratios.update(encoding_ratios(rows))
    return ratios


def print_table(plan, rows, ratios, info):
    """The human-readable report."""
    c, m = info["corpus"], info["machine"]
    kind = "quick" if plan is QUICK else "full"
    print(f"\nbpe_ref.bench ({kind}) on {m['cpus']} CPUs, Python {m['python']}")
    print(f"corpus: {c['megabytes']:.2f} MB in {c['documents']} documents (multilingual.txt "
          f"{'included' if c['multilingual_txt'] else 'ABSENT'}, then {c['stdlib']}), "
          f"sha256 {c['sha256'][:16]}")
    print(f"times: best of {plan['repeats']} runs (naive: 1 run), wall clock and CPU (all threads); "
          "peak MB: rise of the peak RSS during one run, own process per row.")
    print("Our code runs on one thread unless said; HF may use every core. Ratios: wall clock, CPU in brackets.\n")
    print_training(plan, rows, ratios)
    print_start(plan, rows)
    print_scale(plan, rows, ratios["scale"], info["scale_corpus"])
    print_encoding(plan, rows, ratios, c["megabytes"])


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bpe_ref.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument("--out", default="bench.json", help="where to write the figures as JSON")
    parser.add_argument("--encoding", action="store_true", help="only the encoding rows")
    parser.add_argument("--stream", action="store_true", help="only encode_iterable's memory over a file of lines")
    parser.add_argument("--scale", action="store_true", help="only training at scale (and its chart)")
    parser.add_argument("--startup", action="store_true", help="only the start-up costs")
    parser.add_argument("--small", action="store_true", help="only the small training against HF")
    parser.add_argument("--chart", help="where to draw the training-at-scale chart (PNG; default: "
                        "docs/img/training_scale.png in a full run, none in a quick one)")
    parser.add_argument("--corpus-dir", help="keep the corpus files here (default: a temporary folder)")
    parser.add_argument("--job", help=argparse.SUPPRESS)  # internal: run one job, print JSON
    args = parser.parse_args(argv)
    if args.job:
        spec = json.loads(args.job)
        print(json.dumps(JOBS[spec["job"]](spec)))
        return
    started = time.perf_counter()
    plan = QUICK if args.quick else FULL
    if args.small:
        print_start(plan, run_start(plan))
        print(f"\nwhole run: {time.perf_counter() - started:.0f} s")
        return
    if args.startup:
        run_startup(plan)
        print(f"\nwhole run: {time.perf_counter() - started:.0f} s")
        return
    if args.stream or args.encoding:
        run_part(plan, args)
        print(f"\nwhole run: {time.perf_counter() - started:.0f} s")
        return
    if args.scale:
        run_scale_only(plan, args)
        print(f"\nwhole run: {time.perf_counter() - started:.0f} s; figures written to {args.out}")
        return
    with scale_corpus(plan, args.corpus_dir) as files:
        info = {"corpus": describe_corpus(plan["large_mb"]), "scale_corpus": files,
                "machine": {"python": platform.python_version(), "platform": platform.platform(),
                            "cpus": os.cpu_count()},
                "memory": "rise of the peak RSS during one run, in MB: " + peak_method()}
        rows = run_all(plan, files)
    ratios = summarise(plan, rows)
    print_table(plan, rows, ratios, info)
    chart_if_asked(plan, rows, args)
    elapsed = time.perf_counter() - started
    print(f"\nwhole run: {elapsed:.0f} s; figures written to {args.out}")
    figures = {**info, "plan": plan, "targets": TARGETS, "ratios": ratios, "seconds_total": elapsed,
               "rows": [without_tokens(row) for row in rows.values()]}
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(figures, f, indent=2)


def run_part(plan, args):
    """--stream or --encoding alone: the rows, printed; nothing written."""
    if args.stream:
        run_stream(plan["stream_mb"])
        return
    rows = run_encoding(plan)
    print_encoding(plan, rows, encoding_ratios(rows), None)


if __name__ == "__main__":
    main()
