"""Tokenizer classes and CS336 trainers the learner wrote but loading never made (an import the
sandbox lacks, a pattern `re` cannot compile in the class body): one error row for each of their
methods that has a tokenizer role, under the learner's own name, so that the report says what went
ungraded and why. Read from the source's syntax only: nothing of them exists to call."""

import ast

from .classes import role, trainer_functions
from .engine import Result
from ..reading.learner_code import is_stub
from ..reading.reaching import UNREADABLE, parse

MAX_ROWS = 24  # rows of code never made, however many classes a file writes: a report stays readable
# the course exercise a row counts as, by the method's role (an iterable's encoder encodes all the same)
COURSE_OF_ROLE = {"train": "train", "encode": "encode", "encode_ordinary": "encode_ordinary",
                  "decode": "decode", "encode_iterable": "encode_ordinary"}


def unmade_rows(cells, failed, defined, why):
    """{learner name: Result} for the methods of tokenizer classes (and CS336-shaped trainers)
    that the cells which failed to load (`failed`: their indexes) wrote and never made.
    `why(name, cell index)`: the Result that says why `name` was never defined."""
    rows = {}
    for index in sorted(failed):
        if cells[index].get("course"):
            continue
        shapes = written_shapes(cells[index]["source"], exclude=defined)
        for cls, info in shapes.items():
            for method, params in (info.get("methods") or {}).items():
                course = COURSE_OF_ROLE.get(role(method, params))
                if course and method not in info["stubs"]:
                    rows[f"{cls}.{method}"] = unmade(why(cls, index), f"{cls}.{method}", course)
        for name, _ in trainer_functions(shapes):
            rows[name] = unmade(why(name.split(".")[0], index), name, "train_regex")
    return dict(list(rows.items())[:MAX_ROWS])


def unmade(result, name, course):
    """`result` (why the class or function was never defined) as the row of `name`."""
    return Result(name, result.status, result.message, {**result.detail, "course": course})


def written_shapes(source, exclude):
    """{name: its shape in the sandbox's `defined` form} for the top-level classes and functions of
    `source` not in `exclude`: parameters as written, a class's methods (after self), static
    methods and class methods (after cls), and which methods are stubs."""
    tree = parse(source)
    out = {}
    for node in tree.body if tree is not None and tree is not UNREADABLE else ():
        if getattr(node, "name", None) in exclude:
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out[node.name] = {"kind": "callable", "names": parameters(node)}
        elif isinstance(node, ast.ClassDef):
            out[node.name] = class_shape(node)
    return out


def class_shape(node):
    shape = {"kind": "callable", "methods": {}, "statics": {}, "classmethods": {}, "stubs": set()}
    for item in node.body:
        if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        decorators = {getattr(d, "id", None) for d in item.decorator_list}
        kind = "statics" if "staticmethod" in decorators else "classmethods" if "classmethod" in decorators \
            else "methods"
        shape[kind][item.name] = parameters(item)[0 if kind == "statics" else 1:]
        if is_stub(item):
            shape["stubs"].add(item.name)
    return shape


def parameters(node):
    args = node.args
    return [a.arg for a in args.posonlyargs + args.args]
