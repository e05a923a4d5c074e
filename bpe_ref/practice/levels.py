"""The drill levels: what each asks the learner to write, and which exercises it grades.

words  what came before BPE: a word-level regex tokenizer for English and Arabic (workbook 03a)
naive  the tokenizer from a blank cell, workbook style: module-level `merges` and `vocab`,
       `encode(text)`, `decode(ids)` (the grader checks `merges` against the provided `text`)
regex  adds the GPT-4 split: every function takes what it needs as arguments
full   adds special tokens and saving/loading the merges to a file

Each level repeats the earlier steps on purpose: a drill always starts from a blank cell.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """One drill level: its name, one-line goal, markdown steps and the exercise names it expects."""

    name: str
    goal: str
    steps: str
    exercises: tuple
    provides: tuple  # names the training-text cell defines, listed in the intro
    title: str = ""  # the drill's heading, when it is not "<name> BPE"


WORDS_STEPS = """\
1. **One verbose pattern** for the `regex` module (not `re`: its `\\w` misses combining marks),
   `(?x)` at the very start, alternatives tried in this order:
   - abbreviations, capitals each with a full stop: `U.S.A.`;
   - numbers, before the words: `$12.40`, `34.3%`, and Arabic-Indic digits like ASCII ones (`٣٤.٥%`);
   - words with inner hyphens, `poster-print`; vowel marks and the tatweel (U+0640) stay in the word,
     a dash after the last part does not;
   - the ellipsis `...`;
   - any other grapheme but space, one token each (`\\X`): `!`, `،`, `؛`, `؟`, `👍🏽`.
2. **`word_tokenize(text)`** returns the list of matches; spaces are dropped; `""` gives `[]`.
3. **Try it** on `text`: no Arabic word may lose a mark, no emoji may fall apart.
"""

NAIVE_STEPS = """\
1. **Bytes.** `ids = list(text.encode("utf-8"))`: every id is a byte, 0..255.
2. **`get_stats(ids)`** counts every neighbouring pair:
   `get_stats([1, 2, 3, 1, 2]) -> {(1, 2): 2, (2, 3): 1, (3, 1): 1}`.
3. **`merge(ids, pair, idx)`** replaces each `pair`, left to right, by `idx`, and returns a new list:
   `merge([5, 5, 5], (5, 5), 256) -> [256, 5]`.
4. **Train.** `vocab_size - 256` times: count the pairs, take the most frequent, give it the next id
   (256, 257, ...), merge it everywhere and record it: `merges[pair] = idx`. Stop early if no pair is left.
   Keep `merges` at module level.
5. **Vocabulary.** `vocab = {idx: bytes([idx]) for idx in range(256)}`, then, in merge order,
   `vocab[idx] = vocab[p0] + vocab[p1]`.
6. **`decode(ids)`** joins the tokens' bytes and decodes them with `errors="replace"`:
   a token may end in the middle of a character.
7. **`encode(text)`** starts from the bytes; while two or more ids are left, it merges the pair that
   has the *lowest* id in `merges`, and stops when no pair present is in `merges`.
8. **Round trip.** `decode(encode(text)) == text`, and `len(encode(text))` is well below `len(ids)`.
"""

REGEX_STEPS = """\
1. **`get_stats(ids)`** and **`merge(ids, pair, idx)`**, as in the naive drill.
2. **`split_text(text, pattern)`** cuts the text into chunks with `regex.findall(pattern, text)`
   (the third-party `regex` module: `re` does not know `\\p{L}`). Merges never cross two chunks.
3. **`train_regex(text, vocab_size, pattern)`** splits the text, turns each chunk into its bytes, then
   `vocab_size - 256` times: counts pairs inside every chunk (summed over all chunks), merges the most
   frequent one in every chunk, and records it. Returns `merges`.
4. **`build_vocab(merges)`** returns `{idx: bytes}`: the 256 bytes, then each merge in order.
5. **`decode(ids, vocab)`** joins the bytes and decodes with `errors="replace"`.
6. **`encode_ordinary(text, merges, pattern)`** splits the text, encodes each chunk with the
   lowest-id loop of the naive `encode`, and concatenates the ids.
7. **Put it together.** `merges = train_regex(text, vocab_size, pattern)`,
   `vocab = build_vocab(merges)`, and check `decode(encode_ordinary(text, merges, pattern), vocab) == text`.

In this drill every function takes what it needs as arguments: `decode(ids, vocab)`, not `decode(ids)`.
"""

FULL_EXTRA_STEPS = """\
8. **`encode_special(text, merges, pattern, special_tokens, allowed_special)`**: `allowed_special` is
   `"all"` or a set of token strings. If the text spells a special token that is not allowed, raise
   `ValueError` and name it. Otherwise split around the allowed ones, the longest first where one
   starts another (`re.split("(" + "|".join(re.escape(s) for s in sorted(allowed, key=len, reverse=True))
   + ")", text)`): a special piece becomes its id, every other piece goes through `encode_ordinary`.
9. **`save_merges(merges, path)`** writes a text file (`encoding="utf-8"`): a version line such as
   `bpe-drill v1`, then one merge per line, `p0 p1`, in id order.
   **`load_merges(path)`** reads it back: ids run 256, 257, ... in line order.
   `load_merges(path) == merges` after a save.
"""

LEVELS = {
    "words": Level(
        name="words",
        goal="a word-level regex tokenizer for English and Arabic, what BPE replaced",
        steps=WORDS_STEPS,
        exercises=("word_tokenize",),
        provides=("text",),
        title="word-level tokenization",
    ),
    "naive": Level(
        name="naive",
        goal="the byte-level BPE tokenizer of the first hour, from a blank cell, in under 50 lines",
        steps=NAIVE_STEPS,
        exercises=("get_stats", "merge", "merges", "vocab", "decode", "encode"),
        provides=("text", "vocab_size"),
    ),
    "regex": Level(
        name="regex",
        goal="the same tokenizer, trained and applied chunk by chunk with the GPT-4 split pattern",
        steps=REGEX_STEPS,
        exercises=("get_stats", "merge", "split_text", "train_regex", "build_vocab", "decode",
                   "encode_ordinary"),
        provides=("text", "vocab_size", "pattern"),
    ),
    "full": Level(
        name="full",
        goal="the GPT-4-style tokenizer with special tokens, and merges saved to and loaded from a file",
        steps=REGEX_STEPS.split("\n\nIn this drill")[0] + "\n" + FULL_EXTRA_STEPS
        + "\nIn this drill every function takes what it needs as arguments: `decode(ids, vocab)`, "
          "not `decode(ids)`.\n",
        exercises=("get_stats", "merge", "split_text", "train_regex", "build_vocab", "decode",
                   "encode_ordinary", "encode_special", "save_load"),
        provides=("text", "vocab_size", "pattern", "special_tokens"),
    ),
}

VOCAB_SIZE = 300  # 44 merges: enough to see tokens grow, fast enough to train in a second
SPECIAL_TOKENS = {"<|endoftext|>": VOCAB_SIZE, "<|user|>": VOCAB_SIZE + 1}  # right after the merges


def get_level(name):
    """The Level called `name`; a ValueError that lists the levels otherwise."""
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r}: choose one of {', '.join(LEVELS)}") from None
