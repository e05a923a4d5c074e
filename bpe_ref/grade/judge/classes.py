"""Tokenizers written as classes (minbpe's BasicTokenizer/RegexTokenizer, CS336's Tokenizer) and
CS336's train_bpe, graded as the learner wrote them: each method is mapped onto a course exercise
by what it accepts and returns, never by the class's name.

A method is called inside the sandbox on a fresh instance (worker op "object"); the course's
arguments go in through the class's own layout (merges set as an attribute for minbpe, a vocab of
bytes for CS336) and the answer comes back in the course's form, so the catalogue's judges and
bug models apply unchanged. Expected values are computed here, in the grader's process.
"""

import dataclasses
import functools

import regex

from .built_in_split import split_finder
from .registering import FORMS, chosen, register_finder, registration
from .cs336_style import (cs336_class, sized_trainer_class_mapping, train_bpe_mapping, trainer_class_mapping,
                          trainer_method_mapping)
from .engine import Result, run_exercise
from .from_files import from_files_mapping, loader_of
from .exercises import REGISTRY
from .exercises.common import Mismatch, Raised
from .exercises.w07_regex_splitting import CONTRACTION_TEXTS
from .exercises.w08_special_tokens import in_minbpe_terms, others_as_text
from .minbpe_style import CHUNK_WORDS, minbpe_class, probe_train
from ..walls.sandbox import Reply, exercise_deadline
from ...core.patterns import GPT4_SPLIT_PATTERN
from .shapes import Malformed, Mapping

SIZE_WORDS = ("size", "vocab", "merges", "num")  # what a trainer's size parameter is called
TRAIN_WORDS = ("train", "fit", "learn")  # how a method that trains is named
TRAINER_NAMES = TRAIN_WORDS + ("run",)  # a trainer class's method that learns, taking no argument
NUMBERED = FORMS[1:]  # special tokens handed over without ids: the class numbers them itself


# ---------------------------------------------------------------------------- finding the shapes

def with_registration(cls, methods, required, roles, keeps, reads_specials=True):
    """`roles` with the way `cls` takes special tokens told by what it does: of several register
    methods, the one that keeps the ids given; one that numbers them itself (a list, one token a
    call); else a constructor parameter named for them (Cls(special_tokens=...)), when its encode
    reads them (`reads_specials`): a constructor may keep tokens only decode uses, or none."""
    init = methods.get("__init__", [])
    init_args = [GPT4_SPLIT_PATTERN] if takes_pattern(init) else [260] if required and takes_size(init) else []
    if "register" in roles:
        registers = [(m, p) for m, p in methods.items() if role(m, p) == "register"]
        keeps_ids = functools.cache(lambda name: keeps(cls, name, init_args))  # each probed once, not twice
        method, params = chosen(registers, keeps_ids)
        if not keeps_ids(method):
            method = registration(keeps, cls, method, init_args, forms=NUMBERED) or method
        return {**roles, "register": (method, params)}
    param = next((p for p in init if "special" in p.lower()), None)
    if param and reads_specials and required <= len(init_args) \
            and (way := registration(keeps, cls, param, init_args, in_init=True, forms=FORMS[:2])):
        return {**roles, "register": (way, [])}
    return roles


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
    encode_iterable, encode_chunk (a private one-chunk encoder) or None. Names are read loosely (encoder, encode_text, decoder): the grading
    that follows tells whether the method really does the job."""
    lowered = method.lower()
    if "iter" in lowered and "encode" in lowered:
        return "encode_iterable"
    if "special" in lowered and len(params) >= 1 and "encode" not in lowered:
        return "register"
    if lowered.startswith(TRAIN_WORDS) and len(params) >= 2 \
            and any(w in params[1].lower() for w in SIZE_WORDS):
        return "train"
    if lowered.startswith(TRAIN_WORDS) and len(params) == 2 and sized_by(params[1]):
        return "train_other"  # training(corpora, volumen): train in a class that also encodes or decodes
    if lowered in ("encode", "encode_ordinary", "tokenize") and params:
        return lowered if lowered != "tokenize" else "encode"
    if lowered in ("decode", "detokenize") and params:
        return "decode"
    if lowered.startswith("_") and one_chunk_encoder(lowered.lstrip("_"), params):
        return "encode_chunk"  # minbpe's _encode_chunk(text_bytes): a helper beside encode, never encode itself
    if lowered.startswith(("encode", "encoder")) or lowered.endswith("encoder"):
        return "encode_other" if params else None
    if lowered.startswith(("decode", "decoder")) or lowered.endswith("decoder"):
        return "decode_other" if params else None
    return None


# a train method's second parameter so named is no vocab size
NOT_A_SIZE = ("verbose", "debug", "log", "print", "show", "quiet", "progress", "stop", "early", "plot", "save",
              "special", "pattern", "regex", "path", "file", "dir", "epoch", "batch", "label", "rate")


def sized_by(param):
    """Whether a train method's second and last parameter, named in no known way (training(corpora,
    volumen)), may be the vocab size: not a flag, a pattern, special tokens or a path. Training
    then tells."""
    return not any(w in param.lower() for w in NOT_A_SIZE)


def preferred(method, holder, r):
    """Whether `method` takes role `r` from `holder`, a method of the same role before it: the one
    named for the role itself, else a public one before a private helper (encode_iterable over
    _encode_iter)."""
    return holder != r and (method == r or (holder.startswith("_") and not method.startswith("_")))


def one_chunk_encoder(name, params):
    """Whether a method named `name` encodes one chunk, taking nothing but it (encode_chunk(text_bytes))."""
    return name.startswith("encode") and any(w in name for w in CHUNK_WORDS) and len(params) == 1


def class_roles(methods):
    """{role: (method, params)} for one class: the first method of each role; a method with a
    looser name (encoder, decoder) takes a role no exactly named method has. `extra_encoders`:
    further one-argument encoders (encode_normal beside encode, _encode_chunk), graded as ordinary encoding."""
    roles, loose, extra = {}, [], []
    for method, params in methods.items():
        r = role(method, params)
        if r in ("encode_other", "decode_other", "train_other"):
            loose.append((r.partition("_")[0], method, params))
        elif r == "encode_chunk":  # only ever a helper beside the class's encode
            extra.append((method, params))
        elif r and (r not in roles or preferred(method, roles[r][0], r)):
            roles[r] = (method, params)
    for r, method, params in loose:
        if r == "train" and not {"encode", "encode_ordinary", "decode"} & ({*roles} | {x for x, *_ in loose}):
            continue  # a model's train(data, epochs): no tokenizer beside it
        if r not in roles and not (r == "encode" and "encode_ordinary" in roles):
            roles[r] = (method, params)
        elif r == "encode" and len(params) == 1 and "encode_ordinary" not in roles:
            extra.append((method, params))
    return roles, extra


def unfinished(info):
    """Whether a class is minbpe's skeleton half filled in: its train or decode still a stub."""
    return bool({"train", "decode"} & set(info.get("stubs") or ()))


STUB_ROLES = ("train", "decode", "encode")  # a minbpe method still a stub, reported as the exercise of its name


def stub_mappings(cls, info, roles, defined):
    """A row 'not implemented yet' for each of a minbpe-style class's methods still a stub: its
    unfinished part is named, and the file is not passed while it is. A stub a subclass fills in
    is an abstract base's by design, not unfinished work."""
    return [Mapping(f"{cls}.{stub}", stub, "still a stub", lambda *_: Reply("not_implemented"))
            for stub in STUB_ROLES if stub in (info.get("stubs") or ()) and stub not in roles
            and not filled_by_subclass(defined, cls, stub)]


def filled_by_subclass(defined, cls, method):
    """Whether a class of the submission that derives from `cls` writes `method` itself."""
    return any(cls in (info.get("bases") or ()) and method in (info.get("methods") or {})
               and method not in (info.get("inherited") or ()) and method not in (info.get("stubs") or ())
               for info in defined.values())


PATTERN_WORDS = ("pattern", "regex", "pat", "split")  # a constructor parameter so named takes the split pattern


def takes_size(init):
    """Whether a constructor's first parameter is the vocab size (BasicTokenizer(vocab_size))."""
    return bool(init) and any(w in init[0].lower() for w in SIZE_WORDS) and not takes_pattern(init) \
        and not names_a_path(init[0].lower())  # Tokenizer(merges_path) reads its tables from a file


def takes_pattern(init):
    """Whether a constructor's first parameter is a split pattern (minbpe's RegexTokenizer(pattern)),
    read from its name: Tokenizer(verbose=0), BasicTokenizer(vocab_size) or Tokenizer(merges_path)
    take none."""
    return bool(init) and not names_a_path(init[0].lower()) and any(w in init[0].lower() for w in PATTERN_WORDS)


def find_mappings(defined, probe, split=None, keeps=None):
    """The Mappings of one submission's classes and train_bpe-like functions. `probe(cls, args)`
    trains a minbpe-style class once and returns its attributes (or None); `split` tells the split
    a class whose constructor takes no pattern has built in (built_in_split.split_finder); `keeps`
    which of several register methods keeps the ids given (registering.register_finder)."""
    found, classes = [], tokenizer_classes(defined)
    for cls, (methods, required) in classes.items():
        init = methods.get("__init__", [])
        roles, extra = class_roles(methods)
        reads_specials = roles.get("encode", ("",))[0] in (defined[cls].get("special_readers") or ())
        if keeps is not None:
            roles = with_registration(cls, methods, required, roles, keeps, reads_specials)
        if ((required >= 2 and not names_a_size(init[0]) and not takes_minbpe_tables(init) and not names_a_text(init[0]))
                or (takes_tables(init) and "train" not in roles)) \
                and "encode" in roles and ("decode" in roles or "encode_iterable" in roles):
            found += cs336_class(cls, roles, init, required)  # CS336: Tokenizer(vocab, merges, special_tokens=None)
            if loader := loader_of(defined[cls].get("classmethods")):  # and its from_files(vocab_filepath, ...)
                found.append(from_files_mapping(cls, loader, roles["encode"][0], required, init))
            elif loader := loader_of(methods, named_only=True):  # one written without @classmethod
                found.append(from_files_mapping(cls, loader, roles["encode"][0], required, init, bound=False))
        elif required <= int(takes_pattern(init)) and ("train" in roles or {"encode", "decode"} <= set(roles)
                                                         or "encode" in roles and unfinished(defined[cls])) \
                and not sized_trainer(methods, roles, init):
            found += minbpe_class(cls, roles, init, probe, regex_style=takes_pattern(init), extra=extra, split=split,
                                  reads_specials=reads_specials)
            found += stub_mappings(cls, defined[cls], roles, defined)
        elif loads_tables(init, required, roles):  # Tokenizer(merges_path), (merges, vocab), (text, ...): handed the tables
            wants = "the text to train on" if names_a_text(init[0]) else "tables trained elsewhere"
            found += minbpe_class(cls, roles, init, probe, regex_style=False, extra=extra, split=split, bare=wants,
                                  reads_specials=reads_specials)
        elif required <= 1 and takes_size(init):  # BasicTokenizer(vocab_size).train(text)
            if "train" not in roles and (trainer := text_only_trainer(methods)):
                roles["train"] = trainer
            if "train" in roles or {"encode", "decode"} <= set(roles):
                found += minbpe_class(cls, roles, init, probe, regex_style=False, extra=extra, sized=True,
                                      split=split, reads_specials=reads_specials)
    for cls, (methods, required) in classes.items():
        init = methods.get("__init__", [])
        runs = next((m for m, p in methods.items() if not p and m.lower().startswith(TRAINER_NAMES)), None)
        if runs and len(init) >= 2 and names_a_path(init[0].lower()) and "vocab" in init[1].lower():
            found.append(trainer_class_mapping(cls, runs, init))
        elif (reads := file_trainer(methods)) and init and names_a_size(init[0]) and required <= 2:
            found.append(sized_trainer_class_mapping(cls, reads, init))  # Cls(vocab_size, ...).train(input_path)
    for name, names in trainer_functions(defined):
        found.append(train_bpe_mapping(name, names))
    for cls, (methods, required) in classes.items():  # train_bpe as a method: Tokenizer(...).train_bpe(input_path, ...)
        init = methods.get("__init__", [])[:required]
        found += [mapping for method, params in methods.items() if method != "__init__" and trains_from_file(params)
                  if (mapping := trainer_method_mapping(cls, method, params, init))]
    return found


def file_trainer(methods):
    """The method named for training that takes only a path to the text (train(input_path)), or None."""
    return next((m for m, p in methods.items() if m.lower().startswith(TRAINER_NAMES) and len(p) == 1
                 and names_a_path(p[0].lower())), None)


def trainer_functions(defined):
    """[(name, parameter names)] of the functions, static methods and class methods ('Cls.train_bpe')
    shaped as CS336's train_bpe(input_path, vocab_size, ...): not (path, merges_path), which loads."""
    out = []
    for name, info in defined.items():
        if info.get("kind") != "callable":
            continue
        own = {**(info.get("statics") or {}), **{m: p for m, p in (info.get("classmethods") or {}).items()
                                                 if not m.startswith("from_")}}  # from_train makes a tokenizer
        shapes = [(name, info.get("names") or [])] + [(f"{name}.{m}", p) for m, p in own.items()
                                                      if m not in (info.get("inherited") or ())]
        out += [(learner, [n.lower() for n in params]) for learner, params in shapes if trains_from_file(params)]
    return out


def trains_from_file(params):
    """Whether parameters are CS336's train_bpe's: (input_path, vocab_size, ...), not (path, merges_path), which loads."""
    names = [n.lower() for n in params]
    return len(names) >= 2 and names_a_path(names[0]) and not any(w in names[0] for w in ("dir", "folder")) \
        and any(w in names[1] for w in ("vocab", "merges")) \
        and names_a_size(names[1]) and not names_a_path(names[1])  # not save(path, merges)


def text_only_trainer(methods):
    """(method, params) of the first method named for training that takes at least a text, or None:
    train(text) in a class that takes its vocab size from its constructor."""
    return next(((m, p) for m, p in methods.items() if m.lower().startswith(TRAIN_WORDS) and len(p) >= 1), None)


def sized_trainer(methods, roles, init):
    """Whether a class takes its vocab size from its constructor (BasicTokenizer(vocab_size=276))
    and trains with train(text) alone: no method takes a size beside the text."""
    return takes_size(init) and "train" not in roles and text_only_trainer(methods) is not None


def loads_tables(init, required, roles):
    """Whether a class only loads what was trained elsewhere: its constructor requires a path (or a
    folder, a file) first, or minbpe's tables, or the text to train on (Cls(text, vocab_size), trained
    by a call of its own), and it encodes and decodes but has no train method the grader knows."""
    return required >= 1 and (names_a_path(init[0].lower()) or takes_minbpe_tables(init) or names_a_text(init[0])) \
        and "train" not in roles and {"encode", "decode"} <= set(roles)


def takes_minbpe_tables(init):
    """Whether a constructor takes minbpe's tables back, merges first: Tokenizer(merges, vocab),
    never CS336's Tokenizer(vocab, merges); it is handed them as minbpe keeps them."""
    return len(init) >= 2 and "merge" in init[0].lower() and "vocab" in init[1].lower() \
        and not names_a_path(init[0].lower()) and not names_a_size(init[1])


def takes_tables(init):
    """Whether a constructor takes a vocab and merges first, defaults or not: CS336's
    Tokenizer(vocab=None, merges=None, special_tokens=None) is still CS336's layout (when the
    class does not train: a minbpe class may take its tables back the same way)."""
    return len(init) >= 2 and "vocab" in init[0].lower() and "merge" in init[1].lower()


def names_a_size(name):
    """Whether a constructor's parameter is a size (BPE(vocab_size, dest_folder)): never CS336's vocab."""
    return any(w in name.lower() for w in ("size", "num_", "n_merges"))


def names_a_text(name):
    """Whether a constructor's parameter is the text to train on (BasicTokenizer(text, vocab_size))."""
    return any(w in name.lower() for w in ("text", "corpus")) and not names_a_path(name.lower())


def names_a_path(name):
    return any(w in name for w in ("path", "file", "dir", "folder"))


# ---------------------------------------------------------------------------- grading

class ClassCaller:
    """The engine's caller for one Mapping: the course's arguments in, the course's answer out.
    A frozenset the method refuses is tried again as a plain set (see engine: every failure)."""

    def __init__(self, sandbox, mapping, deadline):
        self.sandbox, self.mapping, self.deadline = sandbox, mapping, deadline

    def call(self, args, rule=None, **_):  # a design's own `again` exercise answers twice in every reply
        return self.mapping.call(self.sandbox, args, self.deadline, rule)

    def numbering(self, args):
        """The class's own ids for the special tokens of `args`, when it numbers them itself."""
        return self.mapping.numbering(self.sandbox, args, self.deadline) if self.mapping.numbering else None

    def measure(self, text, vocab_size):
        return self.call((text, vocab_size)), None

    def by_hand(self, rule):
        name = self.mapping.learner.split(":")[0]
        reply = self.sandbox.request({"op": "by_hand", "name": name, "rule": rule}, self.deadline)
        return reply.value if reply.kind == "ok" else []


# bugs seen only when a special token is not allowed: a design that allows them all cannot show them
DISALLOWED_ONLY = ("no_raise", "raises_key_error")


def graded_as(result, exercise, how, own=False):
    """`result`, saying what it was graded as and how the arguments went in: a course exercise and
    the workbook that teaches it, or (`own`) an exercise of CS336's own design."""
    result.detail["exercise"] = (f"graded as CS336's {exercise}: {how}" if own else
                                 f"graded as the course's {exercise} (workbook {REGISTRY[exercise].workbook}): {how}")
    result.detail["course"] = exercise
    return result


def exercise_of(mapping):
    return mapping.own_exercise or REGISTRY[mapping.exercise]


def mapped_exercise(mapping, numbering=None):
    """The course exercise, reported under the learner's name, its arguments fitted to the design
    (`numbering`: see fitter)."""
    ex = exercise_of(mapping)
    fit = fitter(mapping, numbering)
    judge = ex.judge

    def judged(args, got):
        if isinstance(got, Malformed):
            wrong = judge(args, None)  # the judge's own expected value, with the reason why not
            return Mismatch(wrong.expected if wrong else None, got.note)
        if mapping.asserts and isinstance(got, Raised) and got.is_a("AssertionError"):
            got = Raised("ValueError", got.message)  # minbpe's "none_raise" is an assert
        if mapping.refuses_specials and refused_special(args[0], got):
            return None  # tiktoken's encode(text) refuses a special token it was not allowed
        wrong = judge(args, got)
        if wrong is not None and mapping.set_as_text and others_as_text(args, got):
            return None  # minbpe's allowed set: the special tokens it leaves out are ordinary text
        return wrong

    # a design with its pattern built in cannot ignore the pattern it is given: it is given none
    bugs = tuple(bug for bug in ex.bugs if not (mapping.pattern and bug.name == "ignores_pattern")
                 and not (mapping.only_all and bug.name in DISALLOWED_ONLY))
    if mapping.set_as_text:
        bugs = tuple(in_minbpe_terms(bug) for bug in bugs)
    return dataclasses.replace(  # a class is the learner's own design: judged on what it returns
        ex, name=mapping.learner, cases=lambda: _unique([fit(a) for a in ex.cases() if not (
            mapping.guessed and a[0] in CONTRACTION_TEXTS)]), bugs=bugs, checks_mutation=False,
        strategy=ex.strategy.map(fit), judge=judged,
        probes=(lambda: [fit(a) for a in ex.probes()]) if ex.probes else None, work=None,
        again=ex.again if mapping.own_exercise else None)  # the design's own exercise answers twice (from_files)


SPECIAL_LOOK = regex.compile(r"<\|[^|<>\s]+\|>")  # how special tokens are spelt: <|endoftext|>


def refused_special(text, got):
    """Whether an encode with an allowed_special parameter refused, by its own default, a text that
    spells a special token (a class with GPT-4's special tokens built in)."""
    return isinstance(text, str) and bool(SPECIAL_LOOK.search(text)) and isinstance(got, Raised) \
        and (got.is_a("ValueError") or got.is_a("AssertionError"))


def _unique(cases):
    seen, out = set(), []
    for args in cases:
        if repr(args) not in seen:
            seen.add(repr(args))
            out.append(args)
    return out


def fitter(mapping, numbering=None):
    """args -> args with the design's built-in pattern and allowed_special put in, and its special
    tokens in its own numbering (`numbering(args)`, for a class that numbers them itself)."""
    def fit(args):
        args = list(args)
        ex = exercise_of(mapping)
        if mapping.pattern and "pattern" in ex.signature:
            args[2] = mapping.pattern
        if mapping.only_all:
            args[4] = "all"
        if numbering is not None and (own := numbering(tuple(args))):
            args[3] = own
        return tuple(args)
    return fit


def grade_classes(sandbox, timeout, notes=None):
    """{learner name: Result} for every mapped method of the submission's tokenizer classes. A class
    that is not byte-level BPE (word-level, merges of strings) is no course exercise: `notes` says
    so, and no verdict is given (the file is not passed while a tokenizer class in it goes ungraded)."""
    deadline = exercise_deadline(timeout)
    mappings = find_mappings(sandbox.defined, probe_train(sandbox, deadline), split_finder(sandbox, deadline),
                             register_finder(sandbox, deadline))
    results = {}
    for mapping in mappings:
        if mapping.exercise == "not_byte_level":
            if notes is not None:
                notes.append(f"{mapping.learner}: not graded, {mapping.how}")
            continue
        if mapping.ungradable:  # fail closed: never a pass, and no cause named
            results[mapping.learner] = Result(mapping.learner, "error", mapping.ungradable,
                                              {"note": mapping.ungradable, "course": mapping.exercise})
            continue
        caller = ClassCaller(sandbox, mapping, exercise_deadline(timeout))
        result = run_exercise(mapped_exercise(mapping, caller.numbering), caller, timeout)
        results[mapping.learner] = graded_as(result, mapping.exercise, mapping.how, own=bool(mapping.own_exercise))
    return under_their_writer(sandbox.defined, without_redundant_helpers(mappings, results))


ENCODERS = ("encode", "encode_ordinary", "encode_special")


def without_redundant_helpers(mappings, results):
    """The results less the failures of a class's further encoders (encode_text, _encode_chunk) when
    one of its own encode methods passed: they are then its helpers, already graded through it, and
    called here in a shape they may not take. A right helper is kept: it says which part is right."""
    passed = {m.learner.split(".")[0] for m in mappings
              if not m.helper and m.exercise in ENCODERS and results.get(m.learner) and results[m.learner].passed}
    return {name: r for name, r in results.items()
            if r.passed or not any(m.helper and m.learner == name and name.split(".")[0] in passed for m in mappings)}


def writer(defined, cls, method):
    """The base class of the submission's that wrote `method`, which `cls` inherits, or None."""
    info = defined.get(cls) or {}
    if method not in (info.get("inherited") or ()):
        return None
    return next((b for b in info.get("bases") or () if method in ((defined.get(b) or {}).get("methods") or {})
                 and method not in ((defined.get(b) or {}).get("inherited") or ())), None)


def under_their_writer(defined, results):
    """The results with a method that a base class wrote and cannot run alone (it has no grading of
    its own, or raised AttributeError: its subclass sets what it reads) reported once, under that
    base's name (BaseTokenizer.encode), graded through its subclasses: the first failure if one
    fails. A base that runs alone keeps its row, and each subclass keeps its own (a subclass may
    override what the method calls: RegexTokenizer(BasicTokenizer).decode is the regex class's)."""
    through = {}
    for name in results:
        cls, _, rest = name.partition(".")
        base = writer(defined, cls, rest.split(":")[0])
        if base is not None:
            through.setdefault(f"{base}.{rest}", []).append(name)
    out = dict(results)
    for name, copies in through.items():
        own = out.get(name)
        if (own is None or needs_subclass(own)) and len({course(out[c]) for c in copies}) == 1 \
                and (own is None or abstract(own) or any(out[c].passed for c in copies)):
            out[name] = through_subclass(name, out, copies)
    return {name: abstract_alone(r) if abstract(r) else r for name, r in out.items()}


def abstract_alone(result):
    """An abstract class's method that no subclass of the submission could stand in for: the grader
    cannot make the class, so it could not be graded (never the learner's error)."""
    why = (f"could not be graded: {result.name.split('.')[0]} is abstract (Python makes no instance of it), "
           "and no class in the file derives from it and runs this method")
    return dataclasses.replace(result, message=why, detail={"note": why, "course": course(result)})


def course(result):
    return result.detail.get("course")


def needs_subclass(result):
    """Whether a base class's method failed alone only for reading what a subclass sets, or for its
    class being abstract (abc.ABC with an abstractmethod: Python makes none)."""
    got = str(result.detail.get("got", ""))
    return result.status == "error" and ("AttributeError" in got and "object has no attribute" in got
                                         or abstract(result))


def abstract(result):
    """Whether a method failed alone only because Python refuses to make its abstract class."""
    return result.status == "error" and "Can't instantiate abstract class" in str(result.detail.get("got", ""))


def through_subclass(name, results, copies):
    """The subclasses' grading of an inherited method, under its writer's name (taken out of `results`)."""
    chosen = next((c for c in copies if not results[c].passed), copies[0])
    result = dataclasses.replace(results[chosen], name=name)
    result.detail = {**result.detail, "exercise": f"{result.detail.get('exercise', '')} (through its subclass "
                                                 f"{chosen.split('.')[0]}, which inherits it)".lstrip()}
    for copy in copies:
        del results[copy]
    return result
