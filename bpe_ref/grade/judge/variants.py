"""Signature variants that carry the same information as the course's, graded in their own terms.

decode(ids, merges) builds its own vocab from the merges: it is handed the merges that make the
course's vocab, never the vocab itself (which its code would rightly refuse). The parameter's name
tells the variant apart, since a vocab and a merges dict are both dicts.

A trainer written over ids, not text (trainer([ids of each chunk], num_merges) -> merges, or
(merges, vocab) either way round) is the course's train_regex with the split done by its caller:
it is handed the ids of the chunks of the text and the number of merges.
"""

import dataclasses
import functools

import regex

from ._private import naive
from .bounds import vocab_of
from ...formats.gpt2_files import bytes_to_unicode
from .diagnosis import is_pair_dict
from .display import show, times
from .shapes import Malformed
from .exercises.w06_encoding import ranked_vocab
from .exercises.w07_regex_splitting import chunk_ids

MERGES_WORDS = ("merge", "rank")  # a decode parameter so named takes merges, not a vocab


def merges_from_vocab(vocab):
    """The merges {(a, b): idx} that build `vocab` ({id: bytes}, bytes 0-255 first): each new
    token split into two earlier ones. None when some token is not made of two earlier ones."""
    earliest = {}
    for idx in sorted(vocab):
        earliest.setdefault(vocab[idx], idx)
    merges = {}
    for idx in sorted(i for i in vocab if i >= 256):
        token = vocab[idx]
        split = next(((earliest[token[:k]], earliest[token[k:]]) for k in range(1, len(token))
                      if earliest.get(token[:k], idx) < idx and earliest.get(token[k:], idx) < idx), None)
        if split is None:
            return None
        merges[split] = idx
    return merges


def takes_merges(exercise, params):
    """Whether a learner's function graded as `exercise` takes merges where the course passes a vocab."""
    return exercise == "decode" and len(params) >= 2 and any(w in params[1].lower() for w in MERGES_WORDS)


class Layout:
    """A caller around the engine's caller that hands a signature variant the course's arguments
    in its own terms (call); the by-hand watch and the work count go to the learner's function as
    they are."""

    wraps = False  # whether it only hands the course's own values one list deeper (ChunksOfOne), or in the
    # form of the one word-count table its code reads (Splits): a buggy function named for the exercise is kept

    def __init__(self, caller):
        self.caller = caller

    def by_hand(self, rule):
        return self.caller.by_hand(rule)

    def measure(self, text, vocab_size):
        return self.caller.measure(text, vocab_size)


# decode(ids, tables) whose tables are merges, whatever the parameter's name (decode(ids, tokens)):
# handed a vocab it cannot answer, handed the merges that build it, it spells these ids right
MERGES_PROBES = (([256, 100], {(97, 97): 256}, "aad"), ([257, 99], {(97, 98): 256, (256, 98): 257}, "abbc"))


def reads_merges_for_vocab(exercise, params, call):
    """Whether a decode(ids, tables) reads merges where the course passes a vocab: on each of
    MERGES_PROBES (call(args) -> reply) the vocab fails it and the merges give the text."""
    if exercise != "decode" or len(params) != 2:
        return False
    for ids, merges, text in MERGES_PROBES:
        if call((ids, vocab_of(merges))).kind == "ok":
            return False
        reply = call((ids, merges))
        if reply.kind != "ok" or reply.value != text:
            return False
    return True


class MergesForVocab(Layout):
    """A caller for decode(ids, merges): the course's (ids, vocab) go in as (ids, merges)."""

    how = "decode(ids, merges): handed the merges that build the vocab, since it builds its own"

    def call(self, args, rule=None):
        ids, vocab = args
        merges = merges_from_vocab(vocab) if isinstance(vocab, dict) else None
        return self.caller.call((ids, vocab if merges is None else merges), rule)


# encode(text, merges) that reads its merges as a list of pairs, the id of each its 256 + position
# (what the file's own trainer returned): handed these lists, a dict-reading encode raises (.get,
# .items(), merges[pair]) where a list-reading one answers ids, some of them merged
LIST_PROBES = (("aab", [(97, 97)]), ("abcd", [(98, 99), (97, 256), (257, 100)]))


def merges_listed(merges):
    """The course's merges {(a, b): id} as the list [(a, b), ...] in id order, when the ids are
    256, 257, ... with no gap (a position then says the id); else the dict itself, unchanged."""
    if not isinstance(merges, dict) or sorted(merges.values()) != list(range(256, 256 + len(merges))):
        return merges
    return [pair for pair, _ in sorted(merges.items(), key=lambda item: item[1])]


def reads_merges_list(exercise, params, call):
    """Whether an encode(text, merges) takes its merges as a list of pairs in rank order: handed
    LIST_PROBES (call(args) -> reply), it answers lists of ids, and applies some merge. Right or
    wrong is for the grading after: a list-reader with a bug is graded, and failed, in lists."""
    if exercise != "encode" or len(params) != 2 or not any(w in params[1].lower() for w in MERGES_WORDS):
        return False
    merged = False
    for text, merges in LIST_PROBES:
        reply = call((text, merges))
        if reply.kind != "ok" or not isinstance(reply.value, list) or not all(type(i) is int for i in reply.value):
            return False
        merged = merged or reply.value != list(text.encode("utf-8"))
    return merged


class MergesInOrder(Layout):
    """A caller for encode(text, merges as [(a, b), ...]): the course's merges dict goes in as the
    list of its pairs in id order, the list its trainer returns and its code reads."""

    how = ("encode(text, merges): handed the merges as a list of pairs in rank order, the id of each "
           "256 + its place, as its code reads them")

    def call(self, args, rule=None, **how):
        return self.caller.call((args[0], merges_listed(args[1]), *args[2:]), rule, **how)


def whole_vocab(merges):
    """The vocab the merges build, or None when they cannot build one (a merge of an id not made)."""
    try:
        return vocab_of(merges)
    except (KeyError, TypeError, ValueError):
        return None


class ModuleTables(Layout):
    """A caller for encode(text) or decode(ids) that reads module-level `merges` and `vocab` its
    notebook never made (the training cell read a data file that is not there): the course's
    tables are set as those globals before each call, as a learner whose cells ran would have them."""

    how = ("its one argument, with the course's merges and vocab set as the module-level `merges` and "
           "`vocab` it reads (its own were never made: the cell that trains them did not run)")

    def call(self, args, rule=None, twice=False):
        caller, table = self.caller, args[1]
        if caller.name == "encode":
            tables = {"merges": table, **({"vocab": vocab} if (vocab := whole_vocab(table)) else {})}
        else:
            merges = merges_from_vocab(table) if isinstance(table, dict) else None
            tables = {"vocab": table, **({"merges": merges} if merges is not None else {})}
        return caller.sandbox.call(caller.name, args[:1], caller.deadline, rule, twice, tables=tables)


class DropsPattern(Layout):
    """A caller for encode(text, merges) that splits with a pattern of its own: graded as the
    course's encode_ordinary with that pattern, the pattern itself never handed to it."""

    def call(self, args, rule=None, **how):
        return self.caller.call(tuple(args[:2]), rule, **how)


TABLE_WORDS = ("merge", "vocab", "rank", "table")  # a parameter so named takes the trained tables


def tables_first(exercise, params):
    """Whether an encode or decode takes its table first and its text or ids second, as its
    parameters' names say (encode(merges, text), decode(vocab, tokens))."""
    return exercise in ("encode", "decode") and len(params) == 2 \
        and any(w in params[0].lower() for w in TABLE_WORDS) and not any(w in params[1].lower() for w in TABLE_WORDS)


class TablesFirst(Layout):
    """A caller for encode(merges, text) or decode(vocab, ids): the course's two arguments go in
    the other way round, as the learner's parameters ask."""

    how = "the same two arguments, table first, as its parameters ask"

    def call(self, args, rule=None, **how):
        return self.caller.call((args[1], args[0]), rule, **how)


def vocab_and_merges(exercise, params):
    """Whether an encode takes the vocab beside the merges, in either order, after the text
    (encode(sentence, vocab, merges)): the course's merges, with the vocab they build."""
    names = [p.lower() for p in params[1:3]]
    return exercise == "encode" and len(names) == 2 and any("vocab" in n for n in names) \
        and any(any(w in n for w in MERGES_WORDS) and "vocab" not in n for n in names)


class VocabAndMerges(Layout):
    """A caller for encode(text, vocab, merges): the course's text and merges, and the vocab
    {id: bytes} the merges build."""

    how = "encode(text, vocab, merges): handed the vocab the merges build as well"
    vocab_first = True

    @classmethod
    def ordered(cls, params):
        """The layout for these parameters: the vocab second (this class) or third (MergesAndVocab)."""
        return cls if "vocab" in params[1].lower() else MergesAndVocab

    def call(self, args, rule=None, **how):
        text, merges = args
        vocab = ranked_vocab(merges)
        return self.caller.call((text, *((vocab, merges) if self.vocab_first else (merges, vocab))), rule, **how)


class MergesAndVocab(VocabAndMerges):
    """encode(text, merges, vocab): the same, the merges first."""

    how = "encode(text, merges, vocab): handed the vocab the merges build as well"
    vocab_first = False


# texts with pairs to spare under their pattern, so that finding a trainer over ids is not
# stopped by a bug the grading names anyway (no stop when the pairs run out)
OVER_IDS_PROBES = (("aaabdaaabac", 258), ("hello hello hello world", 260), ("dog dog dog. cat cat", 259))
TRAINER_WORDS = ("train", "fit", "learn", "merge")  # a trainer over ids is often named for its merges


def merges_in(value):
    """The merges dict a trainer returned: itself; the pair dict of a (merges, vocab) pair (or of
    a triple, the ids beside them); or the same read from a list of pairs in merge order, alone
    or beside a vocab ([(a, b), ...] -> {(a, b): 256, ...}), or of ((a, b), id) items."""
    if in_order(value):
        return {tuple(pair): 256 + rank for rank, pair in enumerate(value)}
    if isinstance(value, list) and not value:
        return {}  # no merges made, in a list of pairs
    if (listed := with_ids(value)) is not None:
        return listed
    if isinstance(value, (tuple, list)) and len(value) in (2, 3):
        value = [v if (listed := with_ids(v)) is None else listed for v in value]
        pairs = [v for v in value if is_pair_dict(v)]
        ordered = [v for v in value if in_order(v)]
        empty = [v for v in value if isinstance(v, dict) and not v]  # no merges made: {} beside a vocab
        if len(pairs) == 1 or (not pairs and not ordered and len(empty) == 1):
            return (pairs or empty)[0]
        if not pairs and len(ordered) == 1:
            return merges_in(ordered[0])
        if not pairs and not ordered and not empty and sum(isinstance(v, list) and not v for v in value) == 1:
            return {}  # no merges made: [] beside a vocab
    return value


def with_ids(value):
    """{(a, b): id} from a non-empty list of ((a, b), id): merges kept in order beside their ids; else None."""
    if isinstance(value, list) and value and all(
            isinstance(item, (tuple, list)) and len(item) == 2 and isinstance(item[0], (tuple, list))
            and len(item[0]) == 2 and all(type(i) is int for i in (*item[0], item[1])) for item in value):
        return {tuple(pair): idx for pair, idx in value}
    return None


def in_order(value):
    """Whether `value` is a non-empty list of (id, id) pairs: merges in the order they were made."""
    return isinstance(value, list) and bool(value) and all(
        isinstance(p, (tuple, list)) and len(p) == 2 and all(type(i) is int for i in p) for p in value)


class ReturnsMerges(Layout):
    """A caller for a trainer found by behaviour: the course's arguments as they are, its merges
    read from what it returns (merges_in: a (merges, vocab) pair, pairs in order)."""

    how = "it behaves like it on the probes (its merges read from what it returns)"

    def call(self, args, rule=None):
        reply = self.caller.call(args, rule)
        if reply.kind == "ok":
            reply.value = merges_in(reply.value)
        return reply


def refuses_flat_ids(exercise, params, call):
    """Whether a get_stats raises when handed ids alone, as the course calls it: then the answers
    to its own form (variants below) tell what it takes."""
    return exercise == "get_stats" and bool(params) and call(([1, 2, 3],)).kind == "raised"


# get_stats over a corpus, one id list per chunk (the regex trainer's counter): it cannot take flat
# ids, and it answers pair counts for a list of id lists
CORPUS_PROBES = ([[1, 2, 1, 2], [2, 1]], [[5], [5, 5, 5]])


def counts_over_chunks(exercise, params, call):
    """Whether a get_stats takes a list of id lists: handed flat ids it raises, handed each of
    CORPUS_PROBES (call(args) -> reply) it answers a dict of pairs. Right or wrong is for the
    grading after, in its own terms."""
    if not refuses_flat_ids(exercise, params, call):
        return False
    for corpus in CORPUS_PROBES:
        reply = call((corpus,))
        if reply.kind != "ok" or not is_pair_dict(reply.value):
            return False
    return True


class CorpusOfOne(Layout):
    """A caller for get_stats([ids of each chunk]): the course's ids go in as a corpus of one list
    (the list itself, so a change to it is seen); the counts come back as they are."""

    how = "get_stats(list of id lists): handed the course's ids as a list holding that one list"

    def call(self, args, rule=None):
        return self.caller.call(([args[0]], *args[1:]), rule)


class ChunksOfOne(CorpusOfOne):
    """A caller for merge([ids of each chunk], pair, idx), a regex trainer's merge over every chunk
    at once: the course's ids go in as CorpusOfOne hands them, and the one list that comes back is
    the answer."""

    how = "merge(list of id lists, pair, idx): handed the course's ids as a list holding that one list"
    wraps = True  # the course's own values, one list deeper, and its pair and id as they are

    def call(self, args, rule=None):
        reply = super().call(args, rule)
        if reply.kind == "ok" and isinstance(reply.value, (list, tuple)) and len(reply.value) == 1 \
                and isinstance(reply.value[0], (list, tuple)):
            reply.value = list(reply.value[0])
        return reply


def counts_given(exercise, params, call):
    """Whether a get_stats(ids, counts) needs the dict it counts into (minbpe's counts, with no
    default): called with ids alone it raises, with a fresh {} beside them it answers pair counts."""
    if len(params) != 2 or not refuses_flat_ids(exercise, params, call):
        return False
    reply = call(([1, 2, 1, 2], {}))
    return reply.kind == "ok" and is_pair_dict(reply.value)


class CountsGiven(Layout):
    """A caller for get_stats(ids, counts) whose counts has no default: handed a fresh {} each call."""

    how = "get_stats(ids, counts): handed a fresh {} to count into, its second parameter having no default"

    def call(self, args, rule=None):
        return self.caller.call((args[0], {}), rule)


class CountsAdded(Layout):
    """A caller for get_stats(ids, counts=None), minbpe's: handed a dict that already holds a count
    (EARLIER), as a caller adding chunk after chunk does; what it returns is read back without that
    count, or Malformed when the count was not added to."""

    how = "get_stats(ids, counts) too, handed a dict that already holds a count, which it should add to"
    EARLIER = {(-1, -1): 3}  # a pair no ids make: its count is only ever the one handed in

    def call(self, args, rule=None):
        reply = self.caller.call((args[0], dict(self.EARLIER)), rule)
        if reply.kind == "ok" and isinstance(reply.value, dict):
            got, (pair, count) = dict(reply.value), next(iter(self.EARLIER.items()))
            if got.pop(pair, None) != count:
                reply.value = Malformed(f"handed counts {self.EARLIER} it returned {show(reply.value, 60)}, "
                                        "without that count: add to the counts you are given (counts is for "
                                        "adding chunk after chunk), and start a new dict only when there are none")
            else:
                reply.value = got
        return reply


COUNTS_WORDS = ("count", "stat", "dict", "freq", "tally")  # get_stats(ids, counts): the dict it counts into


def counts_into(exercise, params):
    """Whether a get_stats(ids, counts) takes, second, the dict it counts into (CountsGiven, CountsAdded)."""
    return exercise == "get_stats" and len(params) == 2 and any(w in params[1].lower() for w in COUNTS_WORDS)


def adds_counts(exercise, params, defaults):
    """Whether a get_stats takes, with a default, the dict it counts into: get_stats(ids, counts=None)."""
    return counts_into(exercise, params) and defaults >= 1


# most_common_pair(ids): the top pair itself, the job the training loop asks of get_stats
NO_PAIR = ("ValueError", "IndexError")  # max() of no counts, most_common()[0] of none: there is no pair


def top_pair_read(value):
    """(pair, count) from what a top-pair function returns: the pair, (pair, count), (pair, counts)
    or Counter.most_common(1)'s [(pair, count)]; count None when it gives none. (None, None) when it
    is none of these (a list of every pair is not a top pair)."""
    def pair_of(v):
        return tuple(v) if isinstance(v, (tuple, list)) and len(v) == 2 and all(type(i) is int for i in v) else None
    if pair_of(value):
        return pair_of(value), None
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], tuple) and len(value[0]) == 2 \
            and pair_of(value[0][0]) and type(value[0][1]) is int:
        return pair_of(value[0][0]), value[0][1]
    if isinstance(value, tuple) and len(value) == 2 and pair_of(value[0]):
        if type(value[1]) is int:
            return pair_of(value[0]), value[1]
        if isinstance(value[1], dict):
            return pair_of(value[0]), value[1].get(pair_of(value[0]))
    return None, None


class TopPair(Layout):
    """A caller for most_common_pair(ids), which gives the most frequent pair (alone, with its count,
    or with the counts): read as the course's counts when its pair is one of those that occur most
    often (any of several tied) and any count it gives is right, else as Malformed, saying so. On
    fewer than two ids, raising ValueError/IndexError or giving None (or []) is its way to say there is none."""

    how = ("most_common_pair(ids) -> the most frequent pair: read as right when it is one of the pairs that "
           "occur most often (any of several tied) and any count it gives is right; raising or None when "
           "there is no pair")

    def call(self, args, rule=None):
        reply = self.caller.call(args, rule)
        expected = naive.get_stats(args[0])
        if not expected:
            none = reply.kind == "ok" and (reply.value is None or reply.value == []) or reply.kind == "raised" \
                and (reply.info.get("raised") or {}).get("type") in NO_PAIR
            return dataclasses.replace(reply, kind="ok", value={}) if none else reply
        if reply.kind == "ok":
            pair, count = top_pair_read(reply.value)
            top = max(expected.values())
            best = next(p for p, n in expected.items() if n == top)
            if pair is None or expected.get(pair) != top or count not in (None, top):
                said = f"{pair!r}, which occurs {times(expected.get(pair, 0))}" if pair else show(reply.value, 60)
                reply.value = Malformed(f"it gave {said}{f' (its count: {count})' if count is not None else ''}, "
                                        f"but {best!r} occurs {times(top)}: the top pair is the most frequent one",
                                        shaped=pair is not None)
            else:
                reply.value = dict(expected)
        return reply


# get_stats over a word-frequency table, Sennrich's word-level BPE ({'l o w </w>': 5}, symbols
# joined by spaces): it cannot take flat ids, and it answers counts of pairs of symbols
WORDS_PROBE = {"a b a b": 1, "b a": 2}


def counts_over_words(exercise, params, call):
    """Whether a get_stats takes a table {word of space-joined symbols: count}: handed flat ids it
    raises, handed WORDS_PROBE it answers a dict of pairs of symbols. Graded after in its own terms."""
    if not refuses_flat_ids(exercise, params, call):
        return False
    reply = call((WORDS_PROBE,))
    return reply.kind == "ok" and is_pair_dict(reply.value) and all(
        isinstance(a, str) and isinstance(b, str) for a, b in reply.value)


def _symbol(idx):
    """Id `idx` as a symbol of word-level BPE: idx + 1 x's and a y. Two joined never read as one
    ('xxyxxxy'), and a pair's text ends many other symbols ('xxy xxxy' is inside 'xxxxxy xxxy'), so a
    merge that ignores the borders between symbols shows."""
    return "x" * (idx + 1) + "y"


SYMBOL = regex.compile(r"(x+)y")
ACROSS_BORDERS = ("it joined text across the border between two symbols, not the pair's two whole symbols "
                  "(the pair's text ends another symbol, or starts one): match the pair only between spaces "
                  "or the word's ends, as (?<!\\S)first second(?!\\S) does")


def _symbol_id(symbol):
    """The id a symbol stands for (_symbol); anything else as it is, for the judge to refuse."""
    one = SYMBOL.fullmatch(symbol) if isinstance(symbol, str) else None
    return len(one.group(1)) - 1 if one else symbol


def _symbols_to_ids(word, pair, idx):
    """The ids a word of symbols spells: one symbol is its id, the pair's symbols joined are idx;
    any other symbol stays as it is (a merge across symbol borders), and the judge refuses it."""
    joined = _symbol(pair[0]) + _symbol(pair[1])
    return [idx if symbol == joined else _symbol_id(symbol) for symbol in word.split()]


def merged_ids(word, pair, idx):
    """The ids a merge's answer (a word of space-joined symbols) spells, or Malformed when a symbol
    is neither an id's nor the pair's joined: the merge joined text across a border."""
    got = _symbols_to_ids(word, pair, idx)
    return got if all(type(i) is int for i in got) else Malformed(ACROSS_BORDERS)


WORD_COUNT = 2  # a word's count handed to a pair counter: one that adds 1 per pair, not the count, shows
UNWEIGHTED = ("its counts are not multiples of the word's count ({count}): each pair of a word should add "
              "that word's count from the word counts, not 1")


def pair_counts_read(value):
    """A word-level pair counter's answer, handed one word of count WORD_COUNT, in the course's terms:
    its pairs of symbols as pairs of ids, its counts divided by the word's count (Malformed when
    a count is no multiple of it); anything else as it is."""
    if not isinstance(value, dict):
        return value
    if not all(type(v) is int and v % WORD_COUNT == 0 for v in value.values()):
        return Malformed(UNWEIGHTED.format(count=WORD_COUNT), shaped=True)
    return {tuple(map(_symbol_id, k)) if isinstance(k, tuple) else k: v // WORD_COUNT for k, v in value.items()}


class WordFreqs(Layout):
    """A caller for get_stats({word: count}): the course's ids go in as one word of count 2, each id
    a symbol (_symbol); the pairs of symbols come back as pairs of ids (pair_counts_read)."""

    how = (f"get_stats(vocab {{word: count}}), word-level BPE's form: handed the course's ids as one word "
           f"of count {WORD_COUNT}, each id a symbol")

    def call(self, args, rule=None):
        reply = self.caller.call(({" ".join(_symbol(i) for i in args[0]): WORD_COUNT}, *args[1:]), rule)
        if reply.kind == "ok":
            reply.value = pair_counts_read(reply.value)
        return reply


class WordMerge(Layout):
    """A caller for merge_vocab(pair, vocab) of word-level BPE: the course's ids go in as one word of
    count 1, each id a symbol (_symbol), the pair as two symbols; the word it gives back is read as
    ids, the pair's joined symbol as the new id. `pair_first`: the parameters' order."""

    how = ("merge_vocab(pair, vocab {word: count}), word-level BPE's form: handed the course's ids as one "
           "word of count 1, each id a symbol (id 2 is 'xxxy'), the merged symbol read as the new id")

    def __init__(self, caller, pair_first=True):
        super().__init__(caller)
        self.pair_first = pair_first

    def call(self, args, rule=None):
        ids, pair, idx = args
        vocab = {" ".join(_symbol(i) for i in ids): 1}
        symbols = (_symbol(pair[0]), _symbol(pair[1]))
        reply = self.caller.call((symbols, vocab) if self.pair_first else (vocab, symbols), rule)
        if reply.kind == "ok" and isinstance(reply.value, dict) and len(reply.value) == 1:
            word = next(iter(reply.value))
            if isinstance(word, str):
                reply.value = merged_ids(word, pair, idx)
        return reply


def word_merge(params):
    """The WordMerge caller for a two-parameter merge: the pair first unless only the second
    parameter is named for it."""
    pair_first = not ("pair" in params[1].lower() and "pair" not in params[0].lower())
    return functools.partial(WordMerge, pair_first=pair_first)


class SymbolsMerge(Layout):
    """A caller for merge_pair(word, pair) of word-level BPE over one word's symbols (a tuple of
    characters and an end-of-word marker): the course's ids go in as symbols (_symbol), the pair as
    two symbols; the symbols it gives back are read as ids, the pair's joined symbol as the new id."""

    how = ("merge_pair(word, pair), word-level BPE's form: handed the course's ids as one word's symbols "
           "(id 2 is 'xxxy'), the merged symbol read as the new id")

    def __init__(self, caller, pair_first=False):
        super().__init__(caller)
        self.pair_first = pair_first

    def call(self, args, rule=None):
        ids, pair, idx = args
        word, symbols = self.word(_symbol(i) for i in ids), (self.spell(pair[0]), self.spell(pair[1]))
        reply = self.caller.call((symbols, word) if self.pair_first else (word, symbols), rule)
        got = self.answer(reply.value) if reply.kind == "ok" else None
        if got is not None:
            reply.value = merged_ids(" ".join(got), pair, idx)
        return reply

    word = tuple  # one word's symbols as it takes them
    spell = staticmethod(_symbol)

    @staticmethod
    def answer(value):
        """The symbols it gave back, as text, or None when they are not symbols."""
        return value if isinstance(value, (list, tuple)) and all(isinstance(s, str) for s in value) else None


def symbols_merge(params):
    """The SymbolsMerge caller for a two-parameter merge: the word first unless only the first
    parameter is named for the pair."""
    pair_first = "pair" in params[0].lower() and "pair" not in params[1].lower()
    return functools.partial(SymbolsMerge, pair_first=pair_first)


class BytesMerge(SymbolsMerge):
    """A caller for merge(tokens, pair) over one pre-token's tokens as bytes (CS336's helper, beside its
    trainer or encoder): the course's ids go in as bytes tokens (id 2 is b'xxxy'), the pair as two of
    them; the tokens it gives back (alone, or first beside the pair-count changes it also returns) are
    read as ids, the pair's joined bytes as the new id."""

    how = ("merge(tokens, pair) over one pre-token's bytes tokens, CS336's form: handed the course's ids as bytes "
           "tokens (id 2 is b'xxxy'), the merged token read as the new id")

    @staticmethod
    def word(symbols):
        return [s.encode("ascii") for s in symbols]

    @staticmethod
    def spell(idx):
        return _symbol(idx).encode("ascii")

    @staticmethod
    def answer(value):
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], (list, tuple)):
            value = value[0]  # (tokens, changes to the pair counts)
        if isinstance(value, (list, tuple)) and all(isinstance(t, bytes) for t in value):
            return [t.decode("ascii", "replace") for t in value]
        return None


def bytes_merge(params):
    """The BytesMerge caller for a two-parameter merge: the tokens first unless only the first
    parameter is named for the pair."""
    return functools.partial(BytesMerge, pair_first="pair" in params[0].lower() and "pair" not in params[1].lower())


def spelled(merges, spell):
    """({id: text}, [(text, text), ...]): the course's merges as word-level BPE writes them, each byte
    `spell(byte)` and each merged id its pair's two texts joined; the pairs in rank order. An id no
    earlier merge made is `spell(id)`."""
    texts = {i: spell(i) for i in range(256)}
    rules = []
    for (a, b), idx in sorted(merges.items(), key=lambda item: item[1]):
        rules.append((texts.get(a) or spell(a), texts.get(b) or spell(b)))
        texts[idx] = rules[-1][0] + rules[-1][1]
    return texts, rules


def read_spelled(reply, texts):
    """`reply` with its answer (and a second call's, `again`) read from texts back to the ids they
    spell (SymbolsEncode.read); the smallest id where two spell the same."""
    if reply.kind == "ok":
        ids = {text: idx for idx, text in sorted(texts.items(), reverse=True)}
        reply.value = SymbolsEncode.read(reply.value, ids)
        if "again" in reply.info:  # the same call made twice: the second answer too
            reply.info = {**reply.info, "again": SymbolsEncode.read(reply.info["again"], ids)}
    return reply


class SymbolsEncode(Layout):
    """A caller for apply_bpe(word, merge_rules) of word-level BPE: the course's text goes in as the
    symbols of its bytes (_symbol), its merges as the list of their pairs of symbols in rank order;
    the symbols it gives back are read as the ids they stand for."""

    how = ("apply_bpe(word, merge_rules), word-level BPE's form: handed the text's bytes as symbols (byte 2 is "
           "'xxxy') and the merges as pairs of symbols in rank order, a merged symbol read as its id")

    def call(self, args, rule=None, **how):
        text, merges = args[:2]
        if not isinstance(merges, dict) or not isinstance(text, str):
            return self.caller.call(args, rule, **how)
        symbols, rules = spelled(merges, _symbol)
        return read_spelled(self.caller.call((tuple(_symbol(b) for b in text.encode("utf-8")), rules), rule, **how),
                            symbols)

    @staticmethod
    def read(value, ids):
        """The ids a list of symbols stands for; anything else as it is, for the judge to refuse."""
        if not (isinstance(value, (list, tuple)) and all(isinstance(s, str) for s in value)):
            return value
        got = [ids.get(s, s) for s in value]
        return got if all(type(i) is int for i in got) else Malformed(
            "it gave back a symbol that is no merge's: " + show(next(s for s in got if type(s) is not int), 40))


def names_among(tables, word):
    """The names among `tables` (as the worker reports them) that hold `word`."""
    return [t for t in tables if isinstance(t, str) and t.isidentifier() and word in t.lower()]


def hf_tables(tables):
    """(merges name, tokenizer name) a Hugging Face course tokenize(text) reads, or None: one
    module-level name read for the merges and one, never made, for the tokenizer it pre-tokenizes with."""
    merges, tokenizers = names_among(tables, "merge"), names_among(tables, "tokeniz")
    return (merges[0], tokenizers[0]) if len(merges) == 1 and len(tokenizers) == 1 else None


class PreTokenized(Layout):
    """A caller for the Hugging Face course's tokenize(text): the course's text goes in written in
    GPT-2's byte characters, the module-level `tokenizer` it pre-tokenizes with is a stand-in that
    keeps the text whole (its own needed a download), and its module-level merges are the course's,
    {(a, b): a + b} in rank order, as strings of those characters; the tokens it gives back are read
    as the ids whose bytes they spell."""

    def __init__(self, caller, merges="merges", tokenizer="tokenizer"):
        super().__init__(caller)
        self.merges_name, self.tokenizer_name = merges, tokenizer

    @property
    def how(self):
        return (f"tokenize(text), the Hugging Face course's form: handed the text in GPT-2's byte characters, "
                f"the course's merges as the module-level `{self.merges_name}` {{(a, b): a + b}} it reads, and a "
                f"`{self.tokenizer_name}` whose pre-tokenizer keeps the text whole, so only the merges are graded")

    def call(self, args, rule=None, **how):
        text, merges = args[:2]
        if not isinstance(merges, dict) or not isinstance(text, str):
            return self.caller.call(args, rule, **how)
        chars = bytes_to_unicode()
        tokens, rules = spelled(merges, lambda i: chars.get(i, "?"))
        reply = self.caller.call(("".join(chars[b] for b in text.encode("utf-8")),), rule, **how,
                                 tables={self.merges_name: {pair: pair[0] + pair[1] for pair in rules}},
                                 stand_ins={self.tokenizer_name: "whole_text_pre_tokenizer"})
        return read_spelled(reply, tokens)


# the Hugging Face course's word-level BPE: splits {word: [symbols]}, the word counts in a
# module-level dict the functions read (word_freqs), or handed beside the splits
SPLIT_WORD = "word"
FREQ_WORDS = ("freq", "count", "word")  # a word-count table is named for what it holds


NOT_COUNTS = ("merge", "vocab", "token", "rank")  # tables named for what word counts are not


def word_table(tables):
    """The one module-level name, of those a function reads as word-level tables, to set as its
    word counts: the only one, or the only one named for counts of words; never one named for
    merges, a vocab or a tokenizer. None when that does not single one out."""
    tables = [t for t in tables if isinstance(t, str) and t.isidentifier()
              and not any(w in t.lower() for w in NOT_COUNTS)]
    named = [t for t in tables if any(w in t.lower() for w in FREQ_WORDS)]
    return tables[0] if len(tables) == 1 else named[0] if len(named) == 1 else None


class Splits(Layout):
    """A caller for the Hugging Face course's form: the course's ids go in as the symbols of one
    word (_symbol) in splits {word: [symbols]}, and that word's count (`count`) in the word-count
    table: set as the module-level `table` the function reads, or handed after the splits (`table` None)."""

    def __init__(self, caller, table=None):
        super().__init__(caller)
        self.table = table

    count = 1  # the word's count in the word counts
    wraps = True

    def splits_call(self, args, ids, rule):
        splits, counts = {SPLIT_WORD: [_symbol(i) for i in ids]}, {SPLIT_WORD: self.count}
        if self.table is None:
            return self.caller.call((*args, splits, counts), rule)
        return self.caller.call((*args, splits), rule, tables={self.table: counts})

    def beside(self):
        return "" if self.table else ", word counts"

    def counted_in(self):
        return (f"its count {self.count} in the module-level `{self.table}` it reads" if self.table
                else f"its count {self.count} in the word counts handed after them")


class SplitsCounts(Splits):
    """compute_pair_freqs(splits): the pairs of symbols come back as pairs of ids, their counts
    divided by the word's count (pair_counts_read)."""

    count = WORD_COUNT

    @property
    def how(self):
        return (f"compute_pair_freqs(splits {{word: [symbols]}}{self.beside()}), the Hugging Face course's form: "
                f"handed the course's ids as the symbols of one word, {self.counted_in()}")

    def call(self, args, rule=None):
        reply = self.splits_call((), args[0], rule)
        if reply.kind == "ok":
            reply.value = pair_counts_read(reply.value)
        return reply


class SplitsMerge(Splits):
    """merge_pair(a, b, splits), or merge_pair(pair, splits) (`whole_pair`): the pair goes in as two
    symbols; the word's symbols it gives back are read as ids, the pair's joined symbol as the new id."""

    def __init__(self, caller, table=None, whole_pair=False):
        super().__init__(caller, table)
        self.whole_pair = whole_pair

    @property
    def how(self):
        pair = "pair" if self.whole_pair else "a, b"
        return (f"merge_pair({pair}, splits {{word: [symbols]}}{self.beside()}), the Hugging Face course's form: "
                f"handed the course's ids as the symbols of one word (id 2 is 'xxxy'), {self.counted_in()}; the "
                "merged symbol read as the new id")

    def call(self, args, rule=None):
        ids, pair, idx = args
        symbols = (_symbol(pair[0]), _symbol(pair[1]))
        reply = self.splits_call((symbols,) if self.whole_pair else symbols, ids, rule)
        if reply.kind == "ok" and isinstance(reply.value, dict) and len(reply.value) == 1:
            symbols = reply.value.get(SPLIT_WORD)
            if isinstance(symbols, (list, tuple)) and all(isinstance(s, str) for s in symbols):
                reply.value = merged_ids(" ".join(symbols), pair, idx)
        return reply


def splits_layouts(exercise, params, tables):
    """The Hugging Face course's layouts a function of these parameters may be in: compute_pair_freqs
    (splits) or (splits, word_freqs), merge_pair(a, b, splits) or (a, b, splits, word_freqs), and
    merge_pair(pair, splits) beside word counts it reads."""
    table = word_table(tables)
    wanted = {"get_stats": 1, "merge": 3}.get(exercise)
    if wanted is None:
        return ()
    if exercise == "merge" and len(params) == 2 and table and "pair" in params[0].lower():
        return (functools.partial(SplitsMerge, table=table, whole_pair=True),)
    if len(params) == wanted and table:
        return (functools.partial(SplitsCounts if exercise == "get_stats" else SplitsMerge, table=table),)
    if len(params) == wanted + 1 and any(w in params[-1].lower() for w in FREQ_WORDS):
        return (SplitsCounts if exercise == "get_stats" else SplitsMerge,)
    return ()


class OverIds(Layout):
    """A caller for trainer([ids of each chunk], num_merges): the course's (text, vocab_size, pattern)
    go in as the ids of the text's chunks and vocab_size - 256; the merges come back as they are."""

    how = ("trainer(ids of each chunk, num_merges): handed the ids of the text's chunks (the pattern's "
           "split) and vocab_size - 256, the merges read from what it returns")

    def call(self, args, rule=None):
        text, vocab_size, pattern = args
        reply = self.caller.call((chunk_ids(text, pattern), vocab_size - 256), rule)
        if reply.kind == "ok":
            reply.value = merges_in(reply.value)
        return reply


class FlatIds(Layout):
    """A caller for trainer(ids, size) over the whole text's bytes, unsplit (a lecture notebook's
    mint(tokens, vocab_size) -> (ids, merges)): the course's train, with the bytes taken for it.
    `size` is vocab_size when the parameter is named for it, else the number of merges."""

    how = ("trainer(ids, size): handed the text's bytes as ids and the size its parameter names, "
           "the merges read from what it returns")

    def __init__(self, caller, size_param=""):
        super().__init__(caller)
        self.takes_vocab_size = "vocab" in size_param.lower()

    def call(self, args, rule=None):
        text, vocab_size = args[:2]
        size = vocab_size if self.takes_vocab_size else vocab_size - 256
        reply = self.caller.call((list(text.encode("utf-8")), size), rule)
        if reply.kind == "ok":
            reply.value = merges_in(reply.value)
        return reply


class Reordered(Layout):
    """A caller for a function that takes the course's arguments in another order (mergef(pair,
    idx, ids) for merge(ids, pair, idx)): the same information, handed over in its own order."""

    def __init__(self, caller, order=(), names=()):
        super().__init__(caller)
        self.order = order
        shown = ", ".join(names[i] for i in order) if len(names) == len(order) else "its own order"
        self.how = f"it behaves like it on the probes, given the course's arguments as ({shown})"

    def call(self, args, rule=None):
        return self.caller.call(tuple(args[i] for i in self.order), rule)


class SpecialsThird(Layout):
    """A caller for encode(text, merges, special_tokens) that splits with a pattern of its own and
    finds every special token it is given: the course's encode_special with all of them allowed."""

    def call(self, args, rule=None, **how):
        text, merges, _, special_tokens, _ = args
        return self.caller.call((text, merges, special_tokens), rule, **how)


SPECIALS_PROBE = ("a<|x|>b", {}, {"<|x|>": 300})  # a dict of special tokens, its id put in: [97, 300, 98]
