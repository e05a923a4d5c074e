"""Word-level BPE classes graded in their own terms: the Hugging Face course's BPE(corpus,
vocab_size), whose train keeps word counts, splits {word: [symbols]} and merges of strings on self.

Their merges pair strings, so no byte-level exercise fits them. Each part is checked against the
class's own conventions (its end-of-word marker, its order among tied pairs) instead: train
against a replay of its merges over the same words, each merge the most frequent pair left; the
pair counter and the merge against the splits they are handed; tokenize against the class's own
merges. The expected values are computed here, in the grader's process.
"""

import dataclasses
from collections import Counter

from .display import show, times
from .engine import Result
from .shapes import object_call, wired
from ..walls.sandbox import exercise_deadline

# words of a few letters, often repeated: pairs to spare for every reading of the size below
LINES = ["low lower lowest slow slower snow snows", "newer newest wider widest tower towers",
         "stone stones store stores rose roses nose", "low slow snow lower newest wider stone rose",
         "wise wiser wisest stew stews west wests"]
SIZE = 30  # a vocab size or a number of merges: either way some merges, never more than the words allow
# a second corpus, in other scripts, trained the same way: merges that only fit the first are found out
LINES_B = ["사과 사과나무 사과즙 나무 나무꾼 나무꾼 바나나 바나나우유", "كتاب كتابة كاتب مكتب مكتبة كتب مكتوب كاتبة",
           "사과나무 나무 كتاب مكتبة مكتب 우유 바나나", "사과즙 나무꾼 كاتب كتابة مكتوب 우유"]
SIZE_B = 24
LARGE = 300  # tried when SIZE leaves no merges: a vocab size that counts 256 bytes, or a large alphabet
TOKENIZE_TEXT = "lower snows wisest towers slowest"  # words from training and one that is not
TEXT_WORDS = ("text", "corpus", "data", "doc", "sentence", "line", "word", "train")
SIZE_WORDS = ("size", "merge", "num", "iter", "step")
TRAIN_NAMES = ("train", "fit", "learn")
ENCODE_NAMES = ("tokenize", "encode")


def word_counts(lines=LINES):
    return Counter(word for line in lines for word in line.split())


def corpus_forms(lines=LINES):
    """The corpus as a trainer may take it: a list of words (each also a text), one text, a list of
    word lists (pre-tokenized sentences)."""
    return [("a list of words", [w for line in lines for w in line.split()]),  # one text each, or one word each
            ("one text", " ".join(lines)),  # split() and split(" ") agree on it
            ("a list of word lists", [line.split() for line in lines])]


# ---------------------------------------------------------------------------- the reference

def pair_counts(splits, counts):
    """How often each adjacent pair of symbols occurs, each word weighted by its count."""
    pairs = Counter()
    for word, symbols in splits.items():
        for pair in zip(symbols, symbols[1:]):
            pairs[pair] += counts.get(word, 0)
    return {pair: n for pair, n in pairs.items() if n}


def merge_symbols(symbols, pair):
    """The symbols with each occurrence of `pair`, left to right, joined into one."""
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(symbols[i] + symbols[i + 1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out


def first_split(word, marker, prefix=""):
    """A word as word-level BPE spells it before any merge: its characters, after a prefix symbol
    (' ', the word's start) and before an end-of-word marker ('</w>'), where it has them."""
    return ([prefix] if prefix else []) + list(word) + ([marker] if marker else [])


# ---------------------------------------------------------------------------- what training left

@dataclasses.dataclass
class WordState:
    """Where a trained word-level class keeps what it learned, and how it spells a word."""

    merges_name: str
    merges: list  # (a, b) in merge order
    joined: dict  # {(a, b): what it stored for the merge}, when merges are a dict
    splits_name: str = None
    splits: dict = None
    counts_name: str = None
    counts: dict = None
    marker: str = ""
    prefix: str = ""


def _string_pairs(value):
    if isinstance(value, dict):
        keys = list(value)
    elif isinstance(value, list):
        keys = value
    else:
        return None
    if all(isinstance(k, tuple) and len(k) == 2 and all(isinstance(s, str) for s in k) for k in keys):
        return keys
    return None


def find_word_state(attributes):
    """The WordState of a trained object's attributes, or None when it is no word-level BPE: merges
    of strings (or an empty table named for merges) beside splits {word: [symbols]}."""
    merges_name = splits_name = counts_name = None
    for name, value in attributes.items():
        if not isinstance(name, str):
            continue
        pairs = _string_pairs(value)
        if pairs is not None and (pairs or "merge" in name.lower()) and merges_name is None:
            merges_name = name
        elif isinstance(value, dict) and value and all(
                isinstance(k, str) and isinstance(v, list) and all(isinstance(s, str) for s in v)
                for k, v in value.items()):
            splits_name = splits_name or name
        elif isinstance(value, dict) and value and all(isinstance(k, str) and type(v) is int for k, v in value.items()) \
                and any(w in name.lower() for w in ("freq", "count")):
            counts_name = counts_name or name
    if merges_name is None or splits_name is None:
        return None
    value = attributes[merges_name]
    state = WordState(merges_name, list(_string_pairs(value)), value if isinstance(value, dict) else None,
                      splits_name, attributes[splits_name], counts_name,
                      attributes.get(counts_name) if counts_name else None)
    state.marker = marker_of(state.splits)
    return state if state.marker is not None else None


def marker_of(splits):
    """The end-of-word marker each word's symbols spell after the word ('</w>'), '' for none, or
    None when the words are not all spelt the same way."""
    markers = set()
    for word, symbols in splits.items():
        joined = "".join(symbols)
        if not joined.startswith(word):
            return None
        markers.add(joined[len(word):])
    return markers.pop() if len(markers) == 1 else None


# ---------------------------------------------------------------------------- judging train

def replay(state, counts):
    """None when each of the state's merges is a most frequent pair of what is left (any of several
    tied), stored as its two symbols joined, and the splits are what they build; else what differs."""
    splits = {word: first_split(word, state.marker, state.prefix) for word in counts}
    for k, pair in enumerate(state.merges, 1):
        pairs = pair_counts(splits, counts)
        best = max(pairs.items(), key=lambda item: item[1], default=None)
        if pair not in pairs:
            return f"merge #{k} is {pair!r}, which does not occur in the words at that point"
        if pairs[pair] < best[1]:
            return (f"merge #{k} picked {pair!r}, which occurs {times(pairs[pair])}, but {best[0]!r} "
                    f"occurs {times(best[1])}")
        stored = state.joined.get(pair) if state.joined is not None else None
        if isinstance(stored, (str, tuple, list)) and stored != pair[0] + pair[1]:
            return f"merge #{k}, {pair!r}, is stored as {show(stored)}, not the symbol it makes, {pair[0] + pair[1]!r}"
        splits = {word: merge_symbols(symbols, pair) for word, symbols in splits.items()}
    if not state.merges and pair_counts(splits, counts):
        top = max(pair_counts(splits, counts).items(), key=lambda item: item[1])
        return f"it made no merges: .{state.merges_name} is empty after training, though {top[0]!r} occurs {times(top[1])}"
    wrong = next((w for w in counts if w in (state.splits or {}) and state.splits[w] != splits[w]), None)
    if wrong is not None:
        return (f".{state.splits_name}[{wrong!r}] is {show(state.splits[wrong])} after training, but its own "
                f"merges make {show(splits[wrong])}")
    return None


def _passed(name, exercise, how):  # word_level: no byte-level design, whose helpers a file's others would be
    return Result(name, "pass", "ok", {"exercise": how, "course": exercise, "word_level": True})


def _failed(name, exercise, how, message, call):
    return Result(name, "fail", message, {"exercise": how, "course": exercise, "call": call, "word_level": True})


def _raised(reply):
    raised = reply.info.get("raised") or {}
    where = f" ({raised['where']})" if raised.get("where") else ""
    return f"raised {raised.get('type', 'an exception')}: {raised.get('message', '')}{where}"


# ---------------------------------------------------------------------------- the class's parts

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


def arguments(params, corpus, required=None, size=SIZE):
    """The arguments for `params` (their names), each a text or a size; those after the first that is
    neither are left to their defaults, unless `required` says they are needed (then None)."""
    args = []
    for param in params:
        lowered = param.lower()
        if any(w in lowered for w in SIZE_WORDS):
            args.append(size)
        elif any(w in lowered for w in TEXT_WORDS):
            args.append(corpus)
        else:
            return args if required is None or len(args) >= required else None
    return args


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


def trained_wrong(state, counts):
    """What differs between a trained state and a right training on words of these counts, or None."""
    wrong = replay(state, counts)
    if wrong is None and state.counts is not None and set(state.counts) == set(counts) \
            and dict(state.counts) != dict(counts):
        word = next(w for w in counts if state.counts[w] != counts[w])
        wrong = f".{state.counts_name}[{word!r}] is {state.counts[word]}, but the corpus has it {times(counts[word])}"
    return wrong


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
        return _failed(name, "train", how, f"{trained.call}: {wrong}", trained.call)
    call, again = second_training(sandbox, trained, methods, required, deadline)
    if isinstance(again, WordState):
        wrong = trained_wrong(again, word_counts(LINES_B))
    elif again.kind == "raised":
        wrong = _raised(again)
    else:
        wrong = f"it left no merges of strings beside splits to read ({again.kind})"
    if wrong is None:
        return _passed(name, "train", how)
    return _failed(name, "train", how, f"on a second corpus {LINES_B[0]!r}..., {call}: {wrong}", call)


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
    if reply.kind != "ok" or _string_pairs(reply.value) is None or not isinstance(reply.value, dict):
        return None
    name, expected = f"{trained.cls}.{method}", pair_counts(splits, dict(word_counts()))
    got = {pair: n for pair, n in reply.value.items() if n}
    if got == expected:
        return _passed(name, "get_stats", how)
    pair = next(p for p in sorted(set(expected) | set(got), key=repr) if got.get(p) != expected.get(p))
    return _failed(name, "get_stats", how, f"{name}() over the words after 4 merges counted {pair!r} "
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
        return _failed(name, "merge", how, f"{call} {_raised(reply)}", call) if "merge" in method.lower() else None
    if reply.kind != "ok" or not isinstance(reply.value, dict):
        return None
    got = reply.value.get(trained.state.splits_name)
    if got == splits:  # nothing changed: a helper of another kind, unless named for merging
        return _failed(name, "merge", how, f"{call} left .{trained.state.splits_name} as it was", call) \
            if "merge" in method.lower() or "update" in method.lower() else None
    expected = {w: merge_symbols(s, pair) for w, s in splits.items()}
    if got == expected:
        return _passed(name, "merge", how)
    if not isinstance(got, dict):
        return None
    word = next((w for w in expected if got.get(w) != expected[w]), None)
    return _failed(name, "merge", how, f"{call} made .{trained.state.splits_name}[{word!r}] {show(got.get(word))}, "
                   f"but merging {pair!r} left to right makes {show(expected[word])}", call)


def tokens_of(reply):
    """A tokenizer's answer as one flat list of symbols (a list per word is flattened), or None when it
    is something else (ids, or a reply that is no answer): not judged here."""
    got = reply.value if reply.kind == "ok" else None
    if isinstance(got, list) and got and all(isinstance(g, list) for g in got):
        got = [s for word in got for s in word]
    return got if isinstance(got, list) and all(isinstance(s, str) for s in got) else None


def tokenized(text, merges, marker):
    """Each word of `text` spelt with `marker` at its end, the merges applied in their order."""
    out = []
    for word in text.split():
        symbols = first_split(word, marker)
        for pair in merges:
            symbols = merge_symbols(symbols, pair)
        out += symbols
    return out


def judged_tokens(name, call, got, expected, marker, how, after="", spelt="as training spells it"):
    if got == expected:
        return _passed(name, "encode", how)
    at = next((i for i, (e, g) in enumerate(zip(expected, got)) if e != g), min(len(expected), len(got)))
    ending = f"ending in {marker!r}" if marker else "with no end-of-word marker"
    return _failed(name, "encode", how, (
        f"{after}{call} differs from {'its own ' if after else 'the '}merges applied in order to each word, "
        f"spelt {spelt} ({ending}): they first differ at token {at}: expected "
        f"{show(expected[at:at + 1])[1:-1] or 'the end'}, got {show(got[at:at + 1])[1:-1] or 'the end'} "
        f"(the tokens before it: {show(expected[max(0, at - 5):at])})"), call)


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


# ---------------------------------------------------------------------------- a module's tokenize

def learned_merges(marker, size=12):
    """The merges a right trainer learns from the corpus, words ending in `marker`: (a, b) in order."""
    counts = word_counts()
    splits, merges = {w: first_split(w, marker) for w in counts}, []
    for _ in range(size):
        pairs = pair_counts(splits, counts)
        pair = max(sorted(pairs), key=pairs.get)
        merges.append(pair)
        splits = {w: merge_symbols(s, pair) for w, s in splits.items()}
    return merges


def marker_shown(got, text):
    """The end-of-word marker a tokenizer's no-merge answer shows: each word's letters, then the
    marker ('' for none); None when its answer is not spelt that way."""
    words = text.split()
    extra = len(got) - sum(len(w) for w in words)
    if extra not in (0, len(words)):
        return None
    marker = got[len(words[0])] if extra else ""
    return marker if got == tokenized(text, [], marker) else None


def grade_module_tokenize(sandbox, name, info, timeout):
    """tokenize(text) of a module-level word-level BPE (the Hugging Face course's, its text split by
    itself) that reads its merges {(a, b): a + b} from one module-level table: handed none first, to
    see how it spells a word, then the merges a right trainer learns from the corpus, against those
    applied in their order. None when it is not one."""
    deadline = exercise_deadline(timeout)
    tables = [t for t in info.get("word_tables") or () if "merge" in t.lower()]
    if len(tables) != 1:
        return None
    table = tables[0]
    bare = tokens_of(sandbox.call(name, ["low lower"], deadline, tables={table: {}}))
    marker = marker_shown(bare, "low lower") if bare is not None else None
    if marker is None:
        return None
    merges = learned_merges(marker)
    reply = sandbox.call(name, [TOKENIZE_TEXT], deadline, tables={table: {p: p[0] + p[1] for p in merges}})
    got = tokens_of(reply)
    if got is None:
        return None
    how = (f"graded as word-level BPE in its own terms: its module-level `{table}` set to the merges "
           f"{{(a, b): a + b}} a right trainer learns from the corpus {LINES[0]!r}... (words ending in "
           f"{marker!r}, as it spells them), against those merges applied in their order")
    return judged_tokens(name, f"{name}({TOKENIZE_TEXT!r})", got, tokenized(TOKENIZE_TEXT, merges, marker), marker,
                         how, spelt="as it spells a word when it has no merges")


# ---------------------------------------------------------------------------- a trainer function

def merges_in_answer(value):
    """The merges [(a, b)] in order in a word-level trainer's answer (a list of string pairs, of
    (pair, count), or a dict keyed by pairs; alone or in a tuple beside other things), and the part
    that holds them, as it came; (None, None) when there are none."""
    for part in [value, *(value if isinstance(value, tuple) else ())]:
        if isinstance(part, list) and part and all(isinstance(x, tuple) and len(x) == 2 and _string_pairs([x[0]])
                                                   for x in part):
            return [x[0] for x in part], part
        if _string_pairs(part):
            return list(_string_pairs(part)), part
    return None, None


def spellings(merges, letters):
    """The (prefix, marker) ways of spelling a word that a trainer's merges allow: the symbols its
    merges use that are no letter of the corpus and no earlier merge's are the word's start or end
    symbols (at most two)."""
    made, extra = set(), []
    for a, b in merges:
        extra += [s for s in (a, b) if s not in made and s not in letters and s not in extra]
        made.add(a + b)
    if len(extra) > 2:
        return []
    if len(extra) == 2:
        return [(extra[0], extra[1]), (extra[1], extra[0])]
    return [("", extra[0]), (extra[0], "")] if extra else [("", "")]


def occurs_throughout(merges, counts, prefix, marker):
    """Whether each merge's pair occurs when it is made, words spelt with this prefix and marker."""
    splits = {w: first_split(w, marker, prefix) for w in counts}
    for pair in merges:
        if pair not in pair_counts(splits, counts):
            return False
        splits = {w: merge_symbols(s, pair) for w, s in splits.items()}
    return True


def function_state(merges, lines):
    """A WordState for a trainer function's merges on `lines`, words spelt the first way under which
    every merge occurs when it is made (else the first way allowed), or None when none is."""
    counts = word_counts(lines)
    letters = set("".join(counts))
    ways = spellings(merges, letters)
    if not ways:
        return None
    prefix, marker = next((w for w in ways if occurs_throughout(merges, counts, *w)), ways[0])
    return WordState("merges it returned", merges, None, marker=marker, prefix=prefix)


def call_trainer(sandbox, name, params, lines, size, deadline, form=None):
    """(form, arguments, reply) of the first corpus form a trainer function learns merges of strings
    from, or None."""
    for words, corpus in corpus_forms(lines):
        for tried in (size, LARGE):  # LARGE: a size that `size` leaves no merges under
            args = arguments(params, corpus, size=tried)
            if form not in (None, words) or args is None or len(args) < 2 or corpus not in args or tried not in args:
                break
            reply = sandbox.call(name, args, deadline)
            if reply.kind == "ok" and merges_in_answer(reply.value)[0] is not None:
                return words, args, reply
    return None


def grade_trainer_function(sandbox, name, params, timeout):
    """(Result, (prefix, marker), raw merges) of a word-level trainer function (learn_bpe(corpus,
    num_merges) -> merges, or (merges, vocab, ...)), replayed on both corpora; None when it is none."""
    deadline = exercise_deadline(timeout)
    first = call_trainer(sandbox, name, params, LINES, SIZE, deadline)
    if first is None:
        return None
    form, args, reply = first
    size = next(a for a in args if type(a) is int)
    merges, raw = merges_in_answer(reply.value)
    state = function_state(merges, LINES)
    if state is None:
        return None
    how = (f"graded as word-level BPE in its own terms: {name}(corpus, {size}), the corpus {LINES[0]!r}... as "
           f"{form}; each merge it returns replayed over the corpus's words, spelt "
           f"{first_split('word', state.marker, state.prefix)!r}, must be a most frequent pair (ties any way)")
    call = f"{name}({', '.join(str(a) if type(a) is int else 'corpus' for a in args)})"
    wrong = replay(state, word_counts())
    if wrong is None:
        size_b = SIZE_B if size == SIZE else LARGE
        again = call_trainer(sandbox, name, params, LINES_B, size_b, deadline, form)
        state_b = function_state(merges_in_answer(again[2].value)[0], LINES_B) if again else None
        wrong = (replay(dataclasses.replace(state_b, marker=state.marker, prefix=state.prefix), word_counts(LINES_B))
                 if state_b else "it learned no merges of strings from it")
        call = f"on a second corpus {LINES_B[0]!r}..., {name}(corpus, {size_b})" if wrong else call
    result = _passed(name, "train", how) if wrong is None else _failed(name, "train", how, f"{call}: {wrong}", call)
    return result, (state.prefix, state.marker), raw, size


def grade_tokenize_function(sandbox, name, raw, spelling, timeout, trainer, size=SIZE):
    """tokenize(text, merges) beside a word-level trainer function: handed the merges that trainer
    returned, as it returned them, against those applied in order to each word spelt its way."""
    prefix, marker = spelling
    merges, _ = merges_in_answer(raw)
    got = tokens_of(sandbox.call(name, [TOKENIZE_TEXT, raw], exercise_deadline(timeout)))
    if got is None:
        return None
    expected = []
    for word in TOKENIZE_TEXT.split():
        symbols = first_split(word, marker, prefix)
        for pair in merges:
            symbols = merge_symbols(symbols, pair)
        expected += symbols
    how = (f"graded as word-level BPE in its own terms: handed the merges {trainer}(corpus, {size}) returned, "
           "against them applied in order to each word")
    return judged_tokens(name, f"{name}({TOKENIZE_TEXT!r}, merges)", got, expected, marker, how,
                         spelt=f"as {trainer} spells it, {first_split('word', marker, prefix)!r}")


def own_functions(defined, results):
    """{name: parameter names} of the submission's own top-level functions nothing graded yet."""
    return {name: info.get("names") or [] for name, info in defined.items()
            if name not in results and info.get("kind") == "callable" and info.get("methods") is None
            and info.get("own") is not False}


def grade_word_functions(sandbox, defined, results, timeout):
    """{name: Result} for a word-level trainer function and a tokenize(text, merges) beside it."""
    out, functions = {}, own_functions(defined, results)
    for name, params in functions.items():
        if len(params) >= 2 and not name.lower().lstrip("_").startswith(ENCODE_NAMES + ("decode",)) \
                and (found := grade_trainer_function(sandbox, name, params, timeout)) is not None:
            out[name], spelling, raw, size = found
            for other, names in functions.items():
                if other != name and len(names) >= 2 and "merge" in names[1].lower() \
                        and any(w in names[0].lower() for w in ("text", "str", "word", "sentence")) \
                        and (tokens := grade_tokenize_function(sandbox, other, raw, spelling, timeout, name, size)):
                    out[other] = tokens
            break
    return out


def grade_word_level(sandbox, defined, results, timeout):
    """{learner name: Result} for the word-level BPE classes among the submission's classes that
    nothing else graded, and a module-level word-level tokenize."""
    graded = {name.split(".")[0] for name in results}
    out = {}
    for name, info in defined.items():
        if name not in results and info.get("kind") == "callable" and info.get("methods") is None \
                and info.get("own") is not False and info.get("params") == 1 \
                and name.lower().lstrip("_").startswith(("tokeni", "encode")) \
                and not any("tokeniz" in t.lower() for t in info.get("word_tables") or ()) \
                and (found := grade_module_tokenize(sandbox, name, info, timeout)) is not None:
            out[name] = found
    out.update(grade_word_functions(sandbox, defined, {**results, **out}, timeout))
    for cls, info in defined.items():
        methods = info.get("methods")
        if not methods or cls in graded or info.get("inherited"):
            continue
        deadline = exercise_deadline(timeout)
        trained = train_word_level(sandbox, cls, methods, info.get("init_required") or 0, deadline)
        if trained is None:
            continue
        how = (f"graded as word-level BPE in its own terms: trained as {trained.call}, the corpus {LINES[0]!r}... "
               f"({len(LINES)} lines, {sum(word_counts().values())} words) as {trained.corpus}; its merges pair strings, so each part is checked against its own merges, "
               f"splits and end-of-word marker {trained.state.marker!r}")
        out[f"{cls}.{trained.train}"] = grade_train(sandbox, trained, how, methods, info.get("init_required") or 0,
                                                    exercise_deadline(timeout))
        for method, params in methods.items():
            if method in ("__init__", trained.train):
                continue
            lowered = method.lower().lstrip("_")
            if not params:
                found = grade_counter(sandbox, trained, method, exercise_deadline(timeout), how)
            elif len(params) in (1, 2) and not lowered.startswith(ENCODE_NAMES + ("decode",)):
                found = grade_merge(sandbox, trained, method, params, exercise_deadline(timeout), how)
            elif len(params) == 1 and lowered.startswith(ENCODE_NAMES):
                found = grade_tokenize(sandbox, trained, method, exercise_deadline(timeout), how)
            else:
                found = None
            if found is not None:
                out[found.name] = found
    return out
