"""See tokens: the text as coloured spans, one per token, like the online tokenizer playgrounds.

    from bpe_ref.course.viewer import show_tokens, compare_token_counts
    show_tokens("Hello 안녕 😀")                                  # gpt2, cl100k_base, o200k_base
    show_tokens(text, {"mine": (encode, vocab), "GPT-4": "cl100k_base"})
    counts = compare_token_counts({"English": "...", "Korean": "..."}); plt.show()

A tokenizer is a name ('gpt2', 'cl100k_base', 'o200k_base'), a bpe_ref Tokenizer
(RegexTokenizer, BasicTokenizer), or your own pair (encode_fn, vocab): encode_fn(text) -> ids
and vocab {id: bytes}. Give labels with a dict {label: tokenizer}.

Text that spells a special token, such as "<|endoftext|>", is encoded as ORDINARY text by
default (tiktoken's disallowed_special=()), so the viewer never raises on it. Pass
allowed_special="all" (or a set) to see it as one special token instead; a learner's
(encode_fn, vocab) pair is always called as encode_fn(text).

Hover over a token to see its id and bytes. A token whose bytes stop inside a UTF-8 character
is drawn with a dashed border; its character is shown with the token that completes it, and a
token left with no whole character of its own shows a grey "�".
"""

import codecs
import html

DEFAULT_TOKENIZERS = ("gpt2", "cl100k_base", "o200k_base")
PALETTE = ("#ffd6a5", "#caffbf", "#9bf6ff", "#bdb2ff", "#ffc6ff", "#fdffb6", "#a0c4ff", "#ffadad")
VISIBLE = {"\n": "↵\n", "\r": "␍", "\t": "→\t"}  # whitespace that would otherwise vanish


# ---------------------------------------------------------------------------- tokenizers

def _label_and_spec(tokenizers):
    """(label, tokenizer) pairs from a dict, a list, or a single tokenizer."""
    if isinstance(tokenizers, dict):
        return list(tokenizers.items())
    if isinstance(tokenizers, str) or _is_pair(tokenizers) or hasattr(tokenizers, "special_tokens"):
        tokenizers = [tokenizers]
    return [(_default_label(t), t) for t in tokenizers]


def _is_pair(spec):
    return isinstance(spec, tuple) and len(spec) == 2 and callable(spec[0]) and isinstance(spec[1], dict)


def _default_label(spec):
    if isinstance(spec, str):
        return spec
    if _is_pair(spec):
        return "mine"
    return type(spec).__name__


def _resolve(spec, allowed_special=frozenset()):
    """(encode(text) -> ids, token_bytes(id) -> bytes) for any kind of tokenizer."""
    if isinstance(spec, str):
        from ..formats.encodings import get_encoding

        enc = get_encoding(spec)
        return (lambda text: enc.encode(text, allowed_special=allowed_special, disallowed_special=()),
                enc.decode_single_token_bytes)
    if _is_pair(spec):
        encode_fn, vocab = spec
        return encode_fn, lambda idx: _lookup(vocab, idx)
    if hasattr(spec, "encode") and hasattr(spec, "vocab"):
        return (lambda text: spec.encode(text, allowed_special=allowed_special, disallowed_special=()),
                lambda idx: _lookup(spec.vocab, idx))
    raise TypeError(
        f"cannot show tokens for {spec!r}: give an encoding name ('gpt2', 'cl100k_base', 'o200k_base'), "
        "a bpe_ref tokenizer, or a pair (encode_fn, vocab)")


def _lookup(vocab, idx):
    if idx not in vocab:
        raise ValueError(f"token id {idx} is not in the vocab: the vocab must map every id encode returns to bytes")
    return vocab[idx]


# ---------------------------------------------------------------------------- spans

def token_spans(text, tokenizer, *, allowed_special=frozenset()):
    """[(id, piece), ...]: each token with the text it shows; the pieces join back into `text`.

    A character split across tokens belongs to the token that completes it, so a token
    can have an empty piece.
    >>> token_spans("hello world", "cl100k_base")
    [(15339, 'hello'), (1917, ' world')]
    """
    return [(idx, piece) for idx, piece, _ in _spans(text, tokenizer, allowed_special)]


def _spans(text, tokenizer, allowed_special):
    """(id, piece, bytes) for each token; an incremental decoder carries partial characters."""
    encode, token_bytes = _resolve(tokenizer, allowed_special)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    spans = []
    for idx in encode(text):
        raw = token_bytes(idx)
        spans.append([idx, decoder.decode(raw), raw])
    tail = decoder.decode(b"", final=True)  # bytes left over that never made a character
    if tail and spans:
        spans[-1][1] += tail
    return [tuple(span) for span in spans]


def _is_whole(raw):
    try:
        raw.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


# ---------------------------------------------------------------------------- HTML

ROW_STYLE = "margin:4px 0; font-family:monospace; font-size:14px; line-height:1.9"
LABEL_STYLE = "display:inline-block; min-width:14em; color:#444"
SPAN_STYLE = "white-space:pre-wrap; padding:1px 0; border-radius:3px; background:{color}"
PARTIAL_STYLE = "; outline:1px dashed #666"
EMPTY_STYLE = "white-space:pre-wrap; padding:1px 0; color:#999; outline:1px dashed #666"


def _span_html(i, idx, piece, raw):
    title = f"id {idx}: {raw!r}"
    if not piece:
        return f'<span style="{EMPTY_STYLE}" title="{html.escape(title)} (part of a character)">�</span>'
    shown = "".join(VISIBLE.get(ch, ch) for ch in piece)
    style = SPAN_STYLE.format(color=PALETTE[i % len(PALETTE)]) + ("" if _is_whole(raw) else PARTIAL_STYLE)
    return f'<span style="{style}" title="{html.escape(title)}">{html.escape(shown)}</span>'


def render_html(text, tokenizers=DEFAULT_TOKENIZERS, *, allowed_special=frozenset()):
    """The HTML show_tokens displays, as a string: one row per tokenizer (label, count, spans)."""
    rows = []
    for label, spec in _label_and_spec(tokenizers):
        spans = _spans(text, spec, allowed_special)
        pieces = "".join(_span_html(i, *span) for i, span in enumerate(spans))
        head = f"{html.escape(str(label))}: {len(spans)} token{'s' if len(spans) != 1 else ''}"
        rows.append(f'<div style="{ROW_STYLE}"><span style="{LABEL_STYLE}">{head}</span> {pieces}</div>')
    return "<div>\n" + "\n".join(rows) + "\n</div>"


def show_tokens(text, tokenizers=DEFAULT_TOKENIZERS, *, allowed_special=frozenset()):
    """Display the text as coloured tokens, one row per tokenizer (hover a token for its id).

    Special-token text is ordinary text unless allowed_special says otherwise.
    """
    from IPython.display import HTML, display

    display(HTML(render_html(text, tokenizers, allowed_special=allowed_special)))


# ---------------------------------------------------------------------------- counts

def compare_token_counts(texts, tokenizers=DEFAULT_TOKENIZERS, *, title="Tokens per text"):
    """Bar chart of token counts, grouped by text; returns {tokenizer label: {text label: count}}.

    Label the texts in Latin script (e.g. "Korean", not "한국어"): matplotlib's default font
    has no CJK or Hangul glyphs. End the cell with plt.show().
    """
    import matplotlib.pyplot as plt

    labelled = _label_and_spec(tokenizers)
    counts = {}
    for label, spec in labelled:
        encode, _ = _resolve(spec)
        counts[label] = {name: len(encode(text)) for name, text in texts.items()}
    names = list(texts)
    width = 0.8 / len(labelled)
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(names) + 2), 4))
    for k, (label, _) in enumerate(labelled):
        xs = [i + (k - (len(labelled) - 1) / 2) * width for i in range(len(names))]
        bars = ax.bar(xs, [counts[label][n] for n in names], width, label=str(label),
                      color=PALETTE[(2 * k) % len(PALETTE)], edgecolor="#555")
        ax.bar_label(bars, fontsize=8)
    ax.set_xticks(range(len(names)), names)
    ax.set_ylabel("tokens")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    return counts
