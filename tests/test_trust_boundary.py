"""The trust boundary (issue 29): the learner's process, worker included, only answers; the parent
judges. Each attack of the review is kept here in two spellings, graded behind bubblewrap's walls
where they exist, and none earns a pass.
"""

import os
import textwrap

import pytest

from bpe_ref.grade.judge.module_style import ModuleStyle
from bpe_ref.grade.reading.reaching import reaches, reaches_in, tainted
from bpe_ref.grade.submission import grade_file
from bpe_ref.grade.walls import isolation

ISOLATED = isolation.status()[0]
if not ISOLATED and os.environ.get("BPE_COURSE_CI"):
    pytest.fail(f"the trust-boundary tests need bubblewrap in CI: {isolation.status()[1]}", pytrace=False)

HONEST_MERGE = '''
def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == tuple(pair):
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
'''

# ---------------------------------------------------------------------------- read statically

REACHING = {
    "the stdout counter": ['import sys\nsys.stdout.count = "x"\n', 'import sys as s\ns.stdout = None\n'],
    "the worker through sys.modules": ['import sys\nsys.modules["__main__"].byhand.refuser = None\n',
                                       'import sys\nm = sys.modules\n'],
    "the worker as __main__": ['import __main__\n__main__.calling._differs = lambda a, b: False\n',
                               'from __main__ import calling\n'],
    "the garbage collector": ['import gc\nobjs = gc.get_objects()\n', 'from gc import get_referrers\n'],
    "frames": ['import sys\nf = sys._getframe(1).f_back\n',
               'try:\n    1 / 0\nexcept Exception as e:\n    g = e.__traceback__.tb_frame.f_globals\n'],
    "the protocol pipe": ['import os\nos.write(4, b"{}\\n")\n', 'import os as o\nw = o.fdopen(4, "w")\n'],
    "the interpreter's classes": ['x = ().__class__.__base__.__subclasses__()\n',
                                 'x = getattr(object, "__subclasses__")()\n'],
    "the builtins changed": ['import builtins\nbuiltins.isinstance = lambda a, b: True\n',
                             'import builtins\nsetattr(builtins, "len", lambda x: 0)\n'],
    "code built from strings": ['exec("def get_" + "stats(ids): return {}")\n',
                                'f = eval(compile("lambda: 1", "<s>", "eval"))\nexec(bytes([120]).decode())\n'],
    "a module by a built name": ['import importlib\nm = importlib.import_module("s" + "ys")\n',
                                 'm = __import__("g" + "c")\n'],
    # the learner's eval() reads data only: Python's own eval and exec, taken from builtins, run code
    "Python's own eval": ['import builtins\nrun = builtins.eval\n', 'from builtins import exec as run\n',
                          'import dataclasses\nb = dataclasses.builtins\n', 'run = getattr(b, "ev" "al")\n',
                          'import importlib\nimportlib.import_module("builtins").exec(code)\n',
                          'import builtins as b\nnames = b.__dict__\n'],
    # a code object is reached for anything beyond its signature's names and counts
    "a code object": ['c = f.__code__\n', 'f.__code__ = g.__code__\n', 'c = f.__code__.replace(co_code=b"")\n',
                      'c = f.__code__.co_consts\n', 'n = g.__code__.co_varnames.__class__.__subclasses__()\n'],
}
ORDINARY = [
    'import sys\nsys.setrecursionlimit(10_000)\nprint("x", file=sys.stderr)\n',
    'if __name__ == "__main__":\n    print("demo")\n',
    'import os\npath = os.path.join(os.path.dirname(__file__), "data.txt")\n',
    'import regex as re\nfrom collections import Counter\nimport builtins\nn = getattr(builtins, "int")("7")\n',
    'from multiprocessing import Pool\nfrom concurrent.futures import ThreadPoolExecutor\n',
    'exec("x = 1")\nv = eval("2 + 2")\nimport importlib\nr = importlib.import_module("regex")\n',
    # eval() of the learner's own data (a token's bytes kept as text): in the sandbox it reads data only
    'def decode(ids, texts):\n    return b"".join(eval(texts[i]) for i in ids)\n',
    'model.eval()\n',  # a model's evaluation mode, no code run
    # a test asking what a method takes reads names from its code object, nothing more
    'if "allowed_special" in tok.encode.__code__.co_varnames:\n    n = f.__code__.co_argcount\n',
    'class T:\n    def __init__(self):\n        self.merges = {}\n    def get(self, name):\n        return getattr(self, name)\n',
    'import cProfile\nimport __main__\nimport regex as re\n',  # CS336 code that imports __main__ and never names it
]


@pytest.mark.parametrize("kind", REACHING)
def test_each_spelling_of_reaching_into_the_grader_is_read(kind):
    for source in REACHING[kind]:
        assert reaches(source), (kind, source)


@pytest.mark.parametrize("source", ORDINARY)
def test_ordinary_code_is_not_taken_for_reaching(source):
    assert reaches(source) == [], source


def test_a_helper_that_reaches_taints_the_exercise_that_uses_it_and_no_other():
    found, uses = reaches_in(["import gc\n\ndef helper():\n    return gc.get_objects()\n\n"
                              "def merge(ids, pair, idx):\n    helper()\n    return ids\n\n"
                              "def get_stats(ids):\n    return {}\n"])
    assert tainted(found, uses, "merge").what == "gc.get_objects"
    assert tainted(found, uses, "get_stats") is None


@pytest.mark.parametrize("cells", [["import __main__ as m\n", "def f():\n    return m.calling\n"],
                                   ["import __main__\n", "keep = __main__\n"],
                                   ["import ctypes\n", "def f():\n    return ctypes\n"]])
def test_a_module_imported_in_one_cell_and_named_in_another_is_reaching(cells):
    """An import is flagged once any cell names what it bound; only an import no code names is let be."""
    found, uses = reaches_in(cells)
    assert found.get(None), cells


def test_code_too_deep_for_the_parser_is_code_that_cannot_be_read():
    assert any(r.hides for r in reaches("x = " + "0+" * 1500 + "0\n"))
    assert any(r.hides for r in reaches("x = " + "-" * 800 + "1\n"))


# ---------------------------------------------------------------------------- graded end to end


def grade(tmp_path, name, source):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return grade_file(path, timeout=10.0, isolated=ISOLATED, file_timeout=300.0)


TABLE_THEN_FORGE = '''
import sys

TABLE = {(): {}, (1,): {}}

def get_stats(ids):
    if tuple(ids) in TABLE:
        return TABLE[tuple(ids)]
    FORGE
    return {}
'''


@pytest.mark.parametrize("forge", ['sys.stdout.count = "x"', 'setattr(sys.stdout, "count", None)'])
def test_a_table_that_forges_the_output_count_earns_nothing(tmp_path, forge):
    result = grade(tmp_path, "table.py", TABLE_THEN_FORGE.replace("FORGE", forge) + HONEST_MERGE)
    assert result["exercises"]["get_stats"]["status"] != "pass", result
    assert result["exercises"]["merge"]["status"] == "pass", result  # the honest exercise keeps its credit


@pytest.mark.parametrize("switch_off", ['import __main__\n__main__.byhand = None\n',
                                        'import sys\nsys.modules["__main__"].byhand = None\n'])
def test_switching_off_the_by_hand_rule_earns_nothing(tmp_path, switch_off):
    result = grade(tmp_path, "hexer.py", switch_off + "\ndef to_hex(n):\n    return hex(n)[2:]\n")
    assert result["exercises"]["to_hex"]["status"] == "error", result
    assert "reaches into the grader" in result["exercises"]["to_hex"]["message"]
    assert any("flagged for a human look" in note for note in result["notes"])


@pytest.mark.parametrize("hide", ['import gc\nfor o in gc.get_objects():\n    pass\n',
                                  'import sys\nf = sys._getframe(0)\n'])
def test_hiding_a_mutation_earns_nothing(tmp_path, hide):
    emptying = ('def encode(text, merges):\n    ids = list(text.encode("utf-8"))\n    merges.clear()\n'
                '    return ids\n')
    result = grade(tmp_path, "mutator.py", hide + "\n" + emptying)
    assert result["exercises"]["encode"]["status"] != "pass", result


KEPT_IN_PROCESS = {
    "a global": '''
        KEPT = {}

        def save_merges(merges, path):
            KEPT.clear()
            KEPT.update(merges)
            open(path, "w", encoding="utf-8").write("nothing useful\\n")

        def load_merges(path):
            return dict(KEPT)
        ''',
    "a function attribute": '''
        def save_merges(merges, path):
            load_merges.kept = dict(merges)
            open(path, "w", encoding="utf-8").write("x\\n")

        def load_merges(path):
            return getattr(load_merges, "kept", {})
        ''',
}


@pytest.mark.parametrize("kept", KEPT_IN_PROCESS)
def test_merges_kept_in_the_process_are_not_a_saved_file(tmp_path, kept):
    """load_merges runs in a fresh process of the submission: only the file carries the merges."""
    result = grade(tmp_path, "drill.py", KEPT_IN_PROCESS[kept])
    assert result["exercises"]["save_load"]["status"] == "fail", result


def test_a_real_save_and_load_passes_across_two_processes(tmp_path):
    honest = '''
        def save_merges(merges, path):
            with open(path, "w", encoding="utf-8") as f:
                f.write("minbpe v1\\n")
                for (a, b), idx in sorted(merges.items(), key=lambda item: item[1]):
                    f.write(f"{a} {b}\\n")

        def load_merges(path):
            merges = {}
            with open(path, encoding="utf-8") as f:
                f.readline()
                for idx, line in enumerate(f, start=256):
                    a, b = line.split()
                    merges[(int(a), int(b))] = idx
            return merges
        '''
    result = grade(tmp_path, "drill.py", honest)
    assert result["exercises"]["save_load"]["status"] == "pass", result


@pytest.mark.parametrize("merges", [{}, {(104, 101): 256}])
def test_the_drill_s_merges_are_judged_on_the_drill_s_own_text(merges):
    """`merges = {}` (or one merge) is no training of the drill's text to its vocab_size."""
    style = ModuleStyle(merges, None, "any text the learner put there").for_drill()
    (result,) = style.value_results()
    assert result.status == "fail", result
