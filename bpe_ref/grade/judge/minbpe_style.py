"""minbpe's layout, graded as written: Cls() or Cls(pattern); train(text, vocab_size) fills an
attribute with the merges dict; encode/decode read `merges` and `vocab`; register_special_tokens.
The course's arguments go in as attributes of a fresh object; the answers come back as they are.
"""

from .built_in_split import NO_SPLIT
from .diagnosis import is_pair_dict, not_byte_level
from .exercises.w06_encoding import ranked_vocab
from .shapes import Mapping, object_call, wired
from .variants import merges_from_vocab
from ...core.patterns import GPT2_SPLIT_PATTERN

TRAIN_PROBE = ("aaabdaaabac", 259)  # one training, to see which attributes hold the merges and vocab


def minbpe_class(cls, roles, init, probe, regex_style, extra=(), sized=False, split=None):
    """minbpe's layout: Cls() or Cls(pattern) (`regex_style`, read from the constructor's
    parameters); train(text, vocab_size) fills self.merges; encode/decode read self.merges and
    self.vocab; register_special_tokens({token: id}). `extra`: further encoders (encode_normal).
    `sized`: Cls(vocab_size), whose train(text) takes the size from the constructor. `split`: a
    built_in_split finder, which tells whether a class of no pattern parameter splits all the same."""
    attrs = {"merges": "merges", "vocab": "vocab"}
    mappings = []
    train_mapping = None
    if "train" in roles:
        method = roles["train"][0]
        init_args = [GPT2_SPLIT_PATTERN] if regex_style else []
        if sized:
            init_args = [TRAIN_PROBE[1]]
        sized_kw = {"sized": True} if sized else {}
        seen = probe(cls, init_args, method, **sized_kw)
        returns = False  # train returns the merges instead of keeping them: graded on what it returns
        if isinstance(seen, dict):
            not_bytes = not_byte_level(seen)
            if not_bytes:
                return [Mapping(f"{cls}.{method}", "not_byte_level", not_bytes, None)]
            returns = not any(is_pair_dict(v) for v in seen.values()) \
                and is_pair_dict(probe(cls, init_args, method, returned=True, **sized_kw))
            if not returns and not any(is_pair_dict(v) for v in seen.values()) \
                    and not {"encode", "decode"} <= set(roles):
                return []  # trains something, but not pairs of ids: not a tokenizer
            attrs["merges"] = next((k for k, v in seen.items() if is_pair_dict(v)), "merges")
            attrs["vocab"] = next((k for k, v in seen.items() if _bytes_dict(v)), "vocab")
        train_mapping = (method, returns)
    built_in, told = NO_SPLIT, ""  # a split the class has built in, though its constructor takes no pattern
    ordinary = roles.get("encode_ordinary") or roles.get("encode")
    if split is not None and not regex_style:
        built_in, told = split(cls, train_mapping and train_mapping[0], ordinary and ordinary[0],
                               {**attrs, "returns": bool(train_mapping and train_mapping[1])}, sized=sized)
        told = f" ({told})" if built_in else ""
    splits = regex_style or bool(built_in)
    if train_mapping:
        method, returns = train_mapping
        exercise = "train_regex" if splits else "train"
        then = "what it returns" if returns else f".{attrs['merges']}"
        how = (f"{cls}(pattern).{method}(text, vocab_size), then {then}" if regex_style
               else f"{cls}(vocab_size).{method}(text), then {then}" if sized
               else f"{cls}().{method}(text, vocab_size), then {then}")
        mappings.append(Mapping(f"{cls}.{method}", exercise, how + told,
                                minbpe_train(cls, method, regex_style, attrs, returns, sized),
                                pattern=built_in or None))
    if "decode" in roles:
        method = roles["decode"][0]
        mappings.append(Mapping(f"{cls}.{method}", "decode", f".{attrs['vocab']} = vocab, then .{method}(ids)",
                                minbpe_decode(cls, method, regex_style, attrs, sized)))
    if ordinary:
        exercise = "encode_ordinary" if splits else "encode"
        mappings.append(Mapping(f"{cls}.{ordinary[0]}", exercise,
                                f".{attrs['merges']} = merges, then .{ordinary[0]}(text)" + told,
                                minbpe_encode(cls, ordinary[0], regex_style, attrs, sized), pattern=built_in or None))
    for method, _ in extra:  # a chunk's encoder (encode_chunk) is the plain encode on its one chunk
        one_chunk = any(w in method.lower() for w in ("chunk", "piece", "bytes", "word"))
        exercise = "encode_ordinary" if splits and not one_chunk else "encode"
        mappings.append(Mapping(f"{cls}.{method}", exercise, f".{attrs['merges']} = merges, then .{method}(text)",
                                minbpe_encode(cls, method, regex_style, attrs, sized), helper=True,
                                pattern=(built_in or None) if exercise == "encode_ordinary" else None))
    if splits and "encode" in roles and takes_allowed(roles["encode"][1]) and "register" in roles:
        method, register = roles["encode"][0], roles["register"][0]
        mappings.append(Mapping(f"{cls}.{method}", "encode_special",
                                f".{register}(special_tokens), then .{method}(text, allowed_special)" + told,
                                minbpe_special(cls, method, register, attrs, regex_style), asserts=True,
                                pattern=built_in or None))
    return mappings


FLAG_WORDS = ("verbose", "debug", "show", "print", "log", "progress")  # a switch, never allowed_special


def takes_allowed(params):
    """Whether an encode's second parameter can be allowed_special: encode(text, verbose=False) takes none."""
    return len(params) >= 2 and not any(w in params[1].lower() for w in FLAG_WORDS)


def _bytes_dict(value):
    return isinstance(value, dict) and value and all(isinstance(v, bytes) for v in value.values())


def minbpe_train(cls, method, regex_style, attrs, returns=False, sized=False):
    def call(sandbox, args, deadline, rule):
        text, vocab_size, *rest = args
        read = {} if returns else {"read": "*"}
        init, given = (rest if regex_style else []), [text, vocab_size]
        if sized:
            init, given = [vocab_size], [text]
        reply = object_call(sandbox, cls, deadline, rule, init=wired(init), call=[method, wired(given)], **read)
        if reply.kind == "ok" and not returns:
            reply.value = (reply.value or {}).get(attrs["merges"]) if isinstance(reply.value, dict) else None
        return reply
    return call


def minbpe_decode(cls, method, regex_style, attrs, sized=False):
    def call(sandbox, args, deadline, rule):
        ids, vocab = args
        init = [len(vocab)] if sized else [GPT2_SPLIT_PATTERN] if regex_style else []
        return object_call(sandbox, cls, deadline, rule, init=wired(init),
                           set=wired({attrs["merges"]: merges_from_vocab(vocab) or {}, attrs["vocab"]: vocab}),
                           call=[method, wired([ids])])  # merges too: a decoder may check it was trained
    return call


def minbpe_encode(cls, method, regex_style, attrs, sized=False):
    def call(sandbox, args, deadline, rule):
        text, merges, *rest = args
        init = [256 + len(merges)] if sized else rest if regex_style else []
        return object_call(sandbox, cls, deadline, rule, init=wired(init),
                           set=wired({attrs["merges"]: merges, attrs["vocab"]: ranked_vocab(merges)}),
                           call=[method, wired([text])])
    return call


def minbpe_allowed(allowed):
    """The course's allowed_special in minbpe's words: frozenset() is minbpe's "none_raise"."""
    if isinstance(allowed, (set, frozenset)) and not allowed:
        return "none_raise"
    return allowed


def minbpe_special(cls, method, register, attrs, takes_pattern=True):
    def call(sandbox, args, deadline, rule):
        text, merges, pattern, special_tokens, allowed = args
        return object_call(sandbox, cls, deadline, rule, init=wired([pattern] if takes_pattern else []),
                           set=wired({attrs["merges"]: merges, attrs["vocab"]: ranked_vocab(merges)}),
                           steps=[[register, wired([special_tokens])]],
                           call=[method, wired([text, minbpe_allowed(allowed)])])
    return call


def probe_train(sandbox, deadline):
    """probe(cls, init, method): the attributes a minbpe-style class has after training once (or,
    with returned=True, what the training call returned)."""
    def probe(cls, init, method, returned=False, sized=False):
        read = {} if returned else {"read": "*"}
        given = [TRAIN_PROBE[0]] if sized else list(TRAIN_PROBE)
        reply = object_call(sandbox, cls, deadline, init=wired(init), call=[method, wired(given)], **read)
        return reply.value if reply.kind == "ok" else None
    return probe
