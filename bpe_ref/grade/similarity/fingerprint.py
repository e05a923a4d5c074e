"""Fingerprints of a piece of Python that survive renaming, reformatting and comments.

    code = normalize("def f(xs):\\n    return len(xs)  # count\\n")
    code.tokens      ['FunctionDef', 'F', 'arguments', 'arg', 'V', 'Return', 'Call', 'len', 'V']
    fingerprints(code)   {hash of a run of K tokens: the line numbers that run covers}

The code is parsed (never run) and walked in source order. Each node gives its type; every name
the learner chose (variables, arguments, functions, attributes of their own objects) becomes V or
F, so renaming changes nothing, while builtins (`len`, `zip`) and the methods of built-in types
(`.get`, `.append`, `.decode`) stay, as they are what the code does. Layout, comments, docstrings
and other bare strings leave no token at all. A fingerprint is the hash of K consecutive tokens
(a k-gram, as MOSS uses). Every k-gram is kept: winnowing keeps one per window to make whole
files small, but one exercise is a few hundred tokens at most. Comparing the sets of two pieces'
fingerprints finds the runs they share wherever each piece has them, so reordering functions or
statements only breaks the runs that cross the cut.

Two rewrites are undone before fingerprinting, as both keep what the code does: a comprehension
reads as the loop it stands for (`out = [f(x) for x in xs]` and `out = []` + a loop of
`out.append(f(x))` give the same tokens), and a helper of the piece is read where it is called
(moving part of a function into a helper of its own changes little).
"""

import ast
import builtins
from dataclasses import dataclass, field

K = 5  # tokens per fingerprint: about half a statement (chosen on the labelled set: similarity_labels.py)
MAX_TOKENS = 20_000  # a piece is a few hundred tokens; inlined helpers calling helpers stop here
MAX_INLINING = 4  # helpers inlined inside helpers, at most this deep

BUILTIN_NAMES = frozenset(dir(builtins))
BUILTIN_METHODS = frozenset(
    name for kind in (str, bytes, bytearray, list, dict, set, tuple, int, float)
    for name in dir(kind) if not name.startswith("_"))
SILENT = (ast.expr_context, ast.Pass)  # Load/Store/Del and `pass` say nothing about the code
LEAVES = (ast.Name, ast.Constant, ast.Attribute)  # their one token says what they are: V, len, 0, S, .get


@dataclass
class Code:
    """A piece of code as normalized tokens, each with the line (1-based, in `text`) it comes from."""

    text: str
    tokens: list = field(default_factory=list)
    lines: list = field(default_factory=list)

    def add(self, token, line):
        self.tokens.append(token)
        self.lines.append(line)


def normalize(text):
    """The normalized tokens of `text` (Python source); a SyntaxError if it does not parse (or
    nests deeper than Python's parser goes)."""
    try:
        tree = ast.parse(text)
    except (RecursionError, MemoryError, ValueError) as e:
        raise SyntaxError(f"cannot be parsed: {type(e).__name__}") from None
    return normalize_tree(tree.body, text)


def normalize_tree(nodes, text=""):
    """The normalized tokens of statements already parsed (line numbers as in their own source).

    A function that another top-level function of the piece calls is a helper: its body is read
    where it is called (inlined), not on its own, so that moving part of a function into a helper
    changes little. The tree is walked with a stack of its own, so any depth of nesting is read.
    """
    code = Code(text)
    helpers = called_helpers(nodes)
    walk = Walk(code, helpers)
    for node in nodes:
        if not (isinstance(node, ast.FunctionDef) and node.name in helpers):
            walk.run(node)
    return code


def called_helpers(nodes):
    """{name: FunctionDef} of the top-level functions that another top-level function calls by name."""
    defined = {n.name: n for n in nodes if isinstance(n, ast.FunctionDef)}
    called = set()
    for node in defined.values():
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id != node.name:
                called.add(sub.func.id)
    return {name: defined[name] for name in called & defined.keys()}


LEAVE = object()  # a stack entry: the helper being inlined ends here


class Walk:
    """Adds a tree's tokens to a Code in source order (ast.walk's order is breadth-first)."""

    def __init__(self, code, helpers):
        self.code, self.helpers, self.inlining = code, helpers, []

    def run(self, root):
        stack = [(root, getattr(root, "lineno", 1))]
        while stack:
            node, line = stack.pop()
            if node is LEAVE:
                self.inlining.pop()
                continue
            if len(self.code.tokens) > MAX_TOKENS:
                return
            stack.extend(reversed(self.step(node, line)))

    def step(self, node, line):
        """Add `node`'s own tokens; return its children to walk next, as [(node, line)]."""
        if isinstance(node, SILENT) or is_bare_string(node):
            return []
        line = getattr(node, "lineno", line)
        if isinstance(node, ast.comprehension):
            self.code.add("For", line)
            return [(child, line) for child in (node.target, node.iter)] + [
                item for test in node.ifs for item in ((Token("If"), line), (test, line))]
        if isinstance(node, Token):
            self.code.add(node.name, line)
            return []
        kind = type(node)
        helper = self.inlined(node) if kind is ast.Call and self.helpers else None
        if helper is not None:
            return self.inline(node, helper, line)
        collected = collected_value(node) if kind in (ast.Expr, ast.Assign) else None
        if collected is not None:
            self.code.add("Collect", line)
            return [(child, line) for child in collected]
        if kind in COMPREHENSIONS:
            return self.comprehension(node, line)
        if not isinstance(node, LEAVES):
            self.code.add(kind.__name__, line)
        for token in leaf_tokens(node):
            self.code.add(token, line)
        if isinstance(node, LEAVES) and kind is not ast.Attribute:
            return []  # a name or a constant: no children but its context
        return [(child, line) for child in ast.iter_child_nodes(node)]

    def comprehension(self, node, line):
        """`[f(x) for x in xs if c]` as the loop it stands for: List For x xs If c Collect f(x)."""
        self.code.add(COMPREHENSIONS[type(node)], line)
        values = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        return [(g, line) for g in node.generators] + [(Token("Collect"), line)] + [(v, line) for v in values]

    def inlined(self, node):
        """The helper a call of it reads as (None when it is no helper's, or already being read)."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            return None
        helper = self.helpers.get(node.func.id)
        if helper is None or node.func.id in self.inlining or len(self.inlining) >= MAX_INLINING:
            return None
        return helper

    def inline(self, call, helper, line):
        """A helper's body in place of its call; arguments other than plain names are read first."""
        self.inlining.append(helper.name)
        args = [a for a in call.args + [k.value for k in call.keywords] if not isinstance(a, (ast.Name, ast.Constant))]
        body = helper.body
        if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
            body = [body[0].value]  # a one-line helper is the expression it returns
        return [(a, line) for a in args] + [(s, getattr(s, "lineno", line)) for s in body] + [(LEAVE, line)]


class Token:
    """A token to add as it is, in the walk's order (a comprehension's If and Collect)."""

    def __init__(self, name):
        self.name = name


COMPREHENSIONS = {ast.ListComp: "List", ast.SetComp: "Set", ast.DictComp: "Dict", ast.GeneratorExp: "Generator"}
COLLECTING = ("append", "add")


def collected_value(node):
    """What a statement adds to a collection, as a comprehension would: `out.append(e)` -> [e],
    `d[k] = v` -> [k, v]; None for any other node."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        call = node.value
        if (isinstance(call.func, ast.Attribute) and call.func.attr in COLLECTING and len(call.args) == 1
                and not call.keywords):
            return [call.args[0]]
    if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript)
            and isinstance(node.targets[0].value, ast.Name)):
        return [node.targets[0].slice, node.value]
    return None


def leaf_tokens(node):
    """What a node holds besides its children: a name, made V or F unless it is a builtin's, or a constant."""
    if isinstance(node, ast.Name):
        return [node.id if node.id in BUILTIN_NAMES else "V"]
    if isinstance(node, ast.Attribute):
        return ["." + node.attr if node.attr in BUILTIN_METHODS else ".V"]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return ["F"]
    if isinstance(node, (ast.arg, ast.keyword)):
        return ["V"]
    if isinstance(node, ast.Constant):
        return [constant_token(node.value)]
    if isinstance(node, (ast.operator, ast.boolop, ast.cmpop, ast.unaryop)):
        return []  # the node's type (Add, Lt, ...) is already its token
    return []


def constant_token(value):
    """Numbers, True/False/None as they are; text as S and bytes as B (their content is data, not code)."""
    if isinstance(value, str):
        return "S"
    if isinstance(value, bytes):
        return "B"
    return repr(value)


def is_bare_string(node):
    """A statement that is only a string: a docstring, or text pasted in as padding."""
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def fingerprints(code, k=K):
    """{hash of each run of k tokens: the set of lines it covers}, over one piece of code.

    A piece shorter than k tokens has one fingerprint, of all its tokens.
    """
    ids = code.tokens
    out = {}
    for start in range(max(1, len(ids) - k + 1)):
        run = tuple(ids[start:start + k])
        covered = out.setdefault(hash(run), set())
        covered.update(code.lines[start:start + k])
    return out
