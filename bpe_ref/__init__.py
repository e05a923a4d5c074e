"""bpe_ref: the course's reference byte-level BPE (what the grader compares learners against).

The public API: the core's and the formats' names, re-exported. The folders are the products
(core/, basics/, formats/, course/, grade/, practice/, bench/: see docs/architecture.md).
"""

import importlib
import importlib.abc
import importlib.util
import sys

from .basics.codepoints import from_u_plus, strip_marks, u_plus
from .basics.hexadecimal import from_hex, to_hex
from .basics.utf8 import utf8_encode
from .basics.words import WORD_PATTERN, word_tokenize
from .core.basic import BasicTokenizer
from .core.naive import build_vocab, decode, encode, get_stats, merge, train
from .core.patterns import (
    GPT2_SPECIAL_TOKENS,
    GPT2_SPLIT_PATTERN,
    GPT4_SPECIAL_TOKENS,
    GPT4_SPLIT_PATTERN,
    O200K_SPECIAL_TOKENS,
    O200K_SPLIT_PATTERN,
)
from .core.regex_tokenizer import RegexTokenizer
from .formats.encodings import from_tiktoken, get_encoding, recover_merges, use_offline_cache
from .formats.gpt2_files import bytes_to_unicode, load_gpt2_files, save_gpt2_files

# Two things are done on import. Point tiktoken at the shipped rank files when no cache folder is
# chosen (an environment variable and two file checks; nothing is written), so that
# tiktoken.get_encoding works offline in this process too (tests/test_startup.py).
use_offline_cache()
# And keep nbformat quick: its jsonschema imports rfc3987_syntax when Jupyter's extras installed
# it, which builds dozens of grammars on import (over a second in every process that reads a
# notebook: bpe-grade, bpe-practice). A notebook's schema has no IRI to check; None in sys.modules
# makes that one optional import fail quietly.
sys.modules.setdefault("rfc3987_syntax", None)

__all__ = [
    "BasicTokenizer", "RegexTokenizer",
    "get_stats", "merge", "train", "build_vocab", "decode", "encode",
    "utf8_encode", "to_hex", "from_hex", "u_plus", "from_u_plus", "strip_marks", "word_tokenize", "WORD_PATTERN",
    "get_encoding", "from_tiktoken", "recover_merges", "use_offline_cache",
    "bytes_to_unicode", "load_gpt2_files", "save_gpt2_files",
    "GPT2_SPLIT_PATTERN", "GPT4_SPLIT_PATTERN", "O200K_SPLIT_PATTERN",
    "GPT2_SPECIAL_TOKENS", "GPT4_SPECIAL_TOKENS", "O200K_SPECIAL_TOKENS",
]

# Module paths from before the package had folders. Each old name is the moved module itself, for
# code and notebooks written before the move (`%load_ext bpe_ref.workbook`, `from bpe_ref.naive
# import merge`, `python -m bpe_ref.lab`); `import bpe_ref` made the first fourteen attributes.
OLD_PATHS = {
    "codepoints": "basics.codepoints", "encodings": "formats.encodings", "export": "formats.export",
    "fast": "core.fast", "gpt2_files": "formats.gpt2_files", "hexadecimal": "basics.hexadecimal",
    "merges_cache": "formats.merges_cache", "naive": "core.naive", "patterns": "core.patterns",
    "pretokenize": "core.pretokenize", "stream": "core.stream", "trainer": "core.trainer",
    "unicode_classes": "core.unicode_classes", "words": "basics.words",
    "corpus": "bench.corpora", "demo_limit": "course.demo_limit", "hub": "course.hub", "lab": "course.lab",
    "plots": "course.plots", "read_only": "course.read_only", "viewer": "course.viewer",
    "workbook": "course.workbook", "workspace": "course.workspace",
}
OLD_MODULES = tuple(OLD_PATHS)[:14]


class OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """The import system's side of OLD_PATHS: `bpe_ref.<old>` imports as the moved module."""

    def find_spec(self, fullname, path=None, target=None):
        package, _, old = fullname.rpartition(".")
        return importlib.util.spec_from_loader(fullname, self) if package == __name__ and old in OLD_PATHS else None

    def create_module(self, spec):
        module = importlib.import_module(moved(spec.name))
        spec.loader_state = module.__spec__  # the import system sets __spec__ to the alias's next
        return module

    def exec_module(self, module):
        module.__spec__ = module.__spec__.loader_state  # it ran already, under its own spec

    def get_code(self, fullname):
        """`python -m bpe_ref.<old>`: run the moved module as __main__."""
        return compile(f"import runpy\nrunpy.run_module({moved(fullname)!r}, run_name='__main__', alter_sys=True)\n",
                       f"<{fullname}>", "exec")


def moved(fullname):
    """'bpe_ref.course.lab' for 'bpe_ref.lab'."""
    return f"{__name__}.{OLD_PATHS[fullname.rpartition('.')[2]]}"


if not any(isinstance(finder, OldPaths) for finder in sys.meta_path):
    sys.meta_path.append(OldPaths())


def __getattr__(name):
    if name in OLD_MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
