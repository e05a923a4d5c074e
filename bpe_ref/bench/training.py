"""Training: our trainer (fast and naive) and Hugging Face's BpeTrainer on the same corpus, and a
small training where fixed costs weigh most."""

import hashlib
from pathlib import Path

from .corpora import corpus
from .hf import byte_level_chars, hf_train
from .measure import measure, run_job
from .plan import TARGETS
from .report import fmt_row, pair_text, time_ratios, train_line


def job_train(spec):
    """Our trainer ('fast' or 'naive'), GPT-4 split, on the first spec['mb'] MB held as one str,
    or on the corpus file spec['path'], counting in spec['workers'] processes."""
    import bpe_ref.core.training
    from bpe_ref import RegexTokenizer

    source = Path(spec["path"]) if "path" in spec else "".join(corpus(spec["mb"]))
    workers = spec.get("workers")
    tok = RegexTokenizer()
    distinct = {}
    count_chunks = bpe_ref.core.training.count_chunks

    def counting(*args, **kwargs):  # note how many distinct chunks the corpus has
        counts = count_chunks(*args, **kwargs)
        distinct["chunks"] = len(counts)
        return counts

    bpe_ref.core.training.count_chunks = counting

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
    ratio = time_ratios(ours, hf)
    note = ""
    if ratio:
        met = "met" if ratio["wall"] <= TARGETS["start_time_vs_hf"] else "MISSED"
        note = f"fast takes {pair_text(ratio, '.2f')} HF's time (target <= {TARGETS['start_time_vs_hf']}x: {met})"
    print(f"\nA SMALL TRAINING ({plan['start_mb']:g} MB, vocab {plan['start_vocab']}: fixed costs weigh most)")
    print(fmt_row(["what", "MB", "vocab", "wall s", "cpu s", "peak MB", "note"], widths))
    print(fmt_row(train_line("fast   Tokenizer.train", ours), widths))
    print(fmt_row(train_line("HF     tokenizers BpeTrainer", hf, note), widths))


def print_training(plan, rows, ratios):
    widths = [40, 6, 5, 7, 7, 7, 60]
    print("TRAINING (RegexTokenizer, GPT-4 split; HF: BpeTrainer, same split, byte level)")
    print(fmt_row(["what", "MB", "vocab", "wall s", "cpu s", "peak MB", "note"], widths))
    print(fmt_row(train_line("naive  Tokenizer.train(algorithm='naive')", rows["naive"]), widths))
    small, vocab = plan["small_mb"], plan["naive_vocab"]
    if plan["naive_mb"] != small:
        sample = rows[("fast", plan["naive_mb"], vocab)]
        print(fmt_row(train_line("fast   Tokenizer.train, on naive's sample", sample), widths))
    note = "same merges as naive: " + ("yes" if ratios["same_merges_as_naive"] else "NO")
    speedup = ratios["fast_vs_naive_speedup"]
    if speedup:
        note = (f"{pair_text(speedup, '.0f')} faster than naive (target >= "
                f"{TARGETS['fast_vs_naive_speedup']}x); " + note)
        if plan["naive_mb"] != small:
            note += f"; naive's time extrapolated x{small / plan['naive_mb']:g} from its sample"
    print(fmt_row(train_line("fast   Tokenizer.train", rows[("fast", small, vocab)], note), widths))
    for vocab in plan["vocabs"]:
        key = f"{small:g}MB_{vocab}"
        note = ""
        if ratios["fast_over_hf_time"][key]:
            note = (f"fast takes {pair_text(ratios['fast_over_hf_time'][key], '.2f')} HF's time (target <= "
                    f"{TARGETS['fast_over_hf_time']}x); "
                    f"{ratios['shared_tokens'][key]:.0%} of tokens shared")
        print(fmt_row(train_line("fast   Tokenizer.train", rows[("fast", small, vocab)]), widths))
        print(fmt_row(train_line("HF     tokenizers BpeTrainer", rows[("hf", small, vocab)], note), widths))
