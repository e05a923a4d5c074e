"""The package's layers: no module imports a higher layer at module level, and no import cycle.

Layers, lowest first: the core BPE (core/, basics/); formats (formats/, and the package's
public API in bpe_ref/__init__.py); the course's runtime (course/); the grader and the drill
(grade/, practice/); the benchmark (bench/). A module may import its own layer and those below.
An import inside a function runs only when it is called, so it may reach up (Tokenizer.save
imports bpe_ref.formats.model_file): only module-level imports count. The top level has no
module of its own: old paths (bpe_ref.naive, ...) are names in bpe_ref.OLD_PATHS.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "bpe_ref"
LAYERS = ["core", "formats", "course", "grader", "benchmark"]  # lowest first
FOLDER_LAYERS = {"core": "core", "basics": "core", "formats": "formats", "course": "course",
                 "grade": "grader", "practice": "grader", "bench": "benchmark"}
PUBLIC_API = "formats"  # bpe_ref/__init__.py re-exports the core's and the formats' names


def module_name(package, path):
    """'bpe_ref.core.base' for bpe_ref/core/base.py, 'bpe_ref.core' for bpe_ref/core/__init__.py."""
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_level_imports(path, name, in_functions=False):
    """(line, imported module) of each import that runs when the module is imported: those
    outside any function (with in_functions, every import). `from .x import y` counts as x, and
    as x.y when that is a module."""
    is_package = path.name == "__init__.py"
    here = name if is_package else name.rpartition(".")[0]
    found = []

    def visit(node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and not in_functions:
            return
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[:len(here.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            found.append((node.lineno, target))
            found.extend((node.lineno, f"{target}.{alias.name}") for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return found


def import_graph(package, in_functions=False):
    """{module: [(line, module it imports at module level)]}, for the modules of `package` only
    (with in_functions, the imports inside functions too)."""
    files = {module_name(package, path): path for path in sorted(package.rglob("*.py"))}
    graph = {}
    for name, path in files.items():
        graph[name] = [(line, target) for line, target in module_level_imports(path, name, in_functions)
                       if target in files and target != name]
    return files, graph


def layer_of(name, graph, root):
    """The layer of a module: by its folder; the package itself is the public API. The top level
    holds nothing else (old module paths are names mapped in bpe_ref/__init__.py, not files)."""
    parts = name.split(".")
    if len(parts) == 1:
        return PUBLIC_API
    if parts[1] in FOLDER_LAYERS:
        return FOLDER_LAYERS[parts[1]]
    raise AssertionError(f"{root / (parts[1] + '.py')}: the package's top level holds only its products' "
                         "folders; put new code in a layer's folder (an old module path goes in "
                         "bpe_ref.OLD_PATHS)")


def upward_imports(package):
    """'file:line imports module (layer a -> layer b)' for each module-level import that runs up."""
    files, graph = import_graph(package)
    found = []
    for name, imports in graph.items():
        mine = layer_of(name, graph, package)
        for line, target in imports:
            theirs = layer_of(target, graph, package)
            if LAYERS.index(theirs) > LAYERS.index(mine):
                found.append(f"{files[name]}:{line} imports {target} ({mine} -> {theirs})")
    return found


def import_cycles(package, in_functions=False, within=""):
    """Each cycle of module-level imports, as 'a -> b -> ... -> a' with the file and line of each step.

    A package imports its own modules only through its __init__ (a module's import runs the
    package's __init__ first, which is no cycle), so an edge from a module to a package that
    contains it is left out."""
    files, graph = import_graph(package, in_functions)
    edges = {name: [(line, t) for line, t in imports if not name.startswith(t + ".") and t.startswith(within)]
             for name, imports in graph.items() if name.startswith(within)}
    cycles, state, stack = [], {}, []

    def visit(name):
        state[name] = "open"
        stack.append(name)
        for line, target in edges[name]:
            if state.get(target) == "open":
                loop = stack[stack.index(target):] + [target]
                cycles.append(" -> ".join(loop) + f"  (closed at {files[name]}:{line})")
            elif target not in state:
                visit(target)
        stack.pop()
        state[name] = "done"

    for name in sorted(edges):
        if name not in state:
            visit(name)
    return cycles


def test_no_module_level_import_runs_upward():
    assert upward_imports(PACKAGE) == []


def test_no_import_cycle():
    assert import_cycles(PACKAGE) == []


def test_the_graders_modules_make_no_cycle_even_inside_functions():
    """grade/ is read one way: reading -> judge -> classroom, similarity; an import inside a
    function that runs back (source <-> course_copy, report <-> page) is a cycle too."""
    assert import_cycles(PACKAGE, in_functions=True, within="bpe_ref.grade") == []


def test_what_runs_in_the_sandbox_imports_nothing_of_the_parent():
    """grade/inside/ runs beside the learner's code, as a copy where bpe_ref is absent: its files
    load each other by path and import nothing of bpe_ref, at any level, so that nothing the
    parent judges with is within the learner's reach."""
    inside = PACKAGE / "grade" / "inside"
    found = []
    for path in sorted(inside.glob("*.py")):
        for line, target in module_level_imports(path, module_name(PACKAGE, path), in_functions=True):
            if target.startswith("bpe_ref"):
                found.append(f"{path}:{line} imports {target}")
    assert found == []


def test_every_folder_has_a_layer():
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert folders == set(FOLDER_LAYERS)


# ------------------------------------------------------------------ the checks can fail


def write(root, files):
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def bad_package(tmp_path):
    return write(tmp_path / "bpe_ref", {
        "__init__.py": "from .core.base import Tokenizer\n",
        "core/__init__.py": "",
        "core/base.py": ("import json\n"
                         "from ..formats.model_file import read_model  # upward, at module level\n\n\n"
                         "class Tokenizer:\n"
                         "    def save(self, prefix):\n"
                         "        from ..formats.model_file import write_model  # inside a method: allowed\n"
                         "        return write_model(self, prefix)\n"),
        "core/naive.py": "from . import fast\n",
        "core/fast.py": "from .naive import merge\n",
        "formats/__init__.py": "",
        "formats/model_file.py": "from ..core.base import Tokenizer\n",
        "course/__init__.py": "",
        "course/plots.py": "from ..core.naive import merge\n",
    })


def test_an_upward_import_is_named_with_its_file_and_line(bad_package):
    found = upward_imports(bad_package)
    assert found == [f"{bad_package / 'core' / 'base.py'}:2 imports bpe_ref.formats.model_file (core -> formats)"]


def test_a_module_at_the_top_level_is_refused(bad_package):
    write(bad_package, {"naive.py": "import sys\n\nfrom .core import naive\n\nsys.modules[__name__] = naive\n"})
    files, graph = import_graph(bad_package)
    with pytest.raises(AssertionError, match="naive.py: the package's top level holds only its products' folders"):
        layer_of("bpe_ref.naive", graph, bad_package)


def test_the_top_level_holds_only_the_public_api():
    assert sorted(p.name for p in PACKAGE.glob("*.py")) == ["__init__.py"]


def test_a_cycle_is_found(bad_package):
    cycles = import_cycles(bad_package)
    assert any(c.startswith("bpe_ref.core.base -> bpe_ref.formats.model_file -> bpe_ref.core.base") for c in cycles)
    assert any("bpe_ref.core.fast -> bpe_ref.core.naive -> bpe_ref.core.fast" in c for c in cycles)


# ------------------------------------------------------------------ what learners saved before the move


def test_a_given_cell_saved_before_the_move_is_still_the_course_given_cell():
    """Workbook 06's given cell once said `# Given, as in bpe_ref/naive.py`; a learner's copy saved
    then still gets get_stats and merge as given, not graded as the learner's own."""
    from bpe_ref.grade.reading.course_copy import course_cell, course_cells

    current = next(text for text, cell in course_cells()["06_encoding"].items() if cell.given)
    header, _, body = current.partition("\n")
    assert header.startswith("# Given, as in bpe_ref/core/naive.py")
    old = header.replace("bpe_ref/core/naive.py", "bpe_ref/naive.py") + "\n" + body
    assert course_cell(old, "06_encoding").given == ("get_stats", "merge")
    assert course_cell(body + "\nx = 1", "06_encoding").given == ()  # changed code is the learner's
