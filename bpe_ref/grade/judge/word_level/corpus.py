"""The corpora a word-level BPE is trained on, and the reference it is judged by: pair counts
weighted by each word's count, merges made left to right, words spelt with the design's own start
and end symbols. All of it runs in the grader's process.
"""

from collections import Counter


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
FEW = ["low lower low"]  # a few words, which allow fewer merges than LARGE asks for
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


def tokenized(text, merges, marker, prefix=""):
    """Each word of `text` spelt with its prefix and marker, the merges applied in their order."""
    out = []
    for word in text.split():
        symbols = first_split(word, marker, prefix)
        for pair in merges:
            symbols = merge_symbols(symbols, pair)
        out += symbols
    return out


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
