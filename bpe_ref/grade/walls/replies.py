"""What the parent accepts from a worker. The worker shares its process with the learner's code,
so a reply is data of unknown origin: it is read only after it is checked here, and anything
that does not fit its schema is `malformed`, which the engine grades as `error: could not be
graded (grader-side: ...)`, never as a pass.

The fields the parent reads, and what it trusts each for:
- `ok`: the value the learner's code returned. Judged by the parent against the reference's own
  answer; a forged value must still be right for inputs the learner never saw.
- `raised` {type, message, kinds, where, line, origin, signature}: shown to the learner and used
  for a hint; it can only turn a verdict into an error.
- not_implemented, reference, missing, timeout, exit, memory: terminal kinds; none is a pass.
- `printed` (characters a call printed): shown in a note only.
- `mutated`, `shortcuts`: can only take points away (a learner gains nothing by reporting them);
  their absence is trusted only because code that reaches into the grader earns nothing
  (reading/reaching.py).
- `step`: which step of a class's calls failed, for the message.
- `lookups`: a trainer's pair lookups, counted inside; read only for a learner's own file graded
  outside the walls. In the walls the parent estimates the work from the CPU time it sees.
- load messages {cell, status, ...} and {loaded, defined}: which names exist, to know what to
  call; a forged list can only make the grader call something that is not there.
Sizes: strings are cut, lists and dicts counted, and a reply line has a byte limit (sandbox.py).
"""

from ..inside import wire

KINDS = ("raised", "not_implemented", "reference", "missing", "timeout", "exit", "memory")
CELL_STATUSES = ("started", "skipped", "ok", "error", "syntax", "timeout", "reference", "exit",
                 "not_implemented", "memory", "crashed")
TEXT = 300  # characters kept of any string field
NAMES = 2_000  # entries kept in `defined`, methods of a class, ...


class Malformed(ValueError):
    """A reply that does not fit its schema (the message says which field)."""


def text(value, field, optional=True):
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise Malformed(f"{field} is a {type(value).__name__}, not text")
    return value[:TEXT]


def count(value, field, optional=True):
    if value is None and optional:
        return 0
    if type(value) is not int or value < 0:
        raise Malformed(f"{field} is not a count")
    return value


def texts(value, field, limit=NAMES):
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > limit:
        raise Malformed(f"{field} is not a short list")
    return [text(v, field, optional=False) for v in value]


def raised(info):
    if not isinstance(info, dict):
        raise Malformed("raised is not a record")
    return {"type": text(info.get("type"), "raised.type", optional=False) or "Exception",
            "message": text(info.get("message"), "raised.message") or "",
            "kinds": texts(info.get("kinds"), "raised.kinds", 64) or ["Exception"],
            "where": text(info.get("where"), "raised.where"), "line": text(info.get("line"), "raised.line"),
            "origin": text(info.get("origin"), "raised.origin"),
            "signature": text(info.get("signature"), "raised.signature"),
            "in_method": info.get("in_method") is True}


def outcome(message):
    """A call's reply, checked: exactly one kind, each field of its type. Raises Malformed."""
    if not isinstance(message, dict):
        raise Malformed("the reply is not a record")
    kinds = [k for k in ("ok", *KINDS) if k in message]
    if len(kinds) != 1:
        raise Malformed(f"the reply has {len(kinds)} kinds")
    kind = kinds[0]
    out = {"printed": count(message.get("printed"), "printed")}
    if kind == "ok":
        try:
            out["ok"] = wire.from_wire(message["ok"])
        except (ValueError, TypeError, RecursionError) as e:
            raise Malformed(f"its value is not of the wire's form ({e})") from None
    elif kind == "raised":
        out["raised"] = raised(message["raised"])
    elif kind in ("timeout", "memory", "missing"):
        out[kind] = True
    else:
        out[kind] = text(message[kind], kind, optional=True) or ""
    if "mutated" in message:
        if type(message["mutated"]) is not bool:
            raise Malformed("mutated is not true or false")
        out["mutated"] = message["mutated"]
    if "shortcuts" in message:
        out["shortcuts"] = texts(message["shortcuts"], "shortcuts", 20)
    if "lookups" in message:  # measure's own count: used only outside the walls (Sandbox.measure)
        out["lookups"] = count(message["lookups"], "lookups")
    if "step" in message:
        out["step"] = text(message["step"], "step")
    return out


def shortcuts(value):
    """by_hand's answer (an ok reply's value, already checked by outcome): a short list of what
    the function uses that the rule refuses."""
    if not isinstance(value, list) or len(value) > 20 or not all(isinstance(v, str) for v in value):
        raise Malformed("by_hand's answer is not a short list of text")
    return [v[:TEXT] for v in value]


def cell_report(message, cells):
    """A load message about one cell, checked: (index, report). Raises Malformed."""
    if not isinstance(message, dict):
        raise Malformed("a load message is not a record")
    index = message.get("cell")
    if type(index) is not int or not 0 <= index < cells:
        raise Malformed("a load message names no cell of the submission")
    status = message.get("status")
    if status not in CELL_STATUSES:
        raise Malformed("a cell's status is unknown")
    report = {"status": status, "printed": count(message.get("printed"), "printed")}
    if status == "error":
        report.update(raised(message))
    for field in ("message", "text", "what", "where", "type"):
        if field in message:
            report[field] = text(message[field], field)
    if "line" in message:
        line = message["line"]
        report["line"] = line if type(line) is int else text(line, "line")
    if "defined_after" in message:  # functions made after the cell raised (worker.define_the_rest)
        after = message["defined_after"]
        if not isinstance(after, list) or len(after) > NAMES:
            raise Malformed("defined_after is not a short list of names")
        report["defined_after"] = [text(name, "a defined name", optional=False) for name in after]
    return index, report


def defined(message):
    """The load's last message {loaded, defined}: what the submission defines, checked."""
    names = message.get("defined")
    if not isinstance(names, dict) or len(names) > NAMES:
        raise Malformed("defined is not a record of names")
    return {text(name, "a defined name", optional=False): definition(info) for name, info in names.items()}


def definition(info):
    if not isinstance(info, dict) or info.get("kind") not in ("callable", "value", "reference"):
        raise Malformed("a definition's kind is unknown")
    out = {"kind": info["kind"]}
    for field in ("params", "init_required"):
        if field in info:
            value = info[field]
            if value is not None and (type(value) is not int or value < 0):
                raise Malformed(f"{field} is not a count")
            out[field] = value
    for field in ("type", "what"):
        if field in info:
            out[field] = text(info[field], field)
    if "names" in info:
        out["names"] = texts(info["names"], "names", 256)
    # inherited: methods from a base class; bases: the learner's, nearest first; special_readers: methods that
    # read a name saying 'special' (only ever narrows what is graded); word_tables: module-level names a
    # function reads as its word counts (only ever set before a call to it, with the grader's own values)
    for field in ("stubs", "inherited", "bases", "special_readers", "word_tables"):
        if field in info:
            out[field] = texts(info[field], field, 256)
    for field in ("methods", "statics", "classmethods"):  # statics: a class's static methods, probed like functions
        if field in info:
            methods = info[field]
            if not isinstance(methods, dict) or len(methods) > 256:
                raise Malformed(f"{field} is not a record")
            out[field] = {text(k, "a method", optional=False): texts(v, "a method's parameters", 256)
                          for k, v in methods.items()}
    if "own" in info:  # whether a function is the learner's own (not imported): only ever narrows the probing
        if type(info["own"]) is not bool:
            raise Malformed("own is not a truth value")
        out["own"] = info["own"]
    return out
