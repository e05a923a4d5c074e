"""BasicTokenizer: BPE over the whole text's bytes, no pre-splitting (the lesson's tokenizer)."""

from .base import Tokenizer


class BasicTokenizer(Tokenizer):
    """Byte-level BPE with no split pattern: merges may cross words and spaces."""
