"""Write the .ipynb learner submissions in this folder from the cells below (no outputs).

    python tests/learners/build_notebooks.py            rewrite them here
    python tests/learners/build_notebooks.py OUT_DIR    write them elsewhere (the tests compare)

Cell ids are fixed so that a rebuild changes nothing unless a cell does.
"""

import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from bpe_ref.grade.reading.course_copy import course_cells

HERE = Path(__file__).resolve().parent


class Md(str):
    """A markdown cell; every plain string is a code cell."""


class Given(str):
    """A code cell marked as given in its metadata (bpe_course.given names what it defines): the
    course's own given cell, or, in a hostile file, a cell of the learner's marked the same way."""

    def __new__(cls, source, *names):
        cell = super().__new__(cls, source)
        cell.names = list(names)
        return cell


class Raises(str):
    """A code cell tagged `raises-exception`, as the course tags its demonstrations of an error."""


def course_given(workbook):
    """The course's own given-helpers cell of `workbook`, as its learner copy hands it out."""
    source, cell = next((source, cell) for source, cell in course_cells()[workbook].items() if cell.given)
    return Given(source, *cell.given)

GET_STATS = '''def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts'''

MERGE = '''def merge(ids, pair, idx):
    newids = []
    i = 0
    while i < len(ids):
        if i < len(ids) - 1 and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids'''

ENCODE_MIN = '''def encode(text, merges):
    ids = list(text.encode('utf-8'))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float('inf')))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids'''

DECODE = '''def decode(ids, vocab):
    return b"".join(vocab[idx] for idx in ids).decode("utf-8", errors="replace")'''

# ---------------------------------------------------------------------------- a course notebook

GOOD_NOTEBOOK = [
    Md("# 04 · Naive BPE\nEvery exercise is done; each one is followed by its check.\n\n"
       "expect: to_hex pass, from_hex pass, utf8_encode pass, get_stats pass, merge pass, train pass, "
       "build_vocab pass, decode pass, encode pass"),
    ("from bpe_ref.grade import check, check_all\n"
     "from bpe_ref import GPT4_SPLIT_PATTERN  # the patterns are data, not code: allowed"),
    Md("## 1. Hexadecimal"),
    '''def to_hex(n):
    if n == 0:
        return "0"
    out = ""
    while n > 0:
        n, digit = divmod(n, 16)
        out = "0123456789abcdef"[digit] + out
    return out''',
    "check(to_hex)",
    '''def from_hex(s):
    s = s.lower()
    if s.startswith("0x"):
        s = s[2:]
    n = 0
    for ch in s:
        n = n * 16 + "0123456789abcdef".index(ch)
    return n''',
    Md("## 2. UTF-8 by hand"),
    '''def utf8_encode(text):
    out = bytearray()
    for ch in text:
        cp = ord(ch)
        if cp < 0x80:
            out += bytes([cp])
        elif cp < 0x800:
            out += bytes([0xC0 | cp >> 6, 0x80 | cp & 0x3F])
        elif cp < 0x10000:
            out += bytes([0xE0 | cp >> 12, 0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F])
        else:
            out += bytes([0xF0 | cp >> 18, 0x80 | cp >> 12 & 0x3F, 0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F])
    return bytes(out)''',
    "%time utf8_encode('héllo 😀')",
    Md("## 3. Counting and merging pairs"),
    GET_STATS,
    "check(get_stats)\nget_stats([1, 2, 3, 1, 2])",
    "# a first try, fixed in the next cell (the last definition is the one graded)\n"
    "def merge(ids, pair, idx):\n    return ids",
    MERGE,
    "!echo shell commands do nothing when graded",
    Md("## 4. Training, vocab, decode, encode"),
    '''def train(text, vocab_size):
    ids = list(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges''',
    '''def build_vocab(merges):
    vocab = {idx: bytes([idx]) for idx in range(256)}
    for (p0, p1), idx in merges.items():
        vocab[idx] = vocab[p0] + vocab[p1]
    return vocab''',
    DECODE,
    '''def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids''',
    'merges = train("hello hello world", 260)\ndecode(encode("hello world", merges), build_vocab(merges))',
    "# NBVAL_RAISES_EXCEPTION\n# an error shown on purpose: not a problem with the submission\ndecode([999], build_vocab({}))",
    Md("## Summary\nThe drill's last cell checks everything at once."),
    "check_all()",
]

# ---------------------------------------------------------------------------- the weekly drill

WORKBOOK_TEXT = ('text = "hello hello world! the quick brown fox jumps over the lazy dog; '
                 'hello again, world. 안녕 안녕"\ntokens = list(text.encode("utf-8"))')

WORKBOOK_TRAIN = '''vocab_size = 276
num_merges = vocab_size - 256
merges = {}
ids = list(tokens)
for i in range(num_merges):
    stats = get_stats(ids)
    pair = max(stats, key=stats.get)
    idx = i + 256
    merges[pair] = idx
    ids = merge(ids, pair, idx)'''

WORKBOOK_VOCAB = '''vocab = {idx: bytes([idx]) for idx in range(256)}
for (p0, p1), idx in merges.items():
    vocab[idx] = vocab[p0] + vocab[p1]'''

TRAIN_MIN = """def train(text, vocab_size):
    ids = list(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        pair = min(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges"""

WORKBOOK_DECODE = '''def decode(ids):
    tokens = b"".join(vocab[idx] for idx in ids)
    text = tokens.decode('utf-8', errors='replace')
    return text'''


MERGE_IN_PLACE = '''def merge(ids, pair, idx):
    i = 0
    while i < len(ids) - 1:
        if ids[i] == pair[0] and ids[i + 1] == pair[1]:
            ids[i:i + 2] = [idx]
        i += 1
    return ids'''

READ_DATA = '''with open("data/shakespeare.txt", encoding="utf-8") as f:
    text = f.read()'''

TRAIN_AT_TOP = '''ids = list(text.encode("utf-8"))
merges = {}
for idx in range(256, 276):
    stats = get_stats(ids)
    pair = max(stats, key=stats.get)
    ids = merge(ids, pair, idx)
    merges[pair] = idx'''

VOCAB_AT_TOP = '''vocab = {idx: bytes([idx]) for idx in range(256)}
for (p0, p1), idx in merges.items():
    vocab[idx] = vocab[p0] + vocab[p1]'''

ENCODE_GLOBAL = '''def encode(text):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids'''

DECODE_GLOBAL = '''def decode(ids):
    return b"".join(vocab[idx] for idx in ids).decode("utf-8", errors="replace")'''


# the Hugging Face course's BPE as a learner writes it out: GPT-2's tokenizer is a download, so
# offline its cell fails and the word counts, the training and the merges are never made
HF_DOWNLOAD = '''from collections import defaultdict
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("gpt2")'''

HF_COUNTS = '''corpus = [
    "Byte pair encoding learns merges from counts.",
    "مرحبا بالعالم، مرحبا مرة أخرى.",
    "토큰화는 재미있다. 토큰화 🙂",
]
word_freqs = defaultdict(int)
for text in corpus:
    for word, _ in tokenizer.backend_tokenizer.pre_tokenizer.pre_tokenize_str(text):
        word_freqs[word] += 1
splits = {word: list(word) for word in word_freqs}'''

HF_HELPERS = '''def compute_pair_freqs(splits):
    freqs = defaultdict(int)
    for word, count in word_freqs.items():
        symbols = splits[word]
        for pair in zip(symbols, symbols[1:]):
            freqs[pair] += count
    return freqs


def merge_pair(a, b, splits):
    for word in word_freqs:
        symbols, i = splits[word], 0
        while i + 1 < len(symbols):
            if symbols[i] == a and symbols[i + 1] == b:
                symbols = symbols[:i] + [a + b] + symbols[i + 2:]
            i += 1
        splits[word] = symbols
    return splits'''

HF_TRAINING = '''merges = {}
while len(merges) < 30:
    freqs = compute_pair_freqs(splits)
    if not freqs:
        break
    best = max(freqs, key=freqs.get)
    splits = merge_pair(*best, splits)
    merges[best] = best[0] + best[1]'''

HF_TOKENIZE = '''def tokenize(text):
    words = [word for word, _ in tokenizer._tokenizer.pre_tokenizer.pre_tokenize_str(text)]
    pieces = [list(word) for word in words]
    for (a, b), joined in merges.items():
        for n, symbols in enumerate(pieces):
            i = 0
            while i + 1 < len(symbols):
                if symbols[i] == a and symbols[i + 1] == b:
                    symbols = symbols[:i] + [joined] + symbols[i + 2:]
                else:
                    i += 1
            pieces[n] = symbols
    return [token for symbols in pieces for token in symbols]'''


def workbook_encode(choose):
    return f'''def encode(text):
    tokens = list(text.encode('utf-8'))
    while(len(tokens)>=2):
        stats = get_stats(tokens)
        pair = {choose}(stats, key=lambda p: merges.get(p, float('inf')))
        if pair not in merges:
            break
        else:
            idx = merges[pair]
            tokens = merge(tokens, pair, idx)
    return tokens'''


def workbook(intro, choose):
    return [Md(intro), Md("# Training text"), WORKBOOK_TEXT, GET_STATS, MERGE, WORKBOOK_TRAIN, WORKBOOK_VOCAB,
            WORKBOOK_DECODE, workbook_encode(choose), "decode(encode('hello world!'))"]


# ---------------------------------------------------------------------------- hostile notebooks

NOTEBOOKS = {
    "good_notebook.ipynb": ({"exercises": ["to_hex", "from_hex", "utf8_encode", "get_stats", "merge",
                                           "train", "build_vocab", "decode", "encode"]}, GOOD_NOTEBOOK),
    "workbook_good.ipynb": ({}, workbook(
        "# Weekly drill\nNaive BPE from scratch; all of it right.\n\n"
        "expect: get_stats pass, merge pass, decode pass, encode pass, merges pass, vocab pass", "min")),
    "workbook_bug_max_encode.ipynb": ({}, workbook(
        "# Weekly drill\nBUG: encode uses `max` with `merges.get(p, inf)`, exactly as the seed workbook did.\n\n"
        "expect: get_stats pass, merge pass, decode pass, merges pass, vocab pass, encode fail\n"
        "cause: encode max_inf_default", "max")),
    "hostile_loop_top_cell.ipynb": ({}, [
        Md("# An endless loop at top level in one cell; the other cells are still graded.\n\n"
           "expect: get_stats pass, merge pass, decode pass\n"
           "shows: notes the cell starting `import time`: still running after the time limit"),
        MERGE,
        "import time\nwhile True:\n    time.sleep(0.01)",
        GET_STATS,
        DECODE,
    ]),
    "hostile_syntax_cell.ipynb": ({}, [
        Md("# One cell does not parse; the other cells are still graded.\n\n"
           "expect: get_stats pass, decode pass, merge error\n"
           "shows: merge syntax error in the cell defining merge, line 1"),
        GET_STATS,
        "def merge(ids, pair, idx)\n    return [idx for _ in ids]",
        DECODE,
    ]),
    "hostile_print_top.ipynb": ({}, [
        Md("# One cell prints megabytes at top level: the output is dropped, the code still runs.\n\n"
           "expect: get_stats pass, merge pass\n"
           "shows: notes the cell starting `for _ in range(50):` printed 25.0 MB; only the output was dropped"),
        GET_STATS,
        'for _ in range(50):\n    print("spam " * 100_000)',
        MERGE,
    ]),
    "good_given_helpers.ipynb": ({"exercises": ["encode"]}, [
        Md("# 06 · Encoding\nget_stats and merge are given (the course's own given cell of workbook 06): the "
           "score counts encode only, the workbook's one exercise.\n\nexpect: encode pass"),
        course_given("06_encoding"),
        ENCODE_MIN,
        "check(encode)",
    ]),
    "bug_given_helpers_broken_encode.ipynb": ({"exercises": ["encode"]}, [
        Md("# 06 · Encoding\nBUG in encode: it skips texts of two bytes or fewer. The given helpers are "
           "not graded.\n\nexpect: encode fail\ncause: encode stops_at_two"),
        course_given("06_encoding"),
        ENCODE_MIN.replace("    ids = list(text.encode('utf-8'))\n",
                           "    ids = list(text.encode('utf-8'))\n    if len(ids) <= 2:\n        return ids\n"),
    ]),
    "bug_encode_name_error.ipynb": ({}, [
        Md("# A typo: encode calls get_stat, which no cell defines. The hint is about that NameError "
           "and its line, not encode's usual advice.\n\nexpect: get_stats pass, merge pass, encode error\n"
           "cause: encode none\nshows: encode `get_stat` does not exist when encode runs\n"
           "shows: encode the cell defining encode, line 4: stats = get_stat(ids)"),
        GET_STATS,
        MERGE,
        ENCODE_MIN.replace("stats = get_stats(ids)", "stats = get_stat(ids)"),
    ]),
    "bug_train_incremental_recount.ipynb": ({"exercises": ["train_incremental"]}, [
        Md("# 10 · Fast BPE\nBUG: train_incremental calls the given get_stats on the whole list after every "
           "merge: the merges are right, the work is the naive loop's.\n\nexpect: train_incremental fail\n"
           "shows: train_incremental it does the work of a recount"),
        course_given("10_fast_bpe"),
        '''def train_incremental(text, vocab_size):
    ids = list(text.encode("utf-8"))
    counts = get_stats(ids)
    merges = {}
    for idx in range(256, vocab_size):
        if not counts:
            break
        pair = max(counts, key=counts.get)
        ids = merge(ids, pair, idx)
        counts = get_stats(ids)  # "updated": in fact recounted from scratch
        merges[pair] = idx
    return merges''',
    ]),
    "good_notebook_data_file_missing.ipynb": ({}, [
        Md("# Right: a lecture follow-along whose training cell reads a data file that was not handed in, so "
           "`merges` and `vocab` are never made, and the cell that builds `vocab` stops before its `def decode`. "
           "decode is still made from that cell, and encode(text) and decode(ids), which read the tables as "
           "module-level names, are graded with the course's tables set there. The file is not passed: part of "
           "it did not run.\n\n"
           "expect: get_stats pass, merge pass, encode pass, decode pass\n"
           "file: not passed\n"
           "shows: encode the course's merges and vocab set as the module-level `merges` and `vocab` it reads\n"
           "shows: notes the functions after that line were still made, and graded: decode"),
        GET_STATS,
        MERGE,
        READ_DATA,
        TRAIN_AT_TOP,
        VOCAB_AT_TOP + "\n\n\n" + DECODE_GLOBAL,  # as the lecture writes it: the loop fails before the def
        ENCODE_GLOBAL,
    ]),
    "bug_notebook_data_file_missing_strict_decode.ipynb": ({}, [
        Md("# BUG: the same notebook, its data file missing too, but decode decodes strictly: ids whose bytes "
           "are not valid UTF-8 raise.\n\n"
           "expect: get_stats pass, merge pass, encode pass, decode error\n"
           "cause: decode strict"),
        GET_STATS,
        MERGE,
        READ_DATA,
        TRAIN_AT_TOP,
        VOCAB_AT_TOP,
        ENCODE_GLOBAL,
        DECODE_GLOBAL.replace('.decode("utf-8", errors="replace")', '.decode("utf-8")'),
    ]),
    "hostile_bad_metadata.ipynb": ("drill", [
        Md("# The course metadata was edited by hand into a string: the notebook is still a submission.\n\n"
           "expect: get_stats pass"),
        GET_STATS,
    ]),
    "bug_merge_mutates_04_naive_bpe.ipynb": ({"exercises": ["get_stats", "merge"]}, [
        Md("# 04 · Naive BPE, a learner's copy\nBUG in merge: the right answer, but it rewrites the caller's list "
           "in place. The workbook asks for a new list, so in its copy that fails (the same merge in a file of the "
           "learner's own passes: good_merge_in_place_own_code.py).\n\n"
           "expect: get_stats pass, merge fail, train missing\n"
           "cause: merge in_place"),
        GET_STATS,
        MERGE_IN_PLACE,
    ]),
    "hostile_stubs_04_naive_bpe.ipynb": ({"exercises": ["get_stats", "merge", "train", "encode", "decode"]}, [
        Md("# A learner copy of workbook 04 half done: nbgrader-style stubs are `missing`, never `error`; so is "
           "`train`, whose cell was deleted (the workbook is told by the file's name, its exercises by the "
           "course's catalogue, not by the metadata, which lists encode too). decode is graded because it is "
           "written.\n\n"
           "expect: get_stats pass, decode pass, merge missing, train missing\n"
           "shows: merge not implemented yet\nshows: train not defined"),
        GET_STATS,
        "def merge(ids, pair, idx):\n    # YOUR CODE HERE\n    raise NotImplementedError()",
        "merges = merge([1, 2], (1, 2), 256)  # raises NotImplementedError at top level: quietly ignored",
        DECODE,
    ]),
    "hostile_given_marks_04_naive_bpe.ipynb": ({"exercises": ["get_stats"], "workbook": "01_hex"}, [
        Md("# HOSTILE: a wrong merge hidden by marking its cell as given, a wrong train's crash hidden by the "
           "raises-exception tag, and notebook metadata that lists get_stats alone and names another workbook. "
           "What is graded comes from the course's copy of workbook 04 (told by the file name), so merge and "
           "train are graded and the crash is noted.\n\n"
           "expect: get_stats pass, merge fail, train fail\n"
           "shows: notes TypeError"),
        GET_STATS,
        Given("def merge(ids, pair, idx):\n    return [idx if a == pair[0] else a for a in ids]", "merge"),
        Raises(TRAIN_MIN + "\n\n\ntrain('ab', '300')"),
    ]),
    "hostile_given_marks_course_cell.ipynb": ({"exercises": [], "workbook": "01_hex"}, [
        Md("# HOSTILE: the course's given cell of workbook 06, with a wrong encode pasted at its end and added "
           "to the cell's given mark; the notebook's metadata lists nothing and names workbook 01. A cell is "
           "given only when its text is the course's, so all three functions are graded, and to_hex and "
           "from_hex are not asked for.\n\n"
           "expect: get_stats pass, merge pass, encode fail"),
        Given(course_given("06_encoding") + "\n\n\ndef encode(text, merges):\n    return list(text.encode('utf-8'))",
              "get_stats", "merge", "encode"),
    ]),
    "good_word_level_hf_course_offline.ipynb": ({}, [
        Md('# Byte-pair encoding, following the Hugging Face course\n'
           "GOOD: the Hugging Face course's BPE, written out by a learner. GPT-2's tokenizer is downloaded for "
           'its pre-tokenizer, so offline its cell fails and the word counts, the training and the merges are '
           'never made. compute_pair_freqs(splits) and merge_pair(a, b, splits) read `word_freqs`; '
           'tokenize(text) reads `tokenizer` and `merges`. Each is graded in its own terms, the names it reads '
           "set by the grader (a stand-in pre-tokenizer that keeps the text whole, the course's merges in "
           "GPT-2's byte characters).\n"
           '\n'
           'expect: compute_pair_freqs pass, merge_pair pass, tokenize pass\n'
           'file: not passed'),
        HF_DOWNLOAD, HF_COUNTS, HF_HELPERS, HF_TRAINING, HF_TOKENIZE,
    ]),
    "bug_word_level_hf_tokenize_sorted_merges.ipynb": ({}, [
        Md('# Byte-pair encoding, following the Hugging Face course\n'
           "BUG in tokenize: the Hugging Face course's BPE, whose tokenize goes through the merges sorted by "
           "their pairs' text, not in the order they were learned, so a later merge can take characters an "
           "earlier one needed. GPT-2's tokenizer is downloaded for its pre-tokenizer, so offline its cell "
           'fails. compute_pair_freqs and merge_pair are right.\n'
           '\n'
           'expect: compute_pair_freqs pass, merge_pair pass, tokenize fail\n'
           'shows: tokenize was learned before 257 and needs some of the same bytes\n'
           'file: not passed'),
        HF_DOWNLOAD, HF_COUNTS, HF_HELPERS, HF_TRAINING,
        HF_TOKENIZE.replace("in merges.items():", "in sorted(merges.items()):"),
    ]),
}


def build(cells, metadata):
    nb = new_notebook()
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                   "language_info": {"name": "python"}}
    if metadata:
        nb.metadata["bpe_course"] = metadata
    for number, source in enumerate(cells):
        cell = (new_markdown_cell if isinstance(source, Md) else new_code_cell)(str(source))
        if isinstance(source, Given):
            cell.metadata["bpe_course"] = {"given": source.names}
        if isinstance(source, Raises):
            cell.metadata["tags"] = ["raises-exception"]
        cell.id = f"cell-{number}"
        nb.cells.append(cell)
    return nb


def main(out_dir=HERE):
    out_dir = Path(out_dir)
    for name, (metadata, cells) in NOTEBOOKS.items():
        nbformat.write(build(cells, metadata), out_dir / name)


if __name__ == "__main__":
    main(*sys.argv[1:])
