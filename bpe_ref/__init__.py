"""bpe_ref: the course's reference byte-level BPE (what the grader compares learners against)."""

from .core.basic import BasicTokenizer
from .basics.codepoints import from_u_plus, u_plus
from .formats.encodings import from_tiktoken, get_encoding, recover_merges, use_offline_cache
from .formats.gpt2_files import bytes_to_unicode, load_gpt2_files, save_gpt2_files
from .basics.hexadecimal import from_hex, to_hex
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
from .basics.utf8 import utf8_encode
from .basics.words import WORD_PATTERN, word_tokenize

use_offline_cache()

__all__ = [
    "BasicTokenizer", "RegexTokenizer",
    "get_stats", "merge", "train", "build_vocab", "decode", "encode",
    "utf8_encode", "to_hex", "from_hex", "u_plus", "from_u_plus", "word_tokenize", "WORD_PATTERN",
    "get_encoding", "from_tiktoken", "recover_merges", "use_offline_cache",
    "bytes_to_unicode", "load_gpt2_files", "save_gpt2_files",
    "GPT2_SPLIT_PATTERN", "GPT4_SPLIT_PATTERN", "O200K_SPLIT_PATTERN",
    "GPT2_SPECIAL_TOKENS", "GPT4_SPECIAL_TOKENS", "O200K_SPECIAL_TOKENS",
]
