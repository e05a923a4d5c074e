"""The graded exercises: for each name in the contract, the inputs to try and how to judge.

Every judge computes what is right with bpe_ref, in the grader's own process, and accepts any
correct answer (e.g. any of several tied pairs in `train`). Fixed cases come first (small edge
cases that catch the classic bugs); then hypothesis searches and shrinks a failing input.
"""

import ast
from dataclasses import dataclass
from typing import Callable

import regex
from hypothesis import strategies as st

from ._private import naive
from ..encodings import recover_merges as reference_recover_merges
from ..patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, O200K_SPLIT_PATTERN
from ..regex_tokenizer import RegexTokenizer


@dataclass
class Mismatch:
    """Why an answer is wrong: the expected value to show, and an optional explanation."""

    expected: object
    note: str = ""


@dataclass
class Exercise:
    name: str
    signature: str
    cases: Callable  # () -> list of argument tuples, smallest first
    strategy: object  # hypothesis strategy of argument tuples
    judge: Callable  # (args, got) -> Mismatch | None
    hint: str
    diagnose: Callable = None  # (args, got) -> a more specific hint, or None
    forbidden: Callable = None  # (function source) -> why it is not allowed, or None
    checks_mutation: bool = False
    examples: int = 80
    workbook: str = ""  # the workbook that teaches it, e.g. "04_naive_bpe"
    section: str = ""  # the heading of its exercise there, as the learner sees it
    task: str = ""  # one line: what to write (shown in the learner's stub)


REGISTRY = {}


def exercise(**kwargs):
    ex = Exercise(**kwargs)
    REGISTRY[ex.name] = ex
    return ex


def equal_to(reference):
    """A judge comparing with reference(*args) exactly."""
    def judge(args, got):
        expected = reference(*args)
        return None if same(got, expected) else Mismatch(expected)
    return judge


class Raised:
    """What a learner's function raised instead of returning (type name, message, where)."""

    def __init__(self, type_name, message, where=None, kinds=None):
        self.type_name, self.message, self.where = type_name, message, where
        self.kinds = kinds or [type_name]  # the exception's class and its bases, by name

    def is_a(self, name):
        return name in self.kinds

    def __eq__(self, other):
        return False

    __hash__ = object.__hash__

    def __repr__(self):
        return f"raised {self.type_name}: {self.message}" + (f" ({self.where})" if self.where else "")


def same(got, expected):
    """Equality that accepts a tuple for a list and a dict subclass (Counter) for a dict."""
    if isinstance(expected, list) and isinstance(got, tuple):
        got = list(got)
    try:
        return (got == expected) is True
    except Exception:  # noqa: BLE001 - a learner's object with a strange __eq__
        return False


# ---------------------------------------------------------------------------- strategies

SMALL_TEXT = st.sampled_from(["ab", "abc", "ab ", "aé", "a😀", "한국", "aab c"]).flatmap(
    lambda alphabet: st.text(alphabet=alphabet, max_size=24))
MIXED_TEXT = st.text(alphabet=st.sampled_from(list("ab é😀한\n'1")), max_size=30)
TRAIN_TEXTS = ["aaabdaaabac", "hello hello world", "ababababab", "안녕 안녕 안녕하세요",
               "mañana mañana", "😀😀😀 😀", "abcabcabc abc"]
IDS = st.lists(st.integers(0, 3), max_size=14)
CODE_POINTS = st.characters(exclude_categories=("Cs",))
BOUNDARY_CHARS = [chr(cp) for cp in (0, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x20AC, 0xFFFF,
                                     0x10000, 0x1F600, 0x10FFFF)]


@st.composite
def trained_merges(draw, max_merges=14):
    text = draw(SMALL_TEXT | st.sampled_from(TRAIN_TEXTS))
    return naive.train(text, 256 + draw(st.integers(0, max_merges)))


# ---------------------------------------------------------------------------- 01 hex / 02 unicode

def calls_any(source, names):
    """The names of `names` that the function source calls (bare or as a method)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else None
            if name in names:
                if name in ("int", "bytes") and len(node.args) < 2 and not node.keywords:
                    continue  # int(x), bytes([...]) are fine; int(s, 16), bytes(text, "utf-8") are shortcuts
                found.add(name)
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            spec = ast.unparse(node.format_spec)
            if "x" in spec.lower():
                found.add("an f-string format")
    return found


def forbid(*names):
    def check(source):
        used = calls_any(source, set(names))
        if used:
            return f"uses {', '.join(sorted(used))}: the point is to do it by hand"
        return None
    return check


exercise(
    name="to_hex", signature="to_hex(n) -> str",
    workbook='01_hex', section='2. Writing hex by hand: `to_hex`',
    task="repeat divmod(n, 16) and read the remainders backwards; 0 -> '0'",
    cases=lambda: [(0,), (9,), (10,), (15,), (16,), (255,), (256,), (4096,), (0x1F600,)],
    strategy=st.tuples(st.integers(0, 2**40)),
    judge=equal_to(lambda n: format(n, "x")),
    hint="repeat divmod(n, 16); the remainders, read backwards, are the digits; 0 is '0'",
    forbidden=forbid("hex", "format", "an f-string format"),
)

exercise(
    name="from_hex", signature="from_hex(s) -> int",
    workbook='01_hex', section='3. Reading hex by hand: `from_hex`',
    task="n = n * 16 + the digit's value, left to right; lower-case s and drop a '0x' first",
    cases=lambda: [("0",), ("a",), ("ff",), ("FF",), ("10",), ("0x1f",), ("0x1F600",), ("100",)],
    strategy=st.tuples(st.integers(0, 2**40).flatmap(lambda n: st.sampled_from(
        [format(n, "x"), format(n, "X"), "0x" + format(n, "x")]))),
    judge=equal_to(lambda s: int(s, 16)),
    hint="n = n * 16 + value of each digit, left to right; accept upper case and a '0x' prefix",
    forbidden=forbid("int", "literal_eval", "eval"),
)

exercise(
    name="u_plus", signature="u_plus(ch) -> str",
    workbook='00_start_here', section='2. How an exercise works',
    task="return 'U+' then ord(ch) in upper-case hex, padded to at least 4 digits",
    cases=lambda: [(c,) for c in ["A", "\x00", "é", "€", "한", "😀", "\U0010FFFF"]],
    strategy=st.tuples(CODE_POINTS),
    judge=equal_to(lambda ch: f"U+{ord(ch):04X}"),
    hint="'U+' then ord(ch) in upper-case hex, padded to at least 4 digits: U+00E9, U+1F600",
)

exercise(
    name="from_u_plus", signature="from_u_plus(name) -> str",
    workbook='02_unicode', section='3. From `U+` back to the character: `from_u_plus`',
    task="drop the 'U+', read the rest as hex, then chr()",
    cases=lambda: [("U+0041",), ("U+00E9",), ("U+1F600",), ("U+10FFFF",), ("U+0000",)],
    strategy=st.tuples(CODE_POINTS.map(lambda ch: f"U+{ord(ch):04X}")),
    judge=equal_to(lambda name: chr(int(name[2:], 16))),
    hint="drop the 'U+', read the rest as hex, then chr()",
)

# ---------------------------------------------------------------------------- 03 utf8

exercise(
    name="utf8_encode", signature="utf8_encode(text) -> bytes",
    workbook='03_utf8', section='3. Encoding by hand',
    task='for each code point, append 1-4 bytes: the prefix bits | the payload bits',
    cases=lambda: [("",), ("a",)] + [(c,) for c in BOUNDARY_CHARS] + [("héllo 한 😀",)],
    strategy=st.tuples(st.text(alphabet=CODE_POINTS, max_size=12)),
    judge=equal_to(lambda text: text.encode("utf-8")),
    hint="pick 1/2/3/4 bytes by the code point's size (< 0x80, < 0x800, < 0x10000); "
         "the first byte starts 0/110/1110/11110, the others 10",
    forbidden=forbid("encode", "bytes"),
)

# ---------------------------------------------------------------------------- 04 naive BPE

def diagnose_get_stats(args, got):
    (ids,) = args
    if len(ids) >= 2 and isinstance(got, dict):
        last = (ids[-2], ids[-1])
        if got.get(last, 0) == naive.get_stats(ids[:-1]).get(last, 0) and last not in naive.get_stats(ids[:-1]):
            return "the last pair is missing: zip(ids, ids[1:]) visits every neighbour, including the last"
    return None


exercise(
    name="get_stats", signature="get_stats(ids) -> dict[(int, int), int]",
    workbook='04_naive_bpe', section='2. Counting pairs',
    task='count every consecutive pair (a dict: pair -> count)',
    cases=lambda: [([],), ([1],), ([1, 2],), ([1, 1, 1],), ([1, 2, 3, 1, 2],), ([5, 5, 5, 5],)],
    strategy=st.tuples(IDS),
    judge=equal_to(naive.get_stats),
    hint="count every consecutive pair: for pair in zip(ids, ids[1:])",
    diagnose=diagnose_get_stats,
)


def diagnose_merge(args, got):
    ids, pair, idx = args
    if isinstance(got, (list, tuple)) and list(got).count(idx) > naive.merge(ids, pair, idx).count(idx):
        return "matches overlap: after replacing a pair, skip both of its ids (i += 2)"
    return None


exercise(
    name="merge", signature="merge(ids, pair, idx) -> list[int]",
    workbook='04_naive_bpe', section='3. Merging a pair',
    task='build a new list: idx where the pair starts (then skip 2), else the id itself',
    cases=lambda: [([], (1, 2), 256), ([1], (1, 2), 256), ([1, 2], (1, 2), 256),
                   ([5, 5, 5], (5, 5), 256), ([1, 2, 3, 1, 2], (1, 2), 300), ([3, 1], (1, 2), 256)],
    strategy=st.tuples(IDS, st.tuples(st.integers(0, 3), st.integers(0, 3)), st.integers(256, 300)),
    judge=equal_to(naive.merge),
    hint="walk left to right; where ids[i], ids[i+1] is the pair, append idx and jump 2, else append ids[i]",
    diagnose=diagnose_merge,
    checks_mutation=True,
)


def replay_merges(chunks, merges, vocab_size):
    """None if `merges` is a greedy BPE of the chunks (ties allowed), else what is wrong."""
    if not isinstance(merges, dict):
        return f"should return a dict {{(id, id): new_id}}, not {type(merges).__name__}"
    wanted = vocab_size - 256
    for step, (pair, idx) in enumerate(merges.items()):
        if idx != 256 + step:
            return f"merge #{step + 1} got id {idx!r}; new ids run 256, 257, ... so it should be {256 + step}"
        stats = {}
        for ids in chunks:
            naive.get_stats(ids, stats)
        if not stats:
            return f"merge #{step + 1} {pair!r}: no pair was left to merge, so training should have stopped"
        best = max(stats.values())
        if stats.get(pair, 0) != best:
            top = max(stats, key=stats.get)
            return (f"merge #{step + 1} picked {pair!r}, which occurs {stats.get(pair, 0)} times, "
                    f"but {top!r} occurs {best} times")
        chunks = [naive.merge(ids, pair, idx) for ids in chunks]
    if len(merges) > wanted:
        return f"made {len(merges)} merges; vocab_size={vocab_size} allows {wanted}"
    if len(merges) < wanted and any(len(ids) >= 2 for ids in chunks):
        return f"stopped after {len(merges)} merges, but {wanted} were asked for and pairs were left"
    return None


def diagnose_train(args, got):
    if isinstance(got, Raised) and "empty" in got.message:
        return "when no pair is left (text shorter than 2 bytes), stop training instead of calling max()"
    if isinstance(got, dict) and got and min(got.values()) != 256:
        return "the first new id is 256: ids 0..255 are the single bytes"
    return None


def judge_train(args, got):
    text, vocab_size = args
    if isinstance(got, Raised):
        return Mismatch(naive.train(text, vocab_size))
    problem = replay_merges([list(text.encode("utf-8"))], got, vocab_size)
    return None if problem is None else Mismatch(naive.train(text, vocab_size), problem)


exercise(
    name="train", signature="train(text, vocab_size) -> dict[(int, int), int]",
    workbook='04_naive_bpe', section='4. Training',
    task='loop: count pairs, merge the most frequent under the next id, record it; stop if no pair is left',
    cases=lambda: [("", 260), ("a", 260), ("ab", 256), ("ab", 260), ("aaabdaaabac", 259),
                   ("hello hello world", 270), ("안녕 안녕", 262)],
    strategy=st.tuples(SMALL_TEXT, st.integers(256, 270)),
    judge=judge_train,
    diagnose=diagnose_train,
    hint="repeat vocab_size - 256 times: count pairs, merge the most frequent with ids 256, 257, ...; "
         "stop when no pair is left",
    examples=60,
)

exercise(
    name="build_vocab", signature="build_vocab(merges) -> dict[int, bytes]",
    workbook='05_decoding', section='1. The vocab: which bytes each id stands for',
    task='start from the 256 single bytes, then vocab[idx] = vocab[p0] + vocab[p1] for each merge, in order',
    cases=lambda: [({},), (naive.train("aaabdaaabac", 259),), (naive.train("안녕 안녕", 262),)],
    strategy=st.tuples(trained_merges()),
    judge=equal_to(naive.build_vocab),
    hint="start from {i: bytes([i]) for i in range(256)}, then vocab[idx] = vocab[p0] + vocab[p1] in merge order",
)


@st.composite
def decode_args(draw):
    merges = draw(trained_merges())
    vocab = naive.build_vocab(merges)
    ids = draw(st.lists(st.sampled_from(sorted(vocab)), max_size=8)
               | MIXED_TEXT.map(lambda t: naive.encode(t, merges)))
    return ids, vocab


def diagnose_decode(args, got):
    if isinstance(got, Raised) and "Decode" in got.type_name:
        return "bytes that are not valid UTF-8 must not raise: decode with errors='replace'"
    return None


exercise(
    name="decode", signature="decode(ids, vocab) -> str",
    workbook='05_decoding', section='3. `decode`: join all the bytes, then decode once',
    task="join vocab[idx] for every id into one bytes object, then .decode('utf-8', errors='replace')",
    cases=lambda: [([], naive.build_vocab({})), ([104, 105], naive.build_vocab({})),
                   ([0x80], naive.build_vocab({})), ([0xF0, 0x9F], naive.build_vocab({})),
                   ([256, 100], naive.build_vocab(naive.train("aaabdaaabac", 257)))],
    strategy=decode_args(),
    judge=equal_to(naive.decode),
    hint="join the bytes of every id, then .decode('utf-8', errors='replace'): "
         "a token may end inside a character",
    diagnose=diagnose_decode,
)


def encode_with_max(text, merges):
    """The classic bug: pick the highest rank instead of the lowest (it still round-trips)."""
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        known = [p for p in naive.get_stats(ids) if p in merges]
        if not known:
            break
        pair = max(known, key=merges.get)
        ids = naive.merge(ids, pair, merges[pair])
    return ids


def diagnose_encode(args, got):
    text, merges = args[0], args[-1]
    if isinstance(got, Raised) and len(text.encode("utf-8")) < 2:
        return "empty and one-byte text have no pairs: return the byte ids as they are"
    if isinstance(got, (list, tuple)) and list(got) == list(text.encode("utf-8")):
        return ("no merge was applied at all. If you pick with max() and a default of inf for unknown pairs, "
                "the pick is a pair that is not in merges and the loop stops at once: take the min() instead")
    if isinstance(got, (list, tuple)) and list(got) == encode_with_max(text, merges):
        return "you apply the highest-ranked merge first; apply the lowest (earliest learned) first: min, not max"
    return None


@st.composite
def encode_args(draw):
    merges = draw(trained_merges())
    return draw(MIXED_TEXT | SMALL_TEXT | st.sampled_from(TRAIN_TEXTS)), merges


exercise(
    name="encode", signature="encode(text, merges) -> list[int]",
    workbook='06_encoding', section='2. Every merge has a rank',
    task='start from the UTF-8 bytes; while 2+ ids, merge the pair with the lowest rank; stop when it is not in merges',
    cases=lambda: [("", naive.train("hello", 258)), ("h", naive.train("hello", 258)),
                   ("é", naive.train("é é", 257)),
                   ("abc", {(98, 99): 256, (97, 98): 257}),
                   ("aaabdaaabac", naive.train("aaabdaaabac", 259))],
    strategy=encode_args(),
    judge=equal_to(naive.encode),
    hint="while two or more ids: among the pairs present, take the one with the LOWEST merge id; "
         "stop when none is in merges; empty and one-byte text return at once",
    diagnose=diagnose_encode,
)

# ---------------------------------------------------------------------------- 07 regex splitting

PATTERNS = [GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, O200K_SPLIT_PATTERN]
SPLIT_TEXT = st.text(alphabet=st.sampled_from(list("aZ é'’sSt 01234\t\n\r .,!?한中😀ا\u064e")), max_size=30)
SPLIT_CASES = ["", "Hello world", "I'm   here!\n\n", "don’t DON'T", "12345678", "  leading and trailing  ",
               "x = f(1, 2)\r\n\tpass", "مرحبا بالعالم", "HelloWorld camelCase"]


def reference_split(text, pattern):
    return regex.findall(pattern, text)


exercise(
    name="split_text", signature="split_text(text, pattern) -> list[str]",
    workbook='07_regex_splitting', section='7. Exercise: `split_text`',
    task='cut the text into chunks with the pattern, using the regex module (not re)',
    cases=lambda: [(t, p) for t in SPLIT_CASES for p in PATTERNS],
    strategy=st.tuples(SPLIT_TEXT, st.sampled_from(PATTERNS)),
    judge=equal_to(reference_split),
    hint="regex.findall(pattern, text) with the third-party `regex` module (it knows \\p{L} and ++)",
)


def regex_tokenizer(merges, pattern):
    tok = RegexTokenizer(pattern)
    tok._set_merges(merges, list(range(256)))
    return tok


def reference_train_regex(text, vocab_size, pattern):
    tok = RegexTokenizer(pattern)
    tok.train(text, vocab_size, **({"algorithm": "naive"} if "algorithm" in tok.train.__code__.co_varnames else {}))
    return tok.merges


def judge_train_regex(args, got):
    text, vocab_size, pattern = args
    if isinstance(got, Raised):
        return Mismatch(reference_train_regex(*args))
    chunks = [list(c.encode("utf-8")) for c in regex.findall(pattern, text)]
    problem = replay_merges(chunks, got, vocab_size)
    return None if problem is None else Mismatch(reference_train_regex(*args), problem)


exercise(
    name="train_regex", signature="train_regex(text, vocab_size, pattern) -> dict[(int, int), int]",
    workbook='07_regex_splitting', section='8. Training inside chunks: `train_regex`',
    task='split, make one id list per chunk, then repeat: count pairs over all chunks, merge the most frequent in every chunk',
    cases=lambda: [("", 260, GPT4_SPLIT_PATTERN), ("dog. dog! dog?", 262, GPT4_SPLIT_PATTERN),
                   ("aa aa aa", 260, GPT2_SPLIT_PATTERN), ("hello world 123456", 270, GPT4_SPLIT_PATTERN)],
    strategy=st.tuples(SPLIT_TEXT | SMALL_TEXT, st.integers(256, 268), st.sampled_from(PATTERNS)),
    judge=judge_train_regex,
    diagnose=diagnose_train,
    hint="split first, then count pairs inside every chunk (never across two chunks) and merge in every chunk",
    examples=50,
)


def reference_encode_ordinary(text, merges, pattern):
    return regex_tokenizer(merges, pattern).encode_ordinary(text)


@st.composite
def encode_ordinary_args(draw):
    pattern = draw(st.sampled_from(PATTERNS))
    text, size = draw(st.sampled_from(TRAIN_TEXTS + SPLIT_CASES)), 256 + draw(st.integers(0, 20))
    # merges learned without splitting may cross chunk borders: encode_ordinary must not apply them there
    merges = naive.train(text, size) if draw(st.booleans()) else reference_train_regex(text, size, pattern)
    return draw(SPLIT_TEXT | st.sampled_from(TRAIN_TEXTS)), merges, pattern


exercise(
    name="encode_ordinary", signature="encode_ordinary(text, merges, pattern) -> list[int]",
    workbook='07_regex_splitting', section='9. Exercise: `encode_ordinary`',
    task='for each chunk of the split: its utf-8 bytes, merge the lowest-ranked known pair until none is left; concatenate',
    cases=lambda: [("", {}, GPT4_SPLIT_PATTERN), ("a", {}, GPT4_SPLIT_PATTERN),
                   ("dog. dog!", reference_train_regex("dog. dog! dog?", 262, GPT4_SPLIT_PATTERN), GPT4_SPLIT_PATTERN),
                   ("aa aa", {(97, 97): 256, (32, 256): 257}, GPT4_SPLIT_PATTERN),
                   ("a a", {(97, 32): 256}, GPT4_SPLIT_PATTERN)],
    strategy=encode_ordinary_args(),
    judge=equal_to(reference_encode_ordinary),
    hint="split the text with the pattern, encode each chunk's bytes with the lowest-rank loop, concatenate",
    examples=60,
)

# ---------------------------------------------------------------------------- 08 special tokens

SPECIALS = {"<|endoftext|>": 300, "<|user|>": 301}


def reference_encode_special(text, merges, pattern, special_tokens, allowed_special):
    tok = regex_tokenizer(merges, pattern)
    tok.register_special_tokens(special_tokens)
    return tok.encode(text, allowed_special=allowed_special)


def judge_encode_special(args, got):
    try:
        expected = reference_encode_special(*args)
    except ValueError:
        if isinstance(got, Raised) and got.is_a("ValueError"):
            return None
        return Mismatch(
            "raise ValueError", "the text spells a special token that is not allowed: raise ValueError")
    return None if same(got, expected) else Mismatch(expected)


SPECIAL_TEXT = st.lists(st.sampled_from(["ab", " ", "<|endoftext|>", "<|user|>", "<|end", "|>", "é"]),
                        max_size=6).map("".join)
ALLOWED = st.sampled_from(["all", frozenset(), frozenset({"<|endoftext|>"}), frozenset({"<|user|>"})])

exercise(
    name="encode_special",
    workbook='08_special_tokens', section='6. Exercise: `encode_special`',
    task='raise ValueError for a special token in the text that is not allowed; else split around the allowed ones, encode_ordinary the pieces, put in the special ids',
    signature="encode_special(text, merges, pattern, special_tokens, allowed_special) -> list[int]",
    cases=lambda: [("hi", {}, GPT4_SPLIT_PATTERN, SPECIALS, "all"),
                   ("hi<|endoftext|>", {}, GPT4_SPLIT_PATTERN, SPECIALS, "all"),
                   ("hi<|endoftext|>", {}, GPT4_SPLIT_PATTERN, SPECIALS, frozenset()),
                   ("<|user|>hi<|endoftext|>", {}, GPT4_SPLIT_PATTERN, SPECIALS, frozenset({"<|user|>"}))],
    strategy=st.tuples(SPECIAL_TEXT, st.just({(97, 98): 256}), st.just(GPT4_SPLIT_PATTERN),
                       st.just(SPECIALS), ALLOWED),
    judge=judge_encode_special,
    hint="raise ValueError if the text contains a special token that is not allowed; otherwise split "
         "around the allowed ones (re.split with a capture group), encode the pieces, insert their ids",
)

# ---------------------------------------------------------------------------- 09 GPT-4 from tiktoken


@st.composite
def rank_tables(draw):
    """bytes -> rank tables like tiktoken's, from a small trained tokenizer, bytes in a shuffled order."""
    merges = draw(trained_merges(max_merges=10))
    vocab = naive.build_vocab(merges)
    if len(set(vocab.values())) != len(vocab):
        merges = {}
        vocab = naive.build_vocab(merges)
    order = draw(st.permutations(range(256)))
    byte_rank = {b: order[b] for b in range(256)}
    ranks = {bytes([b]): byte_rank[b] for b in range(256)}
    for idx in sorted(merges.values()):
        ranks[vocab[idx]] = idx
    try:
        reference_recover_merges(ranks)
    except ValueError:
        ranks = {bytes([b]): byte_rank[b] for b in range(256)}
    return ranks


exercise(
    name="recover_merges", signature="recover_merges(mergeable_ranks) -> dict[(int, int), int]",
    workbook='09_gpt4_from_tiktoken', section='3. From ranks back to merges',
    task='for each token of 2+ bytes: BPE over its bytes with ranks below its own; the two parts left give the pair (key by their ranks)',
    cases=lambda: [({bytes([b]): b for b in range(256)},),
                   ({**{bytes([b]): b for b in range(256)}, b"ab": 256, b"abc": 257},),
                   ({**{bytes([b]): 255 - b for b in range(256)}, b"aa": 256, b"aaa": 257, b"aaaa": 258},)],
    strategy=st.tuples(rank_tables()),
    judge=equal_to(reference_recover_merges),
    hint="for each token of 2+ bytes, run BPE on its bytes using only ranks below its own: the two parts "
         "left are its pair; key the merge by the parts' ranks",
    examples=30,
)

# ---------------------------------------------------------------------------- 10 fast BPE


def diagnose_incremental(args, got):
    text, vocab_size = args
    if isinstance(got, dict) and replay_merges([list(text.encode("utf-8"))], got, vocab_size) is None:
        return ("a valid BPE, but not the naive trainer's: on a tie, take the pair that occurs first "
                "in the current ids")
    return None


exercise(
    name="train_incremental", signature="train_incremental(text, vocab_size) -> dict[(int, int), int]",
    workbook='10_fast_bpe', section='3. Exercise: `train_incremental`',
    task='stop if counts is empty; pick the pair (max count, ties: first in ids); merge it, updating counts at each occurrence; drop zero counts; record the merge',
    cases=lambda: [("", 260), ("a", 260), ("ab", 260), ("aaabdaaabac", 259), ("aaaa", 258),
                   ("abcd", 258), ("hello hello world", 270), ("안녕 안녕", 262)],
    strategy=st.tuples(SMALL_TEXT, st.integers(256, 272)),
    judge=equal_to(naive.train),
    hint="count pairs once; after each merge, subtract the pairs around every replaced occurrence and "
         "add the new ones, instead of recounting everything",
    diagnose=diagnose_incremental,
    examples=60,
)

# ---------------------------------------------------------------------------- workbook style
# A learner who writes module-level `merges`/`vocab` and encode(text)/decode(ids), as in the
# weekly drill, is graded against their own merges.


def judge_workbook_encode(args, got, merges):  # merges: the learner's own
    expected = naive.encode(args[0], merges)
    return None if same(got, expected) else Mismatch(expected)


def judge_workbook_decode(args, got, merges):
    expected = naive.decode(args[0], naive.build_vocab(merges))
    return None if same(got, expected) else Mismatch(expected)


def token_mixes(merges, text=None):
    """Texts likely to make the learner's own merges compete: joined runs of learned tokens,
    and slices of the training text."""
    vocab = naive.build_vocab(merges)
    tokens = [vocab[idx] for idx in merges.values()] or [b"ab"]
    joined = st.lists(st.sampled_from(tokens), min_size=1, max_size=5).map(
        lambda parts: b"".join(parts).decode("utf-8", errors="replace"))
    if not text:
        return joined | MIXED_TEXT
    start = st.integers(0, max(0, len(text) - 1))
    slices = st.tuples(start, st.integers(1, 40)).map(lambda sl: text[sl[0]: sl[0] + sl[1]])
    return joined | slices | MIXED_TEXT


def conflict_texts(merges, limit=60):
    """Texts where two learned merges compete for a shared token: a b c with (a, b) and (b, c)
    both merges. Only the lowest-rank-first order gets these right."""
    vocab = naive.build_vocab(merges)
    by_first = {}
    for (q0, q1) in merges:
        by_first.setdefault(q0, []).append(q1)
    found = []
    for (p0, p1) in merges:
        for q1 in by_first.get(p1, []):
            found.append((vocab[p0] + vocab[p1] + vocab[q1]).decode("utf-8", errors="replace"))
    return list(dict.fromkeys(found))[:limit]


def workbook_encode_cases(merges, text=None):
    cases = [("",), ("h",), ("é",), ("hello world",), ("안녕 😀",)]
    cases += [(t,) for t in conflict_texts(merges)]
    if text:
        words = regex.findall(r" ?\S+", text[:2000])
        cases += [(w,) for w in dict.fromkeys(words)][:60] + [(text[:400],)]
    return cases


def workbook_decode_cases(merges, text=None):
    vocab = naive.build_vocab(merges)
    some = sorted(vocab)[256:262]
    return [([],), ([104, 105],), ([0x80],), ([0xF0, 0x9F],), (some,)] + [
        (naive.encode(t, merges),) for t in ("hello world", "안녕 😀", "mañana", (text or "")[:200])]


WORKBOOK = {
    "encode": dict(signature="encode(text) with module-level merges", cases=workbook_encode_cases,
                   strategy=lambda merges, text: st.tuples(token_mixes(merges, text)),
                   judge=judge_workbook_encode, hint=REGISTRY["encode"].hint, diagnose=diagnose_encode),
    "decode": dict(signature="decode(ids) with module-level vocab", cases=workbook_decode_cases,
                   strategy=lambda merges, text: st.tuples(
                       st.lists(st.sampled_from(sorted(naive.build_vocab(merges))), max_size=8)),
                   judge=judge_workbook_decode, hint=REGISTRY["decode"].hint, diagnose=None),
}


def check_workbook_merges(merges, text=None):
    """None if module-level merges look right (a greedy BPE of `text` when it is known)."""
    if not isinstance(merges, dict):
        return f"`merges` should be a dict {{(id, id): new_id}}, not {type(merges).__name__}"
    if isinstance(text, str):
        return replay_merges([list(text.encode("utf-8"))], merges, 256 + len(merges))
    for step, (pair, idx) in enumerate(merges.items()):
        if idx != 256 + step:
            return f"merge #{step + 1} has id {idx}; new ids run 256, 257, ..."
        if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(p, int) and p < idx for p in pair)):
            return f"merge #{step + 1} should map a pair of earlier ids to {idx}, not {pair!r}"
    return None


def check_workbook_vocab(vocab, merges):
    if not isinstance(vocab, dict):
        return f"`vocab` should be a dict {{id: bytes}}, not {type(vocab).__name__}"
    expected = naive.build_vocab(merges)
    for idx, token in expected.items():
        if vocab.get(idx) != token:
            return f"vocab[{idx}] should be {token!r} (built from merges), got {vocab.get(idx)!r}"
    return None


CONTRACT = list(REGISTRY)
