"""CS336's layout, graded as written: Tokenizer(vocab {id: bytes}, merges [(bytes, bytes)],
special_tokens) with GPT-2's pattern built in, and train_bpe(input_path, vocab_size, special_tokens)
-> (vocab, merges). Judged by bytes: the learner's ids are translated back through the vocab given,
merges are read in order, and a vocab is the set of its byte strings, whatever ids it uses.
"""

from .exercises.w06_encoding import ranked_vocab
from .exercises.w07_regex_splitting import safe_lines
from .shapes import Malformed, Mapping, object_call, wired
from ...core.patterns import GPT2_SPLIT_PATTERN

CS336_SPECIAL = "<|endoftext|>"  # given to train_bpe, which must put it in the vocab (any id)


def cs336_class(cls, roles, init, required=2):
    """CS336's layout: Tokenizer(vocab {id: bytes}, merges [(bytes, bytes)], special_tokens),
    GPT-2's pattern built in, special tokens always allowed; judged by the bytes of each token.
    Where there are no special tokens, special_tokens is None, as CS336's tests pass it ([] for a
    constructor that requires them, `required` 3)."""
    mappings, none = [], no_specials(required, init)
    if "encode" in roles:
        method = roles["encode"][0]
        mappings.append(Mapping(f"{cls}.{method}", "encode_ordinary",
                                f"{cls}(vocab, merges as bytes pairs).{method}(text), tokens compared as bytes",
                                cs336_encode(cls, method, none=none), pattern=GPT2_SPLIT_PATTERN))
        if len(init) >= 3:
            mappings.append(Mapping(f"{cls}.{method}:special_tokens", "encode_special",
                                    f"{cls}(vocab, merges, special_tokens).{method}(text)",
                                    cs336_encode(cls, method, specials=True), pattern=GPT2_SPLIT_PATTERN,
                                    only_all=True))
    if "encode_iterable" in roles:
        method = roles["encode_iterable"][0]
        mappings.append(Mapping(f"{cls}.{method}", "encode_ordinary",
                                f"{cls}(vocab, merges).{method}(the text's lines), ids of all lines together",
                                cs336_encode(cls, method, iterate=True, none=none),
                                pattern=GPT2_SPLIT_PATTERN))
    if "decode" in roles:
        method = roles["decode"][0]
        mappings.append(Mapping(f"{cls}.{method}", "decode", f"{cls}(vocab, []).{method}(ids)",
                                cs336_decode(cls, method, none)))
    return mappings


def cs336_layout(merges, special_tokens=None):
    """(vocab {id: bytes}, merges [(bytes, bytes)], {learner id: course id}): the special tokens
    first (as CS336's tests lay out GPT-2's), then the 256 bytes, then the merged tokens."""
    course = ranked_vocab(merges)
    specials = sorted((special_tokens or {}).items(), key=lambda item: item[1])
    vocab, back = {}, {}
    for token, course_id in specials:
        back[len(vocab)] = course_id
        vocab[len(vocab)] = token.encode("utf-8")
    for course_id, token in course.items():
        back[len(vocab)] = course_id
        vocab[len(vocab)] = token
    pairs = [(course[a], course[b]) for (a, b), _ in sorted(merges.items(), key=lambda item: item[1])]
    return vocab, pairs, back


def cs336_encode(cls, method, specials=False, iterate=False, none=()):
    def call(sandbox, args, deadline, rule):
        text, merges = args[0], args[1]
        tokens = args[3] if specials else {}
        vocab, pairs, back = cs336_layout(merges, tokens)
        given = [safe_lines(text)] if iterate else [text]

        def encode(vocab):
            init = [vocab, pairs, sorted(tokens)] if specials else [vocab, pairs, *none]
            return object_call(sandbox, cls, deadline, rule, init=wired(init), call=[method, wired(given)],
                               iterate=iterate)
        reply = encode(vocab)
        if not specials and wants_end_of_text(reply):
            reply = encode(with_end_of_text(vocab))
        return in_course_ids(reply, back)
    return call


def wants_end_of_text(reply):
    """Whether a constructor refused a vocab for lacking CS336's <|endoftext|> (it looks its id up)."""
    raised = reply.info.get("raised") or {} if reply.kind == "raised" else {}
    return reply.info.get("step") == "init" and raised.get("type") == "KeyError" \
        and CS336_SPECIAL in (raised.get("message") or "")


def with_end_of_text(vocab):
    """`vocab` with <|endoftext|> after its tokens, as GPT-2's holds it: for a tokenizer that needs its id
    even when no special token is in play (ordinary encoding and decoding)."""
    return {**vocab, max(vocab, default=-1) + 1: CS336_SPECIAL.encode("utf-8")}


def in_course_ids(reply, back):
    """A reply of the learner's ids with each put back in the course's ({learner id: course id})."""
    if reply.kind == "ok" and isinstance(reply.value, list):
        reply.value = [back.get(i, i) if isinstance(i, int) else i for i in reply.value]
    return reply


def no_specials(required, init=()):
    """The constructor's arguments after (vocab, merges) when there are no special tokens: [] for
    one that requires special_tokens (`required` 3); None for a third parameter named for them with
    a default, as CS336's tests pass it, whatever the default (['<|endoftext|>'] is one); else nothing.
    `init`: the constructor's parameter names after self."""
    if required >= 3:
        return [[]]
    return [None] if len(init) >= 3 and "special" in init[2].lower() else []


def cs336_decode(cls, method, none=()):
    def call(sandbox, args, deadline, rule):
        ids, vocab = args

        def decode(vocab):
            return object_call(sandbox, cls, deadline, rule, init=wired([vocab, [], *none]),
                               call=[method, wired([ids])])
        reply = decode(vocab)
        return decode(with_end_of_text(vocab)) if wants_end_of_text(reply) else reply
    return call


def train_bpe_mapping(name, params):
    """A trainer that reads its text from a file: CS336's train_bpe(input_path, vocab_size,
    special_tokens) -> (vocab, merges as bytes pairs), GPT-2's pattern built in; or one that takes
    the pattern as its third argument and returns the course's merges dict."""
    takes_pattern = len(params) >= 3 and "pattern" in params[2]

    given = [] if takes_pattern or len(params) < 3 else [CS336_SPECIAL]

    def call(sandbox, args, deadline, rule):
        text, vocab_size, pattern = args
        # A text that spells the special token is trained with special_tokens=[]: then it is
        # ordinary text, as the course's reference reads it (a trainer must not cut there).
        specials = [] if CS336_SPECIAL in text else given
        third = [pattern] if takes_pattern else [specials] if len(params) >= 3 else []
        size = vocab_size + len(specials)  # CS336's vocab_size counts the special tokens
        request = {"op": "with_file", "name": name, "args": wired([text, size, *third])}
        reply = sandbox.request({**request, "rule": rule} if rule else request, deadline)
        if reply.kind == "ok" and not isinstance(reply.value, dict):
            reply.value = merges_from_bytes(reply.value, specials)
        return reply
    if takes_pattern:
        return Mapping(name, "train_regex", f"{name}(a file holding the text, vocab_size, pattern)", call)
    return Mapping(name, "train_regex", f"{name}(a file holding the text, vocab_size + 1, [{CS336_SPECIAL!r}]; "
                   "vocab_size and [] when the text spells it): merges read as bytes pairs in order, the vocab "
                   "as its set of byte strings", call,
                   pattern=GPT2_SPLIT_PATTERN)


def trainer_arguments(text, vocab_size, takes_specials):
    """(special tokens, arguments) of a trainer called as CS336's train_bpe: the text, the size
    with one more for '<|endoftext|>', and that token, when it takes special tokens and the text
    does not spell it (then it is ordinary text)."""
    specials = [] if CS336_SPECIAL in text or not takes_specials else [CS336_SPECIAL]
    return specials, [text, vocab_size + len(specials)] + ([specials] if takes_specials else [])


def trainer_class_mapping(cls, method, init):
    """A trainer class made as CS336's train_bpe is called, Cls(input_path, vocab_size,
    special_tokens), whose method (train(), run()) learns what it then keeps: the vocab {id: bytes}
    and the merges [(bytes, bytes)] are read from its attributes, whatever their names."""
    takes_specials = len(init) >= 3 and "special" in init[2].lower()

    def call(sandbox, args, deadline, rule):
        specials, given = trainer_arguments(*args[:2], takes_specials)
        reply = object_call(sandbox, cls, deadline, rule, init=wired(given), call=[method, wired([])],
                            read="*", file=True)
        if reply.kind == "ok":
            reply.value = merges_from_bytes(kept_tables(reply.value), specials)
        return reply
    words = f"{cls}(a file holding the text, vocab_size + 1, [{CS336_SPECIAL!r}]).{method}(), then the vocab " \
            "and merges it keeps" if takes_specials else f"{cls}(a file holding the text, vocab_size).{method}()"
    return Mapping(f"{cls}.{method}", "train_regex", words, call, pattern=GPT2_SPLIT_PATTERN)


def returned_or_kept(sandbox, cls, deadline, rule, request, specials):
    """A trainer method's (vocab, merges) in the course's merges: what the call returns, or, when it
    returns None, what the object keeps after it."""
    reply = object_call(sandbox, cls, deadline, rule, **request)
    if reply.kind == "ok" and reply.value is None:  # it keeps what it learned
        reply = object_call(sandbox, cls, deadline, rule, read="*", **request)
        reply.value = kept_tables(reply.value) if reply.kind == "ok" else reply.value
    if reply.kind == "ok":
        reply.value = merges_from_bytes(reply.value, specials)
    return reply


def sized_trainer_class_mapping(cls, method, init):
    """A trainer class made with the size, Cls(vocab_size, special_tokens), whose method reads the
    text from a file, train(input_path): what it returns, (vocab, merges), or else what it keeps."""
    takes_specials = len(init) >= 2 and "special" in init[1].lower()

    def call(sandbox, args, deadline, rule):
        specials, (text, size, *rest) = trainer_arguments(*args[:2], takes_specials)
        request = dict(init=wired([size, *rest]), call=[method, wired([text])], call_file=True)
        return returned_or_kept(sandbox, cls, deadline, rule, request, specials)
    words = f"{cls}(vocab_size + 1, [{CS336_SPECIAL!r}]).{method}(a file holding the text)" if takes_specials \
        else f"{cls}(vocab_size).{method}(a file holding the text)"
    return Mapping(f"{cls}.{method}", "train_regex", words, call, pattern=GPT2_SPLIT_PATTERN)


def trainer_method_mapping(cls, method, params, init):
    """CS336's train_bpe written as a method, Cls(...).train_bpe(input_path, vocab_size,
    special_tokens): the object is made with what its constructor requires (`init`), read from
    each parameter's name (no special tokens when the method takes its own, an empty vocab and
    merges); the answer is read as train_bpe's, or from the attributes when the method returns
    None. None when a required parameter's name says nothing the grader can give."""
    takes_specials = len(params) >= 3 and "special" in params[2].lower()
    made = [constructor_argument(name, takes_specials) for name in init]
    if any(value is None for value in made):
        return None

    def call(sandbox, args, deadline, rule):
        specials, given = trainer_arguments(*args[:2], takes_specials)
        init_args = [specials if value is SPECIALS else value for value in made]
        request = dict(init=wired(init_args), call=[method, wired(given)], call_file=True)
        return returned_or_kept(sandbox, cls, deadline, rule, request, specials)
    words = f"{cls}({', '.join(init)}).{method}(a file holding the text, vocab_size + 1, [{CS336_SPECIAL!r}])" \
        if takes_specials else f"{cls}({', '.join(init)}).{method}(a file holding the text, vocab_size)"
    return Mapping(f"{cls}.{method}", "train_regex", words, call, pattern=GPT2_SPLIT_PATTERN)


SPECIALS = object()  # a constructor's special tokens: the call's own, or none beside a method that takes them


def constructor_argument(name, method_takes_specials):
    """What a trainer's class is made with for the required parameter `name`; None: unknown."""
    lowered = name.lower()
    sized = any(w in lowered for w in ("size", "num"))  # vocab_size, num_merges: no table
    if "special" in lowered:
        return [] if method_takes_specials else SPECIALS
    if "vocab" in lowered and not sized:
        return {i: bytes([i]) for i in range(256)}
    if "merge" in lowered and not sized:
        return []
    return None


def kept_tables(attributes):
    """(vocab, merges) from a trained object's attributes: the dict {id: bytes} and the list of
    (bytes, bytes) pairs it holds; Malformed, saying so, when it holds no such pair of them."""
    if not isinstance(attributes, dict):
        attributes = {}
    vocab = next((v for v in attributes.values() if isinstance(v, dict) and v
                  and all(isinstance(k, int) and isinstance(t, bytes) for k, t in v.items())), None)
    lists = [(bool(v), "merge" in name.lower(), v) for name, v in attributes.items() if isinstance(v, list)
             and all(isinstance(p, tuple) and len(p) == 2 and all(isinstance(b, bytes) for b in p) for p in v)]
    merges = max(lists, key=lambda found: found[:2])[2] if lists else None  # filled, then named so
    return (vocab, merges) if vocab is not None and merges is not None else \
        Malformed("after training, no attribute holds a vocab {id: bytes} and merges [(bytes, bytes)]")


def merges_from_bytes(value, specials=()):
    """CS336's (vocab, merges) in the course's form {(id, id): new_id}, ranked by list order; or
    Malformed saying what is wrong with it. The vocab is judged as the set of its byte strings: the
    256 bytes, one per merge, and the special tokens, under any ids."""
    if isinstance(value, Malformed):
        return value
    if not (isinstance(value, tuple) and len(value) == 2):
        return Malformed(f"should return (vocab, merges), not {type(value).__name__}")
    vocab, merges = value
    if isinstance(vocab, list) and isinstance(merges, dict):  # (merges, vocab): the same information
        vocab, merges = merges, vocab
    if not isinstance(merges, list) or not all(isinstance(p, tuple) and len(p) == 2 and
                                               all(isinstance(b, bytes) for b in p) for p in merges):
        return Malformed("merges should be a list of (bytes, bytes) pairs, in the order they were made")
    ids = {bytes([i]): i for i in range(256)}
    course = {}
    made = {}
    for step, (a, b) in enumerate(merges, 1):
        if (a, b) in made:
            return Malformed(f"merge #{step} is {(a, b)!r} again, already merge #{made[(a, b)]}: "
                             "each pair is merged once", made=dict(course))
        made[(a, b)] = step
        if a not in ids or b not in ids:
            return Malformed(f"merge {(a, b)!r} joins a token that is neither a byte nor made by an earlier merge")
        course[(ids[a], ids[b])] = 256 + len(course)
        ids.setdefault(a + b, 255 + len(course))
    wanted = set(ids) | {token.encode("utf-8") for token in specials}
    if not isinstance(vocab, dict) or set(vocab.values()) != wanted:
        missing = sorted(wanted - set(vocab.values()) if isinstance(vocab, dict) else [])[:3]
        return Malformed(f"the vocab should hold the 256 bytes and one token per merge; missing {missing}"
                         if missing else "the vocab holds tokens that are neither bytes nor merges")
    return course
