"""The sandbox worker: runs ONE learner submission in its own process and answers calls.

Started by bpe_ref.grade.walls.sandbox as `python -P -s worker.py MEMORY_MB [--site DIRS] [--uid UID] [--gid GID]`,
inside bubblewrap's walls when isolation is on (see isolation.py: then its own files are a copy
and bpe_ref is simply absent). Before any learner code runs it drops to UID (when started as root)
and caps itself: N processes and threads (--processes), MEMORY_MB of address space each, small files. It
imports nothing from bpe_ref: `bpe_ref`, `tiktoken` and `minbpe` are replaced by stand-ins whose functions, when
called, mark the call as a use of the reference. The course's `check(...)` calls become no-ops.
It speaks one JSON object per line on private copies of stdin/stdout; the learner's prints are
counted and dropped, never mixed into the protocol. Every call and every cell goes through
calling.py, as the in-notebook check does. Expected values are never computed here.
"""

import ast
import builtins
import importlib.abc
import importlib.machinery
import importlib.util
import linecache
import os
import sys
import types
from pathlib import Path

HERE = Path(os.path.realpath(__file__)).parent
REFERENCE_ROOTS = ("bpe_ref", "tiktoken", "tiktoken_ext", "minbpe")
NO_OP_MODULES = ("bpe_ref.grade", "bpe_ref.course.viewer", "bpe_ref.course.plots", "bpe_ref.course.workbook",
                 "bpe_ref.viewer", "bpe_ref.plots", "bpe_ref.workbook")  # the helpers cells use (old paths too): harmless
USED = []  # reference objects touched during the current call
FILE_LIMIT = 1_000_000  # bytes of a learner's file the parent carries from one process to the next


def _load_file(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


wire = _load_file(HERE / "wire.py", "_bpe_grade_wire")
calling = _load_file(HERE / "calling.py", "_bpe_grade_calling")
byhand = _load_file(HERE / "byhand.py", "_bpe_grade_byhand")
work = _load_file(HERE / "work.py", "_bpe_grade_work")
ReferenceUsed = calling.ReferenceUsed
_PATTERNS_FILE = HERE / "patterns.py" if (HERE / "patterns.py").exists() else HERE.parents[1] / "core" / "patterns.py"
PATTERNS = {k: v for k, v in vars(_load_file(_PATTERNS_FILE, "_bpe_grade_patterns")).items() if k.isupper()}


class Poison:
    """Stands in for anything taken from the reference: using it is recorded, then refused."""

    def __init__(self, path):
        object.__setattr__(self, "_path", path)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Poison(f"{self._path}.{name}")

    def _use(self, *args, **kwargs):
        USED.append(self._path)
        raise ReferenceUsed(self._path)

    __call__ = __getitem__ = __iter__ = __len__ = _use

    def __repr__(self):
        return f"<reference {self._path}>"


def _no_op(*args, **kwargs):
    return None


class FakeModule(types.ModuleType):
    """A reference module as the sandbox sees it: patterns are real, functions are Poison."""

    def __init__(self, name):
        super().__init__(name)
        self.__path__ = []
        self.__all__ = []
        if name == "bpe_ref":
            self.__dict__.update(PATTERNS)

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        if self.__name__.startswith(NO_OP_MODULES) or attr.startswith("check"):
            return _no_op
        return Poison(f"{self.__name__}.{attr}")


class FakeFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] in REFERENCE_ROOTS:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return FakeModule(spec.name)

    def exec_module(self, module):
        pass


# what eval() may read in the learner's code: data (literals, containers, operators), never a name,
# a call or an attribute, so no code the grader has not read can run through it (reaching.py)
DATA_NODES = (ast.Expression, ast.Constant, ast.Tuple, ast.List, ast.Set, ast.Dict, ast.BinOp, ast.UnaryOp,
              ast.BoolOp, ast.Compare, ast.IfExp, ast.operator, ast.unaryop, ast.boolop, ast.cmpop, ast.Load)


def data_eval(source, *namespaces, **named):
    """eval() as the learner's code gets it: "b'ab'", "(97, 98)" or "2 + 2" as Python would give
    them; an expression that names, calls or looks up anything is refused (a ValueError)."""
    if not isinstance(source, (str, bytes)):
        raise ValueError("in the grader's sandbox eval() reads a string of data, not a code object")
    tree = ast.parse(source.lstrip(" \t" if isinstance(source, str) else b" \t"), mode="eval")
    for node in ast.walk(tree):
        if not isinstance(node, DATA_NODES):
            raise ValueError(f"in the grader's sandbox eval() reads data only (literals and operators), "
                             f"not code: {type(node).__name__} in {source[:60]!r}")
    return eval(compile(tree, "<eval>", "eval"), {"__builtins__": {}})


class WholeTextPreTokenizer:
    """Stands in for a Hugging Face tokenizer a learner's code reads its pre-tokenizer from
    (tokenizer._tokenizer.pre_tokenizer.pre_tokenize_str(text), as the Hugging Face course does),
    when loading it needed the network: the text comes back whole, as one word. The grader hands
    the text already written as GPT-2's byte characters, so no split is graded, only the merges."""

    def __getattr__(self, name):  # _tokenizer, backend_tokenizer, pre_tokenizer: the same stand-in
        if name.startswith("__"):
            raise AttributeError(name)
        return self

    def pre_tokenize_str(self, text):
        return [(text, (0, len(text)))]


STAND_INS = {"whole_text_pre_tokenizer": WholeTextPreTokenizer}


class FakeIPython:
    """get_ipython() for notebook code: magics and display hooks do nothing."""

    def __getattr__(self, name):
        return _no_op


class Worker:
    def __init__(self, proto_in, proto_out):
        self.proto_in, self.proto_out = proto_in, proto_out
        self.pid = os.getpid()
        self.labels = {}  # cell file name -> the cell as the learner sees it
        self.module = None
        self.ns = {}
        self.notebook = True

    def make_module(self, name, file=None):
        """The learner's namespace as Python gives one to any module: a module object registered in
        sys.modules under its name (dataclasses, pickle and multiprocessing look it up there), with
        __file__ where the file is. `__main__` is the learner's module too, never the worker. Its
        builtins are Python's, but for an eval() that reads data only (data_eval)."""
        module = types.ModuleType(name)
        learner_builtins = {**vars(builtins), "eval": data_eval}  # eval() of data only: see data_eval
        module.__dict__.update({"__builtins__": learner_builtins, "display": _no_op, "get_ipython": FakeIPython})
        if file:
            module.__file__ = file
        sys.modules[name] = module
        sys.modules["__main__"] = module
        self.module, self.ns = module, module.__dict__

    def send(self, message):
        if os.getpid() != self.pid:  # a process the learner's code forked: it never speaks for the worker
            REAL_EXIT(0)
        self.proto_out.write(wire.dumps(message) + "\n")
        self.proto_out.flush()

    def label_of(self, filename, function_name):
        return self.labels.get(filename) or calling.default_label(filename, function_name)

    def run(self, go):
        """Run learner code through calling.py (`go()` returns the outcome), adding the uses of the
        stand-ins that the code caught and hid (`except BaseException`)."""
        USED.clear()
        outcome = go()
        if USED and "reference" not in outcome:
            return {"reference": USED[0]}
        return outcome

    # --------------------------------------------------------------- loading

    def run_cell(self, index, cell, seconds):
        filename = f"<cell-{index}>"
        self.labels[filename] = cell["name"]
        source = cell["source"]
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        try:
            code = compile(source, filename, "exec")
        except SyntaxError as e:
            return {"status": "syntax", "line": e.lineno, "message": e.msg, "text": (e.text or "").strip()[:200]}
        outcome = self.execute(code, seconds)
        status = next(iter(outcome))
        report = {"status": {"ok": "ok", "raised": "error"}.get(status, status), "printed": outcome.get("printed", 0)}
        if status == "raised":
            report.update(outcome["raised"])
            if self.notebook:  # a .py that raises at import defines nothing more, as Python loads it
                report["defined_after"] = self.define_the_rest(source, filename, seconds)
        elif status in ("reference", "exit", "not_implemented"):
            report["what"] = str(outcome[status])
        return report

    def define_the_rest(self, source, filename, seconds):
        """After a cell raised: make the functions it had not reached yet (the cell that builds
        `vocab` from merges a missing data file never made, then defines decode), with the
        cell's imports, so that they are graded as written. Nothing else of the cell runs again."""
        tree = ast.parse(source, filename)
        unreached = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and not self.made_here(node, filename)]
        if not unreached:
            return []
        imports = [[node] for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
        for body in imports + [unreached]:  # each import on its own: one missing package must not keep the rest away
            self.execute(compile(ast.Module(body=body, type_ignores=[]), filename, "exec"), seconds)
        return [node.name for node in unreached if self.made_here(node, filename)]

    def execute(self, code, seconds):
        """Run compiled learner code in the submission's namespace, through calling.py: its outcome."""
        return self.run(lambda: calling.invoke(lambda: exec(code, self.ns), seconds, self.label_of))

    def made_here(self, node, filename):
        """Whether the namespace holds the function `node` defines, made from this very cell."""
        code = getattr(self.ns.get(node.name), "__code__", None)
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        return code is not None and code.co_filename == filename and first <= code.co_firstlineno <= node.lineno

    def load(self, cells, skip, seconds, module="__main__", file=None):
        self.make_module(module, file)  # a .py is loaded as on import: its __main__ block does not run
        self.notebook = module == "__main__"  # cells of a notebook; a .py is loaded under its own name
        for index, cell in enumerate(cells):
            if index in skip:
                self.send({"cell": index, "status": "skipped"})
                continue
            self.send({"cell": index, "status": "started"})
            self.send({"cell": index, **self.run_cell(index, cell, seconds)})
        self.send({"loaded": True, "defined": self.describe()})

    def describe(self):
        """What the submission defines: callables (with their arity) and plain values."""
        defined = {}
        for name, obj in list(self.ns.items()):
            if name.startswith("_") or isinstance(obj, types.ModuleType):
                continue
            if isinstance(obj, Poison):
                defined[name] = {"kind": "reference", "what": obj._path}
            elif isinstance(obj, type) and obj.__module__ == self.ns["__name__"]:
                defined[name] = {"kind": "callable", "params": calling.required_params(obj),
                                 "methods": calling.methods_of(obj), "stubs": calling.stub_methods(obj),
                                 "init_required": calling.required_params(obj),
                                 "statics": calling.static_methods(obj),
                                 "classmethods": calling.class_methods(obj),
                                 "inherited": calling.inherited_methods(obj),
                                 "special_readers": calling.special_readers(obj, self.ns),
                                 "bases": calling.own_bases(obj, self.ns["__name__"])}
            elif callable(obj):
                defined[name] = {"kind": "callable", "params": calling.required_params(obj),
                                 "names": calling.param_names(obj),
                                 "word_tables": calling.word_tables(obj, self.ns),
                                 "own": getattr(obj, "__module__", None) == self.ns["__name__"]}
            else:
                defined[name] = {"kind": "value", "type": type(obj).__name__}
        return defined

    # --------------------------------------------------------------- calling

    def function(self, name):
        """The learner's function `name` (or a class's method, 'Tokenizer.encode'), or the reply
        that says why there is none to call."""
        owner, _, method = name.rpartition(".")
        fn = getattr(self.ns.get(owner), method, None) if owner else self.ns.get(name)
        if fn is None:
            return None, {"missing": True}
        if isinstance(fn, Poison):
            return None, {"reference": fn._path}
        return fn, None

    def call(self, request):
        fn, refusal = self.function(request["name"])
        if refusal:
            return refusal
        args = wire.from_wire(request["args"])
        # module-level tables its cells never made (merges, vocab, a word-level BPE's word counts), and
        # stand-ins for what a download would have made
        tables = wire.from_wire(request.get("globals") or {})
        stand_ins = request.get("stand_ins")
        given = {**(tables if isinstance(tables, dict) else {}),
                 **{name: STAND_INS[kind]() for name, kind in (stand_ins.items() if isinstance(stand_ins, dict) else ())
                    if isinstance(kind, str) and kind in STAND_INS}}
        namespace = getattr(fn, "__globals__", None)
        for name, value in given.items():
            if isinstance(name, str) and name.isidentifier() and isinstance(namespace, dict):
                namespace[name] = value
        refuses = byhand.refuser(request["rule"]) if request.get("rule") else None
        return self.wired(self.run(lambda: calling.call(fn, args, request.get("seconds"), self.label_of, refuses,
                                                        bool(request.get("twice")))))

    def measure(self, request):
        """The learner's trainer on a text that counts its pair lookups (see work.py)."""
        fn, refusal = self.function(request["name"])
        if refusal:
            return refusal
        # Heavy ids are measured by the grader's clock on this process: run without the profile
        # hook, whose cost per call would be counted as work (the other calls watch for shortcuts).
        watch = None if request.get("heavy") else calling.Watch()

        def trainer(text, vocab_size):
            return self.run(lambda: calling.invoke(lambda: fn(text, vocab_size), request.get("seconds"),
                                                   self.label_of, fn, watch))

        outcome, lookups = work.count_lookups(trainer, request["text"], request["vocab_size"], request.get("heavy"),
                                              getattr(fn, "__globals__", None))
        return {**self.wired(outcome), "lookups": lookups}

    def by_hand(self, request):
        fn, refusal = self.function(request["name"])
        if refusal:
            return refusal
        return {"ok": wire.to_wire(byhand.static_shortcuts(fn, request["rule"], calling.is_learner_file))}

    def on_object(self, request):
        """A learner's class at work: make an instance, set attributes, call methods in turn; the
        reply is the last call's outcome (or the first failing step's, with "step" naming it).

        request: {"cls", "init": args, "set": {attr: value}, "steps": [[method, args], ...],
        "call": [method, args] (none: the object only made and set up), "read": attr to return
        instead of the result (minbpe's train), "init_kw": {name: value} for the constructor too,
        "iterate": feed the first argument as an iterator and list the result (encode_iterable),
        "file": the first init argument is a text to hand over as a file's path (a trainer class
        made with CS336's input_path), "call_file": the same for the first argument of "call" (a
        trainer method called as train_bpe(input_path, ...)), "files": [[name, bytes], ...] written to a private folder,
        their paths put before the init arguments, "made_by": a class method that makes the
        object instead of the class itself (CS336's from_files), or "__new__": made without its
        constructor (one that loads tables from a file)}."""
        if request.get("files"):
            files = wire.from_wire(request["files"])
            return self.in_folder(files, lambda paths: self.on_object(
                {**request, "files": None, "init": wire.to_wire([*paths, *wire.from_wire(request["init"])])}))
        if request.get("file"):
            init = wire.from_wire(request["init"])
            return self.in_file(init[0], lambda path: self.on_object(
                {**request, "file": False, "init": wire.to_wire([path, *init[1:]])}))
        if request.get("call_file"):
            method, args = request["call"][0], wire.from_wire(request["call"][1])
            return self.in_file(args[0], lambda path: self.on_object(
                {**request, "call_file": False, "call": [method, wire.to_wire([path, *args[1:]])]}))
        cls, refusal = self.function(request["cls"])
        if refusal:
            return refusal
        refuses = byhand.refuser(request["rule"]) if request.get("rule") else None
        seconds = request.get("seconds")
        made_by = request.get("made_by")
        maker = (lambda: cls.__new__(cls)) if made_by == "__new__" else getattr(cls, made_by) if made_by else cls
        if request.get("init_kw"):  # a constructor handed special tokens by name: Cls(pattern, special_tokens=...)
            keywords, made_as = wire.from_wire(request["init_kw"]), maker
            maker = lambda *args: made_as(*args, **keywords)  # noqa: E731
        made = self.run(lambda: calling.call(maker, [] if made_by == "__new__" else wire.from_wire(request["init"]),
                                             seconds, self.label_of))
        if "ok" not in made:
            return {**made, "step": "init"}
        obj = made["ok"]
        for attr, value in wire.from_wire(request.get("set", {})).items():
            try:
                setattr(obj, attr, value)
            except Exception as e:  # noqa: BLE001 - a learner's __setattr__ or __slots__
                return {"raised": calling.error_info(e, self.label_of), "step": f"set {attr}"}
        for method, args in request.get("steps", []):
            done = self.run(lambda: calling.call(getattr(obj, method), wire.from_wire(args), seconds, self.label_of))
            if "ok" not in done:
                return {**done, "step": method}
        if not request.get("call"):  # only made and set up: its attributes are what is read
            return self.wired({"ok": dict(vars(obj)) if request.get("read") == "*" else None})
        method, args = request["call"]
        args = wire.from_wire(args)
        fn = getattr(obj, method)
        if request.get("iterate"):
            args = [iter(args[0]), *args[1:]]
            bound = fn
            fn = lambda *a: list(bound(*a))  # noqa: E731 - the iterator is used up inside the time limit
        outcome = self.run(lambda: calling.call(fn, args, seconds, self.label_of, refuses))
        if "ok" in outcome and request.get("read"):
            outcome["ok"] = dict(vars(obj)) if request["read"] == "*" else getattr(obj, request["read"], None)
        return self.wired(outcome)

    def with_file(self, request):
        """A function that reads its text from a file (CS336's train_bpe(input_path, ...)): the
        text is written to a private file and its path passed instead."""
        args = wire.from_wire(request["args"])
        return self.in_file(args[0], lambda path: self.call({**request, "args": wire.to_wire([path, *args[1:]])}))

    def in_file(self, text, run):
        """run(path) with `text` in a private file (UTF-8, its newlines as they are), removed afterwards."""
        return self.in_folder([("text.txt", text.encode("utf-8"))], lambda paths: run(paths[0]))

    def in_folder(self, files, run):
        """run(paths) with each (name, bytes) of `files` written in a private folder, removed afterwards."""
        import shutil
        import tempfile
        folder = tempfile.mkdtemp()
        try:
            paths = []
            for name, data in files:
                paths.append(os.path.join(folder, os.path.basename(name)))
                with open(paths[-1], "wb") as f:
                    f.write(data)
            return run(paths)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def in_child(self):
        """In a process the learner's code forked (a multiprocessing pool's worker, say): the real
        os._exit, so that the child ends as multiprocessing ends it, and no protocol pipe."""
        os._exit = REAL_EXIT
        for stream in (self.proto_in, self.proto_out):
            try:
                os.close(stream.fileno())
            except (OSError, ValueError):
                pass

    def read_file(self, request):
        """A file the learner's code wrote, as bytes (at most FILE_LIMIT), for the parent to carry."""
        try:
            with open(request["path"], "rb") as f:
                return {"ok": wire.to_wire(f.read(FILE_LIMIT))}
        except OSError as e:
            return {"raised": calling.error_info(e, self.label_of)}

    def write_file(self, request):
        try:
            with open(request["path"], "wb") as f:
                f.write(wire.from_wire(request["data"]))
            return {"ok": None}
        except OSError as e:
            return {"raised": calling.error_info(e, self.label_of)}

    @staticmethod
    def wired(outcome):
        """The outcome with its value in wire form (a hostile value's error becomes the reply)."""
        if "ok" not in outcome:
            return outcome
        try:
            return {**outcome, "ok": wire.to_wire(outcome["ok"])}
        except BaseException as e:  # noqa: BLE001 - a hostile __iter__ or __repr__
            return {"raised": {"type": type(e).__name__, "message": "its result could not be read",
                               "kinds": [type(e).__name__], "where": None}}

    def get(self, request):
        name = request["name"]
        if name not in self.ns:
            return {"missing": True}
        obj = self.ns[name]
        if isinstance(obj, Poison):
            return {"reference": obj._path}
        return self.wired({"ok": obj})

    def serve(self):
        os.register_at_fork(after_in_child=self.in_child)
        handlers = {"call": self.call, "get": self.get, "measure": self.measure, "by_hand": self.by_hand,
                    "object": self.on_object, "with_file": self.with_file, "read_file": self.read_file,
                    "write_file": self.write_file}
        for line in self.proto_in:
            request = wire.json.loads(line)
            op = request["op"]
            if op == "load":
                self.load(request["cells"], set(request.get("skip", [])), request.get("seconds"),
                          request.get("module", "__main__"), request.get("file"))
            elif op in handlers:
                self.send(handlers[op](request))
            elif op == "quit":
                return


def limit_memory(megabytes):
    """Cap the address space (the whole sandbox's memory, since it is one process)."""
    set_limit("RLIMIT_AS", megabytes * 1024 * 1024)


def set_limit(name, value):
    try:
        import resource
    except ImportError:  # not on this platform (Windows): the timeout still applies
        return
    try:
        resource.setrlimit(getattr(resource, name), (value, value))
    except (ValueError, OSError, AttributeError):
        pass


def become(uid, gid=None):
    """Drop root for an unprivileged uid (and its gid, or the uid's number; no other groups):
    RLIMIT_NPROC binds only non-root, and root could read and change every file."""
    gid = uid if gid is None else gid
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    if os.getuid() != uid or os.geteuid() != uid or os.getegid() != gid:
        raise SystemExit("the worker could not drop root")


def lock_down(options):
    """Everything learner code must not change, set before it runs: user, processes, files, memory.
    Each process has the memory limit; the parent watches the total of all of them (sandbox.py)."""
    if options.get("uid") is not None:
        become(options["uid"], options.get("gid"))
    set_limit("RLIMIT_NPROC", options["processes"])  # processes and threads of this uid, the worker's own included
    set_limit("RLIMIT_CORE", 0)
    set_limit("RLIMIT_FSIZE", 64 * 1024 * 1024)
    set_limit("RLIMIT_NOFILE", 256)  # a pool of workers holds a few pipes each
    limit_memory(options["memory_mb"])


def fork_only():
    """Pools asked to start with spawn or forkserver start with fork. Those two run a fresh
    interpreter, without the worker's guards (and, for a notebook, without its functions); fork
    gives the same answers for workers that only read their arguments, as it did by default on
    Linux before Python 3.14."""
    from multiprocessing import context
    for method in ("spawn", "forkserver"):
        context._concrete_contexts[method] = context._concrete_contexts["fork"]


def parse(argv):
    """MEMORY_MB [--site DIR[:DIR...]] [--uid UID] [--gid GID] [--processes N] -> options."""
    options = {"memory_mb": int(argv[0]) if argv else 2048, "site": None, "uid": None, "gid": None, "processes": 1}
    for flag, value in zip(argv[1::2], argv[2::2]):
        options[flag.lstrip("-")] = int(value) if flag in ("--uid", "--gid", "--processes") else value
    return options


def exit_now(status=0):
    """os._exit for learner code: it ends the cell (as sys.exit does), not the worker, so what the
    submission defined before it is still graded."""
    raise SystemExit(status)


REAL_EXIT = os._exit


def main():
    options = parse(sys.argv[1:])
    os._exit = exit_now
    for folder in (options["site"] or "").split(os.pathsep):
        if folder:  # the grading Python's packages, read-only (outside the walls: a copy of the allowed ones)
            sys.path.append(folder)
            calling.add_library_folder(folder)
    # Keep private copies of the protocol pipes, then point fds 0-2 at /dev/null so that
    # nothing the learner writes (even with os.write) can reach the protocol.
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    worker = Worker(proto_in, proto_out)
    sys.stdout = sys.stderr = calling.CountingWriter()
    sys.stdin = open(os.devnull, encoding="utf-8")
    sys.meta_path.insert(0, FakeFinder())
    sys.setrecursionlimit(10_000)
    fork_only()
    lock_down(options)
    worker.serve()


if __name__ == "__main__":
    main()
