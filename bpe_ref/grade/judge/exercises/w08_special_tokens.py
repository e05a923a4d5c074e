"""Workbook 08, special tokens: `encode_special`, with tiktoken's `allowed_special` rule (a special
token in the text that is not allowed raises ValueError) and the course's rule where tiktoken says
nothing: when one special token is a prefix of another, the longest is tried first (CS336's tests
require it; tiktoken joins its tokens in a set's order)."""

import dataclasses

import regex
from hypothesis import strategies as st

from .._private import naive
from ....core.patterns import GPT4_SPLIT_PATTERN
from .common import PATTERNS, WORDS_PATTERN, Bug, Mismatch, Raised, Raises, exercise, same
from .w07_regex_splitting import reference_encode_ordinary

SPECIALS = {"<|endoftext|>": 300, "<|user|>": 301}
# tokens with other regex metacharacters: escaping only '|' (or none) fails on these
OTHER_SPECIALS = {"[SEP]": 300, "<s>": 301, "(x)": 302}
# one token a prefix of others, listed shortest first: only longest-first matching gets these right
OVERLAPPING = {"<|end|>": 300, "<|end|><|end|>": 301, "<|end|>!": 302}


def special_encoder(allowed_of=None, escape=regex.escape, group=True, as_text=False, check=True,
                    error=ValueError, none_allowed=True, order=None):
    """encode_special, right by default; each argument switches on one classic slip.

    allowed_of: turns allowed_special into the allowed names, in the order they are tried;
    order: puts those names in another order (dict order, alphabetical) before they are joined;
    escape: how tokens go into the split pattern; group: whether the pattern keeps the tokens (a
    capture group); as_text: allowed tokens encoded as ordinary text; check: whether a token that
    is not allowed raises, and `error` what; none_allowed: whether no allowed token at all skips
    the split (else the pattern is '()', which splits between every two characters).
    """
    def encode_special(text, merges, pattern, special_tokens, allowed_special):
        allowed = (allowed_of or allowed_names)(allowed_special, special_tokens)
        if order is not None:
            allowed = order(allowed, special_tokens)
        if check:
            for token in special_tokens:
                if token not in allowed and token in text:
                    raise error(f"{token!r} is not allowed")
        if not allowed and none_allowed:
            return reference_encode_ordinary(text, merges, pattern)
        splitter = "|".join(escape(token) for token in allowed)
        ids = []
        for part in regex.split(f"({splitter})" if group else splitter, text):
            if not part:  # an empty piece, or an inner group that did not take part (None)
                continue
            if part in allowed and not as_text:
                ids.append(special_tokens[part])
            else:
                ids += reference_encode_ordinary(part, merges, pattern)
        return ids
    return encode_special


def allowed_names(allowed_special, special_tokens):
    """The allowed tokens, longest first: alternatives are tried in order, so a token must come
    before any token that is a prefix of it."""
    return longest_first(special_tokens if allowed_special == "all" else allowed_special)


def longest_first(tokens):
    return sorted(tokens, key=lambda token: (-len(token), token))


def dict_order(names, special_tokens):
    return [t for t in special_tokens if t in names] + [t for t in names if t not in special_tokens]


def alphabetical(names, special_tokens):
    return sorted(names)


def in_any_order(**slip):
    """The models of one slip, with the tokens joined longest first, in dict order or sorted: most
    learners' code does not sort by length, and that is a second slip, not this one's absence."""
    return dict(model=special_encoder(**slip),
                also=tuple(special_encoder(order=order, **slip) for order in (dict_order, alphabetical)))


reference_encode_special = special_encoder()


def judge_encode_special(args, got):
    try:
        expected = reference_encode_special(*args)
    except ValueError:
        if isinstance(got, Raised) and got.is_a("ValueError"):
            return None
        return Mismatch(Raises("ValueError"), "the text spells a special token that is not allowed: raise ValueError")
    return None if same(got, expected) else Mismatch(expected)


def others_as_text(args, got):
    """Whether `got` is minbpe's answer for a non-empty allowed set: the tokens the set names as
    their ids, every other special token encoded as ordinary text (tiktoken does the same with
    disallowed_special=()). The course's own encode_special must raise there; a class written to
    minbpe's convention is right in its own terms."""
    allowed = args[4]
    if not isinstance(allowed, (set, frozenset)) or not allowed or isinstance(got, Raised):
        return False
    return same(got, special_encoder(check=False)(*args))


def in_minbpe_terms(bug):
    """The bug, made by code that follows minbpe's convention for an allowed set (the tokens it
    leaves out are ordinary text) and raises an assert where nothing is allowed: the same slip,
    so its hint is still shown when that code makes it."""
    def minbpe(model):
        def run(text, merges, pattern, special_tokens, allowed_special):
            if isinstance(allowed_special, (set, frozenset)) and allowed_special:
                special_tokens = {t: i for t, i in special_tokens.items() if t in allowed_special}
            return model(text, merges, pattern, special_tokens, allowed_special)
        return run
    return dataclasses.replace(bug, also=bug.also + tuple(minbpe(m) for m in bug.models),
                               errors=bug.errors + ("AssertionError",))


SPECIAL_MERGES = [{}, {(97, 98): 256}, {(60, 124): 256, (124, 62): 257}, naive.train("ab ab <|ab|> abab", 264)]
PIECES = ["ab", " ", "<|end", "|>", "é", "a<", "S", "x", "E", "s>", "!"]


def special_args(specials):
    """Arguments for one set of special tokens: texts made of them and of their fragments, and
    allowed_special as "all", nothing, or one of them."""
    text = st.lists(st.sampled_from(PIECES + sorted(specials)), max_size=6).map("".join)
    allowed = st.sampled_from(["all", frozenset(), frozenset(specials)]
                              + [frozenset({token}) for token in sorted(specials)])
    return st.tuples(text, st.sampled_from(SPECIAL_MERGES), st.sampled_from(PATTERNS), st.just(specials), allowed)


def escape_pipe(token):
    """Escaping only the '|' of a token, as if '<|...|>' were the only kind."""
    return token.replace("|", "\\|")

exercise(
    name="encode_special",
    workbook="08_special_tokens", section="6. Exercise: `encode_special`",
    task="raise ValueError for a special token in the text that is not allowed; else split around the allowed ones, encode_ordinary the pieces, put in the special ids",
    signature="encode_special(text, merges, pattern, special_tokens, allowed_special) -> list[int]",
    cases=lambda: [("hi", {}, GPT4_SPLIT_PATTERN, SPECIALS, "all"),
                   ("hi<|endoftext|>", {}, GPT4_SPLIT_PATTERN, SPECIALS, "all"),
                   ("hi<|endoftext|>", {}, GPT4_SPLIT_PATTERN, SPECIALS, frozenset()),
                   ("<|user|>hi<|endoftext|>", {}, GPT4_SPLIT_PATTERN, SPECIALS, frozenset({"<|user|>"})),
                   ("ab<|user|>ab", {(97, 98): 256}, WORDS_PATTERN, SPECIALS, "all"),
                   # the default, nothing allowed, and no special token in the text: merges still apply
                   ("ab ab", {(97, 98): 256}, GPT4_SPLIT_PATTERN, SPECIALS, frozenset()),
                   # no special tokens at all: ordinary encoding, whatever the text spells
                   ("ab<|endoftext|>", {(97, 98): 256}, GPT4_SPLIT_PATTERN, {}, "all"),
                   ("a[SEP]b<s>(x)", {}, GPT4_SPLIT_PATTERN, OTHER_SPECIALS, "all"),
                   ("S(x)E", {}, GPT4_SPLIT_PATTERN, OTHER_SPECIALS, frozenset({"(x)"})),
                   # one token a prefix of others: the longest is tried first
                   ("a<|end|><|end|><|end|>!", {}, GPT4_SPLIT_PATTERN, OVERLAPPING, "all"),
                   ("<|end|><|end|>", {}, GPT4_SPLIT_PATTERN, OVERLAPPING, frozenset({"<|end|>"}))],
    strategy=st.sampled_from([SPECIALS, OTHER_SPECIALS, OVERLAPPING]).flatmap(special_args),
    judge=judge_encode_special,
    hint="raise ValueError if the text contains a special token that is not allowed; otherwise split around "
         "the allowed ones with regex.split and a capture group of the escaped tokens ('(' + '|'.join("
         "regex.escape(t) for t in allowed) + ')'), encode_ordinary the other pieces, put in the special ids",
    bugs=(
        Bug("no_raise", "a special token in the text that is not allowed must raise ValueError (tiktoken's "
                        "rule), not be encoded", model=special_encoder(check=False),
            also=(*in_any_order(check=False)["also"],
                  special_encoder(check=False, allowed_of=lambda allowed, specials: sorted(specials)))),
        Bug("unescaped", "escape the special tokens before joining them into a pattern: regex.escape(token), "
                         "since '|' in '<|endoftext|>' means 'or'", **in_any_order(escape=lambda t: t)),
        Bug("escapes_only_pipe", "escape every character that means something in a pattern, with "
                                 "regex.escape(token), not only '|': in '[SEP]' the brackets make a character "
                                 "class, in '(x)' the parentheses a group", **in_any_order(escape=escape_pipe)),
        Bug("all_not_understood", "allowed_special='all' means every special token is allowed; check for the "
                                  "string 'all' before treating it as a set",
            **in_any_order(allowed_of=lambda allowed, specials: longest_first(set(allowed) & set(specials)))),
        Bug("no_capture_group", "put the tokens in a capture group, regex.split('(' + ... + ')', text), or "
                                "split drops them and their ids never go in", **in_any_order(group=False)),
        Bug("specials_as_text", "an allowed special token becomes its one id from special_tokens, not the ids "
                                "of its characters", **in_any_order(as_text=True)),
        Bug("not_longest_first", "try the longest special tokens first: alternatives are tried in order, so "
                                 "'<|end|>' took the start of '<|end|><|end|>'; join them sorted by length, "
                                 "longest first (sorted(tokens, key=len, reverse=True)): neither a dict's order nor "
                                 "a set's does that",
            special_encoder(order=dict_order), also=(special_encoder(order=alphabetical),)),
        Bug("empty_group", "with no special token to split on (none allowed, or an empty list of them) the "
                           "pattern is '()', which matches between every two characters, so each character was "
                           "encoded alone and no merge applied: when there is none, encode_ordinary the whole text",
            **in_any_order(none_allowed=False)),
        Bug("raises_key_error", "raise ValueError for a special token that is not allowed, as tiktoken does, "
                                "not KeyError: the error is about the text's value, not a missing key",
            special_encoder(error=KeyError)),
    ),
    probes=lambda: [("a<|user|>b", {}, GPT4_SPLIT_PATTERN, SPECIALS, "all"),
                    ("<|user|>", {(60, 124): 256}, GPT4_SPLIT_PATTERN, SPECIALS, "all"),
                    ("<|end", {(60, 124): 256}, GPT4_SPLIT_PATTERN, SPECIALS, "all"),
                    ("<|endoftext|>", {}, GPT4_SPLIT_PATTERN, SPECIALS, frozenset({"<|endoftext|>"})),
                    ("<|user|>", {}, GPT4_SPLIT_PATTERN, SPECIALS, frozenset()),
                    ("ab<|user|>", {(97, 98): 256}, GPT4_SPLIT_PATTERN, SPECIALS, frozenset({"<|endoftext|>"})),
                    ("S<s>", {}, GPT4_SPLIT_PATTERN, OTHER_SPECIALS, "all"),
                    ("E(x)", {}, WORDS_PATTERN, OTHER_SPECIALS, frozenset({"(x)"})),
                    ("[SEP]", {}, GPT4_SPLIT_PATTERN, OTHER_SPECIALS, "all"),
                    ("<|end|><|end|>!", {}, GPT4_SPLIT_PATTERN, OVERLAPPING, "all"),
                    ("ab", {(97, 98): 256}, GPT4_SPLIT_PATTERN, SPECIALS, frozenset()),
                    ("ab", {(97, 98): 256}, GPT4_SPLIT_PATTERN, {}, "all")],
)
