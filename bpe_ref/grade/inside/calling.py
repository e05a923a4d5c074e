"""Calling learner code: the one place for time limits, silenced output, captured exceptions,
the reference watch and the learner's own line.

The in-notebook check calls learner functions with it in the kernel; the sandbox worker uses it
for every call and every cell. Standard library only: the worker runs with `python -P -s`, loads
this file by its path and never imports bpe_ref.

Every outcome is a plain dict, the same on both sides:
    {"ok": value, "mutated": bool, "printed": n, "shortcuts": [...]}
    {"raised": {"type", "message", "kinds", "where", "line", "origin", "signature"}}
    {"not_implemented": message}   {"timeout": True}   {"exit": code}   {"memory": True}
    {"reference": "bpe_ref.merge"}
"""

import builtins
import contextlib
import copy
import dis
import functools
import importlib.machinery
import inspect
import linecache
import os
import signal
import sys
import sysconfig
import threading

OUTPUT_LIMIT = 1_000_000  # characters a call (or a cell) may print before the note says so
HERE = os.path.dirname(os.path.realpath(__file__))


class CallTimeout(BaseException):
    """Raised inside learner code that ran past its time (BaseException: `except Exception` misses it)."""


class ReferenceUsed(BaseException):
    """Raised by the sandbox's stand-ins for bpe_ref and tiktoken when learner code uses them."""


class CountingWriter:
    """stdout/stderr for learner code: counts the characters written and keeps none of them.

    Nothing printed is ever shown, so a flood of output costs no memory and stops no code.
    """

    encoding = "utf-8"

    def __init__(self):
        self.count = 0

    def write(self, text):
        self.count += len(text)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False


# ---------------------------------------------------------------------------- where code lives

@functools.lru_cache(maxsize=4096)
def real_path(filename):
    return os.path.realpath(filename)


def _library_folders():
    """Folders of the standard library and installed packages: code there is not the learner's."""
    names = ("stdlib", "platstdlib", "purelib", "platlib")
    folders = {real_path(sysconfig.get_paths()[n]) for n in names if sysconfig.get_paths().get(n)}
    return tuple(sorted(f + os.sep for f in folders))


def _reference_folders():
    """(folders of the reference code, the folders of the course's own helpers): calls into the
    first are noticed, except calls into the second. The helpers are the grader and the course's
    runtime in JupyterLab (bpe_ref/course: a workbook's demo time limit runs its signal handler
    inside whatever call is running, a check's call too)."""
    # In the package HERE is bpe_ref/grade/inside; a sandbox's copy of the worker's files sits
    # alone in a folder of its own (/grader inside bubblewrap's walls).
    copied = os.path.basename(os.path.dirname(HERE)) != "grade"
    package = os.path.dirname(os.path.dirname(HERE))  # bpe_ref
    places = [HERE + os.sep] if copied else [package + os.sep]
    spec = importlib.machinery.PathFinder.find_spec("tiktoken")
    if spec is not None and spec.origin:
        places.append(real_path(os.path.dirname(spec.origin)) + os.sep)
    helpers = [HERE + os.sep] if copied else [os.path.join(package, "grade") + os.sep,
                                              os.path.join(package, "course") + os.sep]
    return tuple(places), tuple(helpers)


LIBRARY_FOLDERS = _library_folders()
REFERENCE_FOLDERS, HELPER_FOLDERS = _reference_folders()


def add_library_folder(folder):
    """Code under `folder` is not the learner's either (a sandbox's read-only packages)."""
    global LIBRARY_FOLDERS
    LIBRARY_FOLDERS = LIBRARY_FOLDERS + (real_path(folder) + os.sep,)
    _outside.cache_clear()


def is_learner_file(filename):
    """Whether code from `filename` is the learner's: not the standard library, not an installed
    package, not the course's own package, not frozen or generated code."""
    return _outside(filename, LIBRARY_FOLDERS + REFERENCE_FOLDERS)


@functools.lru_cache(maxsize=4096)
def _outside(filename, folders):
    if filename.startswith("<"):
        return filename.startswith(("<cell", "<ipython-input"))
    return not real_path(filename).startswith(folders)


# ---------------------------------------------------------------------------- the learner's line

def learner_frames(exc, is_learner=is_learner_file):
    """(the innermost traceback entry in learner code, the innermost in a named learner function):
    the line to show, and the function to name it by (a comprehension or lambda has no name).
    Both are None when the error is not in learner code (e.g. a call with wrong arguments)."""
    found = named = None
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if is_learner(code.co_filename):
            found = tb
            if not code.co_name.startswith("<") or code.co_name == "<module>":
                named = tb
        tb = tb.tb_next
    return found, named or found


def innermost_module(exc):
    """The module whose code raised: '__main__' style names for learner code, 're', 'regex', ..."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_globals.get("__name__", "?") if tb is not None else None


def error_info(exc, label_of, fn=None, is_learner=is_learner_file):
    """A plain description of an exception from learner code, pointing at the learner's own line.

    `label_of(filename, function_name)` names a learner file the way the learner sees it
    ('the cell defining merge', 'buggy.py'); `fn` is the function called, for its signature.
    """
    info = {"type": type(exc).__name__, "message": str(exc)[:300],
            "kinds": [c.__name__ for c in type(exc).__mro__], "where": None, "line": None}
    tb, named = learner_frames(exc, is_learner)
    if tb is not None:
        code = tb.tb_frame.f_code
        info["where"] = f"{label_of(code.co_filename, named.tb_frame.f_code.co_name)}, line {tb.tb_lineno}"
        info["line"] = linecache.getline(code.co_filename, tb.tb_lineno).strip()[:120] or None
        raised_here = tb.tb_next is None
        info["origin"] = "learner" if raised_here else innermost_module(exc)
        info["in_method"] = bool(code.co_argcount) and code.co_varnames[0] in ("self", "cls")
    else:
        info["origin"] = innermost_module(exc)
    if fn is not None and tb is None:
        info["signature"] = signature_text(fn)
    return info


def signature_text(fn):
    try:
        return f"{getattr(fn, '__name__', 'function')}{inspect.signature(fn)}"
    except (TypeError, ValueError):
        return None


def required_params(fn):
    """How many positional arguments `fn` needs (None when Python cannot tell)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for p in signature.parameters.values()
               if p.kind in kinds and p.default is inspect.Parameter.empty)


def param_names(fn):
    """The names of fn's parameters, in order (empty when Python cannot tell)."""
    try:
        return list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return []


def written(name):
    """Whether a class member is one the learner wrote to be called: public, __init__, or private
    with one underscore (a helper such as _get_stats); never another dunder or a mangled name."""
    return name == "__init__" or not (name.startswith("__") or "__" in name[1:])


def methods_of(cls):
    """A class's methods (public, one-underscore helpers and __init__) as {name: [parameter names
    after self]}: what the grader reads to tell what each method is for."""
    methods = {}
    names = dict.fromkeys(name for klass in type.__getattribute__(cls, "__mro__") for name in vars(klass))
    for name in names:  # read from the classes' own dicts: no learner __dir__ or __getattr__ runs
        if not written(name):
            continue
        member = inspect.getattr_static(cls, name, None)
        if isinstance(member, (staticmethod, classmethod)):
            continue
        if inspect.isfunction(member) and member.__module__ == cls.__module__:  # the learner's own
            methods[name] = param_names(member)[1:]
    return methods


def static_methods(cls):
    """A class's own static methods (public or one-underscore helpers) as {name: [parameter names]}:
    helpers such as a get_stats(ids) kept inside the class, which the grader probes like top-level functions."""
    statics = {}
    for name in dict.fromkeys(name for klass in type.__getattribute__(cls, "__mro__") for name in vars(klass)):
        member = inspect.getattr_static(cls, name, None)
        if written(name) and name != "__init__" and isinstance(member, staticmethod) \
                and getattr(member.__func__, "__module__", None) == cls.__module__:
            statics[name] = param_names(member.__func__)
    return statics


def class_methods(cls):
    """A class's own class methods as {name: [parameter names after cls]}: a constructor of
    another kind, such as CS336's from_files(vocab_filepath, merges_filepath, special_tokens)."""
    found = {}
    for name in dict.fromkeys(name for klass in type.__getattribute__(cls, "__mro__") for name in vars(klass)):
        member = inspect.getattr_static(cls, name, None)
        if written(name) and isinstance(member, classmethod) \
                and getattr(member.__func__, "__module__", None) == cls.__module__:
            found[name] = param_names(member.__func__)[1:]
    return found


def stub_methods(cls):
    """The methods of a class that only raise NotImplementedError, or do nothing at all
    (`pass`, `...`, a docstring): an abstract base's, to be filled in by a subclass."""
    stubs = []
    for name in methods_of(cls):
        code = getattr(inspect.getattr_static(cls, name, None), "__code__", None)
        if code is None or any(isinstance(c, type(code)) for c in code.co_consts):
            continue
        lines = {line for _, _, line in code.co_lines() if line is not None}
        raises = "NotImplementedError" in code.co_names and len(code.co_names) <= 2
        empty = not code.co_names and all(c is None or c is Ellipsis or isinstance(c, str) for c in code.co_consts)
        if (raises or empty) and len(lines) <= 3:
            stubs.append(name)
    return stubs


def inherited_methods(cls):
    """The methods and static methods a class has from a base class, not its own dict: a
    helper is probed once, under the class that wrote it."""
    own = vars(cls)
    return [name for name in {**methods_of(cls), **static_methods(cls)} if name not in own]


def own_bases(cls, module):
    """The names of a class's bases, nearest first, that the same submission wrote: where an
    inherited method was written, to report it under that name."""
    return [k.__name__ for k in type.__getattribute__(cls, "__mro__")[1:] if k.__module__ == module][:32]


def special_readers(cls, namespace):
    """The names of a class's methods whose code uses a name that says 'special', itself or through
    a method of the class or a function of the submission it names (encode calling
    self._split_specials): the methods that handle special tokens, whatever a base class offers."""
    names = {}
    for klass in type.__getattribute__(cls, "__mro__"):
        for name, member in vars(klass).items():
            fn = member.__func__ if isinstance(member, (staticmethod, classmethod)) else member
            if inspect.isfunction(fn) and fn.__module__ == cls.__module__:
                names.setdefault(name, set()).update(code_names(fn.__code__))
    for name, fn in namespace.items():
        if inspect.isfunction(fn) and fn.__module__ == cls.__module__ and name not in names:
            names[name] = code_names(fn.__code__)
    readers = {name for name, read in names.items() if any("special" in n.lower() for n in read)}
    while grown := {name for name, read in names.items() if name not in readers and read & readers}:
        readers |= grown
    return sorted(readers)[:256]


def nested_codes(code, depth=8):
    """A code object and the code nested in it (comprehensions, lambdas, inner functions), `depth` levels down."""
    yield code
    for const in code.co_consts if depth else ():
        if isinstance(const, type(code)):
            yield from nested_codes(const, depth - 1)


def code_names(code):
    """The names a code object uses (globals, attributes, its parameters and locals: encode(text,
    allowed_special)), with those of the code nested in it."""
    return {name for c in nested_codes(code) for name in (*c.co_names, *c.co_varnames)}


def global_loads(code):
    """The global names a code object reads (LOAD_GLOBAL, LOAD_NAME), with those of the code nested in it."""
    return {i.argval for c in nested_codes(code) for i in dis.get_instructions(c)
            if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")}


def word_tables(fn, namespace):
    """The module-level names a function reads that hold a {str: int} or {(str, str): ...} dict (or an
    empty one), or that nothing defines (the cell that made them failed): where word-level BPE keeps its word
    counts and merges, as the Hugging Face course's compute_pair_freqs(splits) reads `word_freqs`."""
    if not inspect.isfunction(fn):  # a learner's own function (a callable object's __code__ may be anything)
        return []
    tables = []
    for name in sorted(n for n in global_loads(fn.__code__) if isinstance(n, str)):
        value = namespace.get(name, builtins)  # builtins: not defined in the module
        if value is builtins and not hasattr(builtins, name) or isinstance(value, dict) and _word_level(value):
            tables.append(name)
    return tables[:8]


def _word_level(table):
    """Whether a dict maps strings to ints, or pairs of strings to anything (its first entries, read
    without its own methods); or is empty: a table whose filling cell failed."""
    items = [item for _, item in zip(range(64), dict.items(table))]
    return not items or (all(type(k) is str and type(v) is int for k, v in items)
                            or all(type(k) is tuple and len(k) == 2 and all(type(p) is str for p in k)
                                   for k, _ in items))


# ---------------------------------------------------------------------------- watching a call

class Watch:
    """A profile hook for one call: the first use of the reference, and every call a by-hand
    rule refuses (`refuses(name, module, fn) -> a description or None`)."""

    def __init__(self, refuses=None):
        self.reference = None
        self.refuses = refuses
        self.shortcuts = []

    def __call__(self, frame, event, arg):
        if event == "call":
            filename = real_path(frame.f_code.co_filename)
            if self.reference is None and filename.startswith(REFERENCE_FOLDERS) \
                    and not filename.startswith(HELPER_FOLDERS):
                self.reference = f"{frame.f_globals.get('__name__', '?')}.{frame.f_code.co_name}"
            elif self.refuses is not None:
                module = frame.f_globals.get("__name__", "")
                self._refuse(f"{module}.{frame.f_code.co_name}", module, None)
        elif event == "c_call":
            module = getattr(arg, "__module__", None) or ""
            if self.reference is None and module.startswith("tiktoken"):
                self.reference = f"tiktoken.{getattr(arg, '__name__', '?')}"
            elif self.refuses is not None:
                self._refuse(None, module, arg)  # the refuser names a C function (byhand.callee_name)

    def _refuse(self, name, module, fn):
        found = self.refuses(name, module, fn)
        if found and found not in self.shortcuts:
            self.shortcuts.append(found)


# ---------------------------------------------------------------------------- running

def _raise_timeout(signum, frame):
    raise CallTimeout()


@contextlib.contextmanager
def time_limit(seconds):
    """Raise CallTimeout in the running code after `seconds` (where SIGALRM exists, in the main thread)."""
    usable = (seconds is not None and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return
    previous = signal.signal(signal.SIGALRM, _raise_timeout)
    signal.setitimer(signal.ITIMER_REAL, max(0.001, seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def invoke(thunk, seconds=None, label_of=None, fn=None, watch=None):
    """Run learner code (`thunk()`), time-limited and silenced, watched by `watch` (a Watch: a
    function's call) or not (None: a notebook cell, run at full speed); returns an outcome dict."""
    label_of = label_of or default_label
    writer = CountingWriter()
    try:
        with time_limit(seconds), contextlib.redirect_stdout(writer), contextlib.redirect_stderr(writer):
            sys.setprofile(watch)
            try:
                value = thunk()
            finally:
                sys.setprofile(None)
    except NotImplementedError as e:
        return {"not_implemented": str(e)[:300]}
    except CallTimeout:
        return {"timeout": True}
    except ReferenceUsed as e:
        return {"reference": str(e)}
    except SystemExit as e:
        return {"exit": str(e.code)}
    except MemoryError:
        return {"memory": True}
    except Exception as e:  # noqa: BLE001 - learner code may raise anything
        return {"raised": error_info(e, label_of, fn), "printed": writer.count}
    if watch is not None and watch.reference:
        return {"reference": watch.reference}
    outcome = {"ok": value, "printed": writer.count}
    if watch is not None and watch.shortcuts:
        outcome["shortcuts"] = watch.shortcuts
    return outcome


def call(fn, args, seconds=None, label_of=None, refuses=None, twice=False):
    """Call fn(*args) on a copy of args; the outcome also says whether the copy was changed.

    twice: call it a second time on the same copy, and return both answers as a pair, so that the
    parent can see from the answers themselves whether the first call changed what it was given."""
    given = copy.deepcopy(args)
    thunk = (lambda: [fn(*given), fn(*given)]) if twice else (lambda: fn(*given))
    outcome = invoke(thunk, seconds, label_of, fn, Watch(refuses))
    if "ok" in outcome:
        outcome["mutated"] = _differs(given, args)
    return outcome


def _differs(a, b):
    try:
        return (a != b) is True
    except Exception:  # noqa: BLE001 - a learner's object with a strange __eq__
        return False


def default_label(filename, function_name):
    """How a learner file is named when nothing better is known: a notebook cell of the kernel
    ('in merge, its cell') or a file ('buggy.py')."""
    if "ipykernel_" in filename or filename.startswith("<ipython-input"):
        return f"the cell defining {function_name}" if function_name != "<module>" else "a cell"
    if filename.startswith("<"):
        return filename.strip("<>")
    return os.path.basename(filename)
