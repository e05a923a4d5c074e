"""Benchmark bpe_ref.fast against the naive loop, Hugging Face tokenizers and tiktoken.

    python -m bpe_ref.bench                   # the full run: 1 MB and 10 MB (a few minutes)
    python -m bpe_ref.bench --quick           # a smoke run on small slices
    python -m bpe_ref.bench --out bench.json  # where the figures go as JSON (the default)

The corpus needs no network: the course's multilingual text (tests/data/multilingual.txt),
then the .txt, .rst and .py files of this Python's standard library, in sorted order, cut
at the size asked for. Its SHA-256 is printed, so runs on the same Python compare.

Every row runs in a fresh process. Its "peak MB" is how far the process's peak resident
set (VmHWM on Linux, reset just before the call; ru_maxrss elsewhere) rose above its size
when the measured call began, so it counts Rust allocations (tiktoken, HF) too; memory the
process had freed before the call and reuses is not counted (hence ~0 for small encoders).
Times are wall clock and CPU (all threads); on a busy machine trust the CPU figures for
our one-threaded code. Ratios and targets are printed, never asserted.
"""

import argparse
import gc
import hashlib
import json
import os
import platform
import resource
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

MB = 1_000_000
MULTILINGUAL = Path(__file__).resolve().parent.parent / "tests" / "data" / "multilingual.txt"
STDLIB = Path(sysconfig.get_paths()["stdlib"])
FULL = {"naive_mb": 1.0, "small_mb": 1.0, "large_mb": 10.0, "naive_vocab": 512,
        "vocabs": [1024, 4096], "repeats": 3}
QUICK = {"naive_mb": 0.02, "small_mb": 0.1, "large_mb": 0.3, "naive_vocab": 300,
         "vocabs": [384, 512], "repeats": 1}
TARGETS = {"fast_vs_naive_speedup": 100, "fast_over_hf_time": 3, "encode_vs_tiktoken": 0.5}

# ------------------------------------------------------------------ corpus


def corpus_files():
    """The corpus's files in a fixed order: the multilingual text, stdlib prose, stdlib code."""
    files = [MULTILINGUAL] if MULTILINGUAL.exists() else []
    found = [p for p in STDLIB.rglob("*") if p.suffix in (".txt", ".rst", ".py") and p.is_file()]
    found = [p for p in found if "site-packages" not in p.relative_to(STDLIB).parts]
    return files + sorted(found, key=lambda p: (p.suffix == ".py", p.relative_to(STDLIB).as_posix()))


def corpus(megabytes):
    """The first `megabytes` MB (UTF-8) of the corpus, as a list of documents (one per file)."""
    limit, size, docs = int(megabytes * MB), 0, []
    for path in corpus_files():
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            text = f.read()
        data = text.encode("utf-8")
        if size + len(data) >= limit:
            docs.append(data[:limit - size].decode("utf-8", errors="ignore"))
            break
        docs.append(text)
        size += len(data)
    return docs


def describe_corpus(megabytes):
    docs = corpus(megabytes)
    data = "".join(docs).encode("utf-8")
    return {"megabytes": len(data) / MB, "documents": len(docs), "sha256": hashlib.sha256(data).hexdigest(),
            "multilingual_txt": MULTILINGUAL.exists(), "stdlib": str(STDLIB)}


# ------------------------------------------------------------------ measuring (in the child)


def reset_peak():
    """Reset the peak RSS where Linux allows it; the RSS (MB) to measure the peak against."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="utf-8") as f:
            f.write("5")
        return _proc_status_mb("VmRSS")
    except OSError:
        return peak_mb()  # no reset: an earlier, higher peak would hide this one


def peak_method():
    """How peak_mb() measures, for the JSON."""
    if os.access("/proc/self/clear_refs", os.W_OK):
        return "VmHWM, reset via /proc/self/clear_refs"
    return "ru_maxrss (not reset: a lower bound)"


def peak_mb():
    """The peak RSS of this process so far, in MB."""
    try:
        return _proc_status_mb("VmHWM")
    except OSError:
        scale = 1 if sys.platform == "darwin" else 1024  # macOS counts bytes, Linux KiB
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / MB


def _proc_status_mb(field):
    with open("/proc/self/status", encoding="utf-8") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024 / MB
    raise OSError(f"no {field} in /proc/self/status")


def measure(call, repeats):
    """Best wall and CPU times of `repeats` calls, the peak RSS rise (MB) during the first call,
    and what the last call returned."""
    walls, cpus, peak, result = [], [], None, None
    for _ in range(repeats):
        result = None
        gc.collect()
        base = reset_peak() if peak is None else None
        wall, cpu = time.perf_counter(), time.process_time()
        result = call()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        if peak is None:
            peak = peak_mb() - base
    figures = {"seconds": min(walls), "cpu_seconds": min(cpus), "peak_mb": peak, "runs": repeats,
               "peak_method": peak_method()}
    return figures, result


# ------------------------------------------------------------------ jobs (each in its own process)


def job_train(spec):
    """Our trainer ('fast' or 'naive') on the first spec['mb'] MB, GPT-4 split."""
    from bpe_ref import RegexTokenizer

    text = "".join(corpus(spec["mb"]))
    tok = RegexTokenizer()
    result, _ = measure(lambda: tok.train(text, spec["vocab"], algorithm=spec["algorithm"]), spec["repeats"])
    merges = list(tok.merges.items())
    result["merges_sha256"] = hashlib.sha256(repr(merges).encode("utf-8")).hexdigest()
    result["tokens"] = sorted(tok.vocab[idx].hex() for idx in tok.merges.values())
    return result


def job_hf_train(spec):
    """Hugging Face's BpeTrainer, byte level, with the same GPT-4 split, on the same documents."""
    docs = corpus(spec["mb"])
    result, tok = measure(lambda: hf_train(docs, spec["vocab"]), spec["repeats"])
    to_byte = {ch: b for b, ch in byte_level_chars().items()}
    tokens = [bytes(to_byte[ch] for ch in token) for token in tok.get_vocab()]
    result["tokens"] = sorted(t.hex() for t in tokens if len(t) > 1)
    return result


def job_encode(spec):
    """Encode the documents with cl100k_base one at a time: tiktoken, ours or HF."""
    import bpe_ref

    docs = corpus(spec["mb"])
    enc = bpe_ref.get_encoding("cl100k_base")
    if spec["encoder"] == "tiktoken":
        encode = enc.encode_ordinary
    elif spec["encoder"] == "fast":
        tok = bpe_ref.from_tiktoken("cl100k_base")
        encode = tok.encode_ordinary
    else:
        hf = hf_cl100k()

        def encode(text):
            return hf.encode(text, add_special_tokens=False).ids
    encode("warm up")

    def run():
        if spec["encoder"] == "fast":
            tok._cache.clear()  # every run starts with an empty chunk cache
        for doc in docs:
            encode(doc)

    result, _ = measure(run, spec["repeats"])
    result["documents"] = len(docs)
    result["mismatched_documents"] = sum(encode(doc) != enc.encode_ordinary(doc) for doc in docs)
    result["token_count"] = sum(len(enc.encode_ordinary(doc)) for doc in docs)
    return result


JOBS = {"train": job_train, "hf_train": job_hf_train, "encode": job_encode}


# ------------------------------------------------------------------ Hugging Face set-up


def hf_pattern():
    """GPT-4's split for Oniguruma, which reads the possessive {1,3}+ as a repeat."""
    from bpe_ref import GPT4_SPLIT_PATTERN

    if r"\p{N}{1,3}+" not in GPT4_SPLIT_PATTERN:
        raise ValueError("GPT4_SPLIT_PATTERN changed: update hf_pattern() to match it")
    return GPT4_SPLIT_PATTERN.replace(r"\p{N}{1,3}+", r"\p{N}{1,3}")


def hf_pre_tokenizer():
    """Split with the GPT-4 pattern, then map bytes to ByteLevel characters (no other regex)."""
    from tokenizers import Regex, pre_tokenizers

    return pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(hf_pattern()), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])


def hf_train(documents, vocab_size):
    """A Hugging Face tokenizer trained by its byte-level BpeTrainer with the GPT-4 split.

    documents: a list of strings (one text is a list of one).
    """
    from tokenizers import Tokenizer, models, trainers
    from tokenizers.pre_tokenizers import ByteLevel

    if isinstance(documents, str):
        raise TypeError("documents must be a list of strings: wrap a single text as [text]")
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = hf_pre_tokenizer()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, initial_alphabet=ByteLevel.alphabet(),
                                  special_tokens=[], show_progress=False)
    tok.train_from_iterator(documents, trainer=trainer)
    return tok


def byte_level_chars():
    """GPT-2's byte -> printable character table, which HF's ByteLevel uses."""
    printable = [*range(33, 127), *range(161, 173), *range(174, 256)]
    chars, extra = {}, 0
    for b in range(256):
        if b in printable:
            chars[b] = chr(b)
        else:
            chars[b] = chr(256 + extra)
            extra += 1
    return chars


def hf_cl100k():
    """cl100k_base rebuilt as an HF BPE model: its ranks as the vocab, our recovered merges."""
    from tokenizers import Tokenizer, models

    import bpe_ref

    tok = bpe_ref.from_tiktoken("cl100k_base")
    chars = byte_level_chars()

    def show(idx):
        return "".join(chars[b] for b in tok.vocab[idx])

    ordinary = [idx for idx in tok.vocab if idx not in tok.special_tokens.values()]
    vocab = {show(idx): idx for idx in ordinary}
    merges = [(show(p0), show(p1)) for (p0, p1), _ in sorted(tok.merges.items(), key=lambda m: m[1])]
    hf = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    hf.pre_tokenizer = hf_pre_tokenizer()
    return hf


# ------------------------------------------------------------------ running (in the parent)


def run_job(spec):
    """Run one job in a fresh Python process; its figures, or {'error': ...}."""
    shown = " ".join(f"{k}={v}" for k, v in spec.items() if k != "repeats")
    print("  running", shown, file=sys.stderr, flush=True)
    command = [sys.executable, "-m", "bpe_ref.bench", "--job", json.dumps(spec)]
    done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", check=False)
    if done.returncode != 0:
        return {**spec, "error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}
    return {**spec, **json.loads(done.stdout.strip().splitlines()[-1])}


def run_all(plan):
    """Every measurement of the plan, in order (progress goes to stderr)."""
    reps = plan["repeats"]
    rows = {"naive": run_job({"job": "train", "algorithm": "naive", "mb": plan["naive_mb"],
                              "vocab": plan["naive_vocab"], "repeats": 1})}
    for mb in sorted({plan["naive_mb"], plan["small_mb"]}):
        rows[("fast", mb, plan["naive_vocab"])] = run_job(
            {"job": "train", "algorithm": "fast", "mb": mb, "vocab": plan["naive_vocab"], "repeats": reps})
    for mb in (plan["small_mb"], plan["large_mb"]):
        for vocab in plan["vocabs"]:
            rows[("fast", mb, vocab)] = run_job(
                {"job": "train", "algorithm": "fast", "mb": mb, "vocab": vocab, "repeats": reps})
            rows[("hf", mb, vocab)] = run_job({"job": "hf_train", "mb": mb, "vocab": vocab, "repeats": reps})
    for encoder in ("tiktoken", "fast", "hf"):
        rows[("encode", encoder)] = run_job({"job": "encode", "encoder": encoder, "mb": plan["large_mb"],
                                             "repeats": reps})
    return rows


def summarise(plan, rows):
    """The ratios, by wall time and by CPU time: {'fast_vs_naive_speedup': {'wall': .., 'cpu': ..}, ..}."""
    small, vocab = plan["small_mb"], plan["naive_vocab"]
    naive, fast = rows["naive"], rows[("fast", small, vocab)]
    sample = rows[("fast", plan["naive_mb"], vocab)]
    ratios = {"fast_vs_naive_speedup": _ratios(naive, fast, scale=small / plan["naive_mb"]),
              "same_merges_as_naive": naive.get("merges_sha256", "failed") == sample.get("merges_sha256"),
              "fast_over_hf_time": {}, "shared_tokens": {}}
    for mb in (small, plan["large_mb"]):
        for vocab in plan["vocabs"]:
            fast, hf = rows[("fast", mb, vocab)], rows[("hf", mb, vocab)]
            key = f"{mb:g}MB_{vocab}"
            ratios["fast_over_hf_time"][key] = _ratios(fast, hf)
            if "error" not in fast and "error" not in hf:
                shared = set(fast["tokens"]) & set(hf["tokens"])
                ratios["shared_tokens"][key] = len(shared) / max(1, len(fast["tokens"]))
    ratios["encode_vs_tiktoken"] = _ratios(rows[("encode", "tiktoken")], rows[("encode", "fast")])
    return ratios


def _ratios(a, b, scale=1.0):
    """a's time over b's, by wall clock and by CPU; None where a row failed."""
    if "error" in a or "error" in b:
        return None
    return {"wall": a["seconds"] * scale / b["seconds"], "cpu": a["cpu_seconds"] * scale / b["cpu_seconds"]}


def fmt_row(cols, widths):
    """Left-align the first and last columns, right-align the figures between."""
    return "  ".join(str(c).ljust(w) if i in (0, len(cols) - 1) else str(c).rjust(w)
                     for i, (c, w) in enumerate(zip(cols, widths)))


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
    print("Our code runs on one thread; HF may use every core. Ratios: wall clock, CPU in brackets.\n")
    _print_training(plan, rows, ratios)
    _print_encoding(plan, rows, ratios, c["megabytes"])


def _print_training(plan, rows, ratios):
    widths = [40, 6, 5, 7, 7, 7, 60]
    print("TRAINING (RegexTokenizer, GPT-4 split; HF: BpeTrainer, same split, byte level)")
    print(fmt_row(["what", "MB", "vocab", "wall s", "cpu s", "peak MB", "note"], widths))
    print(fmt_row(_train_line("naive  Tokenizer.train(algorithm='naive')", rows["naive"]), widths))
    small, vocab = plan["small_mb"], plan["naive_vocab"]
    if plan["naive_mb"] != small:
        sample = rows[("fast", plan["naive_mb"], vocab)]
        print(fmt_row(_train_line("fast   Tokenizer.train, on naive's sample", sample), widths))
    note = "same merges as naive: " + ("yes" if ratios["same_merges_as_naive"] else "NO")
    speedup = ratios["fast_vs_naive_speedup"]
    if speedup:
        note = (f"{_pair(speedup, '.0f')} faster than naive (target >= "
                f"{TARGETS['fast_vs_naive_speedup']}x); " + note)
        if plan["naive_mb"] != small:
            note += f"; naive's time extrapolated x{small / plan['naive_mb']:g} from its sample"
    print(fmt_row(_train_line("fast   Tokenizer.train", rows[("fast", small, vocab)], note), widths))
    for mb in (small, plan["large_mb"]):
        for vocab in plan["vocabs"]:
            key = f"{mb:g}MB_{vocab}"
            note = ""
            if ratios["fast_over_hf_time"][key]:
                note = (f"fast takes {_pair(ratios['fast_over_hf_time'][key], '.2f')} HF's time (target <= "
                        f"{TARGETS['fast_over_hf_time']}x); "
                        f"{ratios['shared_tokens'][key]:.0%} of tokens shared")
            print(fmt_row(_train_line("fast   Tokenizer.train", rows[("fast", mb, vocab)]), widths))
            print(fmt_row(_train_line("HF     tokenizers BpeTrainer", rows[("hf", mb, vocab)], note), widths))


def _print_encoding(plan, rows, ratios, megabytes):
    print(f"\nENCODING (cl100k_base, {plan['large_mb']:g} MB, document by document, one thread)")
    widths = [52, 6, 7, 7, 7, 60]
    print(fmt_row(["what", "MB/s", "wall s", "cpu s", "peak MB", "note"], widths))
    labels = {"tiktoken": "tiktoken encode_ordinary",
              "fast": "fast   from_tiktoken(...).encode_ordinary, cold cache",
              "hf": "HF     tokenizers, cl100k rebuilt as an HF BPE"}
    for encoder, label in labels.items():
        row = rows[("encode", encoder)]
        if "error" in row:
            print(fmt_row([label, "-", "-", "-", "-", "error: " + row["error"]], widths))
            continue
        note = f"mismatches vs tiktoken: {row['mismatched_documents']} of {row['documents']} documents"
        if encoder == "fast" and ratios["encode_vs_tiktoken"]:
            note = (f"{_pair(ratios['encode_vs_tiktoken'], '.2f')} tiktoken's throughput (target >= "
                    f"{TARGETS['encode_vs_tiktoken']}x); " + note)
        print(fmt_row([label, f"{megabytes / row['seconds']:.2f}", f"{row['seconds']:.2f}",
                       f"{row['cpu_seconds']:.2f}", f"{row['peak_mb']:.1f}", note], widths))


def _pair(ratio, spec):
    """{'wall': 2.0, 'cpu': 2.5} -> '2.00x (2.50x)'"""
    return f"{ratio['wall']:{spec}}x ({ratio['cpu']:{spec}}x)"


def _train_line(label, row, note=""):
    if "error" in row:
        return [label, f"{row['mb']:g}", row["vocab"], "-", "-", "-", "error: " + row["error"]]
    return [label, f"{row['mb']:g}", row["vocab"], f"{row['seconds']:.2f}", f"{row['cpu_seconds']:.2f}",
            f"{row['peak_mb']:.1f}", note]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bpe_ref.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument("--out", default="bench.json", help="where to write the figures as JSON")
    parser.add_argument("--job", help=argparse.SUPPRESS)  # internal: run one job, print JSON
    args = parser.parse_args(argv)
    if args.job:
        spec = json.loads(args.job)
        print(json.dumps(JOBS[spec["job"]](spec)))
        return
    started = time.perf_counter()
    plan = QUICK if args.quick else FULL
    info = {"corpus": describe_corpus(plan["large_mb"]),
            "machine": {"python": platform.python_version(), "platform": platform.platform(),
                        "cpus": os.cpu_count()},
            "memory": "rise of the peak RSS during one run, in MB: " + peak_method()}
    rows = run_all(plan)
    ratios = summarise(plan, rows)
    print_table(plan, rows, ratios, info)
    elapsed = time.perf_counter() - started
    print(f"\nwhole run: {elapsed:.0f} s; figures written to {args.out}")
    figures = {**info, "plan": plan, "targets": TARGETS, "ratios": ratios, "seconds_total": elapsed,
               "rows": [_without_tokens(row) for row in rows.values()]}
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(figures, f, indent=2)


def _without_tokens(row):
    return {k: v for k, v in row.items() if k != "tokens"}


if __name__ == "__main__":
    main()
