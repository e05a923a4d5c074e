"""Values as a learner should read them in a report: short, and showing the part that matters.

A split pattern of the course is shown by its name; a vocab or a tiktoken rank table by what it
adds to the 256 single bytes (the multi-byte tokens are what the merges come from); a long
dict by its first items. A learner's value can be anything the wire carries (48 MB of list, an
int of 100,000 digits, lists 50 deep): it is measured before repr() is asked for all of it.
"""

from .exercises.common import PATTERN_NAMES

LIMIT = 160  # characters of one shown value
MAX_ITEMS = 10_000  # items looked at before a value is shown in part
MAX_DEPTH = 20  # containers inside containers shown before "..."


def show(value, limit=LIMIT):
    """A short, readable repr of one value."""
    if isinstance(value, str) and value in PATTERN_NAMES:
        return PATTERN_NAMES[value]
    if isinstance(value, dict) and 6 < len(value) <= MAX_ITEMS:
        return _show_dict(value, limit)
    text = repr(value) if _small(value) else brief(value, limit + 1)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _small(value):
    """Whether repr(value) is cheap and safe: few items, shallow, no huge int or string."""
    seen, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > MAX_ITEMS or depth > MAX_DEPTH:
            return False
        if isinstance(item, (str, bytes)) and len(item) > MAX_ITEMS:
            return False
        if isinstance(item, int) and item.bit_length() > 10_000:  # repr refuses past 4,300 digits
            return False
        if isinstance(item, dict):
            stack += [(part, depth + 1) for pair in item.items() for part in pair]
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack += [(part, depth + 1) for part in item]
    return True


def brief(value, budget, depth=0):
    """The start of repr(value), about `budget` characters, looking at no more of it than needed."""
    if depth > MAX_DEPTH:
        return "..."
    if isinstance(value, (str, bytes)):
        return repr(value[:budget])
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 10_000:
        return f"<an int of {value.bit_length():,} bits>"
    if isinstance(value, dict):
        return _brief_items(value.items(), "{}", budget, depth, pairs=True)
    if isinstance(value, (list, tuple, set, frozenset)):
        return _brief_items(value, {list: "[]", tuple: "()"}.get(type(value), "{}"), budget, depth)
    return repr(value)[:budget]


def _brief_items(items, brackets, budget, depth, pairs=False):
    parts, used = [], 1
    for item in items:
        if used > budget:
            parts.append("...")
            break
        left = budget - used
        part = (f"{brief(item[0], left, depth + 1)}: {brief(item[1], left, depth + 1)}" if pairs
                else brief(item, left, depth + 1))
        parts.append(part)
        used += len(part) + 2
    return brackets[0] + ", ".join(parts) + brackets[1]


def safe_repr(value, limit=LIMIT):
    """repr(value) when that is cheap, else its start (about `limit` characters)."""
    return repr(value) if _small(value) else brief(value, limit)


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
        piece = f"{safe_repr(key, limit)}: {safe_repr(value, limit)}"
        if shown and len(", ".join(shown + [piece])) > limit:
            break
        shown.append(piece)
    more = len(items) - len(shown)
    return "{" + ", ".join(shown) + (f", ... {len(items)} items" if more else "") + "}"


def times(count):
    """'once', 'twice', '3 times': how often a pair occurs, in words."""
    return {1: "once", 2: "twice"}.get(count, f"{count} times")
