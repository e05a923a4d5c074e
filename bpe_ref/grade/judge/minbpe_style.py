"""minbpe's layout, graded as written: Cls() or Cls(pattern); train(text, vocab_size) fills an
attribute with the merges dict; encode/decode read `merges` and `vocab`; register_special_tokens.
The course's arguments go in as attributes of a fresh object; the answers come back as they are.
"""

from .diagnosis import is_pair_dict, not_byte_level
from .exercises.w06_encoding import ranked_vocab
from .shapes import Mapping, object_call, wired
from ...core.patterns import GPT2_SPLIT_PATTERN

TRAIN_PROBE = ("aaabdaaabac", 259)  # one training, to see which attributes hold the merges and vocab


def minbpe_class(cls, roles, init, probe):
    """minbpe's layout: Cls() or Cls(pattern); train(text, vocab_size) fills self.merges;
    encode/decode read self.merges and self.vocab; register_special_tokens({token: id})."""
    regex_style = bool(init)
    attrs = {"merges": "merges", "vocab": "vocab"}
    mappings = []
    if "train" in roles:
        method = roles["train"][0]
        seen = probe(cls, [GPT2_SPLIT_PATTERN] if regex_style else [], method)
        if isinstance(seen, dict):
            not_bytes = not_byte_level(seen)
            if not_bytes:
                return [Mapping(f"{cls}.{method}", "not_byte_level", not_bytes, None)]
            if not any(is_pair_dict(v) for v in seen.values()) and not {"encode", "decode"} <= set(roles):
                return []  # trains something, but not pairs of ids: not a tokenizer
            attrs["merges"] = next((k for k, v in seen.items() if is_pair_dict(v)), "merges")
            attrs["vocab"] = next((k for k, v in seen.items() if _bytes_dict(v)), "vocab")
        exercise = "train_regex" if regex_style else "train"
        how = (f"{cls}(pattern).{method}(text, vocab_size), then .{attrs['merges']}" if regex_style
               else f"{cls}().{method}(text, vocab_size), then .{attrs['merges']}")
        mappings.append(Mapping(f"{cls}.{method}", exercise, how, minbpe_train(cls, method, regex_style, attrs)))
    if "decode" in roles:
        method = roles["decode"][0]
        mappings.append(Mapping(f"{cls}.{method}", "decode", f".{attrs['vocab']} = vocab, then .{method}(ids)",
                                minbpe_decode(cls, method, regex_style, attrs)))
    ordinary = roles.get("encode_ordinary") or roles.get("encode")
    if ordinary:
        exercise = "encode_ordinary" if regex_style else "encode"
        mappings.append(Mapping(f"{cls}.{ordinary[0]}", exercise,
                                f".{attrs['merges']} = merges, then .{ordinary[0]}(text)",
                                minbpe_encode(cls, ordinary[0], regex_style, attrs)))
    if regex_style and "encode" in roles and len(roles["encode"][1]) >= 2 and "register" in roles:
        method, register = roles["encode"][0], roles["register"][0]
        mappings.append(Mapping(f"{cls}.{method}", "encode_special",
                                f".{register}(special_tokens), then .{method}(text, allowed_special)",
                                minbpe_special(cls, method, register, attrs), asserts=True))
    return mappings


def _bytes_dict(value):
    return isinstance(value, dict) and value and all(isinstance(v, bytes) for v in value.values())


def minbpe_train(cls, method, regex_style, attrs):
    def call(sandbox, args, deadline, rule):
        text, vocab_size, *rest = args
        reply = object_call(sandbox, cls, deadline, rule, init=wired(rest if regex_style else []),
                            call=[method, wired([text, vocab_size])], read="*")
        if reply.kind == "ok":
            reply.value = (reply.value or {}).get(attrs["merges"]) if isinstance(reply.value, dict) else None
        return reply
    return call


def minbpe_decode(cls, method, regex_style, attrs):
    def call(sandbox, args, deadline, rule):
        ids, vocab = args
        return object_call(sandbox, cls, deadline, rule, init=wired([GPT2_SPLIT_PATTERN] if regex_style else []),
                           set=wired({attrs["vocab"]: vocab}), call=[method, wired([ids])])
    return call


def minbpe_encode(cls, method, regex_style, attrs):
    def call(sandbox, args, deadline, rule):
        text, merges, *rest = args
        return object_call(sandbox, cls, deadline, rule, init=wired(rest if regex_style else []),
                           set=wired({attrs["merges"]: merges, attrs["vocab"]: ranked_vocab(merges)}),
                           call=[method, wired([text])])
    return call


def minbpe_allowed(allowed):
    """The course's allowed_special in minbpe's words: frozenset() is minbpe's "none_raise"."""
    if isinstance(allowed, (set, frozenset)) and not allowed:
        return "none_raise"
    return allowed


def minbpe_special(cls, method, register, attrs):
    def call(sandbox, args, deadline, rule):
        text, merges, pattern, special_tokens, allowed = args
        return object_call(sandbox, cls, deadline, rule, init=wired([pattern]),
                           set=wired({attrs["merges"]: merges, attrs["vocab"]: ranked_vocab(merges)}),
                           steps=[[register, wired([special_tokens])]],
                           call=[method, wired([text, minbpe_allowed(allowed)])])
    return call


def probe_train(sandbox, deadline):
    """probe(cls, init, method): the attributes a minbpe-style class has after training once."""
    def probe(cls, init, method):
        reply = object_call(sandbox, cls, deadline, init=wired(init), call=[method, wired(list(TRAIN_PROBE))], read="*")
        return reply.value if reply.kind == "ok" else None
    return probe
