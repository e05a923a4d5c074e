"""The catalogue of graded exercises, one module per workbook.

Each module holds, for each of its exercises, the cases, the judge, the known bugs with their
hints, and the task line the learner's stub shows. `REGISTRY[name]` is the exercise;
`REGISTRY[name].workbook`, `.section` and `.task` say where it is taught and what to write.
"""

from . import (  # noqa: F401 - importing a module registers its exercises, in workbook order
    w00_start_here, w01_hex, w02_unicode, w03_utf8, w03a_word_tokenization, w04_naive_bpe, w05_decoding,
    w06_encoding, w07_regex_splitting, w08_special_tokens, w09_gpt4_from_tiktoken, w10_fast_bpe, w11_tokens_and_models, drill,
)
from .common import REGISTRY, Bug, Exercise, Mismatch, Raised

CONTRACT = list(REGISTRY)


def workbook_exercises(workbook):
    """The names graded in one workbook ('06_encoding' -> ['encode']), in catalogue order."""
    return [name for name, ex in REGISTRY.items() if ex.workbook == workbook]


__all__ = ["REGISTRY", "CONTRACT", "Bug", "Exercise", "Mismatch", "Raised", "workbook_exercises"]
