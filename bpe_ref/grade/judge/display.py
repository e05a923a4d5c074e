"""Values as a learner should read them in a report: short, and showing the part that matters.

A split pattern of the course is shown by its name; a vocab or a tiktoken rank table by what it
adds to the 256 single bytes (the multi-byte tokens are what the merges come from); a long
dict by its first items.
"""

from .exercises.common import PATTERN_NAMES

LIMIT = 160  # characters of one shown value


def show(value, limit=LIMIT):
    """A short, readable repr of one value."""
    if isinstance(value, str) and value in PATTERN_NAMES:
        return PATTERN_NAMES[value]
    if isinstance(value, dict) and len(value) > 6:
        return _show_dict(value, limit)
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def call_text(name, args, limit=LIMIT):
    return f"{name}({', '.join(show(a, limit) for a in args)})"


def _show_dict(value, limit):
    single = [k for k, v in value.items() if _is_single_byte_entry(k, v)]
    if len(single) == 256:
        rest = {k: v for k, v in value.items() if not _is_single_byte_entry(k, v)}
        if all(isinstance(k, int) for k in value):
            return f"vocab(256 bytes + {_items(rest, limit)})" if rest else "vocab(256 bytes)"
        order = "in byte order" if all(value[bytes([b])] == b for b in range(256)) else "shuffled"
        return f"ranks(256 single bytes {order}" + (f"; {_items(rest, limit)[1:-1]})" if rest else ")")
    return _items(value, limit, head=4)


def _is_single_byte_entry(key, value):
    if isinstance(key, int) and not isinstance(key, bool):
        return 0 <= key < 256 and value == bytes([key])
    return isinstance(key, bytes) and len(key) == 1 and isinstance(value, int)


def _items(mapping, limit, head=None):
    """'{k: v, k: v, ... N items}', with as many items as fit in `limit` (or `head` of them)."""
    items = list(mapping.items())
    shown = []
    for key, value in items[: head or len(items)]:
        piece = f"{key!r}: {value!r}"
        if shown and len(", ".join(shown + [piece])) > limit:
            break
        shown.append(piece)
    more = len(items) - len(shown)
    return "{" + ", ".join(shown) + (f", ... {len(items)} items" if more else "") + "}"
