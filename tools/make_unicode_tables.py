"""Write bpe_ref/data/unicode16_categories.txt: where each letter, mark and number of Unicode 16.0.0 is.

tiktoken splits text with Rust's regex crate, whose \\p{L}, \\p{N} and \\p{M} follow Unicode
16.0.0; the `regex` module follows a newer Unicode, where some 17,500 more code points are
letters, numbers or marks. bpe_ref.core.unicode_classes compiles the split patterns with the
16.0.0 classes from this file, so bpe_ref splits where tiktoken does.

    pip install "bpe-course[tools]"        # unicodedata2 16.0.0: Unicode 16.0.0's data
    python tools/make_unicode_tables.py
"""

from pathlib import Path

import unicodedata2

VERSION = "16.0.0"
OUT = Path(__file__).resolve().parent.parent / "bpe_ref" / "data" / "unicode16_categories.txt"


def runs():
    """(first, last, category) for each run of code points sharing a letter/mark/number category."""
    start, current = 0, None
    for cp in range(0x110001):
        category = unicodedata2.category(chr(cp)) if cp <= 0x10FFFF else None
        if category != current:
            if current is not None and current[0] in "LMN":
                yield start, cp - 1, current
            start, current = cp, category


def main():
    if unicodedata2.unidata_version != VERSION:
        raise SystemExit(f"unicodedata2 has Unicode {unicodedata2.unidata_version}; install unicodedata2=={VERSION}")
    lines = [f"# Unicode {VERSION} general categories L*, M*, N*: first last category (hex code points).",
             "# Made by tools/make_unicode_tables.py from unicodedata2; do not edit by hand."]
    lines += [f"{first:04X} {last:04X} {category}" for first, last, category in runs()]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(lines) - 2} runs)")


if __name__ == "__main__":
    main()
