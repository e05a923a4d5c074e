"""Disguise a copy the ways students do: rename, reformat, reorder, add comments and dead code.

    disguise(source, seed=3, keep={"merge"})   # the same code, looking different

Two rewrites go further, and are asked for by name (REWRITES): a loop that only fills a list or a
dict becomes a comprehension (and a comprehension the loop), and a loop moves into a helper
function of its own, called where it was.

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
REWRITES = ("comprehensions", "helper")  # asked for by name: loops <-> comprehensions, a loop moved into a helper
COMMENTS = ("# loop over everything", "# TODO tidy this up", "# this part was tricky", "# keep going",
            "# see lecture notes", "# helper variable", "# edge case")


def disguise(source, seed=0, keep=(), kinds=KINDS):
    """`source` with the changes named in `kinds` (all by default), chosen by `seed`.

    Keyword arguments in calls keep their names (`sorted(key=...)`), so code that calls its own
    function by keyword is not a fit.
    """
    rng = random.Random(seed)
    tree = ast.parse(source)
    if "comprehensions" in kinds:
        swap_loops_and_comprehensions(tree)
    if "helper" in kinds:
        extract_helpers(tree, rng)
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


# ---------------------------------------------------------------------------- rewrites


def swap_loops_and_comprehensions(tree):
    """`out = []` + a loop that only appends (under one `if`, at most) becomes `out = [... for ...]`,
    the same for dicts filled by `d[k] = v`; a comprehension assigned to a name becomes the loop."""
    for block in list(bodies(tree)):
        i = 0
        while i < len(block):
            folded = comprehension_of(block[i], block[i + 1]) if i + 1 < len(block) else None
            if folded is not None:
                block[i:i + 2] = [folded]
            elif isinstance(block[i], ast.Assign) and isinstance(block[i].value, (ast.ListComp, ast.DictComp)):
                block[i:i + 1] = loop_of(block[i])
            i += 1


def comprehension_of(first, loop):
    """The one assignment of a comprehension that `first` (`x = []` or `{}`) and `loop` amount to, or None."""
    if not (isinstance(first, ast.Assign) and len(first.targets) == 1 and isinstance(first.targets[0], ast.Name)
            and isinstance(loop, ast.For) and not loop.orelse and len(loop.body) == 1):
        return None
    name, body, ifs = first.targets[0].id, loop.body[0], []
    if sum(isinstance(n, ast.Name) and n.id == name for n in ast.walk(loop)) > 1:
        return None  # the loop reads what it fills (counts[k] = counts.get(k, 0) + 1): no comprehension
    if isinstance(body, ast.If) and not body.orelse and len(body.body) == 1:
        ifs, body = [body.test], body.body[0]
    generator = ast.comprehension(target=loop.target, iter=loop.iter, ifs=ifs, is_async=0)
    if isinstance(first.value, ast.List) and not first.value.elts and appends_to(body, name):
        return ast.Assign(targets=first.targets, value=ast.ListComp(elt=body.value.args[0], generators=[generator]))
    if isinstance(first.value, ast.Dict) and not first.value.keys and stores_in(body, name):
        target = body.targets[0]
        return ast.Assign(targets=first.targets,
                          value=ast.DictComp(key=target.slice, value=body.value, generators=[generator]))
    return None


def appends_to(statement, name):
    call = statement.value if isinstance(statement, ast.Expr) else None
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append"
            and isinstance(call.func.value, ast.Name) and call.func.value.id == name and len(call.args) == 1)


def stores_in(statement, name):
    return (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Subscript) and isinstance(statement.targets[0].value, ast.Name)
            and statement.targets[0].value.id == name)


def loop_of(assign):
    """`x = [e for t in it if c]` as `x = []` and the loop that fills it (one `for` clause at most)."""
    value, target = assign.value, assign.targets[0]
    if len(value.generators) != 1 or not isinstance(target, ast.Name):
        return [assign]
    generator = value.generators[0]
    name = ast.Name(id=target.id, ctx=ast.Load())
    if isinstance(value, ast.ListComp):
        empty = ast.List(elts=[], ctx=ast.Load())
        fill = ast.Expr(ast.Call(func=ast.Attribute(value=name, attr="append", ctx=ast.Load()), args=[value.elt],
                                 keywords=[]))
    else:
        empty = ast.Dict(keys=[], values=[])
        fill = ast.Assign(targets=[ast.Subscript(value=name, slice=value.key, ctx=ast.Store())], value=value.value)
    for test in reversed(generator.ifs):
        fill = ast.If(test=test, body=[fill], orelse=[])
    return [ast.Assign(targets=[target], value=empty),
            ast.For(target=generator.target, iter=generator.iter, body=[fill], orelse=[])]


def extract_helpers(tree, rng):
    """In each top-level function, one loop (without a return or yield) moves into a helper of its
    own: the names it reads become parameters, the names it sets that are read later its result."""
    for function in [n for n in tree.body if isinstance(n, ast.FunctionDef)]:
        loops = [(block, i) for block in bodies(function) for i, s in enumerate(block)
                 if isinstance(s, (ast.For, ast.While)) and block is not tree.body and not leaves(s)]
        if not loops:
            continue
        block, i = loops[rng.randrange(len(loops))]
        loop = block[i]
        inside = {n.id for n in ast.walk(loop) if isinstance(n, ast.Name)}
        stored = {n.id for n in ast.walk(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        targets = {n.id for f in ast.walk(loop) if isinstance(f, ast.For) for n in ast.walk(f.target)
                   if isinstance(n, ast.Name)}  # the loop binds them itself
        outside = names_outside(function, loop) - targets
        params = sorted(inside & outside)
        results = sorted(stored & outside)
        name = f"_{function.name}_{rng.choice(WORDS)}"
        helper = ast.FunctionDef(name=name, args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params],
                                                              kwonlyargs=[], kw_defaults=[], defaults=[]),
                                 body=[loop] + returned(results), decorator_list=[], returns=None, type_params=[])
        call = ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=[ast.Name(id=p, ctx=ast.Load()) for p in params],
                        keywords=[])
        block[i] = assigned(results, call)
        tree.body.insert(tree.body.index(function) + 1, helper)


def leaves(loop):
    """Whether a loop holds a return or yield (it could not move into a helper as it is)."""
    exits = (ast.Return, ast.Yield, ast.YieldFrom, ast.FunctionDef, ast.Lambda)
    return any(isinstance(n, exits) for n in ast.walk(loop))


def names_outside(function, loop):
    """The function's arguments and the names it uses anywhere but inside `loop` (or a comprehension's own)."""
    within = {id(n) for n in ast.walk(loop)}
    within |= {id(n) for c in ast.walk(function) if isinstance(c, SCOPES) for n in ast.walk(c)}
    names = {a.arg for a in function.args.args}
    return names | {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and id(n) not in within}


SCOPES = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)


def returned(results):
    if not results:
        return []
    value = (ast.Name(id=results[0], ctx=ast.Load()) if len(results) == 1
             else ast.Tuple(elts=[ast.Name(id=r, ctx=ast.Load()) for r in results], ctx=ast.Load()))
    return [ast.Return(value=value)]


def assigned(results, call):
    if not results:
        return ast.Expr(call)
    target = (ast.Name(id=results[0], ctx=ast.Store()) if len(results) == 1
              else ast.Tuple(elts=[ast.Name(id=r, ctx=ast.Store()) for r in results], ctx=ast.Store()))
    return ast.Assign(targets=[target], value=call)
