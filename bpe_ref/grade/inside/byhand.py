"""What a by-hand exercise may not call: the library doing the exercise's job for it.

A rule names a job (writing an int in hex, reading hex, encoding text as UTF-8) and the library
functions that do that job. It is enforced twice, by what the code is, not by how it is spelled:

- while the learner's function runs, every C function and library function it calls is seen by
  the profile hook (`refuser(rule)`), whatever name or alias it was called through;
- before that, the function and every learner helper it refers to are read (`static_shortcuts`),
  for what the hook cannot see: `"%x" % n` and f"{n:x}" (bytecode, not calls), the types
  int/bytes/bytearray called with a base or an encoding, and library functions handed to C code
  that calls them (`map(str.encode, ...)`, `operator.methodcaller("encode")`). Names are followed
  to what they mean where the source alone can tell (`FMT % n` with FMT = "%x", `type(0)`,
  `getattr(text, "enc" + "ode")`): see `Values`.

Both run inside the learner's process, so they stop the honest shortcut, not a determined cheat:
a name computed from data the source does not hold (decoded, read from a file) is not followed.

Standard library only: the sandbox worker loads this file by its path.
"""

import ast
import builtins
import functools
import inspect
import itertools
import operator
import re
import string
import textwrap
import types
from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    job: str  # what the learner is asked to do by hand, for the message
    calls: frozenset  # callee names (callee_name below) that do the job
    modules: frozenset = frozenset()  # modules whose every function does the job (by top-level name)
    format_letters: str = ""  # format-spec letters that do the job: "xX" for hex
    conversions: tuple = ()  # types that do the job when given a second argument (a base, an encoding)

    def refuses_call(self, name):
        """Whether a call seen at run time does the job: a listed callee, or a conversion type's
        own constructor called by name (`int.__new__(int, s, 16)`; `int(s, 16)` is no call the
        hook sees, and is read from the source instead)."""
        return name in self.calls or name in {f"{kind.__name__}.__new__" for kind in self.conversions}

    @property
    def methods(self):
        """Method names that do the job, when the source names them as text
        (`operator.methodcaller("encode")`, `getattr(s, "hex")`)."""
        names = {name.rsplit(".", 1)[1] for name in self.calls if not name.startswith("builtins.")}
        if self.format_letters:
            names |= {"__format__", "__mod__", "__rmod__"}
        if self.conversions:
            names.add("__new__")
        return names


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
    """The profile hook's test for one rule: (callee name, module, fn) -> a description or None.
    A C function comes with no name (None): it is named here, by callee_name."""
    return functools.partial(_refusal, RULES[rule_name])


def _refusal(rule, name, module, fn):
    """What a call (seen by the hook) or a callable (read in the source) does for the rule's job:
    a description, or None when the rule allows it."""
    name = name or callee_name(fn)
    root = (module or name).split(".")[0]
    if rule.refuses_call(name) or root in rule.modules:
        return f"{name.removeprefix('builtins.').lstrip('_')}()"
    if name == "str.format" and rule.format_letters and _formats_with(getattr(fn, "__self__", ""), rule):
        return f"{getattr(fn, '__self__', '')!r}.format()"
    return None


def _formats_with(template, rule):
    """Whether a str.format template has a field whose format spec uses one of the rule's letters."""
    if not isinstance(template, str):
        return False
    try:
        fields = [spec for _, _, spec, _ in string.Formatter().parse(template) if spec]
    except ValueError:
        return False
    return any(letter in spec for spec in fields for letter in rule.format_letters)


# ---------------------------------------------------------------------------- reading the code

def static_shortcuts(fn, rule_name, is_learner):
    """What `fn`, and the learner's own helpers it refers to, use that the rule refuses."""
    rule, found, seen = RULES[rule_name], [], set()
    itself = _refused_value(fn, rule)  # e.g. utf8_encode = operator.methodcaller("encode")
    if itself:
        found.append(itself)
    for function in _learner_functions(fn, is_learner, seen):
        tree = _parse(function)
        if tree is not None:
            for what in _shortcuts_in(tree, rule, Values(function, is_learner, tree)):
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


def _functions_of(obj, depth=0):
    """Told by type(), never isinstance(): a learner's object may lie about its __class__.
    Helpers kept in a tuple, list or dict (`HELPERS = {"hex": digits}`) are followed too."""
    if type(obj) is types.MethodType:
        obj = obj.__func__
    if type(obj) is types.FunctionType:
        return [obj]
    if type(obj) is functools.partial:
        return _functions_of(obj.func, depth)
    if type(obj) in (tuple, list, dict):
        items = list(itertools.islice(obj.values() if type(obj) is dict else obj, 100)) if depth < 2 else []
        return [function for item in items for function in _functions_of(item, depth + 1)]
    cls = obj if issubclass(type(obj), type) else type(obj)
    if cls.__module__ in ("builtins", "operator"):
        return []
    return [v for v in vars(cls).values() if type(v) is types.FunctionType]


def _referenced_values(function):
    names = set()
    for code in _code_objects(function.__code__):
        names.update(code.co_names)
    values = [function.__globals__[n] for n in names if n in function.__globals__]
    values += [cell.cell_contents for cell in (function.__closure__ or ()) if _has_contents(cell)]
    return values


def _code_objects(code):
    """A code object and those nested in it (inner functions and comprehensions have their own)."""
    stack, out = [code], []
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return out


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


# ---------------------------------------------------------------------------- what a name can mean

KNOWN_TYPES = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodDescriptorType,
               types.WrapperDescriptorType, types.MethodWrapperType, types.ClassMethodDescriptorType,
               functools.partial, operator.methodcaller, operator.attrgetter)
PURE_CALLS = (chr, str, tuple, list)  # pure on constants
BUILDERS = (operator.methodcaller, operator.attrgetter, functools.partial)  # pure on anything
STR_METHODS = frozenset({"join", "upper", "lower", "replace", "strip", "lstrip", "rstrip", "removeprefix",
                         "removesuffix", "format", "__add__", "__getitem__", "__mul__"})


class Values:
    """What each expression of one learner function can be, as far as its source alone tells.

    Constants; names: the function's own assignments and parameters' defaults, else its closure,
    globals and builtins; attributes; `+`, `%` and `*` of constants; f-strings; subscripts;
    `x if c else y`; a few calls that run no learner code (chr, str, type, getattr, str methods,
    methodcaller) and the learner's own helpers, by what they return. `of(node)` lists the
    possibilities; [] means the source cannot tell (a parameter, a value computed from input).
    Nothing here runs learner code: only constants, modules, classes and functions are followed
    (`_known`), learner classes are read with getattr_static, and objects are compared by identity.
    """

    LIMIT = 16  # possibilities kept per expression
    DEPTH = 3  # helpers followed into helpers

    def __init__(self, function, is_learner, tree=None, depth=0):
        self.function, self.is_learner, self.depth = function, is_learner, depth
        self.tree = tree if tree is not None else _parse(function)
        self.local_names = {name for code in _code_objects(function.__code__)
                            for name in code.co_varnames + code.co_cellvars}
        self.assigned = _assignments(self.tree) if self.tree is not None else {}
        self.defaults = _defaults(function)
        self.closure = dict(zip(function.__code__.co_freevars,
                                [c.cell_contents if _has_contents(c) else None
                                 for c in function.__closure__ or ()]))
        self.busy = set()

    def of(self, node):
        handler = getattr(self, f"_{type(node).__name__.lower()}", None)
        if handler is None or id(node) in self.busy:
            return []
        self.busy.add(id(node))
        try:
            return _unique([value for value in handler(node) if _known(value)])[:self.LIMIT]
        except Exception:  # noqa: BLE001 - a value the source cannot tell is simply unknown
            return []
        finally:
            self.busy.discard(id(node))

    def one_each(self, nodes):
        """The values of several expressions when each has exactly one possibility, else None."""
        found = [self.of(node) for node in nodes]
        return [values[0] for values in found] if all(len(values) == 1 for values in found) else None

    def returns(self):
        """What the function can return: its `return` expressions (not those of inner functions)."""
        if self.tree is None or not self.tree.body:
            return []
        if self.function.__name__ == "<lambda>":  # its source is the line that holds it
            lambdas = [node for node in ast.walk(self.tree) if isinstance(node, ast.Lambda)]
            return self.of(lambdas[0].body) if len(lambdas) == 1 else []
        return [value for node in _own_nodes(self.tree.body[0]) if isinstance(node, ast.Return)
                and node.value is not None for value in self.of(node.value)]

    # ------------------------------------------------------------------ one handler per kind of node

    def _constant(self, node):
        return [node.value]

    def _name(self, node):
        if node.id in self.local_names or node.id in self.assigned:
            values = [v for expr in self.assigned.get(node.id, []) for v in self.of(expr)]
            return values + ([self.defaults[node.id]] if node.id in self.defaults else [])
        for space in (self.closure, self.function.__globals__, vars(builtins)):
            if node.id in space:
                return [space[node.id]]
        return []

    def _attribute(self, node):
        return [found for owner in self.of(node.value) for found in _static_attr(owner, node.attr)]

    def _binop(self, node):
        operation = {ast.Add: lambda a, b: a + b, ast.Mod: lambda a, b: a % b,
                     ast.Mult: lambda a, b: a * b}.get(type(node.op))
        if operation is None:
            return []
        return [operation(a, b) for a in self.of(node.left) for b in self.of(node.right)
                if _small_operands(a, b)]

    def _joinedstr(self, node):
        texts = [""]
        for part in node.values:
            pieces = self.of(part)
            if not pieces:
                return []
            texts = [text + piece for text in texts for piece in pieces if isinstance(piece, str)][:self.LIMIT]
        return texts

    def _formattedvalue(self, node):
        specs = self.of(node.format_spec) if node.format_spec is not None else [""]
        convert = {115: str, 114: repr, 97: ascii}.get(node.conversion, lambda v: v)
        return [format(convert(value), spec) for value in self.of(node.value) if type(value) in (str, int)
                for spec in specs]

    def _ifexp(self, node):
        return self.of(node.body) + self.of(node.orelse)

    def _boolop(self, node):
        return [value for operand in node.values for value in self.of(operand)]

    def _namedexpr(self, node):
        return self.of(node.value)

    def _subscript(self, node):
        keys = self._slice(node.slice) if isinstance(node.slice, ast.Slice) else self.of(node.slice)
        return [container[key] for container in self.of(node.value) if _indexable(container)
                for key in keys if _plain(key) or isinstance(key, slice)]

    def _slice(self, node):
        bounds = [self.one_each([part]) if part is not None else [None] for part in (node.lower, node.upper, node.step)]
        return [slice(*[b[0] for b in bounds])] if all(b is not None for b in bounds) else []

    def _list(self, node):
        items = self.one_each(node.elts)
        return [items] if items is not None else []

    def _tuple(self, node):
        items = self.one_each(node.elts)
        return [tuple(items)] if items is not None else []

    def _call(self, node):
        if any(isinstance(arg, ast.Starred) for arg in node.args) or any(k.arg is None for k in node.keywords):
            return []
        args = self.one_each(node.args)
        keywords = self.one_each([k.value for k in node.keywords])
        found = []
        for fn in self.of(node.func):
            if self._is_learner_function(fn):
                found += Values(fn, self.is_learner, depth=self.depth + 1).returns()
            elif fn is getattr and args is not None and len(args) >= 2:
                found += _static_attr(*args[:2])
            elif args is not None and keywords is not None and _pure(fn, args + keywords):
                found.append(fn(*args, **dict(zip([k.arg for k in node.keywords], keywords))))
        return found

    def _is_learner_function(self, fn):
        return (type(fn) is types.FunctionType and self.depth < self.DEPTH
                and self.is_learner(fn.__code__.co_filename))


def _assignments(tree):
    """{local name: [expressions assigned to it]} in a function's source (inner scopes included)."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and node.value is not None:
            targets, value = [node.target], node.value
            if isinstance(node, ast.AugAssign):
                value = ast.BinOp(left=ast.Name(id=node.target.id, ctx=ast.Load()), op=node.op, right=node.value) \
                    if isinstance(node.target, ast.Name) else value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                found.setdefault(target.id, []).append(value)
    return found


def _defaults(function):
    """{parameter: its default value}: what a parameter is when the grader calls with fewer arguments."""
    code, found = function.__code__, dict(function.__kwdefaults__ or {})
    positional = code.co_varnames[:code.co_argcount]
    found.update(zip(positional[len(positional) - len(function.__defaults__ or ()):], function.__defaults__ or ()))
    return found


def _own_nodes(node):
    """The nodes of a function's body, not descending into inner functions, lambdas or classes."""
    stack = list(ast.iter_child_nodes(node)) if node is not None else []
    while stack:
        current = stack.pop()
        yield current
        if not isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(current))


def _static_attr(owner, name):
    """[owner.name] when reading it runs no learner code (modules, builtin types and constants,
    learner classes through getattr_static), else []."""
    if not isinstance(name, str):
        return []
    if type(owner) is types.ModuleType:
        return [vars(owner)[name]] if name in vars(owner) else []
    if _plain(owner) or any(owner is kind for kind in vars(builtins).values() if isinstance(kind, type)):
        return [getattr(owner, name)] if hasattr(owner, name) else []
    if issubclass(type(owner), type):
        try:
            found = inspect.getattr_static(owner, name)
        except AttributeError:
            return []
        return [found.__func__ if isinstance(found, (staticmethod, classmethod)) else found]
    return []


def _pure(fn, args):
    """Whether calling `fn` on `args` runs no learner code: builders (methodcaller, partial, type
    of one object) on anything, a few builtins and str methods on constants only (chr(x) would run x.__index__)."""
    if any(fn is builder for builder in BUILDERS) or (fn is type and len(args) == 1):
        return True  # type(x) with one argument only: type(name, bases, dict) would run a metaclass
    if not all(_plain(arg) for arg in args):
        return False
    return any(fn is pure for pure in PURE_CALLS) or _str_method(fn, STR_METHODS)


def _small_operands(a, b):
    """Constants that `+`, `%` or `*` can combine into a short result (no huge repeats)."""
    if not (_plain(a) and _plain(b)):
        return False
    if isinstance(b, int) and isinstance(a, (str, bytes, tuple, list)):
        return len(a) * b <= 1000
    if isinstance(a, int) and isinstance(b, (str, bytes, tuple, list)):
        return len(b) * a <= 1000
    return True


def _known(value, depth=0):
    """A value the reading may follow: a plain constant, a module, a class, a function, a library
    callable, or a tuple, list or dict (with plain keys) of these. Looking at these runs no
    learner code; a learner's object is left alone."""
    if _plain(value) or type(value) in KNOWN_TYPES or issubclass(type(value), type):
        return True
    if type(value) not in (tuple, list, dict) or depth > 3 or len(value) > 1000:
        return False
    if type(value) is dict:
        return all(_plain(key) and _known(item, depth + 1) for key, item in value.items())
    return all(_known(item, depth + 1) for item in value)


def _str_method(fn, names):
    """Whether `fn` is one of these methods bound to a str: "{:x}".format, "".join."""
    return type(fn) is types.BuiltinFunctionType and type(fn.__self__) is str and fn.__name__ in names


def _one_of(value, options):
    return any(value is option for option in options)


def _plain(value, depth=0):
    """A constant made of str, int, bytes and None, in tuples, lists, sets and dicts: using it
    (printing, comparing, hashing) runs no learner code."""
    if type(value) in (str, int, bytes, bool, type(None)):
        return True
    if type(value) not in (tuple, list, frozenset, dict) or depth > 3 or len(value) > 1000:
        return False
    items = [x for pair in value.items() for x in pair] if type(value) is dict else list(value)
    return all(_plain(item, depth + 1) for item in items)


def _indexable(container):
    """A str, bytes, tuple, list or dict (with plain keys): indexing it runs no learner code."""
    if type(container) is dict:
        return len(container) <= 1000 and all(_plain(key) for key in container)
    return type(container) in (str, bytes, tuple, list)


def _unique(values):
    out = []
    for value in values:
        if not any(value is seen for seen in out):
            out.append(value)
    return out


# ---------------------------------------------------------------------------- what the rule refuses

def _shortcuts_in(tree, rule, values):
    """Every place in one function's source that reaches what the rule refuses."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None \
                and _spec_refused(node.format_spec, rule, values):
            yield f"the f-string format {ast.unparse(node)[:40]}"
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) \
                and _template_refused(node.left, rule, values):
            yield f"{ast.unparse(node)[:40]} (%-formatting)"
        elif isinstance(node, ast.Attribute) and node.attr in ("__format__", "__mod__", "__rmod__") \
                and rule.format_letters:
            yield f"{ast.unparse(node)[:40]}"
        elif isinstance(node, ast.Call):
            yield from _refused_call(node, rule, values)
        if isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load):
            for value in values.of(node):
                found = _refused_value(value, rule)
                if found:
                    yield found if found == f"{ast.unparse(node)}()" else f"{ast.unparse(node)[:40]} ({found})"


def _spec_refused(spec, rule, values):
    """A format spec ending in a letter the rule refuses: f"{n:x}", f"{n:{SPEC}}" with SPEC = "x",
    f"{n:{w}X}". A spec the source cannot tell is let through (f"{s:>{width}}" pads honestly)."""
    if not rule.format_letters:
        return False
    last = spec.values[-1] if spec.values else None
    if isinstance(last, ast.Constant):
        return str(last.value)[-1:] in rule.format_letters
    return any(type(text) is str and text[-1:] in rule.format_letters for text in values.of(spec))


def _template_refused(node, rule, values):
    """'%x' % n, FMT % n with FMT = '%04X', f'%{w}x' % n: a %-template with a conversion the rule refuses."""
    if not rule.format_letters:
        return False
    if isinstance(node, ast.JoinedStr):
        return True  # a template built at run time: read as the shortcut it almost always is
    return any(_percent_converts(text, rule) for text in values.of(node))


def _percent_converts(template, rule):
    if type(template) is not str:
        return False
    conversion = r"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?"
    return any(re.search(conversion + letter, template.replace("%%", "")) for letter in rule.format_letters)


def _refused_call(node, rule, values):
    """Calls that reach the job without a call the run-time hook sees: a conversion type with a
    base or an encoding (also through type(0), getattr(builtins, "int"), int.__new__, partial),
    a method named as text (methodcaller("encode"), getattr(s, "enc" + "ode")), operator.mod."""
    found = _conversion(node, rule, values)
    if found:
        yield found
    for fn in values.of(node.func):
        if _one_of(fn, (getattr, hasattr, operator.methodcaller, operator.attrgetter)):
            position = 1 if _one_of(fn, (getattr, hasattr)) else 0
            names = values.of(node.args[position]) if len(node.args) > position else []
            named = [name for name in names if type(name) is str and name in rule.methods]
            if named:
                yield f"{ast.unparse(node)[:40]} (.{named[0]})"
        elif _one_of(fn, (operator.mod, operator.__mod__, str.__mod__)) and node.args \
                and _template_refused(node.args[0], rule, values):
            yield f"{ast.unparse(node)[:40]} (%-formatting)"
        elif _str_method(fn, {"format"}) and _nested_specs_refused(fn.__self__, node, rule, values):
            yield f"{ast.unparse(node)[:40]} (a format spec passed in)"


def _nested_specs_refused(template, node, rule, values):
    """'{:{}}'.format(n, 'x'), '{0:{kind}}'.format(n, kind=K): a str.format field whose spec is
    filled in from the call's own arguments (the run-time hook sees only the template)."""
    if not rule.format_letters:
        return False
    positional = [values.of(arg) for arg in node.args]
    named = {k.arg: values.of(k.value) for k in node.keywords if k.arg}
    auto = 0
    try:
        for _, field, spec, _ in string.Formatter().parse(template):
            if field == "":
                auto += 1
            for literal, inner, _, _ in string.Formatter().parse(spec or ""):
                if inner is None:
                    continue
                if inner == "":
                    inner, auto = str(auto), auto + 1
                found = positional[int(inner)] if inner.isdigit() and int(inner) < len(positional) \
                    else named.get(inner, [])
                if any(value[-1:] in rule.format_letters for value in found if type(value) is str):
                    return True
    except ValueError:
        return False
    return False


def _conversion(node, rule, values):
    """int(s, 16), bytes(text, "utf-8"), partial(int, base=16), type(0)(s, 16), int.__new__(int, s, 16),
    or a partial object made earlier: a type doing the job."""
    if not rule.conversions:
        return None
    for fn in values.of(node.func):
        target, args, keywords = fn, len(node.args), {k.arg for k in node.keywords}
        if target is functools.partial and node.args:
            candidates, args = values.of(node.args[0]), args - 1
            target = candidates[0] if len(candidates) == 1 else None
        elif type(target) is functools.partial:
            target, args, keywords = target.func, args + len(target.args), keywords | set(target.keywords)
        target, args = _constructor_of(target, args)
        if not any(target is kind for kind in rule.conversions):
            continue
        if args >= 2 or keywords & {"base", "encoding", "errors"}:
            if isinstance(node.func, ast.Name) and node.func.id == target.__name__:
                return ast.unparse(node)[:40]
            return f"{ast.unparse(node)[:40]} ({target.__name__} with {'a base' if target is int else 'an encoding'})"
    return None


def _constructor_of(target, args):
    """(the type, its argument count) when `target` is a type's constructor under another name:
    int.__new__(int, s, 16), int.__call__(s, 16), bytearray.__init__(b, text, "utf-8")."""
    if type(target) is types.BuiltinFunctionType and target.__name__ == "__new__":
        return target.__self__, args - 1
    if type(target) is types.MethodWrapperType and target.__name__ == "__call__":
        return target.__self__, args
    if type(target) is types.WrapperDescriptorType and target.__name__ == "__init__":
        return target.__objclass__, args - 1
    return target, args


def _refused_value(value, rule):
    """What a value does for the job, if the rule refuses it (a description), else None: a library
    function (str.encode, codecs.encode, hex), also wrapped in a partial, or a methodcaller or
    attrgetter of a refused method. Handing it to map() or sorted() calls it where no hook sees."""
    while type(value) is functools.partial:
        value = value.func
    if type(value) in (operator.methodcaller, operator.attrgetter):
        maker, arguments = value.__reduce__()[:2]
        if type(maker) is functools.partial:  # methodcaller("encode", errors="strict") keeps its name here
            arguments = maker.args + tuple(arguments)
        name = arguments[0] if arguments else None
        return f"{value!r}" if type(name) is str and name in rule.methods else None
    if type(value) not in KNOWN_TYPES or type(value) is types.ModuleType:
        return None
    if type(value) is types.BuiltinFunctionType and value.__name__ == "__new__" \
            and _one_of(value.__self__, rule.conversions):
        return None  # int.__new__: a conversion, refused with a base (_conversion) and not without
    if type(value) is types.FunctionType and not _library_function(value):
        return None
    return _refusal(rule, callee_name(value), getattr(value, "__module__", None) or "", value)


def _library_function(function):
    """A Python function of an installed module (base64.b16encode), not a learner's own."""
    module = getattr(function, "__module__", None) or ""
    return module.split(".")[0] in {m for rule in RULES.values() for m in rule.modules}


def callee_name(fn):
    """'builtins.hex', 'str.format', 'int.from_bytes', '_codecs.encode': a C function by what it is,
    whether the profile hook saw it called or the source reading found it."""
    qualname = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", "?")
    if "." in qualname:
        return qualname
    module = getattr(fn, "__module__", None)
    if module is None:
        owner = getattr(fn, "__self__", None)
        module = getattr(owner, "__name__", None) if inspect.ismodule(owner) else type(owner).__name__
    return f"{module}.{qualname}"
