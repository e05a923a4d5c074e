"""A word-level BPE class in the Hugging Face course's shape, BPE(corpus, vocab_size).train(), graded
in its own terms: train on two corpora, its pair counter and merge over the splits set on a fresh
object, tokenize after its own training.
"""

import dataclasses

from ..shapes import object_call, wired
from ...walls.sandbox import exercise_deadline
from .corpus import (ENCODE_NAMES, LARGE, LINES, LINES_B, SIZE, SIZE_B, TOKENIZE_TEXT, TRAIN_NAMES, arguments,
                     corpus_forms, merge_symbols, pair_counts, tokenized, word_counts)
from .state import WordState, exhausted, find_word_state, string_pairs, trained_wrong
from .verdicts import failed, judged_tokens, passed, raised_text, takes_one_word, tokens_by_word
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
    if wrong is not None:
        return failed(name, "train", how, f"on a second corpus {LINES_B[0]!r}..., {call}: {wrong}", call)
    call, wrong = exhausted(retrained(sandbox, trained, methods, required, deadline), trained.state)
    return passed(name, "train", how) if wrong is None else failed(name, "train", how, f"{call}: {wrong}", call)


def retrained(sandbox, trained, methods, required, deadline):
    """train(lines) for state.exhausted: a fresh object trained as `trained` was, on `lines`, for LARGE."""
    init_params = methods.get("__init__", [])[:max(required, 0)]

    def train(lines):
        form = dict(corpus_forms(lines))[trained.corpus]
        init, given = arguments(init_params, form, required, LARGE), arguments(methods[trained.train], form, size=LARGE)
        reply = object_call(sandbox, trained.cls, deadline, init=wired(init), call=[trained.train, wired(given)],
                            read="*")
        state = find_word_state(reply.value) if reply.kind == "ok" and isinstance(reply.value, dict) else None
        return dataclasses.replace(trained, init=init, given=given).call, reply, state.merges if state else None
    return train


def trained_tables(trained):
    """The splits and word counts the class's own training left on it (the corpus's counts where it
    keeps none): what its pair counter and merge read, whatever else the object holds."""
    splits = {w: s for w, s in trained.state.splits.items() if isinstance(w, str) and isinstance(s, list)}
    return splits, dict(trained.state.counts or word_counts())


def after_training(trained):
    """object_call's arguments for a fresh object trained as `trained` was, before the call."""
    return {"init": wired(trained.init), "steps": [[trained.train, wired(trained.given)]]}


def grade_counter(sandbox, trained, method, deadline, how):
    """A method that counts pairs over the splits and word counts kept on self, taking nothing,
    called after the class's own training: against the pairs of what that training left."""
    splits, counts = trained_tables(trained)
    reply = object_call(sandbox, trained.cls, deadline, **after_training(trained), call=[method, wired([])])
    if reply.kind != "ok" or string_pairs(reply.value) is None or not isinstance(reply.value, dict):
        return None
    name, expected = f"{trained.cls}.{method}", pair_counts(splits, counts)
    got = {pair: n for pair, n in reply.value.items() if n}
    if got == expected:
        return passed(name, "get_stats", how)
    pair = next(p for p in sorted(set(expected) | set(got), key=repr) if got.get(p) != expected.get(p))
    return failed(name, "get_stats", how, f"after {trained.call}, {name}() counted {pair!r} {times(got.get(pair, 0))}, "
                  f"but the .{trained.state.splits_name} training left have it {times(expected.get(pair, 0))} "
                  f"(each word counted as often as it occurs)", f"{name}()")


def merged_splits(value, splits):
    """`value` when it is splits {word: [symbols]} of the same words, else None."""
    return value if isinstance(value, dict) and set(value) == set(splits) \
        and all(isinstance(s, list) for s in value.values()) else None


def grade_merge(sandbox, trained, method, params, deadline, how):
    """A method that merges one pair in the splits kept on self, merge(pair) or merge(a, b), called
    after the class's own training on its most frequent pair left: the splits it leaves on self,
    or (when those are as they were) the splits it returns."""
    splits, counts = trained_tables(trained)
    pairs = pair_counts(splits, counts)
    if not pairs:
        return None
    pair = max(sorted(pairs), key=pairs.get)
    given = [pair] if len(params) == 1 else list(pair)
    name, table = f"{trained.cls}.{method}", trained.state.splits_name
    call, named = f"{name}({show(given)[1:-1]})", any(w in method.lower() for w in ("merge", "update"))
    reply = object_call(sandbox, trained.cls, deadline, **after_training(trained), call=[method, wired(given)],
                        read="*")
    if reply.kind == "raised":
        return failed(name, "merge", how, f"after {trained.call}, {call} {raised_text(reply)}", call) if named else None
    if reply.kind != "ok" or not isinstance(reply.value, dict):
        return None
    got, where = merged_splits(reply.value.get(table), splits), f".{table}"
    if got == splits:  # unchanged on self: it may return the merged splits instead
        returned = object_call(sandbox, trained.cls, deadline, **after_training(trained), call=[method, wired(given)])
        got, where = (merged_splits(returned.value, splits), "the splits it returned") if returned.kind == "ok" \
            else (None, where)
        if got is None:
            return failed(name, "merge", how, f"after {trained.call}, {call} left .{table} as it was", call) \
                if named else None
    expected = {w: merge_symbols(s, pair) for w, s in splits.items()}
    if got == expected:
        return passed(name, "merge", how)
    if got is None:
        return None
    word = next(w for w in expected if got.get(w) != expected[w])
    return failed(name, "merge", how, f"after {trained.call}, {call} made {where}[{word!r}] {show(got[word])}, but "
                  f"merging {pair!r} left to right makes {show(expected[word])}", call)


def grade_tokenize(sandbox, trained, method, deadline, how, one_word=False):
    """tokenize(text) after the class's own training: each word spelt as training spells it, its own
    merges applied in their order (`one_word`: tokenize(word), handed the text's words one by one)."""
    got = tokens_by_word(lambda text: object_call(sandbox, trained.cls, deadline, **after_training(trained),
                                                  call=[method, wired([text])]), TOKENIZE_TEXT, one_word)
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
        return grade_tokenize(sandbox, trained, method, deadline, how, takes_one_word(params[0]))
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
