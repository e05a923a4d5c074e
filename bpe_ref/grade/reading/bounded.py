"""Parsing a submission's text in the grader's process, with a floor under it.

Python's parser and json's decoder recurse: 1,500 terms of `0+0+...` or 100,000 nested `[`
raise RecursionError (or MemoryError) in the grader itself. Here that becomes the same error
a broken file gives (SyntaxError, ValueError), so every caller that already handles a broken
file handles a too-deep one too, and it stays that one submission's problem.
"""

import ast
import json
import threading

TOO_DEEP = "nested too deeply for the grader to read"
TOO_BIG = "too large for the grader to read"
# CPython 3.11 keeps the parser's recursion count per interpreter, not per thread: two threads
# parsing at once fail with "SystemError: AST constructor recursion depth mismatch"
PARSING = threading.Lock()


def parse_python(source, filename="<unknown>"):
    """ast.parse(source), with SyntaxError (saying so) for code nested too deeply to parse; one
    thread at a time (files graded in threads share the parser)."""
    try:
        with PARSING:
            return ast.parse(source, filename)
    except RecursionError:
        raise SyntaxError(TOO_DEEP) from None
    except MemoryError:
        raise SyntaxError(TOO_BIG) from None


def load_json(text):
    """json.loads(text), with ValueError (saying so) for JSON nested too deeply to decode."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"JSON {TOO_DEEP}") from None
    except MemoryError:
        raise ValueError(f"JSON {TOO_BIG}") from None
