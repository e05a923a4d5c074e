"""What the grader writes for people, made safe from what a submission put in it.

A learner's text reaches the instructor's terminal and spreadsheets (an exception message, a
file or folder name, a note). Two helpers, used by every printer and every CSV writer:

    terminal_line("2/2 pass\\x1b[2K\\r")      '2/2 pass\\\\x1b[2K\\\\r'   (escapes shown, never obeyed)
    csv_cell("=HYPERLINK(...)")              "'=HYPERLINK(...)"        (text, never a formula)
    csv_cell("-1.5")                         '-1.5'                    (a number stays a number)
"""

import csv
import json
import re
import sys
import unicodedata

# a cell starting with one of these is a formula to a spreadsheet (OWASP, "CSV Injection")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?%?")
# Unicode's other format and separator characters that reorder or break a line (bidi overrides, U+2028)
LINE_BREAKERS = {"\u2028", "\u2029", "\u200e", "\u200f"} | {chr(c) for c in range(0x202A, 0x202F)} | \
                {chr(c) for c in range(0x2066, 0x206A)}


def escaped(char):
    """How one control character is shown: the escape Python's repr would use."""
    return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char) or (
        f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")


def terminal_line(text):
    """`text` with every control character shown as an escape, so it cannot move the cursor, clear
    the screen, rewrite a line (\\r) or start a new one (\\n) on the instructor's terminal."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(escaped(c) if unicodedata.category(c) in ("Cc", "Cs") or c in LINE_BREAKERS else c
                   for c in text)


def say(text="", file=None):
    """print() for one line that may hold a learner's text: its control characters escaped."""
    print(terminal_line(text), file=file if file is not None else sys.stdout)


def json_text(value, **options):
    """json.dumps(value, ensure_ascii=False, ...) with the control characters json leaves as they
    are (C1 controls such as \\x9b, bidi overrides) written as \\u escapes: still the same JSON."""
    text = json.dumps(value, ensure_ascii=False, **options)
    return "".join(f"\\u{ord(c):04x}" if ord(c) >= 0x7F and (unicodedata.category(c) in ("Cc", "Cs")
                                                          or c in LINE_BREAKERS) else c for c in text)


def csv_cell(value):
    """A cell a spreadsheet shows as text: one that would start a formula gets a leading `'`
    (OWASP's advice); a plain number, negative or not, is left as it is."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    if PLAIN_NUMBER.fullmatch(value):
        return value
    return "'" + value


class SafeWriter:
    """csv.writer whose every cell goes through csv_cell: the one way the grader writes a CSV."""

    def __init__(self, file, **options):
        self.writer = csv.writer(file, **options)

    def writerow(self, row):
        return self.writer.writerow([csv_cell(cell) for cell in row])

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)


def csv_writer(file, **options):
    """A SafeWriter over `file` (opened with newline="" and an encoding)."""
    return SafeWriter(file, **options)
