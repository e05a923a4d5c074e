"""RegexTokenizer: split text with a GPT-style pattern first, then BPE inside each chunk.

Splitting keeps merges from crossing word, number and punctuation boundaries,
so 'dog.', 'dog!' and 'dog?' all share the token for 'dog'.
"""

from .base import Tokenizer
from .patterns import GPT4_SPLIT_PATTERN
from .unicode_classes import split_regex


class RegexTokenizer(Tokenizer):
    """Byte-level BPE inside the chunks of a split pattern (GPT-4's by default)."""

    def __init__(self, pattern=GPT4_SPLIT_PATTERN):
        super().__init__()
        self.pattern = pattern

    @classmethod
    def from_vocab(cls, vocab, merges, *, pattern, special_tokens=None):
        """A tokenizer from a vocab (id -> bytes) in any id layout and merges ranked by their order.

        `merges` lists pairs of byte strings, best first, as GPT-2's vocab.bpe, Hugging Face's
        merges or CS336's do. `special_tokens` is a list of strings (ids from the vocab, or
        new ones after it) or a dict str -> id. Tokens of the vocab that are neither bytes,
        merges nor special still decode.

        >>> tok = RegexTokenizer.from_vocab(vocab, [(b"h", b"i")], pattern=GPT4_SPLIT_PATTERN)
        >>> tok.decode(tok.encode("hi")) == "hi"
        True
        """
        from ..formats.vocab_layout import tokenizer_from_vocab
        return tokenizer_from_vocab(cls, vocab, merges, pattern=pattern, special_tokens=special_tokens)

    @property
    def pattern(self):
        return self._pattern

    @pattern.setter
    def pattern(self, pattern):
        self._pattern = pattern
        self._compiled = split_regex(pattern) if pattern else None
        self._cache = {}

    def split(self, text):
        """The chunks of `text` under this tokenizer's pattern: regex.findall, with \\p{L}, \\p{N}
        and \\p{M} read as tiktoken reads them (bpe_ref.core.unicode_classes)."""
        if self._compiled is None:
            return super().split(text)
        return self._compiled.findall(text)
