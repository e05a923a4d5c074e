"""Write bpe_ref/data/messages_en_ar.tsv: the same messages in English and Arabic, one pair a line.

Workbook 03a needs real text, some 20,000 words or more in each language, to chart how a
word vocabulary grows and to count unknown words in held-out text. Programs translated with
gettext keep every message twice: the English original (msgid) and its translation (msgstr).
This reads the Arabic catalogs of a few LGPL, BSD and X11-licensed Debian packages (and CLDR's
names of countries, languages, scripts and currencies, through Babel) from
/usr/share/locale/ar/ (see bpe_ref/data/MESSAGES.md for the packages, versions and licences),
cleans each pair and writes them in a fixed order. The course reads only the written file:
nothing is fetched or looked up at run time, and the machine a learner uses needs no catalogs.

    python tools/make_word_texts.py          (on a Debian 12 machine with those packages)
"""

import gettext
import re
import sys
import zlib
from pathlib import Path

LOCALE = Path("/usr/share/locale/ar/LC_MESSAGES")
OUT = Path(__file__).resolve().parent.parent / "bpe_ref" / "data" / "messages_en_ar.tsv"
CATALOGS = [  # (catalog, its Debian package, the licence): the ones bpe_ref/data/MESSAGES.md lists
    ("gtk30-properties", "libgtk-3-common", "LGPL-2.1+"), ("gtk30", "libgtk-3-common", "LGPL-2.1+"),
    ("gtk20-properties", "libgtk2.0-common", "LGPL-2+"), ("gtk20", "libgtk2.0-common", "LGPL-2+"),
    ("glib20", "libglib2.0-data", "LGPL-2.1+"), ("gdk-pixbuf", "libgdk-pixbuf2.0-common", "LGPL-2.1+"),
    ("at-spi2-core", "at-spi2-common", "LGPL-2.1+"), ("iso_3166-1", "iso-codes", "LGPL-2.1+"),
    ("iso_4217", "iso-codes", "LGPL-2.1+"), ("iso_639-2", "iso-codes", "LGPL-2.1+"),
    ("iso_15924", "iso-codes", "LGPL-2.1+"), ("iso_639-3", "iso-codes", "LGPL-2.1+"),
    ("iso_3166-3", "iso-codes", "LGPL-2.1+"), ("avahi", "libavahi-common-data", "LGPL-2.1+"),
    ("libsecret", "libsecret-common", "LGPL-2.1+"), ("iso_3166", "iso-codes", "LGPL-2.1+"),
    ("iso_639", "iso-codes", "LGPL-2.1+"), ("iso_639_3", "iso-codes", "LGPL-2.1+"),
    ("Linux-PAM", "libpam-runtime", "BSD-3-Clause (or GPL)"),
    ("xkeyboard-config", "xkb-data", "X11 (MIT-style)"),
]
PLACEHOLDER = re.compile(r"%(\d+\$)?[-+ #0']*\d*(\.\d+)?[lhqjzt]*[sdiuxXfFgGeEcp]|%[A-Za-z]+%|\$\{\w+\}|\{\w*\}")
MNEMONIC = re.compile(r"(?<!\w)_(?=\w)")
BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")  # invisible direction marks
ARABIC_LETTER = re.compile(r"[\u0621-\u064A]")


def clean(message):
    """One line of plain text: no printf placeholders, menu mnemonics, direction marks or line breaks."""
    text = BIDI_CONTROLS.sub("", MNEMONIC.sub("", PLACEHOLDER.sub(" ", message)))
    return " ".join(text.split())


def pairs(catalog):
    """(English, Arabic) for each translated message of one .mo file, plurals by their first form."""
    with open(LOCALE / f"{catalog}.mo", "rb") as f:
        translations = gettext.GNUTranslations(f)
    for key, translated in translations._catalog.items():  # gettext has no public way to list them
        if isinstance(key, tuple):
            key = key[0] if key[1] == 0 else ""  # a plural: keep msgid with msgstr[0]
        english = key.split("\x04")[-1]  # drop a msgctxt
        english, arabic = clean(english), clean(translated)
        if english and arabic != english and ARABIC_LETTER.search(arabic):
            yield english, arabic


CLDR_NAMES = ("territories", "languages", "scripts", "currencies", "measurement_systems", "variants")


def cldr_pairs():
    """(English, Arabic) names of countries, languages, scripts and currencies from the Unicode
    CLDR data that Babel ships (Unicode licence; Babel comes with JupyterLab)."""
    from babel import Locale

    english, arabic = Locale("en"), Locale("ar")
    for kind in CLDR_NAMES:
        theirs = getattr(arabic, kind)
        for code, name in getattr(english, kind).items():
            if code in theirs and ARABIC_LETTER.search(theirs[code]):
                yield clean(name), clean(theirs[code])


def main():
    if not LOCALE.is_dir():
        raise SystemExit(f"no Arabic gettext catalogs in {LOCALE}: run this on a Debian 12 machine")
    found = {}
    for catalog, _, _ in CATALOGS:
        for english, arabic in pairs(catalog):
            found.setdefault(english, arabic)  # one translation per English message
    for english, arabic in cldr_pairs():
        found.setdefault(english, arabic)
    # a fixed order that mixes the catalogs: by a checksum of the English text
    ordered = sorted(found.items(), key=lambda pair: (zlib.crc32(pair[0].encode("utf-8")), pair[0]))
    lines = [f"{english}\t{arabic}" for english, arabic in ordered]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    words = [sum(len(side.split()) for side in column) for column in zip(*ordered)]
    print(f"wrote {OUT}: {len(lines)} messages, {words[0]} English and {words[1]} Arabic words (split at spaces)")


if __name__ == "__main__":
    sys.exit(main())
