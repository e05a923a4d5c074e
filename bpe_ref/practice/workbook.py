"""Write a blank, dated drill workbook, and find and read the drills in a folder.

A drill is `DIR/2026-11-22-naive.ipynb`: title and intro, the level's steps, the training text,
ONE empty code cell, and a check cell that grades the saved file. Its metadata carries the level
and start time (`bpe_course.practice`) and the exercises to expect (`bpe_course.exercises`). The
grader goes by the level's steps the drill holds, not by the metadata, and reports the exercises not
written yet as `missing`. An existing file is never overwritten.
"""

import json
import re
from datetime import datetime
from importlib import resources
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from .levels import SPECIAL_TOKENS, VOCAB_SIZE, get_level

DRILL_NAME = re.compile(r"^(?P<date>\d{4}-\d{2}-\d{2})-(?P<level>[a-z]+)(?:-(?P<n>\d+))?\.ipynb$")


class PracticeError(Exception):
    """A user error (no drill found, unreadable file, ...): printed as one message, exit status 2."""


def now():
    """The current local time, with its UTC offset (a function so tests can move the clock)."""
    return datetime.now().astimezone()


# ---------------------------------------------------------------------------- the training text

def practice_text():
    """The multilingual training text shipped with bpe_ref (Latin with accents, Arabic, Korean, ...)."""
    return resources.files("bpe_ref").joinpath("data/practice_text.txt").read_text(encoding="utf-8")


def python_string(text):
    """`text` as a readable triple-quoted literal; refuses text that would need escapes."""
    if "\\" in text or '"""' in text or text.endswith('"') or "\r" in text:
        raise ValueError("the practice text must not contain backslashes, \"\"\", \\r or end with a quote")
    return '"""' + text + '"""'


def text_cell_source(level):
    """The code cell that provides the training text (and pattern, special tokens) for `level`."""
    lines = [f"text = {python_string(practice_text())}"]
    if "vocab_size" in level.provides:
        lines.append(f"vocab_size = {VOCAB_SIZE}  # 256 byte tokens + {VOCAB_SIZE - 256} merges")
    if "pattern" in level.provides:
        lines.insert(0, "from bpe_ref import GPT4_SPLIT_PATTERN as pattern  # the split GPT-4 uses\n")
    if "special_tokens" in level.provides:
        lines.append(f"special_tokens = {SPECIAL_TOKENS!r}  # ids right after the merges")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- the notebook

def intro_markdown(level, started):
    provided = ", ".join(f"`{name}`" for name in level.provides)
    return (
        f"# Weekly drill: {level.title or level.name + ' BPE'}, {started:%Y-%m-%d}\n\n"
        f"Write {level.goal}. Started at {started:%H:%M}; the clock runs until everything is green.\n\n"
        f"- The cell under *Training text* gives you {provided}. Write everything else yourself, "
        "in the empty cell (add cells if you like).\n"
        "- No peeking: code that calls `bpe_ref` or `tiktoken` is graded as `reference`.\n"
        "- Done, or stuck? Save (Ctrl-S) and run the last cell: it grades the saved file and "
        "records the attempt.\n"
    )


def text_markdown(level):
    if "vocab_size" not in level.provides:
        return "## Text\n\nRun this cell first: try your code on `text`, in six scripts and emoji."
    extra = (" Train on `text` itself, unchanged: the grader replays your `merges` on it."
             if "merges" in level.exercises else "")
    return "## Training text\n\nRun this cell first." + extra


def check_markdown():
    return (
        "## Check\n\n"
        "**Save first (Ctrl-S).** The cell below grades this notebook *as saved on disk*, in a separate "
        "process, and records the attempt in `history.jsonl` next to it. If what you ran differs from "
        "what is saved, it says so and records nothing.\n\n"
        "For instant feedback while you work, without recording anything, run "
        "`from bpe_ref.grade import check_all; check_all()`."
    )


def check_cell_source(file_name):
    """The last cell: grade this very file (its name is embedded: the kernel cannot know it).

    The grader runs every cell of the drill, this one too, in its sandbox, where any bpe_ref
    name starting with `check` is a no-op: that is why the function is called check_drill.
    """
    return ("from bpe_ref.practice import check_drill\n\n"
            f"check_drill({file_name!r}, globals())  # grades the SAVED file: press Ctrl-S first")


def build_notebook(level, file_name, started):
    """The blank drill notebook for `level`, to be saved as `file_name`."""
    cells = [
        new_markdown_cell(intro_markdown(level, started)),
        new_markdown_cell("## Steps\n\n" + level.steps),
        new_markdown_cell(text_markdown(level)),
        new_code_cell(text_cell_source(level)),
        new_markdown_cell("## Your code"),
        new_code_cell(""),
        new_markdown_cell(check_markdown()),
        new_code_cell(check_cell_source(file_name)),
    ]
    notebook = new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.metadata["bpe_course"] = {
        "practice": {"level": level.name, "started": started.isoformat(timespec="seconds")},
        "exercises": list(level.exercises),
    }
    return notebook


# ---------------------------------------------------------------------------- new

def drill_file_name(day, level_name, number):
    """'2026-11-22-naive.ipynb' for the first drill of the day, then '...-naive-2.ipynb', ..."""
    suffix = "" if number == 1 else f"-{number}"
    return f"{day:%Y-%m-%d}-{level_name}{suffix}.ipynb"


def new_drill(directory, level_name="naive", started=None):
    """Write a blank drill into `directory` and return its path; never overwrites a file.

    The name is claimed with an exclusive create (open mode "x"), so two `new` at the same time
    (or a second drill the same day) get different names instead of clobbering each other.
    """
    level = get_level(level_name)
    started = started or now()
    directory = Path(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PracticeError(f"cannot create the folder {directory}: {e.strerror}") from e
    for number in range(1, 1000):
        path = directory / drill_file_name(started, level.name, number)
        text = nbformat.writes(build_notebook(level, path.name, started))
        try:
            with open(path, "x", encoding="utf-8") as f:
                f.write(text)
        except FileExistsError:
            continue
        return path
    raise PracticeError(f"{directory} already holds 999 {level.name} drills for {started:%Y-%m-%d}")


# ---------------------------------------------------------------------------- finding and reading

def drill_info(path):
    """{'level', 'started', 'exercises'} of a drill, from its metadata (or its name, as a fallback).

    `started` is an aware datetime, or None when the file does not say (e.g. not made by `new`).
    """
    path = Path(path)
    try:
        with open(path, encoding="utf-8") as f:
            metadata = json.load(f).get("metadata", {}).get("bpe_course", {})
    except (OSError, ValueError, AttributeError):
        metadata = {}
    practice = metadata.get("practice", {}) if isinstance(metadata, dict) else {}
    match = DRILL_NAME.match(path.name)
    level = practice.get("level") or (match["level"] if match else "unknown")
    return {"level": str(level), "started": parse_time(practice.get("started")),
            "exercises": list(metadata.get("exercises", [])) if isinstance(metadata, dict) else []}


def parse_time(value):
    """An aware datetime from an ISO string (local time when it has no offset); None if unreadable."""
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.astimezone()


def newest_drill(directory):
    """The most recently started drill in `directory` (by its recorded start, then its name)."""
    directory = Path(directory)
    if not directory.is_dir():
        raise PracticeError(f"no drill found: {directory}/ does not exist. "
                            "Start one with `bpe-practice new` (or pass --dir).")
    drills = [p for p in directory.iterdir() if DRILL_NAME.match(p.name)]
    if not drills:
        raise PracticeError(f"no drill found in {directory}/. Start one with `bpe-practice new`.")

    def key(path):
        started = drill_info(path)["started"]
        match = DRILL_NAME.match(path.name)
        return (started.timestamp() if started else path.stat().st_mtime, match["date"], int(match["n"] or 1))
    return max(drills, key=key)
