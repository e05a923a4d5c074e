"""Which of a class's register methods keeps the ids its caller gives, told by what each does.

A minbpe follower may write two: register_special_tokens({token: id}), minbpe's, and a helper
beside it that takes a set and numbers the tokens itself (register_special_tokens_set). The
course's special-token cases give the ids, so the method graded is the one that keeps them: each
is called once on a fresh object with a token and an id no numbering would give, and the object's
attributes are read back.
"""

from .shapes import object_call, wired

PROBE_TOKEN, PROBE_ID = "<|probe|>", 1000  # an id far from len(vocab) or 256 + len(merges)


def keeps_given_ids(attributes):
    """Whether an object's attributes hold PROBE_TOKEN under PROBE_ID, either way round, as text or bytes."""
    wanted = {(PROBE_TOKEN, PROBE_ID), (PROBE_TOKEN.encode("utf-8"), PROBE_ID)}
    for value in (attributes or {}).values():
        if isinstance(value, dict) and any((k, v) in wanted or (v, k) in wanted for k, v in value.items()
                                           if isinstance(k, (str, bytes, int)) and isinstance(v, (str, bytes, int))):
            return True
    return False


def chosen(registers, keeps):
    """The register method (name, params) that keeps the ids given, else the first; `keeps(name)`."""
    if len(registers) < 2:
        return registers[0] if registers else None
    return next((r for r in registers if keeps(r[0])), registers[0])


def register_finder(sandbox, deadline):
    """keeps(cls, method, init) -> bool: whether cls(*init).method({PROBE_TOKEN: PROBE_ID}) keeps the id."""
    def keeps(cls, method, init=()):
        reply = object_call(sandbox, cls, deadline, init=wired(list(init)),
                            call=[method, wired([{PROBE_TOKEN: PROBE_ID}])], read="*")
        return reply.kind == "ok" and isinstance(reply.value, dict) and keeps_given_ids(reply.value)
    return keeps
