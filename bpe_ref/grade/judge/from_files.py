"""CS336's `Tokenizer.from_files(vocab_filepath, merges_filepath)`, graded as written: the tokenizer
it loads must encode as the one its constructor makes from the same tables, `Tokenizer(vocab,
merges)`. So a bug of encode's own is encode's row, not this one. The files are written in the
first format (saved_tables.py) under which the two agree on a probe text; none agreeing is
`error: could not be graded`, never a pass.
"""

from .cs336_style import cs336_layout, in_course_ids, no_specials
from .exercises import REGISTRY
from .exercises.common import Bug, Exercise, Mismatch, Raised, same
from .exercises.w04_naive_bpe import train_chunks
from .exercises.w07_regex_splitting import chunk_ids
from .saved_tables import TRIED, in_words, pairs_of_formats, written
from .shapes import Mapping, object_call, wired
from ..walls.sandbox import Reply
from ...core.patterns import GPT2_SPLIT_PATTERN

PROBE = "hello wörld, héllo 안녕 안녕 👋👋 low lower lowest\n\n  it's 2024! ¡ÿ"
# a text the tables were not trained on: its words are no whole tokens, so only merges read right
# encode it as the constructor's tokenizer does (an encode that first looks a whole pre-token up in
# the vocab agrees on PROBE even when the loader read no merges)
UNSEEN = "yellow wöll lo héll 안 👋 2025 ¡¡"
LOADERS = ("from_files", "from_file", "load_files", "from_pretrained", "load")


def loader_of(classmethods, named_only=False):
    """The class method that makes a tokenizer from a vocab file and a merges file, or None.
    `named_only`: among a class's plain methods, only one named as a loader (LOADERS) counts."""
    for name in sorted(classmethods or {}, key=lambda n: (n not in LOADERS, n)):
        params = [p.lower() for p in classmethods[name]]
        if len(params) >= 2 and "vocab" in params[0] and "merge" in params[1] and (name in LOADERS or not named_only):
            return name
    return None


def agree(loaded, made, said):
    """The mapping's `again`: the loaded tokenizer answers as the one made from the tables."""
    if isinstance(loaded, Raised) and isinstance(made, Raised):
        return None if loaded.type_name == made.type_name else Mismatch(made, said)
    if not isinstance(loaded, Raised) and same(loaded, made):
        return None
    if isinstance(loaded, list) and isinstance(made, list):
        at = next((i for i, (a, b) in enumerate(zip(loaded, made)) if a != b), min(len(loaded), len(made)))
        said += f"; they first differ at index {at}"
    return Mismatch(made, said)


def not_on_the_class(*args):
    """What a from_files written without @classmethod does when CS336 calls it on the class: the
    vocab path goes in as self, and a path it needs is missing."""
    raise TypeError("from_files() missing 1 required positional argument")


UNBOUND = Bug("not_classmethod", "CS336 calls it on the class, Tokenizer.from_files(vocab_filepath, merges_filepath): "
              "mark it @classmethod and take cls first (def from_files(cls, vocab_filepath, merges_filepath, "
              "special_tokens=None)), then return cls(vocab, merges, special_tokens)", not_on_the_class)


def from_files_exercise(say, bugs=()):
    """encode_ordinary's cases and strategy, judged by the second answer; `say()` words a difference."""
    return Exercise(
        name="from_files", signature="Tokenizer.from_files(vocab_filepath, merges_filepath) -> Tokenizer, "
                                     "encode(text, pattern) as Tokenizer(vocab, merges)",
        cases=lambda: REGISTRY["encode_ordinary"].cases(),
        strategy=REGISTRY["encode_ordinary"].strategy,
        judge=lambda args, got: None,  # the second answer judges it (agree)
        again=lambda args, loaded, made: agree(loaded, made, say()),
        hint="read back exactly what the files hold: every token's bytes under its id, and the merges in their order",
        bugs=bugs,
        examples=12,
    )


def from_files_mapping(cls, loader, method, required=2, init=(), bound=True):
    """Mapping of `cls.loader` (CS336's from_files) onto an exercise of its own, through the class's encode `method`
    (`required`: how many constructor parameters have no default; `init`: their names). `bound`
    False: the loader is a plain method, which CS336 still calls on the class, as
    Tokenizer.from_files(vocab_filepath, merges_filepath): what that call does is the answer."""
    chosen, none = {}, no_specials(required, init)

    def call(sandbox, args, deadline, rule):
        if not bound:  # the first path goes in as self: no format can be told, the first is as good
            chosen.setdefault("format", next(iter(pairs_of_formats())))
        if "format" not in chosen:
            found = readable_format(sandbox, cls, loader, method, deadline, rule, none)
            if isinstance(found, Reply):  # the probe itself ran out of time or crashed: no format is known yet
                return found
            chosen["format"] = found
        if chosen["format"] is None:
            return Reply("unread", info={"message": f"{cls}.{loader} read none of the file formats tried "
                                                    f"so that it encodes as {cls}(vocab, merges): {TRIED}"})
        vocab, pairs, back = cs336_layout(args[1])
        # loaded first: a from_files that hands back the last object made would give the last case's
        loaded = loaded_from(sandbox, cls, loader, method, args[0], (vocab, pairs, back), chosen["format"], deadline, rule)
        made = encoded(sandbox, cls, method, args[0], back, deadline, rule, init=wired([vocab, pairs, *none]))
        for reply in (loaded, made):
            if reply.kind not in ("ok", "raised"):
                return reply
        return Reply("ok", answer(loaded), {"again": answer(made)})
    words = f"{cls}.{loader}(vocab and merges files, written in the first format it reads).{method}(text), " \
            f"against {cls}(vocab, merges).{method}(text)"
    said = lambda: (f"expected is what {cls}(vocab, merges).{method}(text) gives; {cls}.{loader} read the same "  # noqa: E731
                    f"tables from files ({in_words(chosen['format'])}), and its {method}(text) gave what is shown")
    if not bound:
        words = f"{cls}.{loader}(vocab and merges files).{method}(text), called on the class as CS336 calls it"
        said = lambda: (f"{cls}.{loader} is a plain method, with no @classmethod: called on the class, "  # noqa: E731
                        "the vocab file's path goes in as self")
    return Mapping(f"{cls}.{loader}", "from_files", words, call, pattern=GPT2_SPLIT_PATTERN,
                   own_exercise=from_files_exercise(said, () if bound else (UNBOUND,)))


def encoded(sandbox, cls, method, text, back, deadline, rule, **request):
    """A fresh object's reply to encode(text), its ids in the course's."""
    return in_course_ids(object_call(sandbox, cls, deadline, rule, call=[method, wired([text])], **request), back)


def loaded_from(sandbox, cls, loader, method, text, layout, fmt, deadline, rule):
    """encode(text) by the tokenizer `loader` reads from the tables written in `fmt`."""
    vocab, pairs, back = layout
    return encoded(sandbox, cls, method, text, back, deadline, rule, made_by=loader,
                   files=wired(written(fmt, vocab, pairs)))


def readable_format(sandbox, cls, loader, method, deadline, rule, none=()):
    """The first format under which the loaded tokenizer encodes the probe, and a text unseen in
    training, as the one made from the tables; None when none does; a Reply when the probe could
    not run (time, a crash) or its answer tells nothing (the tokenizer made from the tables raised:
    any load would agree). Loading that fails is never agreement."""
    vocab, pairs, back = layout = cs336_layout(train_chunks(chunk_ids(PROBE, GPT2_SPLIT_PATTERN), 296))
    made = encoded(sandbox, cls, method, PROBE, back, deadline, rule, init=wired([vocab, pairs, *none]))
    if made.kind == "raised":
        return Reply("unread", info={"message": f"{cls}(vocab, merges).{method} raised {made.info['raised'].get('type')} "
                                                f"on the probe text, so what {cls}.{loader} loads cannot be compared"})
    if made.kind != "ok":
        return made
    unseen = encoded(sandbox, cls, method, UNSEEN, back, deadline, rule,
                     init=wired([vocab, pairs, *none]))
    if unseen.kind not in ("ok", "raised"):
        return unseen
    wanted = [(PROBE, made)] + ([(UNSEEN, unseen)] if unseen.kind == "ok" else [])
    for fmt in pairs_of_formats():
        for text, want in wanted:
            loaded = loaded_from(sandbox, cls, loader, method, text, layout, fmt, deadline, rule)
            if loaded.kind not in ("ok", "raised"):
                return loaded
            if loaded.kind != "ok" or not same(loaded.value, want.value):
                break
        else:
            return fmt
    return None


def answer(reply):
    return reply.value if reply.kind == "ok" else Raised.from_info(reply.info["raised"])
