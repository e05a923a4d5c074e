"""Start-up costs: importing bpe_ref, the Unicode 16 tables, from_tiktoken's merges."""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .encoding import multilingual_corpus
from .measure import measure, run_job


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
