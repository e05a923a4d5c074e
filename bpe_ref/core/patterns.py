"""Split patterns and special tokens of the real encodings, defined once for the whole course.

The patterns are exactly the strings tiktoken uses, so that `regex.findall(pattern, text)`
yields the same chunks tiktoken encodes.
"""

# GPT-2 (r50k_base). Contractions, letters, numbers, other symbols, each with an optional
# leading space; whitespace before a non-space is left for the next chunk.
GPT2_SPLIT_PATTERN = (
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
)

# GPT-4 (cl100k_base). Case-insensitive contractions, at most three digits per chunk,
# newlines kept apart from other whitespace.
GPT4_SPLIT_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)

# GPT-4o (o200k_base). Words split at case changes and carry their own contraction.
O200K_SPLIT_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"

GPT2_SPECIAL_TOKENS = {ENDOFTEXT: 50256}
GPT4_SPECIAL_TOKENS = {
    ENDOFTEXT: 100257,
    FIM_PREFIX: 100258,
    FIM_MIDDLE: 100259,
    FIM_SUFFIX: 100260,
    ENDOFPROMPT: 100276,
}
O200K_SPECIAL_TOKENS = {ENDOFTEXT: 199999, ENDOFPROMPT: 200018}

SPLIT_PATTERNS = {
    "gpt2": GPT2_SPLIT_PATTERN,
    "r50k_base": GPT2_SPLIT_PATTERN,
    "cl100k_base": GPT4_SPLIT_PATTERN,
    "o200k_base": O200K_SPLIT_PATTERN,
}


def alternatives(pattern):
    """The top-level alternatives of a regex: the pieces between its `|`s that are outside
    brackets and parentheses, so that each can be tried on its own.

    >>> alternatives(r"a|(b|c)|[|]")
    ['a', '(b|c)', '[|]']
    """
    if not isinstance(pattern, str):
        raise TypeError(f"pattern must be a str, got {type(pattern).__name__}")
    parts, current, depth, in_class, escaped = [], "", 0, False, False
    for ch in pattern:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch in "()":
            depth += 1 if ch == "(" else -1
        elif ch == "|" and depth == 0:
            parts.append(current)
            current = ""
            continue
        current += ch
    return parts + [current]
