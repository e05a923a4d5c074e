"""What every tokenizer layout the grader recognises shares (classes.py finds them,
minbpe_style.py and cs336_style.py say how each is called): a Mapping of one learner method onto one
course exercise, an answer that cannot be read (Malformed), and the request that runs a method on a
fresh object inside the sandbox (worker op "object").
"""

from dataclasses import dataclass

from ..inside import wire


@dataclass
class Mapping:
    """One learner method graded as one course exercise."""

    learner: str  # 'RegexTokenizer.train', as the learner wrote it
    exercise: str  # the course exercise, 'train_regex'
    how: str  # how the course's arguments reach the method, in words
    call: object  # (sandbox, args, deadline, rule) -> Reply with the answer in the course's form
    pattern: str = None  # the split pattern the design has built in (CS336: GPT-2's)
    only_all: bool = False  # special tokens are always allowed (CS336): allowed_special is "all"
    asserts: bool = False  # a disallowed special token may fail an assert (minbpe's "none_raise")
    ungradable: str = None  # why the method could not be graded (where train keeps its merges is unknown)
    set_as_text: bool = False  # with an allowed set, other special tokens may be encoded as text (minbpe)
    helper: bool = False  # a further encoder beside the class's encode (encode_normal): reported only if encode fails
    own_exercise: object = None  # an Exercise of the design's own (CS336's from_files), not a workbook's
    guessed: bool = False  # its pattern is the candidate its answers agree with (a split built in), not one it was given
    refuses_specials: bool = False  # encode(text, allowed_special) graded as ordinary: it may refuse a special token in the text, as tiktoken's encode does
    numbering: object = None  # (sandbox, args, deadline) -> the class's own {token: id} for args: it numbers its special tokens itself


class Malformed:
    """An answer that cannot be read in the course's form; the judge says why."""

    def __init__(self, note, made=None, shaped=False):
        self.note = note
        self.made = made  # the course's merges read before the answer went wrong, when that is known
        self.shaped = shaped  # an answer of the exercise's kind, wrong in a way the layout names

    def __eq__(self, other):
        return False

    __hash__ = object.__hash__

    def __repr__(self):
        return f"<{self.note}>"


def object_call(sandbox, cls, deadline, rule=None, **request):
    """A method of the learner's class `cls`, run on a fresh object in the sandbox (see worker.py)."""
    # "set" always goes in wire form: the worker reads a missing one as a plain {}, which from_wire refuses
    request = {"op": "object", "cls": cls, "init": wired([]), "set": wired({}), **request}
    return sandbox.request({**request, "rule": rule} if rule else request, deadline)


def without_constructor(bare):
    """object_call's arguments that make the object without its constructor (one that loads its
    tables from a file), when `bare`."""
    return {"made_by": "__new__"} if bare else {}


def wired(value):
    """A value in the sandbox protocol's form."""
    return wire.to_wire(value)
