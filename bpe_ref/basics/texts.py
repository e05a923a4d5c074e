"""Workbook 11's parallel texts: the same 200 messages in seventeen languages.

Read from bpe_ref/data/messages_parallel.tsv (made once by tools/make_parallel_texts.py from
LGPL-licensed gettext catalogs; bpe_ref/data/MESSAGES.md lists them). Nothing is fetched.
"""

from importlib import resources

LANGUAGE_NAMES = {"en": "English", "fr": "French", "de": "German", "es": "Spanish", "tr": "Turkish",
                  "vi": "Vietnamese", "ru": "Russian", "el": "Greek", "ar": "Arabic", "he": "Hebrew",
                  "hi": "Hindi", "bn": "Bengali", "ta": "Tamil", "th": "Thai", "ko": "Korean",
                  "ja": "Japanese", "zh_CN": "Chinese"}


def parallel_texts():
    """{language name: its 200 messages, one a line}, English first, in the file's column order."""
    lines = resources.files("bpe_ref").joinpath("data/messages_parallel.tsv").read_text(encoding="utf-8").splitlines()
    codes = lines[0].split("\t")
    rows = [line.split("\t") for line in lines[1:] if line]
    return {LANGUAGE_NAMES[code]: "\n".join(row[k] for row in rows) + "\n" for k, code in enumerate(codes)}
