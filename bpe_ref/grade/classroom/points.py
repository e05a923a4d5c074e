"""Points per exercise: the default table (the README's), and a JSON file that overrides it.

A points file is one JSON object, exercise name -> points (a number >= 0); exercises it does
not name keep their default, and 0 leaves an exercise out of the score:

    {"train": 5, "encode": 4, "to_hex": 0}
"""

import json
import math
from pathlib import Path

from ..judge.exercises import CONTRACT

# what each exercise is worth by default: roughly how much there is to get right in it
DEFAULT_POINTS = {
    "u_plus": 1, "to_hex": 1, "from_hex": 1, "from_u_plus": 1, "strip_marks": 1, "utf8_encode": 2, "word_tokenize": 2,
    "get_stats": 1, "merge": 2, "train": 3,
    "build_vocab": 1, "decode": 2,
    "encode": 3,
    "split_text": 1, "train_regex": 3, "encode_ordinary": 2,
    "encode_special": 3,
    "recover_merges": 3,
    "train_incremental": 4,
    "tokens_per_byte": 1, "unused_tokens": 1,
    "save_load": 2,  # the full drill's save_merges/load_merges, graded together
    "merges": 2, "vocab": 1,  # the weekly drill's module-level values
}
GRADED = CONTRACT + ["merges", "vocab"]  # every name the grader reports, in course order


def load_points(path=None):
    """The points table: the defaults, overridden by the JSON file at `path` (if given).

    >>> load_points()["train"]
    3
    """
    table = {name: DEFAULT_POINTS.get(name, 1) for name in GRADED}  # a new exercise: 1 until it is listed
    if path is None:
        return table
    table.update(read_points_file(Path(path)))
    return table


def read_points_file(path):
    """The {exercise: points} object in a JSON file, checked; ValueError says what to fix."""
    example = 'write it as one JSON object, e.g. {"train": 5, "encode": 4}'
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ValueError(f"cannot read the points file {path}: {e.strerror or e}") from e
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"the points file {path} is not valid JSON (line {e.lineno}, column {e.colno}: "
                         f"{e.msg}); {example}") from e
    if not isinstance(data, dict):
        raise ValueError(f"the points file {path} holds a JSON {type(data).__name__}, not an object; {example}")
    unknown = [name for name in data if name not in GRADED]
    if unknown:
        raise ValueError(f"the points file {path} names exercises the grader does not know: "
                         f"{', '.join(map(repr, unknown))}; the exercises are {', '.join(GRADED)}")
    for name, points in data.items():
        if not is_points(points):
            raise ValueError(f"the points for {name!r} in {path} must be a number >= 0, not {points!r}")
    return data


def is_points(value):
    """A finite number >= 0 (True/False are not points)."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value >= 0)


def earned(verdict, points):
    """The points a verdict earns: all of them for a pass, none otherwise (no partial credit);
    an instructor's override (overrides.py) sets them instead, up to `points`.

    >>> earned({"status": "pass"}, 3), earned({"status": "fail"}, 3)
    (3, 0)
    """
    if verdict.get("override"):
        return min(points, verdict["override"]["points"])
    return points if verdict.get("status") == "pass" else 0


def show_points(value):
    """Points as people write them: 3, 2.5 (not 3.0).

    >>> show_points(3.0), show_points(2.5)
    ('3', '2.5')
    """
    return f"{value:g}"
