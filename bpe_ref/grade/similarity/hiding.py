"""Code that hides its body from a reading of its text, so that no comparison can be trusted.

    hides(ast.parse(text).body)   'runs code held in a string (exec)', or None

The report compares what code says, never what it does when run. Code that builds itself from
strings (exec, eval, compile), looks its names up indirectly (globals()[...], getattr with a name
it computes, a module's __dict__), or wraps nearly every name in a call of its own (an identity
function around each variable) says one thing to the reader and another to Python. Such a piece
is listed as "could not be compared: hides its code" rather than scored: a low score would read
as "no match", which nobody could vouch for. It is a reason to look, like any match.
"""

import ast
import re

RUNS_STRINGS = frozenset({"exec", "eval", "compile", "__import__", "execfile"})
INDIRECT = frozenset({"globals", "locals", "vars"})
REACHES = frozenset({"__dict__", "__globals__", "__builtins__", "__code__", "__getattribute__", "__closure__",
                     "FunctionType", "CodeType"})
MODULES = frozenset({"marshal", "importlib", "runpy", "builtins", "codeop"})
NAMED_ATTRIBUTE = frozenset({"getattr", "setattr", "delattr"})
WRAPPED = (6, 0.35)  # one callee around at least 6 bare names, 35 % of the names read besides callees


SUSPECT_RE = re.compile("|".join(map(re.escape, sorted(RUNS_STRINGS | INDIRECT | REACHES | MODULES | NAMED_ATTRIBUTE))))
CALL_AROUND_NAME_RE = re.compile(r"\(\s*[A-Za-z_]\w*\s*\)")


def might_hide(text):
    """A quick look at the text: False when `hides` cannot find anything in it (most code), so
    that the tree is walked only for code naming one of the suspects or wrapping many names."""
    return bool(SUSPECT_RE.search(text)) or len(CALL_AROUND_NAME_RE.findall(text)) >= WRAPPED[0]


def hides(nodes):
    """Why the statements `nodes` hide their code from a reading of their text, or None."""
    names_read, wraps = 0, {}
    for node in (sub for top in nodes for sub in ast.walk(top)):
        reason = hiding_node(node)
        if reason:
            return reason
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            names_read += 1
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            names_read -= 1  # the callee's own name is not one of the names it reads
        callee = wrapper_of(node)
        if callee:
            wraps[callee] = wraps.get(callee, 0) + 1
    callee, count = max(wraps.items(), key=lambda item: item[1], default=(None, 0))
    if count >= WRAPPED[0] and count >= WRAPPED[1] * names_read:
        return f"wraps {count} of the {names_read} names it reads in calls of {callee}()"
    return None


def hiding_node(node):
    """The reason one node hides code (a call of exec, globals(), a module's __dict__), or None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        name = node.func.id
        if name in RUNS_STRINGS:
            return f"runs code held in a string ({name})"
        if name in INDIRECT:
            return f"looks names up indirectly ({name}())"
        if name in NAMED_ATTRIBUTE and (len(node.args) < 2 or not isinstance(node.args[1], ast.Constant)):
            return f"looks names up indirectly ({name} with a computed name)"
    if isinstance(node, ast.Name) and node.id in RUNS_STRINGS | INDIRECT | REACHES:
        return f"reaches for {node.id} without calling it by name"
    if isinstance(node, ast.Attribute) and node.attr in REACHES:
        return f"reaches for .{node.attr}"
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
        for module in modules:
            if module.split(".")[0] in MODULES:
                return f"imports {module}, which builds or finds code at run time"
    return None


def wrapper_of(node):
    """The callee's name when `node` is a call around one bare name, f(x) or (lambda v: v)(x); else None."""
    if not isinstance(node, ast.Call) or len(node.args) != 1 or node.keywords:
        return None
    if not isinstance(node.args[0], (ast.Name, ast.Constant)):
        return None
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Lambda):
        return "lambda"
    return None
