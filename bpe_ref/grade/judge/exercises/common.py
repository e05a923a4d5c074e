"""What every exercise of the catalogue is made of, and the inputs several workbooks share.

An exercise is its cases (small edge cases first), a hypothesis strategy, a judge that accepts
any correct answer, the task line, and its known bugs. A bug is a model (a function that makes
the mistake) and the hint that names it; the hint is shown only when the learner's function
behaves like the model on the inputs that tell the known bugs apart (see diagnosis.py).
"""

from dataclasses import dataclass
from typing import Callable

from hypothesis import strategies as st

from .._private import naive
from ....core.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, O200K_SPLIT_PATTERN

REGISTRY = {}  # name -> Exercise, in workbook order


@dataclass
class Mismatch:
    """Why an answer is wrong: the expected value to show, and an optional explanation."""

    expected: object
    note: str = ""
    hint: str = ""  # what to do, when the mismatch itself is the evidence (no bug model needed)


@dataclass
class Bug:
    """A known way to get an exercise wrong.

    `model(*args)` makes the mistake (returns or raises what such code does). `agrees(args, got)`
    tells whether an answer is one the mistake could give (when ties allow several); by default
    the answer must be the model's. `also` lists other models of the same mistake (two ways to
    write overlapping matches). `errors` are exception names that count as the model's own raise.
    """

    name: str
    hint: str
    model: Callable
    agrees: Callable = None
    also: tuple = ()
    errors: tuple = ()

    @property
    def models(self):
        return (self.model, *self.also)


@dataclass
class WorkCheck:
    """Judge a trainer by the pair lookups it makes, against the naive loop's (see work.py)."""

    vocab_size: int
    max_ratio: float
    hint: str


@dataclass
class Exercise:
    """One graded exercise: how to try it, how to judge it, its known bugs, where it is taught."""

    name: str
    signature: str
    cases: Callable  # () -> list of argument tuples, smallest first
    strategy: object  # hypothesis strategy of argument tuples
    judge: Callable  # (args, got) -> Mismatch | None
    hint: str  # how to do it: shown when no known bug matches
    bugs: tuple = ()  # the known mistakes (Bug)
    probes: Callable = None  # () -> more inputs that tell the bugs apart (the cases are used too)
    observe: Callable = None  # (args, got, expected) -> what went wrong, in words, or None
    by_hand: str = None  # a byhand.RULES name: the library calls this exercise refuses
    work: WorkCheck = None
    checks_mutation: bool = False
    # (args, first, second) -> Mismatch | None: when set, the function is called twice on the same
    # arguments in one request, and a second answer unlike the first shows that it changed them
    again: Callable = None
    examples: int = 80
    workbook: str = ""  # the workbook that teaches it, e.g. "04_naive_bpe"
    section: str = ""  # the heading of its exercise there, as the learner sees it
    task: str = ""  # one line: what to write (shown in the learner's stub)
    uses: tuple = ()  # for an exercise of several functions: their names ...
    combine: Callable = None  # ... and (call(name, args) -> Reply, args) -> the Reply judged


def exercise(**kwargs):
    ex = Exercise(**kwargs)
    REGISTRY[ex.name] = ex
    return ex


def equal_to(reference):
    """A judge comparing with reference(*args) exactly."""
    def judge(args, got):
        expected = reference(*args)
        return None if same(got, expected) else Mismatch(expected)
    return judge


class Raises:
    """An expected outcome that is an exception, not a value: shown as `raises ValueError`, unquoted."""

    def __init__(self, type_name):
        self.type_name = type_name

    def __eq__(self, other):
        return isinstance(other, Raises) and other.type_name == self.type_name

    def __hash__(self):
        return hash(("raises", self.type_name))

    def __repr__(self):
        return f"raises {self.type_name}"


class Raised:
    """What a learner's function raised instead of returning (type name, message, where)."""

    def __init__(self, type_name, message, where=None, kinds=None, line=None, origin=None, signature=None,
                 in_method=False):
        self.type_name, self.message, self.where = type_name, message, where
        self.kinds = kinds or [type_name]  # the exception's class and its bases, by name
        self.line, self.origin, self.signature = line, origin, signature
        self.in_method = in_method  # the learner's line that raised is in a method (self or cls first)

    @classmethod
    def from_info(cls, info):
        return cls(info["type"], info["message"], info.get("where"), info.get("kinds"), info.get("line"),
                   info.get("origin"), info.get("signature"), info.get("in_method") is True)

    @classmethod
    def from_exception(cls, exc):
        return cls(type(exc).__name__, str(exc), kinds=[c.__name__ for c in type(exc).__mro__])

    def is_a(self, name):
        return name in self.kinds

    def __eq__(self, other):
        return False

    __hash__ = object.__hash__

    def __repr__(self):
        text = f"raised {self.type_name}: {self.message}"
        if self.where:
            text += f" ({self.where}: {self.line})" if self.line else f" ({self.where})"
        return text


def same(got, expected):
    """Equality that accepts a tuple for a list and a dict subclass (Counter) for a dict."""
    if isinstance(expected, list) and isinstance(got, tuple):
        got = list(got)
    try:
        return (got == expected) is True
    except Exception:  # noqa: BLE001 - a learner's object with a strange __eq__
        return False


def same_order(got, expected):
    """Equal, and a dict's keys in the same order (the order is part of some promises)."""
    return same(got, expected) and (not isinstance(expected, dict) or list(got) == list(expected))


# ---------------------------------------------------------------------------- shared inputs

SMALL_TEXT = st.sampled_from(["ab", "abc", "ab ", "aé", "a😀", "한국", "aab c"]).flatmap(
    lambda alphabet: st.text(alphabet=alphabet, max_size=24))
MIXED_TEXT = st.text(alphabet=st.sampled_from(list("ab é😀한\n'1")), max_size=30)
TRAIN_TEXTS = ["aaabdaaabac", "hello hello world", "ababababab", "안녕 안녕 안녕하세요",
               "mañana mañana", "😀😀😀 😀", "abcabcabc abc"]
IDS = st.lists(st.integers(0, 3), max_size=14)


@st.composite
def trained_merges(draw, max_merges=14):
    text = draw(SMALL_TEXT | st.sampled_from(TRAIN_TEXTS))
    return naive.train(text, 256 + draw(st.integers(0, max_merges)))


# The split patterns an exercise is tried with: the course's three, and simple ones of our own,
# so that code which ignores its `pattern` argument cannot pass.
WORDS_PATTERN = r"\w+|\s+|[^\w\s]+"
CHARACTERS_PATTERN = r"(?s)."
WHOLE_TEXT_PATTERN = r"(?s).+"  # no split: a tokenizer of no pattern encodes each piece between special tokens whole
PATTERN_NAMES = {GPT2_SPLIT_PATTERN: "GPT2_SPLIT_PATTERN", GPT4_SPLIT_PATTERN: "GPT4_SPLIT_PATTERN",
                 O200K_SPLIT_PATTERN: "O200K_SPLIT_PATTERN", WHOLE_TEXT_PATTERN: "WHOLE_TEXT_PATTERN"}
PATTERNS = [GPT4_SPLIT_PATTERN, GPT2_SPLIT_PATTERN, O200K_SPLIT_PATTERN, WORDS_PATTERN, CHARACTERS_PATTERN]
