"""How a class takes its special tokens, told by what it does with them.

A minbpe follower may write two register methods: register_special_tokens({token: id}), minbpe's,
and a helper beside it that takes a set and numbers the tokens itself (register_special_tokens_set).
Others take the tokens in the constructor (Cls(special_tokens=[...])), as a list, or one token a
call. The course's cases give the ids, so {token: id} is tried first: each way is called once on a
fresh object with a token and an id no numbering would give, and the object's attributes are read
back. A class that numbers its tokens itself is graded on its own numbering (numbered_specials).
"""

from dataclasses import dataclass

from .shapes import object_call, wired

PROBE_TOKEN, PROBE_ID = "<|probe|>", 1000  # an id far from len(vocab) or 256 + len(merges)
FORMS = ("dict", "list", "each")  # {token: id}; [token, ...] it numbers itself; one token a call


@dataclass(frozen=True)
class Registration:
    """Special tokens handed to a method (or, `in_init`, a constructor parameter) named `name`, in
    one of FORMS."""

    name: str
    form: str
    in_init: bool = False

    def request(self, special_tokens):
        """object_call's arguments that hand over `special_tokens` ({token: id}) this way."""
        given = {"dict": dict(special_tokens), "list": list(special_tokens)}.get(self.form)
        if self.in_init:
            return {"init_kw": wired({self.name: given})}
        if self.form == "each":
            return {"steps": [[self.name, wired([token])] for token in special_tokens]}
        return {"steps": [[self.name, wired([given])]]}

    def words(self):
        """How the special tokens go in, in words."""
        given = {"dict": "special_tokens", "list": "list(special_tokens)", "each": "token"}[self.form]
        made = f"made with {self.name}={given}" if self.in_init else f".{self.name}({given})"
        return made + (" for each token" if self.form == "each" else "") + (
            " (it numbers them itself: the ids expected are its own, read back from the object)"
            if self.numbers else "")

    @property
    def numbers(self):
        return self.form != "dict"


def keeps_given_ids(attributes):
    """Whether an object's attributes hold PROBE_TOKEN under PROBE_ID, either way round, as text or bytes."""
    wanted = {(PROBE_TOKEN, PROBE_ID), (PROBE_TOKEN.encode("utf-8"), PROBE_ID)}
    for value in (attributes or {}).values():
        if isinstance(value, dict) and any((k, v) in wanted or (v, k) in wanted for k, v in value.items()
                                           if isinstance(k, (str, bytes, int)) and isinstance(v, (str, bytes, int))):
            return True
    return False


def learner_ids(attributes, tokens):
    """{token: id} as an object's attributes number `tokens`: the first dict that holds every one of
    them (as text or bytes) under an int, either way round; None when none does."""
    for value in (attributes or {}).values():
        if not isinstance(value, dict):
            continue
        ids = {}
        for k, v in value.items():
            token, i = (k, v) if isinstance(v, int) else (v, k)
            token = token.decode("utf-8", "replace") if isinstance(token, bytes) else token
            if type(i) is int and isinstance(token, str) and token in tokens:
                ids.setdefault(token, i)
        if tokens and set(ids) == set(tokens):
            return {token: ids[token] for token in tokens}
    return None


def chosen(registers, keeps):
    """The register method (name, params) that keeps the ids given, else the first; `keeps(name)`."""
    if len(registers) < 2:
        return registers[0] if registers else None
    return next((r for r in registers if keeps(r[0])), registers[0])


def register_finder(sandbox, deadline):
    """keeps(cls, method, init, form="dict", in_init=False) -> bool: whether cls(*init).method(...)
    handed PROBE_TOKEN in `form` keeps PROBE_ID ("dict") or numbers it itself (the other forms)."""
    def keeps(cls, method, init=(), form="dict", in_init=False):
        way = Registration(method, form, in_init)
        reply = object_call(sandbox, cls, deadline, init=wired(list(init)), read="*",
                            **way.request({PROBE_TOKEN: PROBE_ID}))
        if reply.kind != "ok" or not isinstance(reply.value, dict):
            return False
        return keeps_given_ids(reply.value) if form == "dict" else learner_ids(reply.value, [PROBE_TOKEN]) is not None
    return keeps


def registration(keeps, cls, name, init=(), in_init=False, forms=FORMS):
    """The Registration by which `cls` takes special tokens through `name`, the first of `forms` it
    answers to; None when it answers to none."""
    form = next((f for f in forms if keeps(cls, name, init, f, in_init)), None)
    return Registration(name, form, in_init) if form else None
