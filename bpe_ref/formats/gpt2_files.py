"""GPT-2's own tokenizer files, `encoder.json` and `vocab.bpe`: read them, write them.

They hold the same vocab and merges as a `.model` file, in another dress. Every byte is shown
as one printable character (`bytes_to_unicode`: 'a' stays 'a', the space byte becomes 'Ġ'), so
`encoder.json` maps each token, written that way, to its id, and `vocab.bpe` lists the merges
best first, one "left right" pair per line, under a "#version: 0.2" line. Hugging Face's
`vocab.json` and `merges.txt` are the same two files.
"""

import json

from ..core.patterns import GPT2_SPLIT_PATTERN
from ..core.regex_tokenizer import RegexTokenizer

VERSION_LINE = "#version: 0.2"


def bytes_to_unicode():
    """GPT-2's byte -> character table: printable bytes show as themselves, the other 68 as
    the characters from U+0100 on, in byte order.

    >>> table = bytes_to_unicode()
    >>> table[ord("a")], table[ord(" ")], table[ord("\\n")]
    ('a', 'Ġ', 'Ċ')
    """
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table, shifted = {}, 0
    for b in range(256):
        if b in printable:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + shifted)
            shifted += 1
    return table


def show_bytes(token, table=None):
    """A token's bytes in GPT-2's characters: b' the' -> 'Ġthe'."""
    table = table or bytes_to_unicode()
    return "".join(table[b] for b in token)


def read_bytes(shown, back):
    """The bytes behind GPT-2 characters ('Ġthe' -> b' the'); None if a character is not one
    of the table's (an added token written as plain text)."""
    try:
        return bytes(back[ch] for ch in shown)
    except KeyError:
        return None


# ------------------------------------------------------------------ reading


def load_gpt2_files(encoder_json, vocab_bpe, *, pattern=GPT2_SPLIT_PATTERN, special_tokens=None):
    """A RegexTokenizer from an encoder.json + vocab.bpe pair (or HF's vocab.json + merges.txt).

    `special_tokens` as in RegexTokenizer.from_vocab, e.g. ["<|endoftext|>"] for GPT-2.
    >>> tok = load_gpt2_files("encoder.json", "vocab.bpe", special_tokens=["<|endoftext|>"])
    >>> tok.encode("hello world") == tiktoken.get_encoding("gpt2").encode("hello world")
    True
    """
    back = {ch: b for b, ch in bytes_to_unicode().items()}
    with open(encoder_json, encoding="utf-8") as f:
        encoder = json.load(f)
    if not isinstance(encoder, dict):
        raise ValueError(f"{encoder_json} should hold a JSON object of token -> id")
    vocab = {}
    for shown, idx in encoder.items():
        token = read_bytes(shown, back)
        vocab[idx] = shown.encode("utf-8") if token is None else token
    merges = []
    with open(vocab_bpe, encoding="utf-8") as f:
        for number, line in enumerate(f.read().split("\n"), start=1):
            if not line or (number == 1 and line.startswith("#version")):
                continue
            parts = line.split(" ")
            pair = [read_bytes(part, back) for part in parts]
            if len(parts) != 2 or None in pair:
                raise ValueError(f"{vocab_bpe}, line {number}: expected two tokens in GPT-2's characters, got {line!r}")
            merges.append(tuple(pair))
    return RegexTokenizer.from_vocab(vocab, merges, pattern=pattern, special_tokens=special_tokens)


# ------------------------------------------------------------------ writing


def gpt2_file_texts(tok):
    """(encoder.json, vocab.bpe) as the strings GPT-2's files hold, for any tokenizer.

    Tokens are listed by id; special tokens too, written in the same characters.
    """
    table = bytes_to_unicode()
    encoder = {show_bytes(token, table): idx for idx, token in sorted(tok.vocab.items())}
    if len(encoder) != len(tok.vocab):
        raise ValueError("two ids share the same bytes (a special token spelled like a token?); "
                         "encoder.json can hold only one of them")
    lines = [VERSION_LINE]
    lines += [f"{show_bytes(tok.vocab[p0], table)} {show_bytes(tok.vocab[p1], table)}" for p0, p1 in tok.merges]
    return json.dumps(encoder), "\n".join(lines) + "\n"


def save_gpt2_files(tok, encoder_json, vocab_bpe):
    """Write a tokenizer as GPT-2's two files; load_gpt2_files reads them back.

    >>> save_gpt2_files(tok, tmp_path / "encoder.json", tmp_path / "vocab.bpe")
    """
    encoder_text, merges_text = gpt2_file_texts(tok)
    with open(encoder_json, "w", encoding="utf-8", newline="") as f:
        f.write(encoder_text)
    with open(vocab_bpe, "w", encoding="utf-8", newline="") as f:
        f.write(merges_text)
