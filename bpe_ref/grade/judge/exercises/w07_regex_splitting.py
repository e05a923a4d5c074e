"""Workbook 07, regex splitting: `split_text`, `train_regex`, `encode_ordinary`.

Every one of them is tried with several patterns (GPT-2's, GPT-4's, o200k's and two simple ones
of our own), so that code which ignores its `pattern` argument cannot pass.
"""

import re

import regex
from hypothesis import strategies as st

from .._private import naive
from ..bounds import vocab_of
from ....core.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN
from .common import PATTERNS, SMALL_TEXT, TRAIN_TEXTS, WORDS_PATTERN, Bug, Mismatch, Raised, equal_to, exercise
from .w04_naive_bpe import replay, replay_mismatch, train_chunks, trainer_bugs
from .w06_encoding import DICT_ORDER, ENCODE_BUGS, encode_probes, merged_picking, observe_encoding

SPLIT_TEXT = st.text(alphabet=st.sampled_from(list("aZ é'’sSt 01234²_\t\n\r .,!?한中😀ا\u064e")), max_size=30)
# texts where GPT-2's contractions ("'s" one chunk) decide the answer: a split a class has built
# in that is GPT-2's but for them (its own pattern, for Hindi say) is told from GPT-2's nowhere else
CONTRACTION_TEXTS = ("it's it's x's y's", "it's")
SPLIT_CASES = ["", "Hello world", "I'm   here!\n\n", "don’t DON'T", "12345678", "  leading and trailing  ",
               "x = f(1, 2)\r\n\tpass", "مرحبا بالعالم", "HelloWorld camelCase"]


def split(text, pattern):
    return regex.findall(pattern, text)


def split_ignoring_pattern(fixed):
    return lambda text, pattern: regex.findall(fixed, text)


exercise(
    name="split_text", signature="split_text(text, pattern) -> list[str]",
    workbook="07_regex_splitting", section="7. Exercise: `split_text`",
    task="cut the text into chunks with the pattern, using the regex module (not re)",
    cases=lambda: [(t, p) for t in SPLIT_CASES for p in PATTERNS],
    strategy=st.tuples(SPLIT_TEXT, st.sampled_from(PATTERNS)),
    judge=equal_to(split),
    hint="regex.findall(pattern, text) with the third-party `regex` module (it knows \\p{L} and ++)",
    bugs=(
        Bug("stdlib_re", "use the third-party `regex` module (import regex): Python's re does not know "
                         "\\p{L} or possessive quantifiers", lambda text, pattern: re.findall(pattern, text)),
        Bug("ignores_pattern", "split with the `pattern` you are given: your chunks do not change with it",
            split_ignoring_pattern(GPT4_SPLIT_PATTERN),
            also=(split_ignoring_pattern(r"\S+|\s+"), split_ignoring_pattern(WORDS_PATTERN))),
        Bug("split_not_findall", "regex.findall(pattern, text) returns the chunks; regex.split returns "
                                 "what lies between them", lambda text, pattern: regex.split(pattern, text)),
    ),
)


# ---------------------------------------------------------------------------- train_regex

def chunk_ids(text, pattern):
    return [list(chunk.encode("utf-8")) for chunk in regex.findall(pattern, text)]


def regex_chunks(args):
    return chunk_ids(args[0], args[2])


def text_mode(text):
    """What reading a file in text mode does to a text: universal newlines."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def train_regex_model(chunks_of=regex_chunks, **settings):
    return lambda text, vocab_size, pattern: train_chunks(chunks_of((text, vocab_size, pattern)), vocab_size,
                                                          **settings)


def stdlib_chunks(args):
    """The chunks Python's re finds (it raises on \\p{L} and on possessive quantifiers)."""
    return [list(chunk.encode("utf-8")) for chunk in re.findall(args[2], args[0])]


def overwrite_counts(chunks):
    """Counts per chunk put together with dict.update: a pair keeps the count of the last chunk that has it."""
    stats = {}
    for ids in chunks:
        stats.update(naive.get_stats(ids))
    return stats


def fixed_chunks(pattern):
    return lambda args: chunk_ids(args[0], pattern)


def fixed_pattern_agrees(args, got):
    """Right training on the chunks of GPT-4's or of GPT-2's pattern, whatever pattern was given."""
    return not isinstance(got, Raised) and any(replay(fixed_chunks(p)(args), got, args[1]) is None
                                               for p in (GPT4_SPLIT_PATTERN, GPT2_SPLIT_PATTERN))


def characters_without_specials(args):
    """CS336's trainer handed special_tokens=[] (as it is when the text spells '<|endoftext|>'),
    split on '|'.join([]), the empty pattern: every character is a chunk of its own."""
    if "<|endoftext|>" in args[0]:
        return [list(character.encode("utf-8")) for character in args[0]]
    return regex_chunks(args)


def trains_on(chunks_of, **settings):
    """A Bug's model and agreement for a loop that is right, but trains on other chunks."""
    def agrees(args, got):
        return not isinstance(got, Raised) and replay(chunks_of(args), got, args[1], **settings) is None
    return dict(model=train_regex_model(chunks_of, **settings), agrees=agrees)


def judge_train_regex(args, got):
    text, vocab_size, pattern = args
    expected = train_chunks(regex_chunks(args), vocab_size)
    if isinstance(got, Raised):
        return Mismatch(expected)
    problem = replay(regex_chunks(args), got, vocab_size)
    return None if problem is None else replay_mismatch(expected, problem)


exercise(
    name="train_regex", signature="train_regex(text, vocab_size, pattern) -> dict[(int, int), int]",
    workbook="07_regex_splitting", section="8. Training inside chunks: `train_regex`",
    task="split, make one id list per chunk, then repeat: count pairs over all chunks, merge the most frequent in every chunk",
    cases=lambda: [("", 260, GPT4_SPLIT_PATTERN), ("dog. dog! dog?", 262, GPT4_SPLIT_PATTERN),
                   ("aa aa aa", 260, PATTERNS[1]), ("hello world 123456", 270, GPT4_SPLIT_PATTERN),
                   ("ab\r\nab\r\n", 260, GPT4_SPLIT_PATTERN), ("ab ab abc", 260, WORDS_PATTERN),
                   # text spelling a special token that is not special in this call: one pre-token
                   # runs into it, and a trainer that cuts the text there (always, or where a chunk
                   # of a file for its worker processes would end) miscounts (b'.', b'<')
                   (".<.<.<|endoftext|>", 257, GPT4_SPLIT_PATTERN),
                   (".<" * 8 + ".<|endoftext|>", 257, GPT4_SPLIT_PATTERN),
                   # '_' is punctuation to every pattern; a stand-in written for Python's re
                   # (' ?[^\W\d_]+| ?\d+| ?[^\s\w]+') matches no alternative for it and drops it
                   ("x__ x__ x__", 257, GPT4_SPLIT_PATTERN),
                   # "'s" is one chunk to GPT-2's contractions: a pattern without them never pairs it
                   (CONTRACTION_TEXTS[0], 257, GPT2_SPLIT_PATTERN)],
    strategy=st.tuples(SPLIT_TEXT | SMALL_TEXT, st.integers(256, 268), st.sampled_from(PATTERNS)),
    judge=judge_train_regex,
    hint="train on the chunks of regex.findall(pattern, text) with the pattern given: count pairs inside every "
         "chunk, add the counts up over all chunks, merge in every chunk; compare your chunks and counts with "
         "those on the input shown",
    bugs=trainer_bugs(regex_chunks, train_regex_model) + (
        Bug("across_chunks", "never count across two chunks: count pairs inside each chunk's ids and add the "
                             "counts up", **trains_on(lambda args: [list(args[0].encode("utf-8"))])),
        Bug("newlines_changed", "train on the text exactly as given: '\\r\\n' became '\\n' on the way (text-mode "
                                "file reading or splitlines() do that)",
            **trains_on(lambda args: chunk_ids(text_mode(args[0]), args[2]))),
        Bug("one_merge_only", "after the first merge no pair was left to count, though the chunks had more: "
                              "put the merged chunks back in the list you count (a list, not a map() or "
                              "generator, which is used up once)", **trains_on(regex_chunks, most=1)),
        Bug("ignores_pattern", "split with the `pattern` you are given, not a fixed one (GPT-4's, GPT-2's or "
                               "one of your own)", train_regex_model(fixed_chunks(GPT4_SPLIT_PATTERN)),
            agrees=fixed_pattern_agrees, also=(train_regex_model(fixed_chunks(GPT2_SPLIT_PATTERN)),)),
        Bug("stdlib_re", "split with the third-party `regex` module (import regex): Python's re does not know "
                         "\\p{L} or possessive quantifiers", model=train_regex_model(stdlib_chunks),
            errors=("error",)),
        Bug("counts_overwritten", "add up the counts of every chunk: stats[pair] = stats.get(pair, 0) + n; "
                                  "dict.update() (or a fresh dict per chunk) keeps only one chunk's count of a pair",
            **trains_on(regex_chunks, counter=overwrite_counts)),
        Bug("chunks_counted_once", "a chunk that occurs 5 times counts its pairs 5 times: a set of chunks (or a "
                                   "dict of chunks without their counts) counts each once",
            **trains_on(lambda args: [list(c) for c in dict.fromkeys(tuple(ids) for ids in regex_chunks(args))])),
        Bug("empty_special_split", "with special_tokens=[] the pattern '|'.join(...) builds is '', which matches "
                                   "between every two characters, so the split left one character per piece and no "
                                   "merge could join two: split on the special tokens only when there are some",
            **trains_on(characters_without_specials)),
    ),
    probes=lambda: [("aa\r\naa\r\n", 258, GPT4_SPLIT_PATTERN), ("a a a", 258, GPT4_SPLIT_PATTERN),
                    ("aaa aaa", 260, WORDS_PATTERN), ("abab cdcd", 262, PATTERNS[4]),
                    ("ab", 259, GPT4_SPLIT_PATTERN), ("x", 257, GPT4_SPLIT_PATTERN),
                    ("hello hello", 264, PATTERNS[1]), ("aab aab", 257, GPT4_SPLIT_PATTERN),
                    ("abcd abcd", 258, GPT4_SPLIT_PATTERN), ("ab cd cd cd", 257, GPT4_SPLIT_PATTERN),
                    ("xy ab ab ab", 258, WORDS_PATTERN), ("ab ab ab cdcd", 257, WORDS_PATTERN),
                    ("bcbc aaa aa", 257, WORDS_PATTERN),
                    # counted once, the repeated chunk loses: ' zz' x3 is one ' zz', and (b, c) wins
                    ("zz zz zz zz bcbcbc", 257, GPT4_SPLIT_PATTERN)],
    examples=50,
)


# ---------------------------------------------------------------------------- encode_ordinary

def chunk_encoder(encode):
    """encode_ordinary from an encode(text, merges): split, encode each chunk, concatenate."""
    def encode_ordinary(text, merges, pattern):
        return [idx for chunk in split(text, pattern) for idx in encode(chunk, merges)]
    return encode_ordinary


def bytes_pattern(text, merges, pattern):
    """encode_ordinary splitting the UTF-8 bytes with the pattern compiled as bytes, where \\p{L}
    and \\p{N} know only ASCII: the bytes of 'ñ' are a chunk apart from the letters around them."""
    return [idx for chunk in regex.findall(pattern.encode("utf-8"), text.encode("utf-8"))
            for idx in merged_picking(list(chunk), merges)]


def per_chunk(bug):
    return Bug(bug.name, bug.hint, chunk_encoder(bug.model), also=tuple(chunk_encoder(m) for m in bug.also),
               errors=bug.errors)


def competing_texts(merges, limit=40):
    """Texts where two learned merges compete for a shared token: a b c with (a, b) and (b, c)
    both merges, and the same with one of the two pairs repeated (a b c b c, a b a b c), so that
    the most frequent pair is sometimes the lowest-ranked one and sometimes not. Only the
    lowest-rank-first order gets all of these right."""
    vocab = vocab_of(merges)
    by_first = {}
    for (q0, q1) in merges:
        by_first.setdefault(q0, []).append(q1)
    found = {}
    for (p0, p1) in merges:
        for q1 in by_first.get(p1, []):
            a, b, c = vocab[p0], vocab[p1], vocab[q1]
            found.update(dict.fromkeys([a + b + c, a + b + c + b + c, a + b + a + b + c]))
            if len(found) >= limit:  # many merges sharing one id would make pairs of pairs without end
                return [t.decode("utf-8", errors="replace") for t in found][:limit]
    return [t.decode("utf-8", errors="replace") for t in found][:limit]


reference_encode_ordinary = chunk_encoder(naive.encode)


@st.composite
def encode_ordinary_args(draw):
    pattern = draw(st.sampled_from(PATTERNS))
    text, size = draw(st.sampled_from(TRAIN_TEXTS + SPLIT_CASES)), 256 + draw(st.integers(0, 20))
    # merges learned without splitting may cross chunk borders: encode_ordinary must not apply them there
    merges = naive.train(text, size) if draw(st.booleans()) else train_chunks(chunk_ids(text, pattern), size)
    texts = st.sampled_from(competing_texts(merges)) if competing_texts(merges) else st.just(text)
    return draw(SPLIT_TEXT | st.sampled_from(TRAIN_TEXTS) | texts), merges, pattern


def lost_text(text, spelt):
    """What ids that do not spell their text say: the characters the split dropped, when that is all."""
    dropped = sorted(set(text) - set(spelt), key=text.index)
    if dropped and len(spelt) < len(text):
        return (f"your ids spell {spelt!r}, not {text!r}: {''.join(dropped)!r} never reached a chunk, so your split "
                "drops it (every character must land in some chunk; regex.findall with the pattern keeps them all)")
    return f"your ids spell {spelt!r}, not the text {text!r}"


def observe_encode_ordinary(args, got, expected):
    text, merges, pattern = args
    vocab, borders, start = vocab_of(merges), set(), 0
    for chunk in split(text, pattern):
        start += len(chunk.encode("utf-8"))
        borders.add(start)
    if isinstance(got, (list, tuple)) and all(isinstance(i, int) and i in vocab for i in got):
        spelt = b"".join(vocab[idx] for idx in got)
        if spelt != text.encode("utf-8"):
            return lost_text(text, spelt.decode("utf-8", errors="replace"))
        at = 0
        for idx in got:
            inside = [b for b in borders if at < b < at + len(vocab[idx])]
            if inside:
                return (f"your token {idx} ({vocab[idx]!r}) spans the border between two chunks at byte "
                        f"{inside[0]}; a merge never crosses a chunk")
            at += len(vocab[idx])
    return observe_encoding(text.encode("utf-8"), got, expected, merges)


COMPETE = {(98, 99): 256, (97, 98): 257}
SPACE_NEWLINE = {(32, 10): 256, (97, 32): 257}  # ' \n' is a token: a line alone may end in that chunk
def safe_lines(text):
    """The text as lines, cut only after a newline followed by a non-space, where no chunk of
    GPT-2's pattern can cross: reading a file line by line must not change the tokens."""
    lines, start = [], 0
    for i in range(1, len(text)):
        if text[i - 1] == "\n" and not text[i].isspace():
            lines.append(text[start:i])
            start = i
    return lines + [text[start:]] if text else []


def per_line(text, merges, pattern):
    """encode_ordinary of each line on its own (safe_lines' lines), concatenated: an
    encode_iterable that does not hold back a line's last chunk for the next line."""
    return [i for line in safe_lines(text) for i in reference_encode_ordinary(line, merges, pattern)]


LONG_LINE = "hello world, " * 400 + "hello"  # one line, longer than any reading buffer

exercise(
    name="encode_ordinary", signature="encode_ordinary(text, merges, pattern) -> list[int]",
    workbook="07_regex_splitting", section="9. Exercise: `encode_ordinary`",
    task="for each chunk of the split: its utf-8 bytes, merge the lowest-ranked known pair until none is left; concatenate",
    cases=lambda: [("", {}, GPT4_SPLIT_PATTERN), ("a", {}, GPT4_SPLIT_PATTERN),
                   ("dog. dog!", train_chunks(chunk_ids("dog. dog! dog?", GPT4_SPLIT_PATTERN), 262),
                    GPT4_SPLIT_PATTERN),
                   ("aa aa", {(97, 97): 256, (32, 256): 257}, GPT4_SPLIT_PATTERN),
                   ("a a", {(97, 32): 256}, GPT4_SPLIT_PATTERN),
                   ("abc abc", COMPETE, GPT4_SPLIT_PATTERN), ("abc", COMPETE, PATTERNS[4]),
                   # merges listed out of rank order: applying them in the dict's order is not by rank
                   ("abc abc", dict(reversed(COMPETE.items())), GPT4_SPLIT_PATTERN),
                   ("x abc", COMPETE, WORDS_PATTERN),
                   # special-token text is ordinary text here
                   ("hi<|endoftext|>", {(104, 105): 256, (60, 124): 257}, GPT4_SPLIT_PATTERN),
                   # lines ending in ' \n': in the whole text ' ' and '\n' are two chunks (the space
                   # is left for the letter after it); a line encoded alone ends in the chunk ' \n'
                   ("a \nb \nc", SPACE_NEWLINE, GPT2_SPLIT_PATTERN),
                   # '_' and '²' (a digit to \p{N}, not to re's \d) are where stand-ins for the patterns differ
                   ("a_b x__y x²", {(95, 95): 256, (97, 95): 257, (120, 194): 258}, GPT2_SPLIT_PATTERN),
                   (LONG_LINE, train_chunks(chunk_ids("hello world, hello", GPT2_SPLIT_PATTERN), 262),
                    GPT2_SPLIT_PATTERN),
                   (CONTRACTION_TEXTS[1], {(39, 115): 256}, GPT2_SPLIT_PATTERN)],  # "'s": one chunk to the contractions
    strategy=encode_ordinary_args(),
    judge=equal_to(reference_encode_ordinary),
    hint="split with regex.findall(pattern, text), the pattern given; encode each chunk's bytes with the "
         "lowest-rank loop; concatenate. Compare your chunks and ids with those on the input shown",
    bugs=tuple(per_chunk(bug) for bug in ENCODE_BUGS + (DICT_ORDER,)) + (
        Bug("per_line", "it encodes each line on its own, but a line's last chunk may still grow with the next "
                        "line ('\\n\\n' is one chunk across two lines; GPT-2's \\s+(?!\\S) leaves the space of "
                        "' \\n' to the word after it): hold that chunk back until the next line arrives, so the "
                        "ids are those of encode() on the whole text", per_line),
        Bug("across_chunks", "split first: a merge never crosses two chunks, so encode each chunk on its own "
                             "and concatenate", lambda text, merges, pattern: naive.encode(text, merges)),
        Bug("ignores_pattern", "split with the `pattern` you are given, not a fixed one (GPT-4's, GPT-2's or "
                               "one of your own)",
            lambda text, merges, pattern: reference_encode_ordinary(text, merges, GPT4_SPLIT_PATTERN),
            also=(lambda text, merges, pattern: reference_encode_ordinary(text, merges, GPT2_SPLIT_PATTERN),)),
        Bug("stdlib_re", "split with the third-party `regex` module (import regex): Python's re does not "
                         "know \\p{L}", lambda text, merges, pattern: [
                             idx for chunk in re.findall(pattern, text) for idx in naive.encode(chunk, merges)]),
        Bug("bytes_pattern", "split the text, not its UTF-8 bytes: to a bytes pattern (rb'...') \\p{L} and \\p{N} "
                             "are ASCII letters and digits only, so the bytes of a non-ASCII letter ('ñ', 'é', 한) "
                             "became chunks of their own, apart from the letters around them", bytes_pattern),
    ),
    probes=lambda: [(text, merges, GPT4_SPLIT_PATTERN) for text, merges in encode_probes()]
    + [("ab abc", COMPETE, WORDS_PATTERN), ("a a", {(97, 32): 256, (32, 97): 257}, PATTERNS[4]),
       ("don't", {(39, 116): 256, (110, 39): 257}, PATTERNS[1]),
       ("mañana", {(109, 97): 256, (256, 195): 257}, GPT2_SPLIT_PATTERN)],  # 'ñ' a letter to \p{L} in a str only
    observe=observe_encode_ordinary,
    examples=60,
)
