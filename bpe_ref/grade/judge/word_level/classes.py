"""A word-level BPE class in the Hugging Face course's shape, BPE(corpus, vocab_size).train(), graded
in its own terms: train on two corpora, its pair counter and merge over the splits set on a fresh
object, tokenize after its own training.
"""

import dataclasses

from ..shapes import object_call, wired
from ...walls.sandbox import exercise_deadline
from .corpus import (ENCODE_NAMES, LARGE, LINES, LINES_B, SIZE, SIZE_B, TOKENIZE_TEXT, TRAIN_NAMES, arguments,
                     corpus_forms, first_split, merge_symbols, pair_counts, tokenized, word_counts)
from .state import WordState, find_word_state, string_pairs, trained_wrong
from .verdicts import failed, judged_tokens, passed, raised_text, tokens_of
from ..display import show, times



@dataclasses.dataclass
class Trained:
    """A way to train the class that worked: its constructor's and train method's arguments."""

    cls: str
    train: str
    init: list
    given: list
    corpus: str  # the corpus form, in words
    state: WordState

    @property
    def call(self):
        """The training call in words, the corpus named, not spelt out."""
        def spelt(args):
            return ", ".join("corpus" if isinstance(a, (list, str)) else repr(a) for a in args)
        return f"{self.cls}({spelt(self.init)}).{self.train}({spelt(self.given)})"


def train_method(methods):
    return next((m for m in methods if m.lower().lstrip("_").startswith(TRAIN_NAMES)), None)


def train_word_level(sandbox, cls, methods, required, deadline):
    """The first way of training `cls` on the corpus that leaves a word-level state, or None."""
    train = train_method(methods)
    if train is None:
        return None
    init_params = methods.get("__init__", [])[:max(required, 0)]
    for words, corpus in corpus_forms():
        for size in (SIZE, LARGE):  # LARGE: a size that SIZE leaves no merges under
            init, given = arguments(init_params, corpus, required, size), arguments(methods[train], corpus, size=size)
            if init is None or given is None or corpus not in (*init, *given):
                break
            reply = object_call(sandbox, cls, deadline, init=wired(init), call=[train, wired(given)], read="*")
            state = find_word_state(reply.value) if reply.kind == "ok" and isinstance(reply.value, dict) else None
            if state is None:
                break
            if state.merges or size == LARGE or size not in (*init, *given):
                return Trained(cls, train, init, given, words, state)
    return None


def second_training(sandbox, trained, methods, required, deadline):
    """(call in words, state or a reply that is none) of the class trained the same way on LINES_B."""
    form = dict(corpus_forms(LINES_B))[trained.corpus]
    init_params = methods.get("__init__", [])[:max(required, 0)]
    size = SIZE_B if SIZE in (*trained.init, *trained.given) else LARGE
    init = arguments(init_params, form, required, size)
    given = arguments(methods[trained.train], form, size=size)
    reply = object_call(sandbox, trained.cls, deadline, init=wired(init), call=[trained.train, wired(given)], read="*")
    call = dataclasses.replace(trained, init=init, given=given).call
    state = find_word_state(reply.value) if reply.kind == "ok" and isinstance(reply.value, dict) else None
    return call, state if state is not None else reply


def grade_train(sandbox, trained, how, methods, required, deadline):
    """train, on the corpus and then on LINES_B the same way: each time, its merges replayed."""
    name = f"{trained.cls}.{trained.train}"
    wrong = trained_wrong(trained.state, word_counts())
    if wrong is not None:
        return failed(name, "train", how, f"{trained.call}: {wrong}", trained.call)
    call, again = second_training(sandbox, trained, methods, required, deadline)
    if isinstance(again, WordState):
        wrong = trained_wrong(again, word_counts(LINES_B))
    elif again.kind == "raised":
        wrong = raised_text(again)
    else:
        wrong = f"it left no merges of strings beside splits to read ({again.kind})"
    if wrong is None:
        return passed(name, "train", how)
    return failed(name, "train", how, f"on a second corpus {LINES_B[0]!r}..., {call}: {wrong}", call)


def state_set(trained, splits):
    """The attributes that hand a pair counter or a merge `splits`, with the corpus's word counts."""
    out = {trained.state.splits_name: splits}
    if trained.state.counts_name:
        out[trained.state.counts_name] = dict(word_counts())
    return out


def halfway(trained):
    """The corpus's words after the first merges a right trainer makes: symbols of several letters."""
    counts = word_counts()
    splits = {w: first_split(w, trained.state.marker) for w in counts}
    for _ in range(4):
        pairs = pair_counts(splits, counts)
        pair = max(sorted(pairs), key=pairs.get)
        splits = {w: merge_symbols(s, pair) for w, s in splits.items()}
    return splits


def grade_counter(sandbox, trained, method, deadline, how):
    """A method that counts pairs over the splits and word counts kept on self, taking nothing."""
    splits = halfway(trained)
    reply = object_call(sandbox, trained.cls, deadline, init=wired(trained.init),
                        set=wired(state_set(trained, splits)), call=[method, wired([])])
    if reply.kind != "ok" or string_pairs(reply.value) is None or not isinstance(reply.value, dict):
        return None
    name, expected = f"{trained.cls}.{method}", pair_counts(splits, dict(word_counts()))
    got = {pair: n for pair, n in reply.value.items() if n}
    if got == expected:
        return passed(name, "get_stats", how)
    pair = next(p for p in sorted(set(expected) | set(got), key=repr) if got.get(p) != expected.get(p))
    return failed(name, "get_stats", how, f"{name}() over the words after 4 merges counted {pair!r} "
                   f"{times(got.get(pair, 0))}, but it occurs {times(expected.get(pair, 0))} (each word counted as "
                   f"often as it occurs)", f"{name}()")


def grade_merge(sandbox, trained, method, params, deadline, how):
    """A method that merges one pair in the splits kept on self: merge(pair) or merge(a, b)."""
    splits = halfway(trained)
    pairs = pair_counts(splits, dict(word_counts()))
    pair = max(sorted(pairs), key=pairs.get)
    given = [pair] if len(params) == 1 else list(pair)
    reply = object_call(sandbox, trained.cls, deadline, init=wired(trained.init),
                        set=wired(state_set(trained, splits)), call=[method, wired(given)], read="*")
    name = f"{trained.cls}.{method}"
    call = f"{name}({show(given)[1:-1]})"
    if reply.kind == "raised":
        return failed(name, "merge", how, f"{call} {raised_text(reply)}", call) if "merge" in method.lower() else None
    if reply.kind != "ok" or not isinstance(reply.value, dict):
        return None
    got = reply.value.get(trained.state.splits_name)
    if got == splits:  # nothing changed: a helper of another kind, unless named for merging
        return failed(name, "merge", how, f"{call} left .{trained.state.splits_name} as it was", call) \
            if "merge" in method.lower() or "update" in method.lower() else None
    expected = {w: merge_symbols(s, pair) for w, s in splits.items()}
    if got == expected:
        return passed(name, "merge", how)
    if not isinstance(got, dict):
        return None
    word = next((w for w in expected if got.get(w) != expected[w]), None)
    return failed(name, "merge", how, f"{call} made .{trained.state.splits_name}[{word!r}] {show(got.get(word))}, "
                   f"but merging {pair!r} left to right makes {show(expected[word])}", call)


def grade_tokenize(sandbox, trained, method, deadline, how):
    """tokenize(text) after the class's own training: each word spelt as training spells it, its own
    merges applied in their order."""
    reply = object_call(sandbox, trained.cls, deadline, init=wired(trained.init),
                        steps=[[trained.train, wired(trained.given)]], call=[method, wired([TOKENIZE_TEXT])])
    got = tokens_of(reply)
    if got is None:
        return None
    name = f"{trained.cls}.{method}"
    return judged_tokens(name, f"{name}({TOKENIZE_TEXT!r})", got,
                         tokenized(TOKENIZE_TEXT, trained.state.merges, trained.state.marker),
                         trained.state.marker, how, after=f"after {trained.call}, ")


def grade_part(sandbox, trained, method, params, timeout, how):
    """The Result of one more method of a trained word-level class, by its shape: a pair counter
    (no parameters), a merge (the pair, or its two symbols), a tokenize(text); None for another job."""
    lowered, deadline = method.lower().lstrip("_"), exercise_deadline(timeout)
    if not params:
        return grade_counter(sandbox, trained, method, deadline, how)
    if len(params) in (1, 2) and not lowered.startswith(ENCODE_NAMES + ("decode",)):
        return grade_merge(sandbox, trained, method, params, deadline, how)
    if len(params) == 1 and lowered.startswith(ENCODE_NAMES):
        return grade_tokenize(sandbox, trained, method, deadline, how)
    return None


def grade_word_class(sandbox, cls, methods, required, timeout):
    """{learner name: Result} for one class, when it trains as word-level BPE: train and its other parts."""
    trained = train_word_level(sandbox, cls, methods, required, exercise_deadline(timeout))
    if trained is None:
        return {}
    how = (f"graded as word-level BPE in its own terms: trained as {trained.call}, the corpus "
           f"{LINES[0]!r}... ({len(LINES)} lines, {sum(word_counts().values())} words) as {trained.corpus}; "
           f"its merges pair strings, so each part is checked against its own merges, splits and end-of-word "
           f"marker {trained.state.marker!r}")
    out = {f"{cls}.{trained.train}": grade_train(sandbox, trained, how, methods, required, exercise_deadline(timeout))}
    for method, params in methods.items():
        if method not in ("__init__", trained.train) \
                and (found := grade_part(sandbox, trained, method, params, timeout, how)) is not None:
            out[found.name] = found
    return out


def grade_word_classes(sandbox, defined, results, timeout):
    """{learner name: Result} for each word-level BPE class nothing else graded: its train, and the
    pair counter, merge and tokenize beside it."""
    graded, out = {name.split(".")[0] for name in results}, {}
    for cls, info in defined.items():
        if info.get("methods") and cls not in graded and not info.get("inherited"):
            out.update(grade_word_class(sandbox, cls, info["methods"], info.get("init_required") or 0, timeout))
    return out
