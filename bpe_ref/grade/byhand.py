"""What a by-hand exercise may not call: the library doing the exercise's job for it.

A rule names a job (writing an int in hex, reading hex, encoding text as UTF-8) and the library
functions that do that job. It is enforced twice, by what the code is, not by how it is spelled:

- while the learner's function runs, every C function and library function it reaches is
  seen by the profile hook (`refuser(rule)`), whatever name or alias it was called through;
- before that, the function and every learner helper it refers to are read (`static_shortcuts`),
  for what runs without a call: `"%x" % n`, f"{n:x}", and the types int/bytes/bytearray/str
  called with a base or an encoding (also through an alias such as `b = bytearray`).

Standard library only: the sandbox worker loads this file by its path.
"""

import ast
import builtins
import functools
import inspect
import re
import textwrap
import types
from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    job: str  # what the learner is asked to do by hand, for the message
    calls: frozenset  # callee names (calling.callee_name) that do the job
    modules: frozenset = frozenset()  # modules whose every function does the job (by top-level name)
    format_letters: str = ""  # format-spec letters that do the job: "xX" for hex
    conversions: tuple = ()  # types that do the job when given a second argument (a base, an encoding)


EVAL = frozenset({"builtins.eval", "builtins.exec", "builtins.compile"})
CODEC_MODULES = frozenset({"codecs", "_codecs", "encodings", "binascii", "base64"})

RULES = {
    "int to hex": Rule(
        job="write the digits yourself (divmod by 16)",
        calls=EVAL | {"builtins.hex", "builtins.format", "int.__format__", "object.__format__", "bytes.hex",
                      "bytearray.hex", "memoryview.hex", "str.format_map"},
        modules=CODEC_MODULES | {"numpy"},
        format_letters="xX",
    ),
    "hex to int": Rule(
        job="read the digits yourself (n * 16 + digit)",
        calls=EVAL | {"int.from_bytes", "bytes.fromhex", "bytearray.fromhex", "ast.literal_eval"},
        modules=CODEC_MODULES | {"ast", "numpy"},
        conversions=(int,),
    ),
    "text to utf-8": Rule(
        job="build the bytes from the bit layout yourself",
        calls=EVAL | {"str.encode"},
        modules=CODEC_MODULES | {"numpy"},
        conversions=(bytes, bytearray, str, memoryview),
    ),
}


def refuser(rule_name):
    """The profile hook's test for one rule: (callee name, module, fn) -> a description or None."""
    rule = RULES[rule_name]

    def refuses(name, module, fn):
        root = (module or name).split(".")[0]
        if name in rule.calls or root in rule.modules:
            return f"{name.removeprefix('builtins.').lstrip('_')}()"
        if name == "str.format" and rule.format_letters and _formats_with(getattr(fn, "__self__", ""), rule):
            return f"{getattr(fn, '__self__', '')!r}.format()"
        return None

    return refuses


def _formats_with(template, rule):
    """Whether a str.format template has a field whose format spec uses one of the rule's letters."""
    if not isinstance(template, str):
        return False
    import string
    try:
        fields = [spec for _, _, spec, _ in string.Formatter().parse(template) if spec]
    except ValueError:
        return False
    return any(letter in spec for spec in fields for letter in rule.format_letters)


# ---------------------------------------------------------------------------- reading the code

def static_shortcuts(fn, rule_name, is_learner):
    """What `fn`, and the learner's own helpers it refers to, use that the rule refuses."""
    rule, found, seen = RULES[rule_name], [], set()
    for function in _learner_functions(fn, is_learner, seen):
        tree = _parse(function)
        if tree is not None:
            for what in _shortcuts_in(tree, rule, _resolver(function)):
                if what not in found:
                    found.append(what)
    return found


def _learner_functions(obj, is_learner, seen):
    """The plain functions behind `obj` (a function, lambda, callable object, partial, class),
    then, recursively, every learner function they refer to by a global or closure name."""
    for function in _functions_of(obj):
        code = function.__code__
        if id(code) in seen or not is_learner(code.co_filename):
            continue
        seen.add(id(code))
        yield function
        for value in _referenced_values(function):
            yield from _learner_functions(value, is_learner, seen)


def _functions_of(obj):
    if isinstance(obj, types.MethodType):
        obj = obj.__func__
    if isinstance(obj, types.FunctionType):
        return [obj]
    if isinstance(obj, functools.partial):
        return _functions_of(obj.func)
    cls = obj if isinstance(obj, type) else type(obj)
    if cls.__module__ == "builtins":
        return []
    return [v for v in vars(cls).values() if isinstance(v, types.FunctionType)]


def _referenced_values(function):
    code, names = function.__code__, set()
    stack = [code]
    while stack:  # nested functions and comprehensions have code objects of their own
        current = stack.pop()
        names.update(current.co_names)
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    values = [function.__globals__[n] for n in names if n in function.__globals__]
    values += [cell.cell_contents for cell in (function.__closure__ or ()) if _has_contents(cell)]
    return values


def _has_contents(cell):
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def _parse(function):
    try:
        source = textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError):
        return None
    for text in (source, source.strip().rstrip(",")):
        try:
            return ast.parse(text)
        except SyntaxError:
            continue
    return None  # e.g. a lambda in the middle of a longer expression: the run-time watch remains


def _resolver(function):
    """name -> the object it means inside `function` (globals, closure, builtins), or None."""
    closure = dict(zip(function.__code__.co_freevars,
                       [c.cell_contents if _has_contents(c) else None for c in function.__closure__ or ()]))

    def resolve(node):
        if isinstance(node, ast.Name):
            for space in (closure, function.__globals__, vars(builtins)):
                if node.id in space:
                    return space[node.id]
            return None
        if isinstance(node, ast.Attribute):
            owner = resolve(node.value)
            return getattr(owner, node.attr, None) if owner is not None else None
        return None

    return resolve


def _shortcuts_in(tree, rule, resolve):
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and rule.format_letters and any(
                isinstance(part, ast.FormattedValue) and part.format_spec is not None
                and any(letter in ast.unparse(part.format_spec) for letter in rule.format_letters)
                for part in node.values):
            yield f"the f-string {ast.unparse(node)[:40]}"
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and rule.format_letters \
                and _formats_by_percent(node.left, rule):
            yield f"{ast.unparse(node)[:40]} (%-formatting)"
        elif isinstance(node, ast.Attribute) and node.attr in ("__format__", "__mod__", "__rmod__") \
                and rule.format_letters:
            yield f"{ast.unparse(node)[:40]}"
        elif isinstance(node, ast.Call):
            found = _conversion(node, rule, resolve)
            if found:
                yield found


def _formats_by_percent(node, rule):
    """'%x' % n, '%04X' % n, f'%{w}x' % n: a %-template with a conversion the rule refuses."""
    if isinstance(node, ast.JoinedStr):
        return True  # a template built at run time: read as the shortcut it almost always is
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return False
    return any(re.search(r"%[-#0 +]*\d*(?:\.\d+)?" + letter, node.value) for letter in rule.format_letters)


def _conversion(node, rule, resolve):
    """int(s, 16), bytes(text, "utf-8"), partial(int, base=16), or a partial object made earlier:
    a type doing the job."""
    target, args, keywords = resolve(node.func), len(node.args), {k.arg for k in node.keywords}
    if target is functools.partial and node.args:
        target, args = resolve(node.args[0]), args - 1
    elif isinstance(target, functools.partial):
        target, args, keywords = target.func, args + len(target.args), keywords | set(target.keywords)
    if target is None or not any(target is kind for kind in rule.conversions):
        return None
    if args >= 2 or keywords & {"base", "encoding", "errors"}:
        if resolve(node.func) is target:
            return ast.unparse(node)[:40]
        return f"{ast.unparse(node)[:40]} ({target.__name__} with {'a base' if target is int else 'an encoding'})"
    return None
