"""Tokenizers written as classes (minbpe's BasicTokenizer/RegexTokenizer, CS336's Tokenizer) and
CS336's train_bpe, graded as the learner wrote them: each method is mapped onto a course exercise
by what it accepts and returns, never by the class's name.

A method is called inside the sandbox on a fresh instance (worker op "object"); the course's
arguments go in through the class's own layout (merges set as an attribute for minbpe, a vocab of
bytes for CS336) and the answer comes back in the course's form, so the catalogue's judges and
bug models apply unchanged. Expected values are computed here, in the grader's process.
"""

import dataclasses
import time
from dataclasses import dataclass

from . import wire
from .diagnosis import is_pair_dict, not_byte_level
from .engine import Result, run_exercise
from .exercises import REGISTRY
from .exercises.common import Mismatch, Raised
from .exercises.w06_encoding import ranked_vocab
from ..patterns import GPT2_SPLIT_PATTERN

TRAIN_PROBE = ("aaabdaaabac", 259)
CS336_SPECIAL = "<|endoftext|>"  # given to train_bpe, which must put it in the vocab (any id)
SIZE_WORDS = ("size", "vocab", "merges", "num")


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


class Malformed:
    """An answer that cannot be read in the course's form; the judge says why."""

    def __init__(self, note):
        self.note = note

    def __eq__(self, other):
        return False

    __hash__ = object.__hash__

    def __repr__(self):
        return f"<{self.note}>"


# ---------------------------------------------------------------------------- finding the shapes

def tokenizer_classes(defined):
    """{class name: (methods, arguments its constructor needs)} for the classes the submission
    defines, leaving out abstract ones (minbpe's Tokenizer: its methods only raise NotImplementedError)."""
    classes = {}
    for name, info in defined.items():
        if info.get("methods") is None:
            continue
        working = {m: p for m, p in info["methods"].items() if m not in info.get("stubs", [])}
        if set(working) - {"__init__"}:
            classes[name] = (working, info.get("init_required") or 0)
    return classes


def role(method, params):
    """What a method is for, from its name and what it accepts: train, encode, decode, register,
    encode_iterable or None."""
    lowered = method.lower()
    if "iter" in lowered and "encode" in lowered:
        return "encode_iterable"
    if "special" in lowered and len(params) >= 1 and "encode" not in lowered:
        return "register"
    if lowered.startswith(("train", "fit", "learn")) and len(params) >= 2 \
            and any(w in params[1].lower() for w in SIZE_WORDS):
        return "train"
    if lowered in ("encode", "encode_ordinary", "tokenize") and params:
        return lowered if lowered != "tokenize" else "encode"
    if lowered in ("decode", "detokenize") and params:
        return "decode"
    return None


def find_mappings(defined, probe):
    """The Mappings of one submission's classes and train_bpe-like functions. `probe(cls, args)`
    trains a minbpe-style class once and returns its attributes (or None)."""
    found = []
    for cls, (methods, required) in tokenizer_classes(defined).items():
        init = methods.get("__init__", [])
        roles = {}
        for method, params in methods.items():
            r = role(method, params)
            if r and r not in roles:
                roles[r] = (method, params)
        if required >= 2 and "encode" in roles and ("decode" in roles or "encode_iterable" in roles):
            found += cs336_class(cls, roles, init)  # CS336: Tokenizer(vocab, merges, special_tokens=None)
        elif required <= 1 and ("train" in roles or {"encode", "decode"} <= set(roles)):
            found += minbpe_class(cls, roles, init, probe)
    for name, info in defined.items():
        names = [n.lower() for n in info.get("names") or []]
        if info.get("kind") == "callable" and len(names) >= 2 and any(w in names[0] for w in ("path", "file")) \
                and any(w in names[1] for w in ("vocab", "merges")):
            found.append(train_bpe_mapping(name, names))
    return found


# ---------------------------------------------------------------------------- minbpe

def minbpe_class(cls, roles, init, probe):
    """minbpe's layout: Cls() or Cls(pattern); train(text, vocab_size) fills self.merges;
    encode/decode read self.merges and self.vocab; register_special_tokens({token: id})."""
    regex_style = bool(init)
    attrs = {"merges": "merges", "vocab": "vocab"}
    mappings = []
    if "train" in roles:
        method = roles["train"][0]
        seen = probe(cls, [GPT2_SPLIT_PATTERN] if regex_style else [], method)
        if isinstance(seen, dict):
            not_bytes = not_byte_level(seen)
            if not_bytes:
                return [Mapping(f"{cls}.{method}", "not_byte_level", not_bytes, None)]
            if not any(is_pair_dict(v) for v in seen.values()) and not {"encode", "decode"} <= set(roles):
                return []  # trains something, but not pairs of ids: not a tokenizer
            attrs["merges"] = next((k for k, v in seen.items() if is_pair_dict(v)), "merges")
            attrs["vocab"] = next((k for k, v in seen.items() if _bytes_dict(v)), "vocab")
        exercise = "train_regex" if regex_style else "train"
        how = (f"{cls}(pattern).{method}(text, vocab_size), then .{attrs['merges']}" if regex_style
               else f"{cls}().{method}(text, vocab_size), then .{attrs['merges']}")
        mappings.append(Mapping(f"{cls}.{method}", exercise, how, minbpe_train(cls, method, regex_style, attrs)))
    if "decode" in roles:
        method = roles["decode"][0]
        mappings.append(Mapping(f"{cls}.{method}", "decode", f".{attrs['vocab']} = vocab, then .{method}(ids)",
                                minbpe_decode(cls, method, regex_style, attrs)))
    ordinary = roles.get("encode_ordinary") or roles.get("encode")
    if ordinary:
        exercise = "encode_ordinary" if regex_style else "encode"
        mappings.append(Mapping(f"{cls}.{ordinary[0]}", exercise,
                                f".{attrs['merges']} = merges, then .{ordinary[0]}(text)",
                                minbpe_encode(cls, ordinary[0], regex_style, attrs)))
    if regex_style and "encode" in roles and len(roles["encode"][1]) >= 2 and "register" in roles:
        method, register = roles["encode"][0], roles["register"][0]
        mappings.append(Mapping(f"{cls}.{method}", "encode_special",
                                f".{register}(special_tokens), then .{method}(text, allowed_special)",
                                minbpe_special(cls, method, register, attrs), asserts=True))
    return mappings


def _bytes_dict(value):
    return isinstance(value, dict) and value and all(isinstance(v, bytes) for v in value.values())


def _object(sandbox, cls, deadline, rule=None, **request):
    request = {"op": "object", "cls": cls, "init": [], **request}
    return sandbox.request({**request, "rule": rule} if rule else request, deadline)


def minbpe_train(cls, method, regex_style, attrs):
    def call(sandbox, args, deadline, rule):
        text, vocab_size, *rest = args
        reply = _object(sandbox, cls, deadline, rule, init=_wire(rest if regex_style else []),
                        call=[method, _wire([text, vocab_size])], read="*")
        if reply.kind == "ok":
            reply.value = (reply.value or {}).get(attrs["merges"]) if isinstance(reply.value, dict) else None
        return reply
    return call


def minbpe_decode(cls, method, regex_style, attrs):
    def call(sandbox, args, deadline, rule):
        ids, vocab = args
        return _object(sandbox, cls, deadline, rule, init=_wire([GPT2_SPLIT_PATTERN] if regex_style else []),
                       set=_wire({attrs["vocab"]: vocab}), call=[method, _wire([ids])])
    return call


def minbpe_encode(cls, method, regex_style, attrs):
    def call(sandbox, args, deadline, rule):
        text, merges, *rest = args
        return _object(sandbox, cls, deadline, rule, init=_wire(rest if regex_style else []),
                       set=_wire({attrs["merges"]: merges, attrs["vocab"]: ranked_vocab(merges)}),
                       call=[method, _wire([text])])
    return call


def minbpe_allowed(allowed):
    """The course's allowed_special in minbpe's words: frozenset() is minbpe's "none_raise"."""
    if isinstance(allowed, (set, frozenset)) and not allowed:
        return "none_raise"
    return allowed


def minbpe_special(cls, method, register, attrs):
    def call(sandbox, args, deadline, rule):
        text, merges, pattern, special_tokens, allowed = args
        return _object(sandbox, cls, deadline, rule, init=_wire([pattern]),
                       set=_wire({attrs["merges"]: merges, attrs["vocab"]: ranked_vocab(merges)}),
                       steps=[[register, _wire([special_tokens])]],
                       call=[method, _wire([text, minbpe_allowed(allowed)])])
    return call


# ---------------------------------------------------------------------------- CS336

def cs336_class(cls, roles, init):
    """CS336's layout: Tokenizer(vocab {id: bytes}, merges [(bytes, bytes)], special_tokens),
    GPT-2's pattern built in, special tokens always allowed; judged by the bytes of each token."""
    mappings = []
    if "encode" in roles:
        method = roles["encode"][0]
        mappings.append(Mapping(f"{cls}.{method}", "encode_ordinary",
                                f"{cls}(vocab, merges as bytes pairs).{method}(text), tokens compared as bytes",
                                cs336_encode(cls, method), pattern=GPT2_SPLIT_PATTERN))
        if len(init) >= 3:
            mappings.append(Mapping(f"{cls}.{method}:special_tokens", "encode_special",
                                    f"{cls}(vocab, merges, special_tokens).{method}(text)",
                                    cs336_encode(cls, method, specials=True), pattern=GPT2_SPLIT_PATTERN,
                                    only_all=True))
    if "encode_iterable" in roles:
        method = roles["encode_iterable"][0]
        mappings.append(Mapping(f"{cls}.{method}", "encode_ordinary",
                                f"{cls}(vocab, merges).{method}(the text's lines), ids of all lines together",
                                cs336_encode(cls, method, iterate=True), pattern=GPT2_SPLIT_PATTERN))
    if "decode" in roles:
        method = roles["decode"][0]
        mappings.append(Mapping(f"{cls}.{method}", "decode", f"{cls}(vocab, []).{method}(ids)",
                                cs336_decode(cls, method)))
    return mappings


def cs336_layout(merges, special_tokens=None):
    """(vocab {id: bytes}, merges [(bytes, bytes)], {learner id: course id}): the special tokens
    first (as CS336's tests lay out GPT-2's), then the 256 bytes, then the merged tokens."""
    course = ranked_vocab(merges)
    specials = sorted((special_tokens or {}).items(), key=lambda item: item[1])
    vocab, back = {}, {}
    for token, course_id in specials:
        back[len(vocab)] = course_id
        vocab[len(vocab)] = token.encode("utf-8")
    for course_id, token in course.items():
        back[len(vocab)] = course_id
        vocab[len(vocab)] = token
    pairs = [(course[a], course[b]) for (a, b), _ in sorted(merges.items(), key=lambda item: item[1])]
    return vocab, pairs, back


def cs336_encode(cls, method, specials=False, iterate=False):
    def call(sandbox, args, deadline, rule):
        text, merges = args[0], args[1]
        tokens = args[3] if specials else {}
        vocab, pairs, back = cs336_layout(merges, tokens)
        init = [vocab, pairs, sorted(tokens)] if specials else [vocab, pairs]
        given = [safe_lines(text)] if iterate else [text]
        reply = _object(sandbox, cls, deadline, rule, init=_wire(init), call=[method, _wire(given)],
                        iterate=iterate)
        if reply.kind == "ok" and isinstance(reply.value, list):
            reply.value = [back.get(i, i) if isinstance(i, int) else i for i in reply.value]
        return reply
    return call


def safe_lines(text):
    """The text as lines, cut only after a newline followed by a non-space, where no chunk of
    GPT-2's pattern can cross: reading a file line by line must not change the tokens."""
    lines, start = [], 0
    for i in range(1, len(text)):
        if text[i - 1] == "\n" and not text[i].isspace():
            lines.append(text[start:i])
            start = i
    return lines + [text[start:]] if text else []


def cs336_decode(cls, method):
    def call(sandbox, args, deadline, rule):
        ids, vocab = args
        return _object(sandbox, cls, deadline, rule, init=_wire([vocab, []]), call=[method, _wire([ids])])
    return call


def train_bpe_mapping(name, params):
    """A trainer that reads its text from a file: CS336's train_bpe(input_path, vocab_size,
    special_tokens) -> (vocab, merges as bytes pairs), GPT-2's pattern built in; or one that takes
    the pattern as its third argument and returns the course's merges dict."""
    takes_pattern = len(params) >= 3 and "pattern" in params[2]

    specials = [] if takes_pattern or len(params) < 3 else [CS336_SPECIAL]

    def call(sandbox, args, deadline, rule):
        text, vocab_size, pattern = args
        third = [pattern] if takes_pattern else [specials] if len(params) >= 3 else []
        size = vocab_size + len(specials)  # CS336's vocab_size counts the special tokens
        request = {"op": "with_file", "name": name, "args": _wire([text, size, *third])}
        reply = sandbox.request({**request, "rule": rule} if rule else request, deadline)
        if reply.kind == "ok" and not isinstance(reply.value, dict):
            reply.value = merges_from_bytes(reply.value, specials)
        return reply
    if takes_pattern:
        return Mapping(name, "train_regex", f"{name}(a file holding the text, vocab_size, pattern)", call)
    return Mapping(name, "train_regex", f"{name}(a file holding the text, vocab_size + 1, [{CS336_SPECIAL!r}]): "
                   "merges read as bytes pairs in order, the vocab as its set of byte strings", call,
                   pattern=GPT2_SPLIT_PATTERN)


def merges_from_bytes(value, specials=()):
    """CS336's (vocab, merges) in the course's form {(id, id): new_id}, ranked by list order; or
    Malformed saying what is wrong with it. The vocab is judged as the set of its byte strings: the
    256 bytes, one per merge, and the special tokens, under any ids."""
    if not (isinstance(value, tuple) and len(value) == 2):
        return Malformed(f"should return (vocab, merges), not {type(value).__name__}")
    vocab, merges = value
    if not isinstance(merges, list) or not all(isinstance(p, tuple) and len(p) == 2 and
                                               all(isinstance(b, bytes) for b in p) for p in merges):
        return Malformed("merges should be a list of (bytes, bytes) pairs, in the order they were made")
    ids = {bytes([i]): i for i in range(256)}
    course = {}
    for a, b in merges:
        if a not in ids or b not in ids:
            return Malformed(f"merge {(a, b)!r} joins a token that is neither a byte nor made by an earlier merge")
        course[(ids[a], ids[b])] = 256 + len(course)
        ids.setdefault(a + b, 255 + len(course))
    wanted = set(ids) | {token.encode("utf-8") for token in specials}
    if not isinstance(vocab, dict) or set(vocab.values()) != wanted:
        missing = sorted(wanted - set(vocab.values()) if isinstance(vocab, dict) else [])[:3]
        return Malformed(f"the vocab should hold the 256 bytes and one token per merge; missing {missing}"
                         if missing else "the vocab holds tokens that are neither bytes nor merges")
    return course


def _wire(value):
    return wire.to_wire(value)


# ---------------------------------------------------------------------------- grading

class ClassCaller:
    """The engine's caller for one Mapping: the course's arguments in, the course's answer out.
    A frozenset the method refuses is tried again as a plain set (see engine: every failure)."""

    def __init__(self, sandbox, mapping, deadline):
        self.sandbox, self.mapping, self.deadline = sandbox, mapping, deadline

    def call(self, args, rule=None):
        return self.mapping.call(self.sandbox, args, self.deadline, rule)

    def measure(self, text, vocab_size):
        return self.call((text, vocab_size)), None

    def by_hand(self, rule):
        name = self.mapping.learner.split(":")[0]
        reply = self.sandbox.request({"op": "by_hand", "name": name, "rule": rule}, self.deadline)
        return reply.value if reply.kind == "ok" else []


def mapped_exercise(mapping):
    """The course exercise, reported under the learner's name, its arguments fitted to the design."""
    ex = REGISTRY[mapping.exercise]
    fit = fitter(mapping)
    judge = ex.judge

    def judged(args, got):
        if isinstance(got, Malformed):
            wrong = judge(args, None)  # the judge's own expected value, with the reason why not
            return Mismatch(wrong.expected if wrong else None, got.note)
        if mapping.asserts and isinstance(got, Raised) and got.is_a("AssertionError"):
            got = Raised("ValueError", got.message)  # minbpe's "none_raise" is an assert
        return judge(args, got)

    return dataclasses.replace(
        ex, name=mapping.learner, cases=lambda: _unique([fit(a) for a in ex.cases()]),
        strategy=ex.strategy.map(fit), judge=judged,
        probes=(lambda: [fit(a) for a in ex.probes()]) if ex.probes else None, work=None)


def _unique(cases):
    seen, out = set(), []
    for args in cases:
        if repr(args) not in seen:
            seen.add(repr(args))
            out.append(args)
    return out


def fitter(mapping):
    """args -> args with the design's built-in pattern and allowed_special put in."""
    def fit(args):
        args = list(args)
        ex = REGISTRY[mapping.exercise]
        if mapping.pattern and "pattern" in ex.signature:
            args[2] = mapping.pattern
        if mapping.only_all:
            args[4] = "all"
        return tuple(args)
    return fit


def probe_train(sandbox, deadline):
    """probe(cls, init, method): the attributes a minbpe-style class has after training once."""
    def probe(cls, init, method):
        reply = _object(sandbox, cls, deadline, init=_wire(init), call=[method, _wire(list(TRAIN_PROBE))], read="*")
        return reply.value if reply.kind == "ok" else None
    return probe


def grade_classes(sandbox, timeout):
    """{learner name: Result} for every mapped method of the submission's tokenizer classes."""
    mappings = find_mappings(sandbox.defined, probe_train(sandbox, time.monotonic() + timeout))
    results = {}
    for mapping in mappings:
        if mapping.exercise == "not_byte_level":
            results[mapping.learner] = Result(mapping.learner, "fail", mapping.how, {"course": "train"})
            continue
        ex = mapped_exercise(mapping)
        result = run_exercise(ex, ClassCaller(sandbox, mapping, time.monotonic() + timeout), timeout)
        result.detail["exercise"] = (f"graded as the course's {mapping.exercise} "
                                     f"(workbook {REGISTRY[mapping.exercise].workbook}): {mapping.how}")
        result.detail["course"] = mapping.exercise
        results[mapping.learner] = result
    return results
