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
"""

import ast
import builtins
from dataclasses import dataclass, field

K = 5  # tokens per fingerprint: about half a statement (chosen on the labelled set: similarity_labels.py)

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
    """The normalized tokens of `text` (Python source); a SyntaxError if it does not parse."""
    return normalize_tree(ast.parse(text).body, text)


def normalize_tree(nodes, text=""):
    """The normalized tokens of statements already parsed (line numbers as in their own source)."""
    code = Code(text)
    for node in nodes:
        visit(node, code, 1)
    return code


def visit(node, code, line):
    """Add `node` and its children to `code`, in source order (ast.walk's order is breadth-first)."""
    if isinstance(node, SILENT) or is_bare_string(node):
        return
    line = getattr(node, "lineno", line)
    leaf = leaf_tokens(node)
    if not isinstance(node, LEAVES):
        code.add(type(node).__name__, line)
    for token in leaf:
        code.add(token, line)
    for child in ast.iter_child_nodes(node):
        visit(child, code, line)


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
