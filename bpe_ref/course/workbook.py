"""The workbooks' kernel helper: an exercise you have not written yet is a calm note, not a traceback.

Every workbook starts with `%load_ext bpe_ref.course.workbook`. From then on, a cell that calls an
exercise whose stub still raises NotImplementedError prints one line (what is missing, where
its exercise is) and counts as run, so Run All goes on to the end of the workbook. A later cell
that needs a value such a cell would have made says so too, instead of raising NameError.
Every other error shows its usual traceback.

A call of one of the learner's exercises from a demo cell runs under a time limit
(bpe_ref.course.demo_limit): an endless loop there prints one line, and Run All goes on too.

How: IPython runs each cell through `ast_transformers`; ours wraps the cell's statements in one
`with` block. The cell's last expression is still shown, through IPython's display hook.
Loading the extension again (Run All a second time) is quiet: it is already there.
"""

import ast
import sys
import traceback

from . import demo_limit

ICON = "⏳"
HELPER = "_bpe_workbook_"  # the name the wrapped cells use to reach this module

# The grader's catalogue of exercises (name -> where it is taught), handed in when the extension loads.
exercises = {}

# Filled in as cells run: a name a cell would have assigned -> why that cell stopped early:
# (the exercise, "unwritten" or "too long").
waiting_for = {}


def not_written_yet(error, assigned):
    """Print the note for a NotImplementedError raised by an exercise stub; False if it is not one."""
    name = stub_name(error)
    if name is None:
        return False
    for target in assigned:
        waiting_for[target] = (name, "unwritten")
    print(f"{ICON} {name} is not written yet: {where_to_write(name)}, then run this cell again.")
    return True


def too_long(error, assigned):
    """Print the line for a learner's call that demo_limit stopped."""
    for target in assigned:
        waiting_for[target] = (error.name, "too long")
    print(error)
    return True


def missing_value(error, assigned):
    """Print the note for a NameError on a value an unwritten or stopped exercise kept from being made."""
    name = getattr(error, "name", None)
    if name not in waiting_for:
        return False
    exercise, why = waiting_for[name]
    for target in assigned:
        waiting_for[target] = (exercise, why)
    if why == "too long":
        print(f"{ICON} `{name}` is not there yet: the cell that makes it stopped because {exercise} did not "
              f"finish in time (fix {exercise}, then run that cell again).")
    else:
        print(f"{ICON} `{name}` is not there yet: the cell that makes it stopped because {exercise} was not "
              f"written yet ({where_to_write(exercise)}, then run that cell again).")
    return True


def stub_name(error):
    """The exercise whose stub raised `error` (the innermost frame of the traceback), or None."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return None
    name = frames[-1].name
    return name if name in exercises else None


def where_to_write(name):
    section = exercises[name].section
    return f"write it in section “{section}”" if section else "write it above"


def shown(value):
    """The cell's last expression, displayed as IPython would have shown it (Out[n]).

    Only at a cell's top level: %timeit runs the same transformed code inside a function."""
    if sys._getframe(1).f_code.co_name == "<module>":
        sys.displayhook(value)


# ---------------------------------------------------------------------------- the cell wrapper


class calm_stubs:
    """The context every wrapped cell runs in: it turns a stub's error into the one-line note.

    A `with` block (rather than try/except) lets every other exception go on untouched, with the
    traceback pointing at the line that raised it."""

    def __init__(self, assigned):
        self.assigned = assigned

    def __enter__(self):
        demo_limit.cell_started()
        return self

    def __exit__(self, kind, error, tb):
        outermost = demo_limit.cell_ended()
        if isinstance(error, demo_limit.TooLong):  # said once, by the cell itself (not %timeit's loop)
            return outermost and too_long(error, self.assigned)
        if isinstance(error, NotImplementedError):
            return not_written_yet(error, self.assigned)
        if isinstance(error, NameError):
            return missing_value(error, self.assigned)
        return False


class CalmStubs(ast.NodeTransformer):
    """Wrap a whole cell in `with calm_stubs(names the cell assigns): <cell>`."""

    def visit_Module(self, module):
        body = module.body
        if not body or any(isinstance(node, ast.ImportFrom) and node.module == "__future__" for node in body):
            return module
        if isinstance(body[-1], ast.Expr):  # keep showing the last value, as IPython would
            body = body[:-1] + [ast.copy_location(ast.Expr(ast.Call(
                func=ast.Attribute(ast.Name(HELPER, ast.Load()), "shown", ast.Load()),
                args=[body[-1].value], keywords=[])), body[-1])]
        names = tuple(sorted(assigned_names(module.body)))
        wrapper = ast.parse(f"with {HELPER}.calm_stubs({names!r}):\n    pass")
        for node in ast.walk(wrapper):  # the wrapper's own line is the cell's first line
            if hasattr(node, "lineno"):
                ast.copy_location(node, body[0])
        wrapper.body[0].body = body
        module.body = wrapper.body
        ast.fix_missing_locations(module)
        return module


def assigned_names(statements):
    """Names the cell's top-level statements bind (x = ..., def f, import m, for x in ...)."""
    names = set()
    for node in statements:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        else:
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    names.add(sub.id)
    return names


def load_ipython_extension(ipython):
    """`%load_ext bpe_ref.course.workbook`: install the cell wrapper and the demo limit (once) in this kernel."""
    from ..grade.judge.exercises import REGISTRY  # the layer above: imported only when a kernel loads us
    exercises.update(REGISTRY)
    ipython.push({HELPER: sys.modules[__name__]}, interactive=False)
    if not any(isinstance(t, CalmStubs) for t in ipython.ast_transformers):
        ipython.ast_transformers.append(CalmStubs())
    demo_limit.install(exercises)
    if forget_loaded not in ipython.events.callbacks["post_run_cell"]:
        ipython.events.register("post_run_cell", forget_loaded)


def forget_loaded(result=None):
    """After each cell, IPython forgets that this extension is loaded, so that the next
    `%load_ext bpe_ref.course.workbook` (a second Run All) loads it again quietly instead of printing
    "The bpe_ref.course.workbook extension is already loaded". Loading again changes nothing.
    It may be loaded by its old name too (bpe_ref.workbook, the same module): both are forgotten."""
    from IPython import get_ipython
    ipython = get_ipython()
    if ipython is not None:
        loaded = ipython.extension_manager.loaded
        this = sys.modules[__name__]
        for name in [name for name in loaded if sys.modules.get(name) is this]:
            loaded.discard(name)


def unload_ipython_extension(ipython):
    ipython.ast_transformers[:] = [t for t in ipython.ast_transformers if not isinstance(t, CalmStubs)]
    if forget_loaded in ipython.events.callbacks["post_run_cell"]:
        ipython.events.unregister("post_run_cell", forget_loaded)
