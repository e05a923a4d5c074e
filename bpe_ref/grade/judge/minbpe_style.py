"""minbpe's layout, graded as written: Cls() or Cls(pattern); train(text, vocab_size) fills an
attribute with what it learned (any name; merges, their inverse or a list of pairs: trained_state);
encode/decode read that attribute and the vocab; register_special_tokens. The course's arguments go
in as attributes of a fresh object, in the shape train left them; the answers come back as they are.
"""

import dataclasses

import regex

from .built_in_split import IGNORED, NO_SPLIT
from .exercises.common import CHARACTERS_PATTERN, WHOLE_TEXT_PATTERN
from .diagnosis import is_pair_dict, not_byte_level
from .display import show
from .engine import GraderSide
from .exercises.w06_encoding import ranked_vocab
from .registering import Registration, learner_ids
from .shapes import Mapping, object_call, wired, without_constructor
from ..walls.sandbox import Reply
from .trained_state import (LOOKED_FOR, State, as_merges, described, find_state, shape_of, untrained_state,
                            values_for)
from .variants import merges_from_vocab
from ...core.patterns import GPT2_SPLIT_PATTERN

CHUNK_WORDS = ("chunk", "piece", "bytes", "word")  # an encoder of one piece of text, split by its caller
TRAIN_PROBE = ("aaabdaaabac", 259)  # one training, to see which attributes hold the merges and vocab


def minbpe_class(cls, roles, init, probe, regex_style, extra=(), sized=False, split=None, bare=False,
                 reads_specials=True):
    """minbpe's layout: Cls() or Cls(pattern) (`regex_style`, read from the constructor's
    parameters); train(text, vocab_size) fills self.merges; encode/decode read self.merges and
    self.vocab; register_special_tokens({token: id}). `extra`: further encoders (encode_normal).
    `sized`: Cls(vocab_size), whose train(text) takes the size from the constructor. `split`: a
    built_in_split finder, which tells whether a class of no pattern parameter splits all the same.
    `bare`: made without its constructor, which wants tables trained elsewhere (Tokenizer(merges_path),
    Tokenizer(merges, vocab)) or what it says (a str: the text to train on), and handed the course's
    tables under minbpe's names. `reads_specials`: whether its encode reads anything
    named for special tokens; a class of no split that does not has none (minbpe's BasicTokenizer)."""
    attrs, seen, returns = State(), None, False
    mappings = []
    trains = None
    init_args = [TRAIN_PROBE[1]] if sized else [GPT2_SPLIT_PATTERN] if regex_style else []  # to make one to probe
    if "train" in roles:
        method = roles["train"][0]
        sized_kw = {"sized": True} if sized else {}
        seen = probe(cls, init_args, method, **sized_kw)
        if sized and isinstance(seen, dict) and not learned(seen):  # train(texts): a list of texts?
            listed = probe(cls, init_args, method, listed=True, **sized_kw)
            if isinstance(listed, dict) and learned(listed):
                seen, sized_kw = listed, {**sized_kw, "listed": True}
        if isinstance(seen, dict):
            not_bytes = not_byte_level(seen)
            if not_bytes:
                return [Mapping(f"{cls}.{method}", "not_byte_level", not_bytes, None)]
            attrs = find_state(seen)
            kept = holds_merges(seen, attrs)
            # train returns the merges instead of keeping them: graded on what it returns
            returns = not kept and is_pair_dict(probe(cls, init_args, method, returned=True, **sized_kw))
            if not returns and not kept and not {"encode", "decode"} <= set(roles) \
                    and not unfinished_train(seen, attrs):
                return []  # trains something, but not pairs of ids: not a tokenizer
        trains = method
    if seen is None and not bare and ({"encode", "decode"} & set(roles)):  # no training ran: where would it keep them?
        fresh = probe(cls, init_args, None)
        attrs = untrained_state(fresh) if isinstance(fresh, dict) else attrs
    ordinary = roles.get("encode_ordinary") or roles.get("encode")
    built_in, told = NO_SPLIT, ""  # a split the class has built in: with no pattern parameter, or despite one
    if split is not None:  # a class that takes a pattern is handed one character a chunk: does it still split?
        built_in, told = split(cls, trains, ordinary and ordinary[0], trained_reader(attrs, returns),
                               lambda merges: values_for(attrs, merges, ranked_vocab(merges)), sized=sized,
                               returns=returns, pattern=CHARACTERS_PATTERN if regex_style else None, bare=bare)
        told = f" ({told})" if built_in or built_in is IGNORED else ""
    # IGNORED: Cls(pattern) that never splits (minbpe's BasicTokenizer with an unused pattern)
    splits, pattern = (regex_style and built_in is not IGNORED) or bool(built_in), built_in or None
    if trains:
        method = trains
        exercise = "train_regex" if splits else "train"
        then = "what it returns" if returns else f".{attrs.merges}" + SHAPE_WORDS[attrs.shape]
        how = (f"{cls}(pattern).{method}(text, vocab_size), then {then}" if regex_style
               else f"{cls}(vocab_size).{method}(text), then {then}" if sized
               else f"{cls}().{method}(text, vocab_size), then {then}")
        if sized_kw.get("listed"):
            how = how.replace(f".{method}(text)", f".{method}([text])")
        mappings.append(Mapping(f"{cls}.{method}", exercise, how + told,
                                minbpe_train(cls, method, regex_style, attrs, returns, sized, sized_kw.get("listed")),
                                pattern=pattern))
    if "decode" in roles:
        method = roles["decode"][0]
        mappings.append(Mapping(f"{cls}.{method}", "decode", f"{set_words(attrs, 'vocab')}, then .{method}(ids)",
                                minbpe_decode(cls, method, regex_style, attrs, sized, bare)))
    if ordinary:
        exercise = "encode_ordinary" if splits else "encode"
        mappings.append(Mapping(f"{cls}.{ordinary[0]}", exercise,
                                f"{set_words(attrs, 'merges')}, then .{ordinary[0]}(text)" + told,
                                minbpe_encode(cls, ordinary[0], regex_style, attrs, sized,
                                              allowing=takes_allowed(ordinary[1]), bare=bare), pattern=pattern,
                                refuses_specials=ordinary[0] == roles.get("encode", ("",))[0] and takes_allowed(ordinary[1])))
    for method, params in extra:  # a chunk's encoder (encode_chunk) is the plain encode on its one chunk
        one_chunk = any(w in method.lower() for w in CHUNK_WORDS)
        exercise = "encode_ordinary" if splits and not one_chunk else "encode"
        as_ids = one_chunk and takes_ids(params[0])
        given = "list(text.encode('utf-8'))" if as_ids else "text"
        mappings.append(Mapping(f"{cls}.{method}", exercise, f"{set_words(attrs, 'merges')}, then .{method}({given})",
                                minbpe_encode(cls, method, regex_style, attrs, sized, as_ids), helper=True,
                                pattern=pattern if exercise == "encode_ordinary" else None))
    if splits and "encode" in roles and "register" not in roles and takes_allowed(roles["encode"][1]) \
            and (held := special_attributes(seen)):  # an encode(text, allowed_special) whose tokens live in an attribute
        roles = {**roles, "register": (held, [])}
    basic = not splits and isinstance(seen, dict) and reads_specials  # no split, told by a training that ran
    if (splits or basic) and "encode" in roles and "register" in roles:
        whole = pattern if splits else WHOLE_TEXT_PATTERN  # no split: each piece between special tokens whole
        method, register = roles["encode"][0], roles["register"][0]
        numbering = own_numbering(cls, register, attrs, regex_style, sized) if getattr(register, "numbers", False) \
            else None
        if takes_allowed(roles["encode"][1]):
            # encode itself on ordinary text is graded under its own name, beside encode_ordinary too
            if ordinary_beside(roles) and splits:
                mappings.append(Mapping(f"{cls}.{method}", "encode_ordinary",
                                        f"{set_words(attrs, 'merges')}, then .{method}(text)" + told,
                                        minbpe_encode(cls, method, regex_style, attrs, sized, allowing=True),
                                        pattern=pattern, refuses_specials=True))
            mappings.append(Mapping(f"{cls}.{method}:special_tokens", "encode_special",
                                    f"{registering(register)}, then .{method}(text, allowed_special) "
                                    f"(.{method}(text) when nothing is allowed)" + told,
                                    minbpe_special(cls, method, register, attrs, regex_style, sized=sized),
                                    asserts=True, set_as_text=True, pattern=whole, numbering=numbering))
        elif not ordinary_beside(roles):  # encode(text) alone: every registered token is allowed, as in CS336
            mappings.append(Mapping(f"{cls}.{method}:special_tokens", "encode_special",
                                    f"{registering(register)}, then .{method}(text): it takes no "
                                    "allowed_special, so every registered special token is allowed" + told,
                                    minbpe_special(cls, method, register, attrs, regex_style, all_allowed=True,
                                                   sized=sized),
                                    only_all=True, pattern=whole, numbering=numbering))
    if built_in:  # the nearest candidate its answers tell: where close variants differ, not graded
        mappings = [dataclasses.replace(m, guessed=True) if m.pattern else m for m in mappings]
    if bare:
        wants = bare if isinstance(bare, str) else "tables trained elsewhere"
        mappings = [dataclasses.replace(m, how=f"{cls} made without its constructor, which wants {wants}; {m.how}")
                    for m in mappings]
    if isinstance(seen, dict) and not returns and (not attrs.found or attrs.opaque):
        return unreadable_state(mappings, seen, attrs)
    return mappings


def ordinary_beside(roles):
    """Whether the class encodes ordinary text in a method of its own beside encode (encode_ordinary)."""
    return "encode_ordinary" in roles and roles["encode_ordinary"][0] != roles["encode"][0]


FLAG_WORDS = ("verbose", "debug", "show", "print", "log", "progress")  # a switch, never allowed_special


def takes_allowed(params):
    """Whether an encode's second parameter can be allowed_special: encode(text, verbose=False) takes none."""
    return len(params) >= 2 and not any(w in params[1].lower() for w in FLAG_WORDS)


def trained_reader(attrs, returns):
    """merges(value): the course's merges from what one training call answered (its attributes,
    or what it returned), for built_in_split's probe."""
    def merges(value, text):
        if returns:
            return value
        kept = value.get(attrs.merges) if isinstance(value, dict) else None
        return as_merges(kept, attrs.shape, [text.encode("utf-8")])
    return merges


SHAPE_WORDS = {"merges": "", "inverse": " read as {id: pair}", "pairs": " read as pairs in merge order",
               "pair_ids": " read as (pair, id) in merge order", "ranks": " read as {pair: rank}, ids 256 + rank",
               "vocab": ", the merges that build that vocab"}


def set_words(attrs, which):
    """How the course's merges (or vocab) go in, in words: '.merges = merges', '._vocab = {id: pair}'."""
    if attrs.shape == "vocab" or (which == "vocab" and attrs.shape == "merges"):
        return f".{attrs.vocab} = vocab" + (" (the vocab the merges build)" if which == "merges" else "")
    shaped = {"merges": "merges", "inverse": "{id: pair} of the merges", "pairs": "the merges' pairs in order",
              "pair_ids": "the merges' (pair, id) in order", "ranks": "{pair: rank} of the merges"}
    words = ", ".join(f".{name} = {shaped[shape]}" for name, shape in ((attrs.merges, attrs.shape), *attrs.also))
    return words + (f", .{attrs.vocab} = vocab" if which == "vocab" and attrs.vocab != attrs.merges else "")


def unreadable_state(mappings, seen, attrs):
    """The mappings, where what reads merges the grader could not find says plainly why it could not
    be graded, and no cause is named. Nothing after training held merges or a vocab: train too.
    Only a vocab, beside other filled attributes of unknown shape (`opaque`): its encoders, which
    may read those; train is judged on the merges that build the vocab, decode on the vocab."""
    train = mappings[0].learner
    looked = (f"after {train}{TRAIN_PROBE!r} the grader looked for {LOOKED_FOR} and found {described(seen)}")
    out = [mappings[0]] if attrs.found else [dataclasses.replace(
        mappings[0], call=None, ungradable=f"could not be graded: {looked}: none of them holds the merges it learned")]
    where = (f"may read {', '.join(attrs.opaque)}, whose shape the grader does not know ({looked})"
             if attrs.found else f"reads what {train} learned, and the grader could not find where that is kept")
    for mapping in mappings[1:]:
        if mapping.exercise == "decode" and attrs.vocab in seen:
            out.append(mapping)
        elif mapping.learner not in {m.learner for m in out}:
            out.append(dataclasses.replace(mapping, call=None, ungradable=f"could not be graded: it {where}"))
    return out


def holds_merges(attributes, state):
    """Whether a trained object's attributes hold merges of a known shape where `state` says."""
    return state.found and state.merges in attributes and shape_of(attributes[state.merges]) is not None


def unfinished_train(seen, attrs):
    """Whether training left an empty `merges` where the class keeps them (minbpe's skeleton, its
    train never finished): a tokenizer's trainer that learns nothing, graded as one."""
    return attrs.merges == "merges" and isinstance(seen.get("merges"), (dict, list)) and not seen["merges"]


def learned(attributes):
    """Whether a trained object's attributes hold something learned: merges of some shape, or
    merges of strings (a word-level BPE, which not_byte_level names)."""
    return bool(not_byte_level(attributes)) or holds_merges(attributes, find_state(attributes))


def minbpe_train(cls, method, regex_style, attrs, returns=False, sized=False, listed=False):
    def call(sandbox, args, deadline, rule):
        text, vocab_size, *rest = args
        read = {} if returns else {"read": "*"}
        init, given = ((rest or [GPT2_SPLIT_PATTERN]) if regex_style else []), [text, vocab_size]
        if sized:  # `listed`: train(texts) takes a list of texts, handed the one
            init, given = [vocab_size], [[text] if listed else text]
        reply = object_call(sandbox, cls, deadline, rule, init=wired(init), call=[method, wired(given)], **read)
        if reply.kind == "ok" and not returns:
            if isinstance(reply.value, dict) and attrs.merges not in reply.value:  # fail closed: nothing to judge
                raise GraderSide(f"after {method}({show(text, 20)}, {vocab_size}) the object has no attribute "
                                 f".{attrs.merges}, where the grader reads what it learned; it holds "
                                 f"{described(reply.value)}")
            kept = reply.value.get(attrs.merges) if isinstance(reply.value, dict) else None
            chunks = regex.findall(rest[0], text) if rest else [text]  # rest: the pattern, given or built in
            reply.value = as_merges(kept, attrs.shape, [c.encode("utf-8") for c in chunks])
        return reply
    return call


def minbpe_decode(cls, method, regex_style, attrs, sized=False, bare=False):
    def call(sandbox, args, deadline, rule):
        ids, vocab = args
        init = [len(vocab)] if sized else [GPT2_SPLIT_PATTERN] if regex_style else []
        return made_bare(bare, object_call(  # merges too: a decoder may check it was trained
            sandbox, cls, deadline, rule, init=wired(init), set=wired(values_for(attrs, decode_merges(vocab, attrs), vocab)),
            call=[method, wired([ids])], **without_constructor(bare)))
    return call


def made_bare(bare, reply):
    """`reply`, or, for an object made without its constructor, the grader's limit when the method
    read an attribute only the constructor would have set (not the merges or vocab it was handed)."""
    raised = reply.info.get("raised") or {} if reply.kind == "raised" else {}
    if bare and raised.get("type") == "AttributeError" and "has no attribute" in (raised.get("message") or ""):
        raise GraderSide(f"made without its constructor (which wants tables trained elsewhere), it read what only "
                         f"the constructor sets: {raised.get('message')}")
    return reply


def decode_merges(vocab, attrs):
    """The merges that build `vocab`, for a decoder that may read them. A decoder that reads only
    merges in another shape cannot be handed a vocab no merges build: that is the grader's limit."""
    merges = merges_from_vocab(vocab)
    if merges is None and attrs.shape != "merges":
        raise GraderSide(f"this vocab is not built by merges, and the decoder reads .{attrs.merges}, "
                         "its merges, not a vocab")
    return merges or {}


TEXT_WORDS = ("text", "str", "string", "sentence")  # a chunk encoder's parameter so named takes text, not its bytes


def takes_ids(param):
    """Whether a chunk encoder's parameter takes the chunk's bytes (minbpe's _encode_chunk(text_bytes)),
    handed to it as a list of ids, which any code over bytes also reads; `text` takes the text itself."""
    lowered = param.lower()
    return "byte" in lowered or not any(w in lowered for w in TEXT_WORDS)


def minbpe_encode(cls, method, regex_style, attrs, sized=False, as_ids=False, allowing=False, bare=False):
    """encode(text) on a fresh object holding the merges; `as_ids`: handed the text's bytes as ids.
    `allowing`: an encode(text, allowed_special) with no default is called with minbpe's "none_raise"."""
    def call(sandbox, args, deadline, rule):
        text, merges, *rest = args
        # a chunk's encoder is graded as the plain encode, given no pattern: its class gets one it never uses
        init = [256 + len(merges)] if sized else (rest or [GPT2_SPLIT_PATTERN]) if regex_style else []
        given = list(text.encode("utf-8")) if as_ids else text

        def encode(arguments):
            return made_bare(bare, object_call(sandbox, cls, deadline, rule, init=wired(init),
                                               set=wired(values_for(attrs, merges, ranked_vocab(merges))),
                                               call=[method, wired(arguments)], **without_constructor(bare)))
        reply = encode([given])
        return encode([given, "none_raise"]) if allowing and missing_argument(reply) else reply
    return call


def minbpe_allowed(allowed):
    """The course's allowed_special in minbpe's words: frozenset() is minbpe's "none_raise"."""
    if isinstance(allowed, (set, frozenset)) and not allowed:
        return "none_raise"
    return allowed


def special_setup(register, special_tokens, tables):
    """object_call's arguments that put the special tokens in, beside the tables: through a register
    method, the attributes that hold them (a tuple: the tokens, and their inverse), or a
    Registration (a constructor's parameter, a list it numbers itself, one token a call)."""
    if isinstance(register, Registration):
        return {"set": wired(tables), **register.request(special_tokens)}
    if isinstance(register, tuple):
        tables = {**tables, register[0]: dict(special_tokens)}
        if len(register) > 1:
            tables[register[1]] = {i: t for t, i in special_tokens.items()}
        return {"set": wired(tables)}
    return {"set": wired(tables), "steps": [[register, wired([special_tokens])]]}


def minbpe_special(cls, method, register, attrs, takes_pattern=True, all_allowed=False, sized=False):
    """encode(text, allowed_special) after register(special_tokens). Nothing allowed is the course's
    default, so then encode(text) is called with the learner's own default, which must refuse a
    special token in the text as tiktoken's does; an encode with no default gets "none_raise".
    `all_allowed`: an encode(text) that takes no allowed_special is always called so. A class that
    numbers its special tokens itself is handed them in its numbering (own_numbering), checked here."""
    def call(sandbox, args, deadline, rule):
        text, merges, pattern, special_tokens, allowed = args
        made = registered(register, attrs, args, takes_pattern, sized)
        if getattr(register, "numbers", False) and special_tokens:  # its ids read again: the same as in args?
            wrong = misnumbered(object_call(sandbox, cls, deadline, read="*", **made), special_tokens, merges)
            if wrong is not None:
                return wrong

        def encode(given):
            return object_call(sandbox, cls, deadline, rule, **made, call=[method, wired(given)])
        if all_allowed:
            return encode([text])
        if isinstance(allowed, (set, frozenset)) and not allowed:
            reply = encode([text])
            if not missing_argument(reply):
                return reply
        return encode([text, minbpe_allowed(allowed)])
    return call


def registered(register, attrs, args, takes_pattern, sized):
    """object_call's arguments that make an object holding the tables and special tokens of
    encode_special's `args`: the constructor's (the pattern, the vocab size, or none), then
    special_setup's."""
    text, merges, pattern, special_tokens, allowed = args
    init = wired([256 + len(merges)] if sized else [pattern] if takes_pattern else [])
    return {"init": init, **special_setup(register, special_tokens, values_for(attrs, merges, ranked_vocab(merges)))}


def own_numbering(cls, register, attrs, takes_pattern=True, sized=False):
    """(sandbox, args, deadline) -> {token: id}: the ids a class that numbers its special tokens
    itself gives those of `args`, read back after registering them; None when it cannot tell."""
    def numbering(sandbox, args, deadline):
        special_tokens = args[3]
        if not special_tokens:
            return None
        reply = object_call(sandbox, cls, deadline, read="*", **registered(register, attrs, args, takes_pattern, sized))
        return learner_ids(reply.value, list(special_tokens)) if reply.kind == "ok" else None
    return numbering


def misnumbered(reply, special_tokens, merges):
    """Why a class's own numbering of `special_tokens` (the ids it was expected to give, read back in
    `reply`) cannot be graded, else None: it failed to register them, kept no ids the grader can read
    twice alike, or gave one an id a byte or a merge already has, which may come from a count of its
    own that the grader, setting the merges by hand, never moved."""
    if reply.kind != "ok":
        return reply
    ids = learner_ids(reply.value, list(special_tokens))
    if ids is None or ids != dict(special_tokens):
        return Reply("unread", info={"message": "after its special tokens were registered, no attribute of the "
                                                "object held the same ids for them each time"})
    taken = {i: f"the byte {i}" for i in range(256)} | {i: f"merge {pair}" for pair, i in merges.items()}
    given = list(ids.values())
    token, i = next(((t, i) for t, i in ids.items() if i < 0 or i in taken or given.count(i) > 1), (None, None))
    if token is None:
        return None
    clash = "below 0" if i < 0 else f"the same id as {taken.get(i) or 'another special token'}"
    return Reply("unread", info={"message": (
        f"your special token {token!r} got id {i}, {clash}. The grader sets the merges by hand, so a count "
        "of your own that training moves may not have moved; if not, number special tokens after every byte "
        "and merge (256 + len(merges) onward)")})


def registering(register):
    """How the special tokens go in, in words: '.register_special_tokens(special_tokens)' or
    '.special_tokens = special_tokens' (and its inverse), for attributes that hold them."""
    if isinstance(register, Registration):
        return register.words()
    if isinstance(register, tuple):
        return f".{register[0]} = special_tokens" + (f", .{register[1]} = their inverse" if len(register) > 1 else "")
    return f".{register}(special_tokens)"


def special_attributes(seen):
    """The attributes a trained object keeps its special tokens in when no method registers them
    (set in __init__, GPT-4's built in): ('special_tokens',) or ('special_tokens',
    'inverse_special_tokens'), the tokens {str: id} and their inverse {id: str}; None when it has none."""
    if not isinstance(seen, dict):
        return None

    def named(name, key, value):
        return "special" in name.lower() and isinstance(seen[name], dict) and all(
            isinstance(k, key) and isinstance(v, value) for k, v in seen[name].items())
    tokens = next((n for n in seen if named(n, str, int)), None)
    inverse = next((n for n in seen if n != tokens and named(n, int, str)), None)
    if tokens is None:
        return None
    return (tokens, inverse) if inverse else (tokens,)


def missing_argument(reply):
    """Whether a call raised TypeError for an argument it needs and was not given."""
    raised = reply.info.get("raised") or {} if reply.kind == "raised" else {}
    return raised.get("type") == "TypeError" and "required positional argument" in (raised.get("message") or "")


def probe_train(sandbox, deadline):
    """probe(cls, init, method): the attributes a minbpe-style class has after training once (or,
    with returned=True, what the training call returned)."""
    def probe(cls, init, method, returned=False, sized=False, listed=False):
        read = {} if returned else {"read": "*"}
        given = [[TRAIN_PROBE[0]] if listed else TRAIN_PROBE[0]] if sized else list(TRAIN_PROBE)
        call = {"call": [method, wired(given)]} if method else {}  # none: a fresh object's attributes
        reply = object_call(sandbox, cls, deadline, init=wired(init), **call, **read)
        return reply.value if reply.kind == "ok" else None
    return probe
