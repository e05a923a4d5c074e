"""Training with special tokens, both tie-break rules, and any source: str, file, iterable."""

import io
import random
import re
from collections import Counter

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_ref import GPT2_SPLIT_PATTERN, O200K_SPLIT_PATTERN, BasicTokenizer, RegexTokenizer
from bpe_ref import pretokenize
from bpe_ref import train as naive_train
from bpe_ref.pretokenize import count_chunks
from bpe_ref.trainer import train_counts

SPECIALS = ["<|endoftext|>", "<|pad|>"]
# small alphabets make ties common; the specials' own characters appear as ordinary text too
ALPHABETS = ["ab", "abc ", "aé한😀 b", "a a\n\n", "ab1 2'é\t", "<|>ab e"]
small_texts = st.sampled_from(ALPHABETS).flatmap(lambda a: st.text(alphabet=a, max_size=120))
texts_with_specials = st.lists(
    st.sampled_from(ALPHABETS).flatmap(lambda a: st.text(alphabet=a, max_size=40)) | st.sampled_from(SPECIALS),
    max_size=8,
).map("".join)
vocab_sizes = st.integers(min_value=258, max_value=340)
TOKENIZERS = [BasicTokenizer, RegexTokenizer]


def trained(tok_class, text, vocab_size, **options):
    tok = tok_class()
    tok.train(text, vocab_size, **options)
    return tok


def merged_bytes(tok):
    """The merges as (bytes, bytes), in order."""
    return [(tok.vocab[a], tok.vocab[b]) for (a, b), _ in sorted(tok.merges.items(), key=lambda m: m[1])]


def cut_into_pieces(text, positions):
    bounds = sorted({0, len(text), *(p % (len(text) + 1) for p in positions)})
    return [text[a:b] for a, b in zip(bounds, bounds[1:])]


# ------------------------------------------------------------------ fast == naive


@settings(max_examples=500)
@given(small_texts, vocab_sizes, st.sampled_from(TOKENIZERS))
def test_fast_equals_naive_lexicographic(text, vocab_size, tok_class):
    naive = trained(tok_class, text, vocab_size, tie_break="lexicographic", algorithm="naive")
    fast = trained(tok_class, text, vocab_size, tie_break="lexicographic")
    assert fast.merges == naive.merges, f"{tok_class.__name__}: merges differ on {text!r}"


@settings(max_examples=400)
@given(small_texts, vocab_sizes, st.sampled_from(["first", "lexicographic"]))
def test_basic_fast_equals_bpe_ref_train(text, vocab_size, tie_break):
    fast = trained(BasicTokenizer, text, vocab_size, tie_break=tie_break)
    assert fast.merges == naive_train(text, vocab_size, tie_break=tie_break), f"differs on {text!r}"


@settings(max_examples=500)
@given(texts_with_specials, vocab_sizes, st.sampled_from(TOKENIZERS), st.sampled_from(["first", "lexicographic"]))
def test_fast_equals_naive_with_special_tokens(text, vocab_size, tok_class, tie_break):
    options = {"special_tokens": SPECIALS, "tie_break": tie_break}
    naive = trained(tok_class, text, vocab_size, algorithm="naive", **options)
    fast = trained(tok_class, text, vocab_size, **options)
    assert fast.merges == naive.merges, f"{tok_class.__name__}: merges differ on {text!r}"
    assert fast.special_tokens == naive.special_tokens


def test_lexicographic_takes_the_greatest_bytes_on_a_tie():
    # every pair occurs once; (b'd', b'c') is the greatest
    assert list(train_counts({"abdc": 1}, 257, tie_break="lexicographic")) == [(100, 99)]
    assert list(train_counts({"abdc": 1}, 257, tie_break="first")) == [(97, 98)]
    # a longer byte string beats its own prefix: (b'ab', b'x') > (b'a', b'x')... here 'ab' vs 'a'
    merges = train_counts({"abab": 1, "ax": 1, "abx": 1}, 258, tie_break="lexicographic")
    assert list(merges)[1] == (256, 120)  # (b'ab', b'x') beats (b'a', b'x') and (b'b', b'a')


# ------------------------------------------------------------------ special tokens


def test_special_tokens_never_touched_by_a_merge():
    text = story_corpus(50, seed=1)  # no '<', '|' or '>' but in the special tokens
    for tok_class in TOKENIZERS:
        tok = trained(tok_class, text, 256 + 60 + 1, special_tokens=["<|endoftext|>"])
        ordinary = [tok.vocab[idx] for idx in tok.merges.values()]
        assert not any(b"<" in t or b"|" in t or b">" in t for t in ordinary), tok_class.__name__
        assert tok.special_tokens == {"<|endoftext|>": 256 + len(tok.merges)}
        assert len(tok.vocab) == 256 + 60 + 1  # vocab_size counts the special token
        ids = tok.encode("the cat<|endoftext|>", allowed_special="all")
        assert ids[-1] == tok.special_tokens["<|endoftext|>"]
        assert tok.decode(ids) == "the cat<|endoftext|>"


def test_special_ids_follow_the_merges_when_training_stops_early():
    tok = trained(RegexTokenizer, "ab ab<|a|>", 1000, special_tokens=["<|a|>", "<|b|>"])
    assert tok.merges == {(97, 98): 256, (32, 256): 257}
    assert tok.special_tokens == {"<|a|>": 258, "<|b|>": 259}


def test_special_tokens_replace_those_registered_before():
    tok = RegexTokenizer()
    tok.register_special_tokens({"<|old|>": 100000})
    tok.train("hello world", 260, special_tokens=["<|new|>"])
    assert tok.special_tokens == {"<|new|>": 259}


def test_save_and_load_keep_trained_special_tokens(tmp_path):
    tok = trained(RegexTokenizer, "hi there<|endoftext|>hi", 270, special_tokens=["<|endoftext|>"])
    loaded = RegexTokenizer().load(tok.save(str(tmp_path / "tok")))
    assert loaded.special_tokens == tok.special_tokens and loaded.merges == tok.merges


@pytest.mark.parametrize("special_tokens, error, message", [
    ("<|endoftext|>", TypeError, "list of str"),
    ({"<|endoftext|>": 300}, TypeError, "list of str"),
    (["<|a|>", "<|a|>"], ValueError, "twice"),
    ([""], ValueError, "non-empty str"),
    ([7], ValueError, "non-empty str"),
])
def test_bad_special_tokens_raise_clearly(special_tokens, error, message):
    with pytest.raises(error, match=message):
        RegexTokenizer().train("hello", 300, special_tokens=special_tokens)


def test_bad_arguments_raise_clearly():
    with pytest.raises(ValueError, match="at least 258"):
        RegexTokenizer().train("hello", 257, special_tokens=["<|a|>", "<|b|>"])
    with pytest.raises(ValueError, match="'first' or 'lexicographic'"):
        RegexTokenizer().train("hello", 300, tie_break="last")
    with pytest.raises(ValueError, match="'first' or 'lexicographic'"):
        naive_train("hello", 300, tie_break="alphabetical")
    with pytest.raises(TypeError, match="decode it first"):
        RegexTokenizer().train(b"hello", 300)
    with pytest.raises(TypeError, match="cannot train on a int"):
        RegexTokenizer().train(42, 300)
    with pytest.raises(ValueError, match="workers"):
        RegexTokenizer().train("hello", 300, workers=0)


# ------------------------------------------------------------------ sources


@settings(max_examples=300)
@given(texts_with_specials, st.lists(st.integers(min_value=0, max_value=400), max_size=6),
       st.sampled_from(TOKENIZERS), st.sampled_from(["first", "lexicographic"]), st.booleans())
def test_iterable_and_open_file_train_like_the_str(text, positions, tok_class, tie_break, with_specials):
    options = {"tie_break": tie_break, "special_tokens": SPECIALS if with_specials else None}
    whole = trained(tok_class, text, 300, **options)
    pieces = trained(tok_class, cut_into_pieces(text, positions), 300, **options)
    assert pieces.merges == whole.merges, f"iterable of {cut_into_pieces(text, positions)!r}"
    from_text_file = trained(tok_class, io.StringIO(text), 300, **options)
    from_binary_file = trained(tok_class, io.BytesIO(text.encode("utf-8")), 300, **options)
    assert from_text_file.merges == from_binary_file.merges == whole.merges


def test_a_path_trains_like_the_str(tmp_path, monkeypatch):
    # small blocks so that characters of every width and CRLFs straddle block ends
    monkeypatch.setattr(pretokenize, "BLOCK_SIZE", 7)
    text = "naïve café, 한국어 😀\r\n" * 50 + "<|endoftext|>" + "don't 12345 stop\r\n" * 40
    path = tmp_path / "corpus.txt"
    path.write_bytes(text.encode("utf-8"))
    for tok_class in TOKENIZERS:
        for options in ({}, {"special_tokens": ["<|endoftext|>"], "tie_break": "lexicographic"}):
            whole = trained(tok_class, text, 330, **options)
            assert trained(tok_class, path, 330, **options).merges == whole.merges
            assert trained(tok_class, path, 330, algorithm="naive", **options).merges == whole.merges
            with open(path, encoding="utf-8", newline="") as f:
                assert trained(tok_class, f, 330, **options).merges == whole.merges


def test_a_file_that_is_not_utf8_raises(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("café".encode("latin-1"))
    with pytest.raises(UnicodeDecodeError):
        RegexTokenizer().train(path, 300)


def test_workers_count_exactly_like_one_process(monkeypatch):
    # tiny parts and batches and no minimum size, so that many batches go through the workers
    monkeypatch.setattr(pretokenize, "PARALLEL_MIN", 0)
    monkeypatch.setattr(pretokenize, "PART_SIZE", 50)
    monkeypatch.setattr(pretokenize, "BATCH_SIZE", 200)
    rng = random.Random(3)
    words = ["the", " cat", " sat", "\n", " 2024", "<|endoftext|>", " naïve", " 한국어", "!", "  "]
    text = "".join(rng.choice(words) for _ in range(20_000))
    for pattern in (GPT2_SPLIT_PATTERN, O200K_SPLIT_PATTERN):
        alone = count_chunks(text, pattern, ["<|endoftext|>"], workers=1)
        shared = count_chunks(text, pattern, ["<|endoftext|>"], workers=2)
        assert list(shared.items()) == list(alone.items())  # same counts, same order
        assert list(count_chunks(iter(text.split("\n")), pattern, workers=2)) == list(
            count_chunks(text.replace("\n", ""), pattern, workers=1))


def test_counting_holds_no_list_of_every_chunk(monkeypatch):
    """Streaming a text costs about the distinct chunks and one part, not a string per chunk."""
    import tracemalloc

    monkeypatch.setattr(pretokenize, "PART_SIZE", 1 << 14)
    line = "for item in range(10): total += item * 2  # a line of code\n"
    pieces = (line.replace("item", f"item{i % 100}") for i in range(10_000))  # 0.6 MB, 240K chunks
    tracemalloc.start()
    counts = count_chunks(pieces, RegexTokenizer().pattern, workers=1)
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    assert sum(counts.values()) > 200_000
    assert peak < 3, f"counting took {peak:.1f} MB; a list of every chunk takes about 14 MB"


# ------------------------------------------------------------------ progress bars


def test_progress_bars_when_verbose_and_none_otherwise(capsys):
    RegexTokenizer().train("hello world " * 20, 270, verbose=True)
    out, err = capsys.readouterr()
    assert out.startswith("merge 1/14: ") and "counting chunks" in err and "merging" in err
    RegexTokenizer().train("hello world " * 20, 270)
    assert capsys.readouterr() == ("", "")  # stderr is not a terminal here


# ------------------------------------------------------------------ CS336's rule, written independently


def cs336_style_train(text, vocab_size, special_tokens):
    """BPE the way CS336's handout describes it, in its own data structures: GPT-2 pre-tokens
    between special tokens, counted as tuples of bytes; merge the most frequent pair, ties to
    the greatest (bytes, bytes); the special tokens join the vocab at the end."""
    words = Counter()
    for stretch in re.split("|".join(map(re.escape, special_tokens)), text):
        for chunk in regex.findall(GPT2_SPLIT_PATTERN, stretch):
            words[tuple(bytes([b]) for b in chunk.encode("utf-8"))] += 1
    merges = []
    while 256 + len(merges) + len(special_tokens) < vocab_size:
        pairs = Counter()
        for word, n in words.items():
            for pair in zip(word, word[1:]):
                pairs[pair] += n
        if not pairs:
            break
        best = max(pairs, key=lambda pair: (pairs[pair], pair))
        merges.append(best)
        merged = Counter()
        for word, n in words.items():
            out, i = [], 0
            while i < len(word):
                if word[i:i + 2] == best:
                    out.append(best[0] + best[1])
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            merged[tuple(out)] += n
        words = merged
    return merges


def story_corpus(n_stories, seed):
    """Short stories in the manner of TinyStories, each ended by <|endoftext|>."""
    rng = random.Random(seed)
    names = ["Lily", "Tom", "Sue", "Max", "Ben", "Mia"]
    things = ["ball", "cat", "tree", "cake", "boat", "kite", "dog", "hat"]
    feelings = ["happy", "sad", "sleepy", "brave", "hungry"]
    stories = []
    for _ in range(n_stories):
        name, thing = rng.choice(names), rng.choice(things)
        lines = [f"Once upon a time, there was a girl named {name}.",
                 f"{name} had a {rng.choice(feelings)} {thing}. She loved her {thing} very much.",
                 f"One day, {name} saw a big {rng.choice(things)} near the {rng.choice(things)}.",
                 f'"Can I play?" asked {name}. {rng.randint(2, 99)} friends said yes!']
        stories.append("\n".join(rng.sample(lines, k=rng.randint(2, 4))) + "\n")
    return "<|endoftext|>".join(stories) + "<|endoftext|>"


def test_lexicographic_training_matches_cs336_rule():
    text = story_corpus(400, seed=5)
    expected = cs336_style_train(text, 400, ["<|endoftext|>"])
    tok = RegexTokenizer(GPT2_SPLIT_PATTERN)
    tok.train(text, 400, special_tokens=["<|endoftext|>"], tie_break="lexicographic")
    assert merged_bytes(tok) == expected
    assert set(tok.vocab) == set(range(400)) and tok.vocab[399] == b"<|endoftext|>"
    first = RegexTokenizer(GPT2_SPLIT_PATTERN)
    first.train(text, 400, special_tokens=["<|endoftext|>"])
    assert merged_bytes(first) != expected  # the rule matters on this text


def test_docstring_examples():
    import doctest

    from bpe_ref import trainer

    for module in (trainer, pretokenize):
        failures, tried = doctest.testmod(module)
        assert tried > 0 and failures == 0, module.__name__
