"""Code that reaches for the grader, or hides itself from the parent's reading, read statically.

The learner's code shares its process with the worker, so it could change what the worker
reports (the interpreter's modules, frames, the garbage collector, the protocol's file
descriptors) or run code the parent never read (exec of a built string). Such code earns no
credit for the exercise it belongs to: the exercise is `error: reaches into the grader` (or
`hides its code`), flagged for a human look. Ordinary code (`if __name__ == "__main__":`,
`import sys`, `sys.setrecursionlimit`) is not touched.

    findings = reaches(source)          # [Reach(line=3, what="sys.modules", hides=False), ...]
"""

import ast
from dataclasses import dataclass

from .bounded import TOO_BIG, TOO_DEEP, parse_python

# attributes of these modules that lead to the interpreter's insides (module -> names; "*": all)
MODULE_REACH = {
    "sys": {"modules", "_getframe", "_current_frames", "settrace", "setprofile", "meta_path", "path_hooks",
            "last_traceback", "addaudithook", "__stdout__", "__stderr__", "__stdin__"},
    "gc": {"get_objects", "get_referrers", "get_referents", "garbage", "callbacks"},
    "inspect": {"currentframe", "stack", "trace", "getouterframes", "getinnerframes"},
    "os": {"write", "read", "fdopen", "dup", "dup2", "close", "closerange", "pipe", "kill", "killpg",
           "register_at_fork", "set_inheritable"},
    "signal": {"signal", "setitimer", "alarm", "pthread_kill", "siginterrupt"},
    "importlib": {"reload", "util", "machinery", "abc", "_bootstrap"},
    "threading": {"settrace", "setprofile"}, "resource": {"setrlimit", "prlimit"},
    "ctypes": {"*"}, "_ctypes": {"*"}, "faulthandler": {"*"}, "__main__": {"*"},
    # reading builtins is fine; changing them (rebinds, setattr) is not, nor taking Python's own eval,
    # exec or compile from them: the learner's eval() reads data only (the worker's data_eval)
    "builtins": {"eval", "exec", "compile", "__import__", "__dict__"},
}
MODULE_REACH["posix"] = MODULE_REACH["os"]  # os's own insides, under their own name
# modules whose attributes a submission may not change: the interpreter's, and the course's own
# reference (a no-op in the sandbox, but an attempt on the grader); a plotting option is fine
GUARDED = set(MODULE_REACH) | {"bpe_ref", "tiktoken", "tiktoken_ext", "minbpe"}
# attributes that lead from any object to frames, globals, the interpreter or a code object
ATTRIBUTE_REACH = {"f_back", "f_globals", "f_locals", "f_builtins", "f_code", "tb_frame", "tb_next",
                   "gi_frame", "cr_frame", "ag_frame", "__traceback__", "__subclasses__", "__globals__",
                   "__builtins__", "__closure__", "__code__", "__self__", "__loader__", "__spec__",
                   "__import__", "__reduce__", "__reduce_ex__", "builtins"}  # a module's own `builtins`
# what a code object says of its function's signature: names and counts only, read through
# fn.__code__ (a test that asks whether encode takes allowed_special); the code object itself stays out of reach
CODE_FACTS = {"co_varnames", "co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_name", "co_qualname"}
NAME_REACH = {"__builtins__", "__import__", "__loader__", "__spec__"}
# with a built (non-literal) argument. Not eval: in the sandbox it reads data only ("b'ab'", "(1, 2)"),
# never a name, call or attribute (the worker's data_eval), so eval(token) of a learner's own data hides nothing
HIDING_CALLS = {"exec", "compile", "__import__"}
CODE_RUNNERS = {"eval", "exec"}  # reached as an attribute (a module's .eval(...)): Python's own, not data_eval
INDIRECT_CALLS = {"getattr", "setattr", "delattr", "vars", "globals", "locals"}
DEPTH = 200  # nesting the walk follows; deeper code cannot be read, and says so


@dataclass(frozen=True)
class Reach:
    line: int
    what: str
    hides: bool = False  # hides its code (exec of a built string...) rather than reaching in

    def __str__(self):
        verb = "hides its code" if self.hides else "reaches into the grader"
        return f"line {self.line}: {verb} ({self.what})"


UNREADABLE = Reach(0, "code the grader cannot parse", hides=True)


def parse(source):
    """The tree of `source`; None for a syntax error (the worker reports it too, and the cell
    defines nothing); UNREADABLE for code the parser itself cannot hold (nested too deep)."""
    try:
        return parse_python(source)
    except SyntaxError as e:
        return UNREADABLE if e.msg in (TOO_DEEP, TOO_BIG) else None
    except ValueError:  # a NUL byte
        return None


def reaches(source):
    """Every place in `source` that reaches for the grader or hides code from the parent."""
    tree = parse(source)
    if tree is None or tree is UNREADABLE:
        return [] if tree is None else [UNREADABLE]
    reader = Reader(tree, names_used([tree]))
    return reader.read(tree)


def names_used(trees):
    """Every name read anywhere in `trees`: a module imported and never named again is unreachable."""
    return {node.id for tree in trees for node in ast.walk(tree) if isinstance(node, ast.Name)}


def reaches_in(sources):
    """({top-level name: [Reach]} over several cells, with the code outside any def or class under
    None; {top-level name: the top-level names its code uses}): what each function or class does,
    and which helpers it leans on."""
    found, uses = {}, {}
    trees = [parse(source) for source in sources]
    used = names_used([tree for tree in trees if tree is not None and tree is not UNREADABLE])
    for tree in trees:
        if tree is None:
            continue
        if tree is UNREADABLE:
            found.setdefault(None, []).append(UNREADABLE)
            continue
        reader = Reader(tree, used)
        for node in tree.body:
            name = node.name if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else None
            found.setdefault(name, []).extend(reader.read(node))
            if name is not None:
                uses[name] = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    return found, uses


def tainted(found, uses, name):
    """The first Reach behind top-level `name`: in its own code, a helper it uses (followed
    through helpers), or the code outside any def; None when there is none."""
    seen, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        if found.get(current):
            return found[current][0]
        todo += sorted(uses.get(current, ()))
    return found[None][0] if found.get(None) else None


class Reader:
    """Walks a tree iteratively (a deep expression cannot exhaust the grader's stack)."""

    def __init__(self, tree, used=frozenset()):
        self.used = used  # names read anywhere in the submission (names_used)
        self.facts_read = set()  # ids of `.__code__` nodes read only for a CODE_FACTS name
        self.modules = {}  # local name -> the module it stands for (import gc as g), from the whole tree
        for node in ast.walk(tree):  # iterative: no recursion however deep the tree
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self.imported(alias.name, alias.asname, 0)
            elif isinstance(node, ast.ImportFrom):
                self.imported_from(node, 0)

    def read(self, tree):
        out, todo = [], [(tree, 0)]
        while todo:
            node, depth = todo.pop()
            if depth > DEPTH:
                out.append(Reach(getattr(node, "lineno", 0), "code nested too deep to read", hides=True))
                continue
            out += self.visit(node)
            todo += [(child, depth + 1) for child in ast.iter_child_nodes(node)]
        return sorted(set(out), key=lambda r: (r.line, r.what))

    def visit(self, node):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            return [r for alias in node.names for r in self.imported(alias.name, alias.asname, line)]
        if isinstance(node, ast.ImportFrom):
            return self.imported_from(node, line)
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            return self.rebinds(node, line)
        if isinstance(node, ast.Attribute):
            return self.attribute(node, line)
        if isinstance(node, ast.Name) and node.id in NAME_REACH:
            return [Reach(line, node.id)]
        if isinstance(node, ast.Call):
            return self.call(node, line)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                and node.slice.value in ATTRIBUTE_REACH | {"modules"}:
            return [Reach(line, f"[{node.slice.value!r}]")]
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith(("/proc/self", "/dev/fd")):
            return [Reach(line, node.value[:40])]
        return []

    def imported(self, module, asname, line):
        root = module.split(".")[0]
        self.modules[asname or root] = module if asname else root
        # reached only through its name: an import no code names again (CS336 code that imports
        # __main__ and never uses it) reaches nothing; any use, an alias's too, is flagged
        if root in MODULE_REACH and "*" in MODULE_REACH[root] and (asname or root) in self.used:
            return [Reach(line, f"import {module}")]
        return []

    def imported_from(self, node, line):
        module = node.module or ""
        root = module.split(".")[0]
        out = []
        for alias in node.names:
            reach = MODULE_REACH.get(root, set())
            if "*" in reach or alias.name in reach or alias.name == "*" and reach:
                out.append(Reach(line, f"from {module} import {alias.name}"))
            elif root in MODULE_REACH or module in MODULE_REACH:
                self.modules[alias.asname or alias.name] = f"{module}.{alias.name}"
        return out

    def attribute(self, node, line):
        if node.attr in CODE_FACTS and isinstance(node.value, ast.Attribute) and node.value.attr == "__code__":
            self.facts_read.add(id(node.value))  # visited before its child (read's walk): fn.__code__.co_varnames
            return []
        if node.attr in ATTRIBUTE_REACH and id(node) not in self.facts_read:
            return [Reach(line, f".{node.attr}")]
        if isinstance(node.value, ast.Name):
            module = self.modules.get(node.value.id, node.value.id if node.value.id in MODULE_REACH else None)
            if module is not None:
                reach = MODULE_REACH.get(module.split(".")[0], set())
                if "*" in reach or node.attr in reach:
                    return [Reach(line, f"{module}.{node.attr}")]
        return []

    def rebinds(self, node, line):
        """An assignment to a module's attribute (sys.stdout = ..., os.write = ...): the worker's
        world changed under it."""
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
        out = []
        for target in targets:
            root, chain = target, []
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                chain.append(root.attr if isinstance(root, ast.Attribute) else "[...]")
                root = root.value
            module = self.modules.get(root.id, root.id) if isinstance(root, ast.Name) else None
            if chain and chain[-1] == "environ":  # the sandbox's own environment: the learner's to change
                continue
            if chain and module is not None and module.split(".")[0] in GUARDED:
                out.append(Reach(line, f"{root.id}.{'.'.join(reversed(chain))} changed"))
        return out

    def call(self, node, line):
        if isinstance(node.func, ast.Attribute) and node.func.attr == "import_module" and node.args \
                and not isinstance(node.args[0], ast.Constant):
            return [Reach(line, "import_module() of a built name", hides=True)]
        if isinstance(node.func, ast.Attribute) and node.func.attr in CODE_RUNNERS and node.args \
                and not isinstance(node.args[0], ast.Constant):
            return [Reach(line, f".{node.func.attr}() of a built string", hides=True)]
        fn = node.func.id if isinstance(node.func, ast.Name) else None
        if fn in HIDING_CALLS and node.args and not isinstance(node.args[0], ast.Constant):
            return [Reach(line, f"{fn}() of a built string", hides=True)]
        if fn in ("getattr", "setattr", "delattr") and len(node.args) >= 2:
            name = node.args[1]
            if not isinstance(name, ast.Constant):
                target = node.args[0]
                if isinstance(target, ast.Name) and (target.id in self.modules or target.id in MODULE_REACH):
                    return [Reach(line, f"{fn}() of a module with a built name", hides=True)]
            elif isinstance(name.value, str) and name.value in ATTRIBUTE_REACH | CODE_RUNNERS | {"modules"}:
                return [Reach(line, f"{fn}(..., {name.value!r})")]
            elif fn != "getattr" and isinstance(node.args[0], ast.Name) \
                    and self.modules.get(node.args[0].id, node.args[0].id).split(".")[0] in GUARDED:
                return [Reach(line, f"{fn}() on the module {node.args[0].id}")]
        if fn == "vars" and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in self.modules:
            return [Reach(line, "vars() of a module")]
        return []
