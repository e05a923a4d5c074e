"""bpe_ref: the course's reference byte-level BPE (what the grader compares learners against).

The public API: the core's and the formats' names, re-exported. The folders are the products
(core/, basics/, formats/, course/, grade/, practice/, bench/: see README, Architecture).
"""

import importlib

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

# The one thing done on import: point tiktoken at the shipped rank files when no cache folder is
# chosen (an environment variable and two file checks; nothing is written), so that
# tiktoken.get_encoding works offline in this process too (tests/test_startup.py).
use_offline_cache()

__all__ = [
    "BasicTokenizer", "RegexTokenizer",
    "get_stats", "merge", "train", "build_vocab", "decode", "encode",
    "utf8_encode", "to_hex", "from_hex", "u_plus", "from_u_plus", "strip_marks", "word_tokenize", "WORD_PATTERN",
    "get_encoding", "from_tiktoken", "recover_merges", "use_offline_cache",
    "bytes_to_unicode", "load_gpt2_files", "save_gpt2_files",
    "GPT2_SPLIT_PATTERN", "GPT4_SPLIT_PATTERN", "O200K_SPLIT_PATTERN",
    "GPT2_SPECIAL_TOKENS", "GPT4_SPECIAL_TOKENS", "O200K_SPECIAL_TOKENS",
]

# Before the package had folders, `import bpe_ref` made these modules attributes (bpe_ref.naive.merge);
# their old paths are aliases of the moved modules (bpe_ref/naive.py, ...), loaded on first use.
OLD_MODULES = ("codepoints", "encodings", "export", "fast", "gpt2_files", "hexadecimal", "merges_cache", "naive",
               "patterns", "pretokenize", "stream", "trainer", "unicode_classes", "words")


def __getattr__(name):
    if name in OLD_MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
