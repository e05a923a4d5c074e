"""Benchmark bpe_ref's trainer and encoder against the naive loop, Hugging Face tokenizers and tiktoken.

    python -m bpe_ref.bench                   # the full run: 1 MB, then 10, 40, 160 and 1000 MB (~20 minutes)
    python -m bpe_ref.bench --scale           # only training at scale (10 MB to 1 GB) and its chart
    python -m bpe_ref.bench --small           # only a small training (2 MB, vocab 2048) against HF
    python -m bpe_ref.bench --startup         # only start-up costs: import, Unicode 16, from_tiktoken
    python -m bpe_ref.bench --quick           # a smoke run on small slices
    python -m bpe_ref.bench --out bench.json  # where the figures go as JSON (the default)
    python -m bpe_ref.bench --stream          # peak memory of encode_iterable over a 100 MB file
    python -m bpe_ref.bench --chart scale.png # where the training-at-scale chart goes

The corpus needs no network (bpe_ref.corpus): the course's multilingual text, then the .txt,
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
import gc
import hashlib
import json
import math
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .corpora import MB, MULTILINGUAL, STDLIB, corpus, corpus_files, describe_corpus, write_corpus  # noqa: F401

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
FULL = {"naive_mb": 1.0, "small_mb": 1.0, "large_mb": 10.0, "naive_vocab": 512,
        "vocabs": [1024, 4096], "repeats": 3, "encode_mb": {"benchmark": 10.0, "multilingual": 4.0},
        "stream_mb": 100, "scale_mb": [10, 40, 160, 1000], "scale_vocab": 4096, "scale_repeats": 2, "workers": 2,
        "one_process_max_mb": 160, "start_mb": 2.0, "start_vocab": 2048}
QUICK = {"naive_mb": 0.02, "small_mb": 0.1, "large_mb": 0.3, "naive_vocab": 300,
         "vocabs": [384, 512], "repeats": 1, "encode_mb": {"benchmark": 0.3, "multilingual": 0.3},
         "stream_mb": 5, "scale_mb": [0.2, 0.8], "scale_vocab": 512, "scale_repeats": 1, "workers": 2,
         "one_process_max_mb": 0.8, "start_mb": 0.2, "start_vocab": 512}
TARGETS = {"fast_vs_naive_speedup": 100, "fast_over_hf_time": 3, "encode_vs_tiktoken": 0.5,
           "encode_batch_vs_tiktoken": 1.0, "scale_time_vs_hf": 1.0, "scale_memory_vs_hf": 1.5,
           "scale_target_mb": 40, "gb_time_vs_hf": 0.7, "gb_peak_mb": 300, "start_time_vs_hf": 0.7}
LARGE_REPEATS_MB = 500  # from this size on, each training runs once (a run takes minutes)


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


def cpu_seconds():
    """CPU time of this process's threads and of its finished child processes (worker pools)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def measure(call, repeats, workers=0):
    """Best wall and CPU times of `repeats` calls, the peak RSS rise (MB) during the first call,
    and what the last call returned. `workers`: how many worker processes the call forks;
    their CPU time and (each) their peak rise are added."""
    walls, cpus, peak, result = [], [], None, None
    for _ in range(repeats):
        result = None
        gc.collect()
        base = reset_peak() if peak is None else None
        wall, cpu = time.perf_counter(), cpu_seconds()
        result = call()
        walls.append(time.perf_counter() - wall)
        cpus.append(cpu_seconds() - cpu)
        if peak is None:
            peak = peak_mb() - base
            if workers:  # a forked worker starts at our size; its peak above that is its own
                peak += workers * max(0.0, _children_peak_mb() - base)
    figures = {"seconds": min(walls), "cpu_seconds": min(cpus), "peak_mb": peak, "runs": repeats,
               "peak_method": peak_method()}
    return figures, result


def _children_peak_mb():
    """The largest peak RSS of the worker processes that have ended, in MB."""
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale / MB


# ------------------------------------------------------------------ jobs (each in its own process)


def job_train(spec):
    """Our trainer ('fast' or 'naive'), GPT-4 split, on the first spec['mb'] MB held as one str,
    or on the corpus file spec['path'], counting in spec['workers'] processes."""
    import bpe_ref.core.base
    from bpe_ref import RegexTokenizer

    source = Path(spec["path"]) if "path" in spec else "".join(corpus(spec["mb"]))
    workers = spec.get("workers")
    tok = RegexTokenizer()
    distinct = {}
    count_chunks = bpe_ref.core.base.count_chunks

    def counting(*args, **kwargs):  # note how many distinct chunks the corpus has
        counts = count_chunks(*args, **kwargs)
        distinct["chunks"] = len(counts)
        return counts

    bpe_ref.core.base.count_chunks = counting

    def train():
        tok.train(source, spec["vocab"], algorithm=spec["algorithm"], workers=workers)

    result, _ = measure(train, spec["repeats"], workers=workers or 0)
    merges = list(tok.merges.items())
    result["merges_sha256"] = hashlib.sha256(repr(merges).encode("utf-8")).hexdigest()
    result["tokens"] = sorted(tok.vocab[idx].hex() for idx in tok.merges.values())
    result["distinct_chunks"] = distinct.get("chunks")
    return result


def job_hf_train(spec):
    """Hugging Face's BpeTrainer, byte level, with the same GPT-4 split, on the same documents
    (or reading the same corpus file, with its own file reader)."""
    if "path" in spec:
        result, tok = measure(lambda: hf_train(None, spec["vocab"], files=[spec["path"]]), spec["repeats"])
    else:
        docs = corpus(spec["mb"])
        result, tok = measure(lambda: hf_train(docs, spec["vocab"]), spec["repeats"])
    to_byte = {ch: b for b, ch in byte_level_chars().items()}
    tokens = [bytes(to_byte[ch] for ch in token) for token in tok.get_vocab()]
    result["tokens"] = sorted(t.hex() for t in tokens if len(t) > 1)
    return result


ENCODING_CORPORA = ("benchmark", "multilingual")
ENCODERS = ("tiktoken", "fast", "fast_warm", "hf", "tiktoken_batch", "fast_batch", "fast_batch_warm")
SCRIPTS = {  # letters to make words from, per script: (first, last) code point ranges
    "latin": [(0x61, 0x7A), (0xE0, 0xFF)], "cyrillic": [(0x430, 0x44F)], "greek": [(0x3B1, 0x3C9)],
    "arabic": [(0x627, 0x64A)], "hebrew": [(0x5D0, 0x5EA)], "devanagari": [(0x915, 0x939), (0x93E, 0x94C)],
    "thai": [(0xE01, 0xE2E)], "hangul": [(0xAC00, 0xD7A3)], "han": [(0x4E00, 0x9FFF)], "emoji": [(0x1F600, 0x1F64F)],
}


def multilingual_corpus(megabytes, seed=0):
    """A harder text to encode than the benchmark corpus: many scripts, many distinct words.

    Made the same way everywhere, with no network: for each script a lexicon of 20,000 made-up
    words (1-7 letters), drawn with Zipf's law (the k-th word 1/k as often as the first), so
    that some words repeat and most are rare, with spaces, punctuation, numbers and line
    breaks; documents of 2,800 words, mostly in one script. About one chunk in five is new
    to the chunk cache, against one in twenty in the benchmark corpus: the hard case.
    """
    import random

    rng = random.Random(seed)
    lexicons = {name: [_made_up_word(rng, ranges) for _ in range(LEXICON)] for name, ranges in SCRIPTS.items()}
    weights = [1 / (rank + 1) for rank in range(LEXICON)]
    limit, size, docs = int(megabytes * MB), 0, []
    while size < limit:
        main, other = rng.sample(sorted(lexicons), 2)
        words = rng.choices(lexicons[main], weights, k=2500) + rng.choices(lexicons[other], weights, k=300)
        rng.shuffle(words)
        doc = "".join(word + rng.choice(SEPARATORS) for word in words) + f" {rng.randint(0, 10**6)}\n"
        docs.append(doc)
        size += len(doc.encode("utf-8"))
    return docs


LEXICON = 20_000  # made-up words per script
SEPARATORS = [" "] * 12 + [", ", ". ", "\n", "! ", " (", ") ", ": ", " 12 ", " 2024 ", "'s "]


def _made_up_word(rng, ranges):
    first, last = rng.choice(ranges)
    return "".join(chr(rng.randint(first, last)) for _ in range(rng.randint(1, 7)))


def encoding_corpus(spec):
    """The documents an encoding job works on."""
    if spec["corpus"] == "multilingual":
        return multilingual_corpus(spec["mb"])
    return corpus(spec["mb"])


def job_encode(spec):
    """Encode the documents with cl100k_base: tiktoken, ours or HF, one document at a time on
    one thread, or the whole list at once with the batch APIs on every core. Ours runs cold
    (empty chunk and piece caches before each run; the split pattern compiled, whose cost is
    measured apart) or warm (the caches kept from the run before)."""
    import bpe_ref

    docs = encoding_corpus(spec)
    enc = bpe_ref.get_encoding("cl100k_base")
    encoder = spec["encoder"]
    tok = bpe_ref.from_tiktoken("cl100k_base") if encoder.startswith("fast") else None
    setup = {}
    if encoder == "tiktoken":
        encode_all = lambda: [enc.encode_ordinary(doc) for doc in docs]  # noqa: E731
    elif encoder == "tiktoken_batch":
        encode_all = lambda: enc.encode_ordinary_batch(docs)  # noqa: E731
    elif encoder in ("fast", "fast_warm"):
        setup = encoder_setup_seconds(tok)
        encode_all = lambda: [tok.encode_ordinary(doc) for doc in docs]  # noqa: E731
    elif encoder in ("fast_batch", "fast_batch_warm"):
        encode_all = lambda: tok.encode_ordinary_batch(docs)  # noqa: E731
    else:
        hf = hf_cl100k()
        encode_all = lambda: [e.ids for e in hf.encode_batch(docs, add_special_tokens=False)]  # noqa: E731
        if spec.get("one_thread", True):
            encode_all = lambda: [hf.encode(doc, add_special_tokens=False).ids for doc in docs]  # noqa: E731

    def run():
        if tok is not None and not encoder.endswith("_warm"):
            tok._clear_cache()  # every run starts with empty chunk and piece caches
        return encode_all()

    run()  # warm up: imports, thread and process pools, tiktoken's own caches
    if encoder == "fast_batch_warm":
        [tok.encode_ordinary(doc) for doc in docs]  # the workers inherit these caches (fork)
    result, ids = measure(run, spec["repeats"])
    expected = [enc.encode_ordinary(doc) for doc in docs]
    result.update(setup)
    result["documents"] = len(docs)
    result["megabytes"] = sum(len(doc.encode("utf-8")) for doc in docs) / MB
    result["mismatched_documents"] = sum(got != want for got, want in zip(ids, expected))
    result["token_count"] = sum(map(len, expected))
    result["chunks"], result["distinct_chunks"] = _chunk_counts(tok or bpe_ref.from_tiktoken("cl100k_base"), docs)
    return result


def encoder_setup_seconds(tok):
    """What a cold run does not include: compiling the split pattern (and reading Unicode
    16.0.0's tables, on the first text that is not ASCII), and making the chunk encoder."""
    from bpe_ref.core.unicode_classes import TiktokenSplit

    start = time.perf_counter()
    TiktokenSplit(tok.pattern).findall("café 한국어")
    compiled = time.perf_counter()
    tok._encoder = None
    tok._chunk_encoder()
    return {"compile_seconds": compiled - start, "encoder_setup_seconds": time.perf_counter() - compiled}


def _chunk_counts(tok, docs):
    """How many chunks the documents split into, and how many distinct ones."""
    chunks = [chunk for doc in docs for chunk in tok.split(doc)]
    return len(chunks), len(set(chunks))


def job_stream(spec):
    """Stream a file of lines through encode_iterable; peak memory against the file's size."""
    import tempfile

    import bpe_ref

    tok = bpe_ref.from_tiktoken("cl100k_base")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "lines.txt"
        size = write_lines_file(path, spec["mb"])

        def stream():
            with open(path, encoding="utf-8") as f:
                return sum(1 for _ in tok.encode_iterable(f, disallowed_special=()))

        result, count = measure(stream, 1)
    result.update(file_megabytes=size / MB, token_count=count)
    return result


def write_lines_file(path, megabytes):
    """A file of `megabytes` MB: the benchmark corpus's lines, over and over; its size in bytes."""
    lines = "".join(corpus(min(megabytes, 10))).splitlines(keepends=True)
    size = 0
    with open(path, "w", encoding="utf-8") as f:
        while size < megabytes * MB:
            for line in lines:
                f.write(line)
                size += len(line.encode("utf-8"))
    return size


def job_startup(spec):
    """One start-up cost, measured in this fresh process: 'unicode16'
    (the first GPT-4 split of a multilingual text holding code points on which the `regex`
    module and Unicode 16.0.0 disagree, and, for comparison, the plain `regex` split of it) or
    'from_tiktoken' (from_tiktoken("cl100k_base"), with the user's cache folder as it is)."""
    what = spec["what"]
    if what == "unicode16":
        import regex

        from bpe_ref.core.patterns import GPT4_SPLIT_PATTERN
        from bpe_ref.core.unicode_classes import split_regex

        text = unicode16_text(spec["mb"])
        plain, plain_chunks = measure(lambda: regex.compile(GPT4_SPLIT_PATTERN).findall(text), 1)
        ours, chunks = measure(lambda: split_regex(GPT4_SPLIT_PATTERN).findall(text), 1)
        return {"seconds": ours["seconds"], "peak_mb": ours["peak_mb"], "plain_seconds": plain["seconds"],
                "plain_peak_mb": plain["peak_mb"], "chunks": len(chunks), "chunks_differ": chunks != plain_chunks}
    import bpe_ref

    start = time.perf_counter()
    bpe_ref.from_tiktoken("cl100k_base")
    return {"seconds": time.perf_counter() - start}


def unicode16_text(megabytes):
    """The multilingual corpus with, after every 1000th character, a code point that is a letter
    to the `regex` module but not yet to Unicode 16.0.0 (U+0558, U+323B0, ...) and then "'s"."""
    new_letters = ["\u0558", "\u088f", "\U000323B0", "\U0003FC3B"]
    text = "".join(multilingual_corpus(megabytes))
    pieces = [text[i:i + 1000] + new_letters[(i // 1000) % 4] + "'s" for i in range(0, len(text), 1000)]
    return "".join(pieces)


def run_startup(plan):
    """--startup: each start-up cost, best of three fresh processes."""
    def best(spec, env=None):
        runs = [run_job(spec, env) for _ in range(3)]
        good = [r for r in runs if "error" not in r]
        return min(good, key=lambda r: r["seconds"]) if good else runs[0]

    rows = {"import": {"seconds": min(import_seconds() for _ in range(3))},
            "unicode16": best({"job": "startup", "what": "unicode16", "mb": plan["encode_mb"]["multilingual"] / 4})}
    with tempfile.TemporaryDirectory() as xdg:
        env = {**os.environ, "XDG_CACHE_HOME": xdg}
        firsts = []
        for _ in range(3):
            shutil.rmtree(Path(xdg) / "bpe-course", ignore_errors=True)
            firsts.append(run_job({"job": "startup", "what": "from_tiktoken"}, env))
        rows["from_tiktoken_first"] = min(firsts, key=lambda r: r.get("seconds", float("inf")))
        rows["from_tiktoken_again"] = best({"job": "startup", "what": "from_tiktoken"}, env)
    print_startup(rows)
    return rows


def import_seconds():
    """How long `import bpe_ref` takes in a fresh Python (bpe_ref.bench itself imports it)."""
    code = "import time; start = time.perf_counter(); import bpe_ref; print(time.perf_counter() - start)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout)


def print_startup(rows):
    print("\nSTART-UP (each best of three fresh processes)")
    if any("error" in row for row in rows.values()):
        print("error: " + next(row["error"] for row in rows.values() if "error" in row))
        return
    u16 = rows["unicode16"]
    print(f"import bpe_ref: {rows['import']['seconds'] * 1000:.0f} ms")
    print(f"first GPT-4 split of {u16.get('mb', 0):g} MB of multilingual text that needs Unicode 16: "
          f"{u16['seconds'] * 1000:.0f} ms, peak +{u16['peak_mb']:.1f} MB; the plain `regex` split of it: "
          f"{u16['plain_seconds'] * 1000:.0f} ms, +{u16['plain_peak_mb']:.1f} MB; so the Unicode 16 variant costs "
          f"{(u16['seconds'] - u16['plain_seconds']) * 1000:.0f} ms, "
          f"+{u16['peak_mb'] - u16['plain_peak_mb']:.1f} MB (chunks differ from the plain split: "
          f"{'yes' if u16['chunks_differ'] else 'NO'})")
    first, again = rows["from_tiktoken_first"]["seconds"], rows["from_tiktoken_again"]["seconds"]
    print(f"from_tiktoken('cl100k_base'): first process {first:.2f} s (empty merges cache), a new process after it "
          f"{again:.2f} s: {again / first:.2f}x (target <= 0.1x)")


JOBS = {"train": job_train, "hf_train": job_hf_train, "encode": job_encode, "stream": job_stream,
        "startup": job_startup}


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


def hf_train(documents, vocab_size, *, files=None):
    """A Hugging Face tokenizer trained by its byte-level BpeTrainer with the GPT-4 split.

    documents: a list of strings (one text is a list of one); or files: paths HF reads itself.
    """
    from tokenizers import Tokenizer, models, trainers
    from tokenizers.pre_tokenizers import ByteLevel

    if isinstance(documents, str):
        raise TypeError("documents must be a list of strings: wrap a single text as [text]")
    if (documents is None) == (files is None):
        raise TypeError("give hf_train either documents or files")
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = hf_pre_tokenizer()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, initial_alphabet=ByteLevel.alphabet(),
                                  special_tokens=[], show_progress=False)
    if files is not None:
        tok.train([str(f) for f in files], trainer=trainer)
    else:
        tok.train_from_iterator(documents, trainer=trainer)
    return tok


def byte_level_chars():
    """GPT-2's byte -> printable character table, which HF's ByteLevel uses."""
    from bpe_ref import bytes_to_unicode

    return bytes_to_unicode()


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


def run_job(spec, env=None):
    """Run one job in a fresh Python process (with environment `env`); its figures, or {'error': ...}."""
    shown = " ".join(f"{k}={v}" for k, v in spec.items() if k != "repeats")
    print("  running", shown, file=sys.stderr, flush=True)
    command = [sys.executable, "-m", "bpe_ref.bench", "--job", json.dumps(spec)]
    done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", check=False, env=env)
    if done.returncode != 0:
        return {**spec, "error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}
    return {**spec, **json.loads(done.stdout.strip().splitlines()[-1])}


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


def run_start(plan):
    """A small training, where fixed costs (compiling the split, starting workers) weigh most:
    ours and HF on plan['start_mb'] MB to plan['start_vocab'] tokens."""
    spec = {"mb": plan["start_mb"], "vocab": plan["start_vocab"], "repeats": plan["repeats"]}
    return {("start", "fast"): run_job({"job": "train", "algorithm": "fast", **spec}),
            ("start", "hf"): run_job({"job": "hf_train", **spec})}


def print_start(plan, rows):
    """The small-training rows and their ratio."""
    widths = [40, 6, 5, 7, 7, 7, 60]
    ours, hf = rows[("start", "fast")], rows[("start", "hf")]
    ratio = _ratios(ours, hf)
    note = ""
    if ratio:
        met = "met" if ratio["wall"] <= TARGETS["start_time_vs_hf"] else "MISSED"
        note = f"fast takes {_pair(ratio, '.2f')} HF's time (target <= {TARGETS['start_time_vs_hf']}x: {met})"
    print(f"\nA SMALL TRAINING ({plan['start_mb']:g} MB, vocab {plan['start_vocab']}: fixed costs weigh most)")
    print(fmt_row(["what", "MB", "vocab", "wall s", "cpu s", "peak MB", "note"], widths))
    print(fmt_row(_train_line("fast   Tokenizer.train", ours), widths))
    print(fmt_row(_train_line("HF     tokenizers BpeTrainer", hf, note), widths))


def run_encoding(plan):
    """The encoding rows: every encoder on the benchmark corpus and on the multilingual one."""
    rows = {}
    for name in ENCODING_CORPORA:
        for encoder in ENCODERS:
            rows[("encode", name, encoder)] = run_job({"job": "encode", "encoder": encoder, "corpus": name,
                                                       "mb": plan["encode_mb"][name], "repeats": plan["repeats"]})
    return rows


def summarise(plan, rows):
    """The ratios, by wall time and by CPU time: {'fast_vs_naive_speedup': {'wall': .., 'cpu': ..}, ..}."""
    small, vocab = plan["small_mb"], plan["naive_vocab"]
    naive, fast = rows["naive"], rows[("fast", small, vocab)]
    sample = rows[("fast", plan["naive_mb"], vocab)]
    ratios = {"fast_vs_naive_speedup": _ratios(naive, fast, scale=small / plan["naive_mb"]),
              "same_merges_as_naive": naive.get("merges_sha256", "failed") == sample.get("merges_sha256"),
              "fast_over_hf_time": {}, "shared_tokens": {}}
    for vocab in plan["vocabs"]:
        fast, hf = rows[("fast", small, vocab)], rows[("hf", small, vocab)]
        key = f"{small:g}MB_{vocab}"
        ratios["fast_over_hf_time"][key] = _ratios(fast, hf)
        ratios["shared_tokens"][key] = _shared_tokens(fast, hf)
    ratios["scale"] = summarise_scale(plan, rows)
    ratios.update(encoding_ratios(rows))
    return ratios


def encoding_ratios(rows):
    """Our throughput over tiktoken's, cold and warm: one thread against encode_ordinary,
    every core against encode_ordinary_batch, per corpus."""
    ratios = {key: {} for key in RATIO_KEYS.values()}
    for name in ENCODING_CORPORA:
        for encoder, key in RATIO_KEYS.items():
            theirs = "tiktoken_batch" if "batch" in encoder else "tiktoken"
            ratios[key][name] = _ratios(rows[("encode", name, theirs)], rows[("encode", name, encoder)])
    return ratios


def _shared_tokens(ours, theirs):
    """The share of our merged tokens that the other trainer learned too (None if a row failed)."""
    if "error" in ours or "error" in theirs:
        return None
    return len(set(ours["tokens"]) & set(theirs["tokens"])) / max(1, len(ours["tokens"]))


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
    print("Our code runs on one thread unless said; HF may use every core. Ratios: wall clock, CPU in brackets.\n")
    _print_training(plan, rows, ratios)
    print_start(plan, rows)
    print_scale(plan, rows, ratios["scale"], info["scale_corpus"])
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
    for vocab in plan["vocabs"]:
        key = f"{small:g}MB_{vocab}"
        note = ""
        if ratios["fast_over_hf_time"][key]:
            note = (f"fast takes {_pair(ratios['fast_over_hf_time'][key], '.2f')} HF's time (target <= "
                    f"{TARGETS['fast_over_hf_time']}x); "
                    f"{ratios['shared_tokens'][key]:.0%} of tokens shared")
        print(fmt_row(_train_line("fast   Tokenizer.train", rows[("fast", small, vocab)]), widths))
        print(fmt_row(_train_line("HF     tokenizers BpeTrainer", rows[("hf", small, vocab)], note), widths))


# ------------------------------------------------------------------ training at scale

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
            "time_vs_hf": _ratios(ours, hf), "one_process_time_vs_hf": _ratios(one, hf) if one_ran else None,
            "memory_vs_hf": ours["peak_mb"] / hf["peak_mb"], "shared_tokens": _shared_tokens(ours, hf),
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
        note = f"{_pair(time_ratio, '.2f')} HF's time, {memory:.2f}x its memory"
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
        return f"{_pair(figures['one_process_time_vs_hf'], '.2f')} HF's time; same merges as with workers: {same}"
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
    """Log-log chart of training time and peak memory against corpus size; saved as a PNG."""
    import matplotlib.ticker
    from matplotlib.figure import Figure  # no pyplot: the caller's backend stays as it is

    fig = Figure(figsize=(10, 4))
    left, right = fig.subplots(1, 2)
    styles = {"fast2": ("o-", "tab:blue"), "fast1": ("s--", "tab:cyan"), "hf": ("^-", "tab:orange")}
    for who, label in CHART_LABELS.items():
        done = [(mb, rows[("scale", who, mb)]) for mb in plan["scale_mb"] if "error" not in rows[("scale", who, mb)]]
        if not done:
            continue
        sizes = [mb for mb, _ in done]
        marker, color = styles[who]
        label = label.format(workers=plan["workers"])
        left.loglog(sizes, [row["seconds"] for _, row in done], marker, color=color, label=label)
        right.loglog(sizes, [row["peak_mb"] for _, row in done], marker, color=color, label=label)
    for ax, what in ((left, "training time (s, wall clock)"), (right, "peak memory rise (MB)")):
        ax.set_xlabel("corpus size (MB)")
        ax.set_ylabel(what)
        ax.set_xticks(plan["scale_mb"], [f"{mb:g}" for mb in plan["scale_mb"]])
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        ax.yaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda y, _: f"{y:g}"))
        ax.grid(True, which="major", alpha=0.3)
    right.set_title(_growth_caption(plan, rows), fontsize=9)
    left.legend()
    fig.suptitle(f"BPE training, GPT-4 split, vocab {plan['scale_vocab']}: bpe_ref vs Hugging Face tokenizers")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return path


ENCODER_LABELS = {
    "tiktoken": "tiktoken encode_ordinary, one thread",
    "fast": "fast   encode_ordinary, one thread, cold",
    "fast_warm": "fast   encode_ordinary, one thread, warm",
    "hf": "HF     cl100k as an HF BPE, one thread",
    "tiktoken_batch": "tiktoken encode_ordinary_batch, every core",
    "fast_batch": "fast   encode_ordinary_batch, every core, cold",
    "fast_batch_warm": "fast   encode_ordinary_batch, every core, warm",
}
RATIO_KEYS = {"fast": "encode_vs_tiktoken", "fast_warm": "encode_warm_vs_tiktoken",
              "fast_batch": "encode_batch_vs_tiktoken", "fast_batch_warm": "encode_batch_warm_vs_tiktoken"}


def _print_encoding(plan, rows, ratios, megabytes):
    widths = [48, 6, 6, 7, 7, 7, 60]
    for name in ENCODING_CORPORA:
        first = next(iter(rows[("encode", name, e)] for e in ENCODERS if "error" not in rows[("encode", name, e)]),
                     {})
        print(f"\nENCODING cl100k_base, {name} corpus ({first.get('megabytes', 0):.1f} MB in "
              f"{first.get('documents', '?')} documents, {first.get('chunks', '?')} chunks of which "
              f"{first.get('distinct_chunks', '?')} distinct; from_tiktoken(...) against tiktoken and HF)")
        print(fmt_row(["what", "MB", "MB/s", "wall s", "cpu s", "peak MB", "note"], widths))
        for encoder in ENCODERS:
            print(fmt_row(_encode_line(name, encoder, rows[("encode", name, encoder)], ratios), widths))
        cold = rows[("encode", name, "fast")]
        if "compile_seconds" in cold:
            print(f"  not in the cold rows: compiling the split pattern {cold['compile_seconds'] * 1000:.0f} ms, "
                  f"making the chunk encoder {cold['encoder_setup_seconds'] * 1000:.0f} ms (once per tokenizer)")
    summary = ", ".join(f"{name} {_pair(ratios['encode_vs_tiktoken'][name], '.2f')}"
                        for name in ENCODING_CORPORA if ratios["encode_vs_tiktoken"][name])
    print(f"\ncold encode_ordinary, one thread, vs tiktoken's throughput (target >= "
          f"{TARGETS['encode_vs_tiktoken']}x): {summary}")


def _encode_line(name, encoder, row, ratios):
    label = ENCODER_LABELS[encoder]
    if "error" in row:
        return [label, "-", "-", "-", "-", "-", "error: " + row["error"]]
    note = f"mismatches vs tiktoken: {row['mismatched_documents']} of {row['documents']} documents"
    key = RATIO_KEYS.get(encoder)
    if key and ratios[key][name]:
        against = "encode_ordinary_batch" if "batch" in encoder else "encode_ordinary"
        target = f" (target >= {TARGETS[key]}x)" if key in TARGETS else ""
        note = f"{_pair(ratios[key][name], '.2f')} tiktoken {against}'s throughput{target}; " + note
    return [label, f"{row['megabytes']:.1f}", f"{row['megabytes'] / row['seconds']:.2f}", f"{row['seconds']:.2f}",
            f"{row['cpu_seconds']:.2f}", f"{row['peak_mb']:.1f}", note]


def run_stream(megabytes):
    """--stream: encode_iterable over a file of lines; print and return its figures."""
    row = run_job({"job": "stream", "mb": megabytes})
    print(f"\nSTREAMING cl100k_base encode_iterable over a {megabytes:g} MB file of lines")
    if "error" in row:
        print("error: " + row["error"])
        return row
    print(f"file {row['file_megabytes']:.1f} MB, {row['token_count']} tokens in {row['seconds']:.1f} s "
          f"({row['file_megabytes'] / row['seconds']:.2f} MB/s); peak RSS rose by {row['peak_mb']:.1f} MB "
          f"({row['peak_mb'] / row['file_megabytes']:.3f} MB per MB of input)")
    return row


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
    folder = args.corpus_dir or tempfile.mkdtemp(prefix="bpe-bench-")
    Path(folder).mkdir(parents=True, exist_ok=True)
    try:
        files = write_scale_corpus(plan, folder)
        info = {"corpus": describe_corpus(plan["large_mb"]), "scale_corpus": files,
                "machine": {"python": platform.python_version(), "platform": platform.platform(),
                            "cpus": os.cpu_count()},
                "memory": "rise of the peak RSS during one run, in MB: " + peak_method()}
        rows = run_all(plan, files)
    finally:
        if not args.corpus_dir:
            shutil.rmtree(folder, ignore_errors=True)
    ratios = summarise(plan, rows)
    print_table(plan, rows, ratios, info)
    chart = args.chart or (None if args.quick else default_chart_path())
    if chart:
        print(f"\nchart: {draw_chart(plan, rows, chart)}")
    elapsed = time.perf_counter() - started
    print(f"\nwhole run: {elapsed:.0f} s; figures written to {args.out}")
    figures = {**info, "plan": plan, "targets": TARGETS, "ratios": ratios, "seconds_total": elapsed,
               "rows": [_without_tokens(row) for row in rows.values()]}
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(figures, f, indent=2)


def run_part(plan, args):
    """--stream or --encoding alone: the rows, printed; nothing written."""
    if args.stream:
        run_stream(plan["stream_mb"])
        return
    rows = run_encoding(plan)
    _print_encoding(plan, rows, encoding_ratios(rows), None)


def run_scale_only(plan, args):
    """--scale: the corpus files, the training-at-scale rows and the chart; figures to --out."""
    folder = args.corpus_dir or tempfile.mkdtemp(prefix="bpe-bench-")
    Path(folder).mkdir(parents=True, exist_ok=True)
    try:
        files = write_scale_corpus(plan, folder)
        rows = run_scale(plan, files)
    finally:
        if not args.corpus_dir:
            shutil.rmtree(folder, ignore_errors=True)
    summary = summarise_scale(plan, rows)
    print_scale(plan, rows, summary, files)
    chart = args.chart or (None if args.quick else default_chart_path())
    if chart:
        print(f"\nchart: {draw_chart(plan, rows, chart)}")
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"plan": plan, "targets": TARGETS, "scale": summary, "scale_corpus": files,
                   "rows": [_without_tokens(row) for row in rows.values()]}, f, indent=2)


def default_chart_path():
    """docs/img/training_scale.png in a source checkout, else in the current folder."""
    return DOCS_IMG / "training_scale.png" if DOCS_IMG.is_dir() else Path("training_scale.png")


def _without_tokens(row):
    return {k: v for k, v in row.items() if k != "tokens"}


if __name__ == "__main__":
    main()
