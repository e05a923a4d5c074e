"""Word-level BPE written as functions, graded in its own terms: a module-level tokenize(text) that
reads one merges table, a trainer learn(corpus, num_merges) whose merges are replayed on two
corpora, and a tokenize(text, merges) beside it handed that trainer's merges.
"""

import dataclasses

from ...walls.sandbox import exercise_deadline
from .corpus import (ENCODE_NAMES, LARGE, LINES, LINES_B, SIZE, SIZE_B, TOKENIZE_TEXT, arguments, corpus_forms,
                     first_split, learned_merges, merge_symbols, pair_counts, tokenized, word_counts)
from .state import WordState, exhausted, replay, string_pairs
from .verdicts import failed, judged_tokens, passed, takes_one_word, tokens_by_word, tokens_of



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


def merges_in_answer(value):
    """The merges [(a, b)] in order in a word-level trainer's answer (a list of string pairs, of
    (pair, count), or a dict keyed by pairs; alone or in a tuple beside other things), and the part
    that holds them, as it came; (None, None) when there are none."""
    for part in [value, *(value if isinstance(value, tuple) else ())]:
        if isinstance(part, list) and part and all(isinstance(x, tuple) and len(x) == 2 and string_pairs([x[0]])
                                                   for x in part):
            return [x[0] for x in part], part
        if string_pairs(part):
            return list(string_pairs(part)), part
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
    if wrong is None:
        def train(lines):
            args = arguments(params, dict(corpus_forms(lines))[form], size=LARGE)
            reply = sandbox.call(name, args, deadline)
            merges = merges_in_answer(reply.value)[0] if reply.kind == "ok" else None
            return f"{name}({', '.join(str(a) if type(a) is int else 'corpus' for a in args)})", reply, merges
        call, wrong = exhausted(train, state)
    result = passed(name, "train", how) if wrong is None else failed(name, "train", how, f"{call}: {wrong}", call)
    return result, (state.prefix, state.marker), raw, size


def grade_tokenize_function(sandbox, name, raw, spelling, timeout, trainer, size=SIZE, one_word=False):
    """tokenize(text, merges) beside a word-level trainer function: handed the merges that trainer
    returned, as it returned them, against those applied in order to each word spelt its way
    (`one_word`: segment(word, merges), handed the text's words one by one)."""
    prefix, marker = spelling
    merges, _ = merges_in_answer(raw)
    deadline = exercise_deadline(timeout)
    got = tokens_by_word(lambda text: sandbox.call(name, [text, raw], deadline), TOKENIZE_TEXT, one_word)
    if got is None:
        return None
    expected = tokenized(TOKENIZE_TEXT, merges, marker, prefix)
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
                        and (tokens := grade_tokenize_function(sandbox, other, raw, spelling, timeout, name, size,
                                                               takes_one_word(names[0]))):
                    out[other] = tokens
            break
    return out
