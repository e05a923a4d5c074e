"""Hand a tokenizer to the real libraries: a `tiktoken.Encoding`, a Hugging Face `tokenizer.json`.

tiktoken ranks tokens by their bytes: it merges the adjacent pair whose joined bytes have the
lowest rank. That equals BPE by merges exactly when each token's merge is the split tiktoken
itself reaches on the token's bytes, which is what `recover_merges` finds; `to_tiktoken`
checks it, so an Encoding it returns gives the same ids.

Hugging Face's BPE model takes the vocab and the merges as they are. Its regex engine,
Oniguruma, reads a possessive interval such as `\\p{N}{1,3}+` as "one or more runs of 1-3
digits", so such quantifiers are written as atomic groups, `(?>\\p{N}{1,3})`, which mean what
the possessive means in tiktoken and in `regex`.
"""

import json

from .encodings import recover_merges
from .gpt2_files import bytes_to_unicode, show_bytes

WHOLE_TEXT = r"[\s\S]+"  # the split pattern of a tokenizer that does not split


# ------------------------------------------------------------------ tiktoken


def to_tiktoken(tok, name):
    """A tiktoken.Encoding called `name` that encodes and decodes as `tok` does, id for id."""
    import tiktoken

    if tok.extra_tokens:
        raise ValueError(
            f"tokens {sorted(tok.extra_tokens)[:5]} are in the vocab but are neither merges nor special "
            "tokens, and tiktoken has no place for them; register them with register_special_tokens first"
        )
    ranks = {token: idx for idx, token in tok.vocab.items() if idx not in tok.special_tokens.values()}
    if len(ranks) != len(tok.vocab) - len(tok.special_tokens):
        raise ValueError("two ids share the same bytes; tiktoken needs one id per token")
    from_these_ranks = tok.whole_tokens is not None and tok.whole_tokens == ranks  # from_tiktoken's own
    if not from_these_ranks and list(tok.merges.items()) != list(_tiktoken_merges(ranks).items()):
        raise ValueError(
            "this tokenizer's merges are not the ones tiktoken would reach by ranking tokens by their "
            "bytes (a token made from parts that BPE would not split it into, or merges whose ids do "
            "not grow in their order); tiktoken would encode differently"
        )
    return tiktoken.Encoding(
        name=name,
        pat_str=tok.pattern or WHOLE_TEXT,
        mergeable_ranks=ranks,
        special_tokens=dict(tok.special_tokens),
    )


def _tiktoken_merges(ranks):
    """The merges tiktoken's ranks imply, in rank order; {} where some token is no merge of two."""
    try:
        return recover_merges(ranks)
    except ValueError:
        return {}


# ------------------------------------------------------------------ Hugging Face


def huggingface_json(tok):
    """The tokenizer as a Hugging Face tokenizer.json (a dict): byte-level BPE after the split.

    Special tokens become added tokens with the same ids; Hugging Face always splits them off,
    as encode(text, allowed_special="all") does here. (Its byte-level decoder reads the
    characters U+00A1-U+0143 in a special token as bytes, so such specials decode wrongly there.)
    """
    table = bytes_to_unicode()
    specials = set(tok.special_tokens.values())
    vocab = {show_bytes(token, table): idx for idx, token in sorted(tok.vocab.items()) if idx not in specials}
    for token, idx in tok.special_tokens.items():  # HF takes an added token's id from the vocab
        if vocab.setdefault(token, idx) != idx:
            raise ValueError(f"special token {token!r} is spelled like token {vocab[token]} in Hugging Face's "
                             "byte-level vocab; rename the special token")
    merges = [[show_bytes(tok.vocab[p0], table), show_bytes(tok.vocab[p1], table)] for p0, p1 in tok.merges]
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}
    pre_tokenizer = byte_level
    if tok.pattern:
        split = {"type": "Split", "pattern": {"Regex": oniguruma_pattern(tok.pattern)},
                 "behavior": "Isolated", "invert": False}
        pre_tokenizer = {"type": "Sequence", "pretokenizers": [split, byte_level]}
    added = [{"id": idx, "content": token, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True} for token, idx in sorted(tok.special_tokens.items(),
                                                                             key=lambda item: item[1])]
    model = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
             "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
             "ignore_merges": tok.whole_tokens is not None,  # tiktoken's shortcut, as from_tiktoken's
             "vocab": vocab, "merges": merges}
    return {"version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
            "normalizer": None, "pre_tokenizer": pre_tokenizer, "post_processor": None,
            "decoder": byte_level, "model": model}


def save_huggingface(tok, path):
    """Write `tok` as a tokenizer.json that `tokenizers.Tokenizer.from_file(path)` loads."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(huggingface_json(tok), f, ensure_ascii=False)
    return str(path)


def to_huggingface(tok):
    """A `tokenizers.Tokenizer` that encodes as `tok` does (specials always split off)."""
    from tokenizers import Tokenizer

    return Tokenizer.from_str(json.dumps(huggingface_json(tok)))


# ------------------------------------------------------------------ patterns for Oniguruma


def oniguruma_pattern(pattern):
    """The pattern with each possessive interval `X{m,n}+` written as the atomic `(?>X{m,n})`.

    oniguruma_pattern(r"\\p{N}{1,3}+|\\s+") -> r"(?>\\p{N}{1,3})|\\s+"
    """
    out = []  # pieces of the new pattern; the last one is the atom a quantifier applies to
    i = 0
    while i < len(pattern):
        piece, i = _next_piece(pattern, i)
        if piece.startswith("{") and i < len(pattern) and pattern[i] == "+" and out:
            out[-1] = f"(?>{out[-1]}{piece})"
            i += 1
        elif piece.startswith("{") and out:
            out[-1] += piece
        else:
            out.append(piece)
    return "".join(out)


def _next_piece(pattern, i):
    """(the atom or interval starting at i, where the next piece starts)."""
    ch = pattern[i]
    if ch == "\\":
        end = i + 2
        if pattern[i + 1:i + 2] in ("p", "P", "x", "u", "N") and pattern[end:end + 1] == "{":
            end = pattern.index("}", end) + 1
        return pattern[i:end], end
    if ch == "[":
        return _char_class(pattern, i)
    if ch == "(":
        depth, j = 0, i
        while True:
            piece, j = _next_piece(pattern, j) if pattern[j] in "\\[" else (pattern[j], j + 1)
            depth += {"(": 1, ")": -1}.get(piece, 0)
            if depth == 0:  # the group, with its inside rewritten too
                return "(" + oniguruma_pattern(pattern[i + 1:j - 1]) + ")", j
    if ch == "{" and "}" in pattern[i:]:
        end = pattern.index("}", i) + 1
        inside = pattern[i + 1:end - 1]
        if inside.replace(",", "").isdigit():
            return pattern[i:end], end
    return ch, i + 1


def _char_class(pattern, i):
    """A bracketed class starting at i, escapes and a leading ']' or '^]' included."""
    j = i + 1
    if pattern[j:j + 1] == "^":
        j += 1
    if pattern[j:j + 1] == "]":
        j += 1
    while pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return pattern[i:j + 1], j + 1
