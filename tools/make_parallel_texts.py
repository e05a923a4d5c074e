"""Write bpe_ref/data/messages_parallel.tsv: the same messages in many languages, one message a line.

Workbook 11 compares how many tokens one meaning costs in each language (the "token tax"). It
needs parallel text: the same sentences in every language, so that only the language changes.
Programs translated with gettext hold exactly that. This reads the GTK 3 and GLib catalogs
(LGPL-2.1 or later, see bpe_ref/data/MESSAGES.md) of a Debian 12 machine for the languages in
LANGUAGES, keeps the messages that every one of them translates, cleans them as
make_word_texts.py does, and writes them in a fixed order. The course reads only the written
file: nothing is fetched or looked up at run time.

    python tools/make_parallel_texts.py          (on a Debian 12 machine with those packages)
"""

import gettext
import sys
import zlib
from pathlib import Path

from make_word_texts import clean

LOCALES = Path("/usr/share/locale")
OUT = Path(__file__).resolve().parent.parent / "bpe_ref" / "data" / "messages_parallel.tsv"
CATALOGS = ["gtk30", "gtk30-properties", "gtk20", "gtk20-properties", "glib20", "gdk-pixbuf"]  # LGPL (MESSAGES.md)
LANGUAGES = ["en", "fr", "de", "es", "tr", "vi", "ru", "el", "ar", "he", "hi", "bn", "ta", "th",
             "ko", "ja", "zh_CN"]  # gettext's locale folder names; "en" is the msgid
MESSAGES = 200  # enough for steady ratios, small enough to ship
MIN_WORDS = 4  # whole sentences, not menu labels


def translations(language):
    """{English message: its translation} over the catalogs, for one language."""
    found = {}
    for catalog in CATALOGS:
        with open(LOCALES / language / "LC_MESSAGES" / f"{catalog}.mo", "rb") as f:
            table = gettext.GNUTranslations(f)._catalog  # gettext has no public way to list them
        for key, translated in table.items():
            if isinstance(key, tuple):
                continue  # plurals: their forms differ per language
            english = clean(key.split("\x04")[-1])
            text = clean(translated)
            if english and text and text != english:
                found.setdefault(english, text)
    return found


def main():
    tables = {lang: translations(lang) for lang in LANGUAGES[1:]}
    shared = set.intersection(*(set(table) for table in tables.values()))
    shared = [m for m in shared if len(m.split()) >= MIN_WORDS and "\t" not in m]
    ordered = sorted(shared, key=lambda m: (zlib.crc32(m.encode("utf-8")), m))[:MESSAGES]
    rows = ["\t".join(LANGUAGES)]
    rows += ["\t".join([m] + [tables[lang][m] for lang in LANGUAGES[1:]]) for m in ordered]
    OUT.write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(ordered)} messages of {len(shared)} shared, in {len(LANGUAGES)} languages")


if __name__ == "__main__":
    sys.exit(main())
