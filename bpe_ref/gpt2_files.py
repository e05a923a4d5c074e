"""Moved to bpe_ref.formats.gpt2_files: this path stays, the same module, for code written before the move."""

import sys

from .formats import gpt2_files

sys.modules[__name__] = gpt2_files
