"""Encoding: cl100k_base through from_tiktoken against tiktoken and Hugging Face, cold and warm,
on one thread and on every core, over the benchmark corpus and a made-up multilingual one."""

import time

from .corpora import MB, corpus
from .hf import hf_cl100k
from .measure import measure, run_job
from .plan import TARGETS
from .report import fmt_row, pair_text, time_ratios

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
    breaks; documents of 2,800 words, mostly in one script. About one chunk in seven is new
    to the chunk cache (4 MB: 543,529 chunks, 79,171 distinct), against one in forty in the
    benchmark corpus: the hard case.
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


def run_encoding(plan):
    """The encoding rows: every encoder on the benchmark corpus and on the multilingual one."""
    rows = {}
    for name in ENCODING_CORPORA:
        for encoder in ENCODERS:
            rows[("encode", name, encoder)] = run_job({"job": "encode", "encoder": encoder, "corpus": name,
                                                       "mb": plan["encode_mb"][name], "repeats": plan["repeats"]})
    return rows


def encoding_ratios(rows):
    """Our throughput over tiktoken's, cold and warm: one thread against encode_ordinary,
    every core against encode_ordinary_batch, per corpus."""
    ratios = {key: {} for key in RATIO_KEYS.values()}
    for name in ENCODING_CORPORA:
        for encoder, key in RATIO_KEYS.items():
            theirs = "tiktoken_batch" if "batch" in encoder else "tiktoken"
            ratios[key][name] = time_ratios(rows[("encode", name, theirs)], rows[("encode", name, encoder)])
    return ratios


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


def print_encoding(plan, rows, ratios, megabytes):
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
    summary = ", ".join(f"{name} {pair_text(ratios['encode_vs_tiktoken'][name], '.2f')}"
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
        note = f"{pair_text(ratios[key][name], '.2f')} tiktoken {against}'s throughput{target}; " + note
    return [label, f"{row['megabytes']:.1f}", f"{row['megabytes'] / row['seconds']:.2f}", f"{row['seconds']:.2f}",
            f"{row['cpu_seconds']:.2f}", f"{row['peak_mb']:.1f}", note]
