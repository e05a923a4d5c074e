"""RegexTokenizer: split text with a GPT-style pattern first, then BPE inside each chunk.

Splitting keeps merges from crossing word, number and punctuation boundaries,
so 'dog.', 'dog!' and 'dog?' all share the token for 'dog'.
"""

import regex

from .base import Tokenizer
from .patterns import GPT4_SPLIT_PATTERN


class RegexTokenizer(Tokenizer):
    """Byte-level BPE inside the chunks of a split pattern (GPT-4's by default)."""

    def __init__(self, pattern=GPT4_SPLIT_PATTERN):
        super().__init__()
        self.pattern = pattern

    @property
    def pattern(self):
        return self._pattern

    @pattern.setter
    def pattern(self, pattern):
        self._pattern = pattern
        self._compiled = regex.compile(pattern) if pattern else None
        self._cache = {}

    def split(self, text):
        """The chunks of `text` under this tokenizer's pattern, i.e. regex.findall."""
        if self._compiled is None:
            return super().split(text)
        return self._compiled.findall(text)
