"""Tagged JSON for values crossing the sandbox boundary: bytes, tuples, int-keyed dicts survive.

Nothing from learner code is ever unpickled: the worker sends plain JSON, the grader rebuilds
plain Python values from it. This module imports only the standard library (the worker uses it).
"""

import json
from collections.abc import Mapping

MAX_DEPTH = 50


class Opaque:
    """A value the wire cannot carry (an object of the learner's own type): never equal to anything."""

    def __init__(self, type_name, text):
        self.type_name, self.text = type_name, text

    def __eq__(self, other):
        return False

    __hash__ = object.__hash__

    def __repr__(self):
        return f"<{self.type_name}: {self.text}>"


def to_wire(value, depth=0):
    """A JSON-ready form of `value`, tagging what JSON would lose."""
    if depth > MAX_DEPTH:
        return {"$r": "...nested too deep...", "$type": type(value).__name__}
    if value is None or type(value) in (bool, str, float):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, (bytes, bytearray)):
        return {"$b": bytes(value).hex()}
    if isinstance(value, tuple):
        return {"$t": [to_wire(v, depth + 1) for v in value]}
    if isinstance(value, list):
        return [to_wire(v, depth + 1) for v in value]
    if isinstance(value, Mapping):
        return {"$d": [[to_wire(k, depth + 1), to_wire(v, depth + 1)] for k, v in value.items()]}
    if type(value) is set:  # a plain set stays one (a method may refuse a frozenset)
        return {"$S": [to_wire(v, depth + 1) for v in value]}
    if isinstance(value, (set, frozenset)):
        return {"$s": [to_wire(v, depth + 1) for v in value]}
    if type(value).__name__ in ("int64", "int32", "uint8") and hasattr(value, "__index__"):
        return int(value.__index__())
    return {"$r": repr(value)[:200], "$type": type(value).__name__}


def from_wire(data, depth=0):
    """Plain Python values back from to_wire's form. Read by the parent from a reply it cannot
    trust: deeper than to_wire ever nests, or not of to_wire's form, is a ValueError."""
    if depth > MAX_DEPTH + 1:
        raise ValueError("a value nested deeper than the wire carries")
    if isinstance(data, list):
        return [from_wire(v, depth + 1) for v in data]
    if not isinstance(data, dict) or not any(isinstance(k, str) and k.startswith("$") for k in data):
        return data  # a plain value, or a plain dict of them (a request's fields)
    if len(data) != 1 and set(data) != {"$r", "$type"}:
        raise ValueError("a tagged value of unknown form")
    if "$b" in data:
        return bytes.fromhex(data["$b"])
    if "$t" in data:
        return tuple(from_wire(v, depth + 1) for v in _items(data["$t"]))
    if "$s" in data:
        return frozenset(_hashable(from_wire(v, depth + 1)) for v in _items(data["$s"]))
    if "$S" in data:
        return {_hashable(from_wire(v, depth + 1)) for v in _items(data["$S"])}
    if "$d" in data:
        return {_hashable(from_wire(k, depth + 1)): from_wire(v, depth + 1) for k, v in _pairs(data["$d"])}
    if "$r" in data:
        return Opaque(str(data.get("$type"))[:200], str(data["$r"])[:200])
    raise ValueError("a tagged value of unknown form")


def _items(data):
    if not isinstance(data, list):
        raise ValueError("a tagged value of unknown form")
    return data


def _pairs(data):
    if not all(isinstance(pair, list) and len(pair) == 2 for pair in _items(data)):
        raise ValueError("a dict's items are not pairs")
    return data


def _hashable(key):
    try:
        hash(key)
        return key
    except TypeError:
        return Opaque(type(key).__name__, repr(key)[:200])


def dumps(message):
    return json.dumps(message, ensure_ascii=True, separators=(",", ":"))
