"""The sandbox worker: runs ONE learner submission in its own process and answers calls.

Started by bpe_ref.grade.sandbox as `python -I worker.py MEMORY_MB`. It imports nothing from
bpe_ref: `bpe_ref`, `tiktoken` and `minbpe` are replaced by stand-ins whose functions, when
called, mark the call as a use of the reference. The course's `check(...)` calls become no-ops.
It speaks one JSON object per line on private copies of stdin/stdout; the learner's prints are
counted (and capped), never mixed into the protocol. Expected values are never computed here.
"""

import builtins
import functools
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import linecache
import os
import sys
import types
from pathlib import Path

HERE = Path(os.path.realpath(__file__)).parent
OUTPUT_LIMIT = 1_000_000  # characters a learner may print per call (or while loading)
REFERENCE_ROOTS = ("bpe_ref", "tiktoken", "tiktoken_ext", "minbpe")
NO_OP_MODULES = ("bpe_ref.grade", "bpe_ref.viewer")
USED = []  # reference objects touched during the current call


def _load_file(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


wire = _load_file(HERE / "wire.py", "_bpe_grade_wire")
PATTERNS = {k: v for k, v in vars(_load_file(HERE.parent / "patterns.py", "_bpe_grade_patterns")).items() if k.isupper()}


class ReferenceUsed(BaseException):
    """Raised when learner code calls into the reference; BaseException so `except Exception` misses it."""


class OutputLimit(BaseException):
    """Raised when learner code prints more than OUTPUT_LIMIT characters."""


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


def _real_locations():
    """Folders of the real reference code, to notice it being loaded by file path."""
    places = [str(HERE.parent) + os.sep]
    spec = importlib.machinery.PathFinder.find_spec("tiktoken")
    if spec is not None and spec.origin:
        places.append(os.path.realpath(Path(spec.origin).parent) + os.sep)
    return tuple(places)


REAL_LOCATIONS = _real_locations()
GRADE_LOCATION = str(HERE) + os.sep


@functools.lru_cache(maxsize=4096)
def real_path(filename):
    return os.path.realpath(filename)


def watch_reference(frame, event, arg):
    """A profile hook: record any call into the real bpe_ref or tiktoken files."""
    if event == "call":
        filename = real_path(frame.f_code.co_filename)
        if filename.startswith(REAL_LOCATIONS) and not filename.startswith(GRADE_LOCATION):
            USED.append(f"{Path(filename).stem}.{frame.f_code.co_name}")


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


class LimitedWriter:
    """sys.stdout/sys.stderr for learner code: counts characters, keeps none, stops a flood."""

    encoding = "utf-8"

    def __init__(self):
        self.count = 0

    def write(self, text):
        self.count += len(text)
        if self.count > OUTPUT_LIMIT:
            raise OutputLimit(self.count)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False


class FakeIPython:
    """get_ipython() for notebook code: magics and display hooks do nothing."""

    def __getattr__(self, name):
        return _no_op


def where(exc, namespace_files):
    """'cell 3, line 7' for the innermost frame of learner code in a traceback."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename in namespace_files:
            found = f"{filename.strip('<>')}, line {tb.tb_lineno}"
        tb = tb.tb_next
    return found


class Worker:
    def __init__(self, proto_in, proto_out):
        self.proto_in, self.proto_out = proto_in, proto_out
        self.writer = LimitedWriter()
        self.files = set()
        self.ns = {
            "__name__": "__main__",
            "__builtins__": builtins,
            "display": _no_op,
            "get_ipython": FakeIPython,
        }

    def send(self, message):
        self.proto_out.write(wire.dumps(message) + "\n")
        self.proto_out.flush()

    def error_info(self, exc):
        return {"type": type(exc).__name__, "message": str(exc)[:300], "where": where(exc, self.files),
                "kinds": [c.__name__ for c in type(exc).__mro__]}

    # --------------------------------------------------------------- loading

    def run_cell(self, index, name, source):
        filename = f"<{name}>"
        self.files.add(filename)
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        try:
            code = compile(source, filename, "exec")
        except SyntaxError as e:
            return {"status": "syntax", "line": e.lineno, "message": e.msg, "text": (e.text or "").strip()[:200]}
        USED.clear()
        try:
            exec(code, self.ns)
        except OutputLimit:
            return {"status": "output_limit"}
        except SystemExit as e:
            return {"status": "exit", "code": str(e.code)}
        except ReferenceUsed as e:
            return {"status": "reference", "what": str(e)}
        except BaseException as e:  # noqa: BLE001 - learner code may raise anything
            return {"status": "error", **self.error_info(e)}
        return {"status": "ok"}

    def load(self, cells, skip):
        self.writer.count = 0
        for index, cell in enumerate(cells):
            if index in skip:
                self.send({"cell": index, "status": "skipped"})
                continue
            self.send({"cell": index, "status": "started"})
            result = self.run_cell(index, cell["name"], cell["source"])
            self.writer.count = 0
            self.send({"cell": index, **result})
        self.send({"loaded": True, "defined": self.describe()})

    def describe(self):
        """What the submission defines: callables (with their arity) and plain values."""
        defined = {}
        for name, obj in list(self.ns.items()):
            if name.startswith("_") or isinstance(obj, types.ModuleType):
                continue
            if isinstance(obj, Poison):
                defined[name] = {"kind": "reference", "what": obj._path}
            elif callable(obj):
                defined[name] = {"kind": "callable", "params": required_params(obj)}
            else:
                defined[name] = {"kind": "value", "type": type(obj).__name__}
        return defined

    # --------------------------------------------------------------- calling

    def call(self, name, args):
        fn = self.ns.get(name)
        if fn is None:
            return {"missing": True}
        if isinstance(fn, Poison):
            return {"reference": fn._path}
        args = wire.from_wire(args)
        before = wire.dumps(wire.to_wire(args))
        USED.clear()
        self.writer.count = 0
        sys.setprofile(watch_reference)
        try:
            result = fn(*args)
        except NotImplementedError as e:
            return {"not_implemented": str(e)[:300]}
        except ReferenceUsed as e:
            return {"reference": str(e)}
        except OutputLimit:
            return {"output_limit": OUTPUT_LIMIT}
        except SystemExit as e:
            return {"exit": str(e.code)}
        except MemoryError:
            return {"memory": True}
        except BaseException as e:  # noqa: BLE001
            return {"raised": self.error_info(e)}
        finally:
            sys.setprofile(None)
        if USED:
            return {"reference": USED[0]}
        try:
            value = wire.to_wire(result)
            mutated = wire.dumps(wire.to_wire(args)) != before
        except BaseException as e:  # noqa: BLE001 - a hostile __iter__ or __repr__
            return {"raised": {"type": type(e).__name__, "message": "its result could not be read", "where": None}}
        return {"ok": value, "mutated": mutated}

    def get(self, name):
        if name not in self.ns:
            return {"missing": True}
        obj = self.ns[name]
        if isinstance(obj, Poison):
            return {"reference": obj._path}
        try:
            return {"ok": wire.to_wire(obj)}
        except BaseException as e:  # noqa: BLE001
            return {"raised": {"type": type(e).__name__, "message": str(e)[:200], "where": None}}

    def serve(self):
        for line in self.proto_in:
            request = wire.json.loads(line)
            op = request["op"]
            if op == "load":
                self.load(request["cells"], set(request.get("skip", [])))
            elif op == "call":
                self.send(self.call(request["name"], request["args"]))
            elif op == "get":
                self.send(self.get(request["name"]))
            elif op == "quit":
                return


def required_params(fn):
    """How many positional arguments `fn` needs (None when Python cannot tell)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for p in signature.parameters.values()
               if p.kind in kinds and p.default is inspect.Parameter.empty)


def limit_memory(megabytes):
    try:
        import resource
    except ImportError:  # not on this platform (Windows): the timeout still applies
        return
    limit = megabytes * 1024 * 1024
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):
        pass


def main():
    memory_mb = int(sys.argv[1]) if len(sys.argv) > 1 else 2048
    # Keep private copies of the protocol pipes, then point fds 0-2 at /dev/null so that
    # nothing the learner writes (even with os.write) can reach the protocol.
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    worker = Worker(proto_in, proto_out)
    sys.stdout = sys.stderr = worker.writer
    sys.stdin = open(os.devnull, encoding="utf-8")
    sys.meta_path.insert(0, FakeFinder())
    sys.setrecursionlimit(10_000)
    limit_memory(memory_mb)
    worker.serve()


if __name__ == "__main__":
    main()
