"""Word-level BPE graded in its own terms: the Hugging Face course's BPE class and functions, and
trainers like them, whose merges pair strings, so no byte-level exercise fits them. Each part is
checked against the design's own conventions (its start and end-of-word symbols, its order among
tied pairs): train against a replay of its merges over the same words, each merge a most frequent
pair of what is left; a pair counter and a merge against the splits they are handed; tokenize
against merges of its own. The expected values are computed in the grader's process.
"""

from .classes import grade_word_classes
from .functions import grade_module_tokenize, grade_word_functions


def grade_word_level(sandbox, defined, results, timeout):
    """{learner name: Result} for the submission's word-level BPE that nothing else graded: a
    module-level tokenize(text), trainer functions and a tokenize(text, merges) beside them, classes."""
    out = {}
    for name, info in defined.items():
        if name not in results and info.get("kind") == "callable" and info.get("methods") is None \
                and info.get("own") is not False and info.get("params") == 1 \
                and name.lower().lstrip("_").startswith(("tokeni", "encode")) \
                and not any("tokeniz" in t.lower() for t in info.get("word_tables") or ()) \
                and (found := grade_module_tokenize(sandbox, name, info, timeout)) is not None:
            out[name] = found
    out.update(grade_word_functions(sandbox, defined, {**results, **out}, timeout))
    out.update(grade_word_classes(sandbox, defined, results, timeout))
    return out
