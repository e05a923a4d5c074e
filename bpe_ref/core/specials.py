"""Special tokens in text: which to recognise, which to refuse, and how to find them.

Two conventions meet here. tiktoken's `allowed_special` / `disallowed_special` take "all" or
a set. minbpe's `allowed_special` is positional and also takes "none" (special-token text is
ordinary text) and "none_raise" (special-token text is an error, as tiktoken's default).
"""

from .stream import special_token_regex

MINBPE_VALUES = ("all", "none", "none_raise")


def special_policy(special_tokens, allowed_special, disallowed_special):
    """(allowed, disallowed): the special tokens to encode as themselves, and those to refuse.

    special_policy({'<|a|>', '<|b|>'}, {'<|a|>'}, 'all') -> ({'<|a|>'}, {'<|b|>'})
    special_policy({'<|a|>'}, 'none', 'all') -> (set(), set())
    """
    known = set(special_tokens)
    if isinstance(allowed_special, str):
        if allowed_special not in MINBPE_VALUES:
            raise ValueError(
                f"allowed_special={allowed_special!r} is not understood; pass 'all', 'none', "
                "'none_raise' or a set of special tokens such as {'<|endoftext|>'}"
            )
        if allowed_special == "none":
            return set(), set()  # minbpe: special-token text is encoded as ordinary text
        allowed = known if allowed_special == "all" else set()
    else:
        allowed = _token_set(allowed_special, "allowed_special")
    if disallowed_special == "all":
        disallowed = known - allowed
    elif isinstance(disallowed_special, str):
        raise ValueError(
            f"disallowed_special={disallowed_special!r} is not understood; pass 'all', () "
            "or a set of special tokens"
        )
    else:
        disallowed = _token_set(disallowed_special, "disallowed_special")
    return allowed & known, disallowed


def _token_set(tokens, name):
    """A set of special-token strings from any collection of them, or a TypeError that says how."""
    try:
        tokens = set(tokens)
    except TypeError:
        raise TypeError(f"{name} must be 'all' or a collection of special tokens, got {tokens!r}") from None
    wrong = [t for t in tokens if not isinstance(t, str)]
    if wrong:
        raise TypeError(f"{name} holds {wrong[0]!r}; special tokens are given as str, e.g. {{'<|endoftext|>'}}")
    return tokens


def check_disallowed(text, disallowed):
    """Raise the fix-it error if `text` spells one of the `disallowed` special tokens."""
    if disallowed:
        found = special_token_regex(disallowed).search(text)
        if found:
            raise_disallowed_special_token(found.group())


def refuse_disallowed(pieces, disallowed):
    """Yield the pieces of a text unchanged, raising once they spell a `disallowed` token,
    also one that spans pieces (each piece is searched together with the end of the last)."""
    finder = special_token_regex(disallowed)
    overlap = max(map(len, disallowed)) - 1
    tail = ""
    for piece in ([pieces] if isinstance(pieces, str) else pieces):
        if isinstance(piece, str):  # anything else: the caller's own type check explains it
            window = tail + piece
            found = finder.search(window)
            if found:
                raise_disallowed_special_token(found.group())
            tail = window[-overlap:] if overlap else ""
        yield piece


def raise_disallowed_special_token(token):
    raise ValueError(
        f"The text contains {token!r}, which is a special token, and special tokens are "
        "disallowed by default.\n"
        f"  - to encode it as the special token, pass allowed_special={{{token!r}}} (or allowed_special=\"all\");\n"
        f"  - to encode it as ordinary text, pass disallowed_special=() "
        "(or leave this token out of disallowed_special)."
    )
