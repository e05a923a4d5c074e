"""Moved to bpe_ref.bench.corpora: this path stays, the same module, for code written before the move."""

import sys

from .bench import corpora

sys.modules[__name__] = corpora
