"""Disguise a copy the ways students do: rename, reformat, reorder, add comments and dead code.

    disguise(source, seed=3, keep={"merge"})   # the same code, looking different

Used to build the labelled set that the similarity thresholds are measured on (similarity_labels.py)
and to give every student of the benchmark class code of their own (bench_similarity.py). Each
change keeps what the code does: only names the code itself binds are renamed (`keep` names the
ones graders look for), only neighbouring assignments that share no name are swapped, and dead
code is never reached or never read.
"""

import ast
import builtins
import random

WORDS = ("acc", "tmp", "stuff", "thing", "res", "val", "buf", "cur", "data", "item", "elem", "lst", "num",
         "tally", "store", "chunk", "piece", "bits", "seqn", "arr")
KINDS = ("rename", "reformat", "reorder", "comments", "dead_code")
COMMENTS = ("# loop over everything", "# TODO tidy this up", "# this part was tricky", "# keep going",
            "# see lecture notes", "# helper variable", "# edge case")


def disguise(source, seed=0, keep=(), kinds=KINDS):
    """`source` with the changes named in `kinds` (all by default), chosen by `seed`.

    Keyword arguments in calls keep their names (`sorted(key=...)`), so code that calls its own
    function by keyword is not a fit.
    """
    rng = random.Random(seed)
    tree = ast.parse(source)
    if "rename" in kinds:
        Renamer(new_names(tree, keep, rng)).visit(tree)
    if "reorder" in kinds:
        reorder(tree, rng)
    if "dead_code" in kinds:
        add_dead_code(tree, rng)
    ast.fix_missing_locations(tree)
    text = ast.unparse(tree) if kinds != ("comments",) else source  # unparse: new layout, quotes, parentheses
    if "reformat" in kinds:
        text = reformat(text, rng)
    if "comments" in kinds:
        text = add_comments(text, rng)
    return text + "\n"


def reformat(text, rng):
    """Two-space indents and blank lines here and there (the text is ast.unparse's, one statement a line)."""
    out = []
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        depth = (len(line) - len(stripped)) // 4
        if stripped and rng.random() < 0.15:
            out.append("")
        out.append("  " * depth + stripped)
    return "\n".join(out)


def new_names(tree, keep, rng):
    """{old: new} for every name the code binds (variables, arguments, functions, classes) but `keep`."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
    methods = {m.name for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for m in c.body
               if isinstance(m, ast.FunctionDef)}  # called as attributes, which are not renamed
    bound -= set(keep) | set(dir(builtins)) | methods | {"self"}
    out = {}
    for n, old in enumerate(sorted(bound)):
        out[old] = f"{rng.choice(WORDS)}_{n}"
    return out


class Renamer(ast.NodeTransformer):
    def __init__(self, names):
        self.names = names

    def visit_Name(self, node):
        node.id = self.names.get(node.id, node.id)
        return node

    def visit_arg(self, node):
        node.arg = self.names.get(node.arg, node.arg)
        return node

    def visit_FunctionDef(self, node):
        node.name = self.names.get(node.name, node.name)
        self.generic_visit(node)
        return node

    visit_ClassDef = visit_FunctionDef


def bodies(tree):
    """Every statement list in the tree: the module's and those of functions, loops and branches."""
    for node in ast.walk(tree):
        for name in ("body", "orelse"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block


def reorder(tree, rng):
    """Shuffle the top-level definitions; swap neighbouring assignments that share no name."""
    definitions = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    if len(definitions) > 1:
        others = [n for n in tree.body if n not in definitions]
        rng.shuffle(definitions)
        tree.body[:] = others + definitions
    for block in bodies(tree):
        for i in range(len(block) - 1):
            if independent(block[i], block[i + 1]) and rng.random() < 0.7:
                block[i], block[i + 1] = block[i + 1], block[i]


def independent(first, second):
    if not all(isinstance(s, (ast.Assign, ast.AugAssign)) for s in (first, second)):
        return False
    names = [{n.id for n in ast.walk(s) if isinstance(n, ast.Name)} for s in (first, second)]
    return not (names[0] & names[1])


DEAD_CODE = ("{name} = []", "{name} = {number}", "{name} = None", "if False:\n    print({text!r})",
             "if {number} < 0:\n    {name} = {number}", "for {name} in range(0):\n    print({name})",
             "{name} = {text!r}", "{name} = [{number}, {number}]")
HELPERS = ("def {name}(values):\n    total = 0\n    for v in values:\n        total += v\n    return total",
           "def {name}(x):\n    return str(x).strip()",
           "def {name}(a, b):\n    if a > b:\n        return a\n    return b")


def add_dead_code(tree, rng):
    """One to three statements never read or never reached in each function, and a helper nobody calls."""
    for node in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        doc = 1 if ast.get_docstring(node) else 0
        for _ in range(rng.randint(1, 3)):
            spot = rng.randint(doc, max(doc, len(node.body) - 1))
            node.body.insert(spot, ast.parse(dead_statement(rng)).body[0])
    helper = rng.choice(HELPERS).format(name=f"{rng.choice(WORDS)}_helper")
    tree.body.append(ast.parse(helper).body[0])


def dead_statement(rng):
    return rng.choice(DEAD_CODE).format(name=f"{rng.choice(WORDS)}_unused", number=rng.randint(1, 99),
                                        text=rng.choice(COMMENTS).lstrip("# "))


def add_comments(text, rng):
    """A comment above some lines, and one at the end of some others."""
    out = []
    for line in text.splitlines():
        indent = line[: len(line) - len(line.lstrip())]
        if line.strip() and rng.random() < 0.2:
            out.append(f"{indent}{rng.choice(COMMENTS)}")
        if line.strip() and not line.rstrip().endswith(":") and rng.random() < 0.15:
            line = f"{line}  {rng.choice(COMMENTS)}"
        out.append(line)
    return "\n".join(out)
