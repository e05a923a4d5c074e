"""Which split a tokenizer class has built in, told by what it does, not by its name.

A class whose constructor takes no pattern may still split: minbpe's RegexTokenizer often fixes
GPT-4's pattern in __init__ (or splits inside train and encode), and then it is the regex
exercise, graded against that pattern. Its train is run once, and its encode once, on a text
where no split, GPT-4's and GPT-2's pattern each give a different answer; the one its answers
agree with is its split. When neither answer tells (both crash, or both are wrong), the class's
name breaks the tie: a class named for regex gets minbpe's default, GPT-4's pattern; so does one
named for regex whose answers show no split (an unfinished copy of the basic tokenizer).
"""

from .exercises import REGISTRY
from .exercises.w06_encoding import ranked_vocab
from .shapes import object_call, wired, without_constructor
from ...core.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN

NO_SPLIT = ""  # the basic exercise: the whole text is one chunk
IGNORED = None  # a class handed a pattern that does not split at all: the basic exercise, its pattern unused
CANDIDATES = {NO_SPLIT: "no split", GPT4_SPLIT_PATTERN: "GPT-4's pattern", GPT2_SPLIT_PATTERN: "GPT-2's pattern"}
# each candidate trains to merges the other two's judges refuse, and encodes to other ids
TRAIN_PROBE = ("a a a a 1234 1234 1234 hello hello", 260)  # pairs left over for all three
# a merge applies under every candidate, so ids handed back unmerged (an encode that ignores the
# merges it is given) tell nothing
ENCODE_PROBE = ("a a 1234", {(97, 32): 256, (51, 52): 257, (49, 50): 258})


def agrees_in_training(pattern, merges):
    """Whether `merges` is a right training of TRAIN_PROBE split by `pattern`."""
    text, size = TRAIN_PROBE
    if not isinstance(merges, dict):
        return False
    if pattern == NO_SPLIT:
        return REGISTRY["train"].judge((text, size), merges) is None
    return REGISTRY["train_regex"].judge((text, size, pattern), merges) is None


def agrees_in_encoding(pattern, ids):
    """Whether `ids` is the right encoding of ENCODE_PROBE split by `pattern`."""
    text, merges = ENCODE_PROBE
    if not isinstance(ids, list):
        return False
    if pattern == NO_SPLIT:
        return REGISTRY["encode"].judge((text, merges), ids) is None
    return REGISTRY["encode_ordinary"].judge((text, merges, pattern), ids) is None


def told(agrees, answer):
    """The one candidate `answer` agrees with, or None when it agrees with none or several."""
    matching = [pattern for pattern in CANDIDATES if agrees(pattern, answer)]
    return matching[0] if len(matching) == 1 else None


def choose(cls, trained, encoded):
    """(pattern, how): the split the answers tell, else the name's tie-break; NO_SPLIT for none.
    A split shown by either method is the class's: a regex trainer beside a basic encode is a regex
    class whose encode is wrong, and a basic trainer beside a splitting encode one whose train merges
    across chunks. Training is asked first."""
    for method, pattern in (("train", trained), ("encode", encoded)):
        if pattern:
            return pattern, f"its {method} splits the text as {CANDIDATES[pattern]} does"
    for method, pattern in (("train", trained), ("encode", encoded)):
        if pattern == NO_SPLIT and "regex" in cls.lower():
            return GPT4_SPLIT_PATTERN, (f"its {method} does not split the text, but its name says regex: "
                                        "GPT-4's pattern, minbpe's default")
    if "regex" in cls.lower():
        return GPT4_SPLIT_PATTERN, "its answers tell no split, and its name says regex: GPT-4's pattern, minbpe's default"
    return NO_SPLIT, "its answers tell no split"


def split_finder(sandbox, deadline):
    """find(cls, train, encode, merges_of, setting, sized) -> (pattern, how): the split a class of
    no pattern parameter has built in, from one training and one encoding in the sandbox. `train`
    and `encode` are method names (or None); merges_of(answer, text) reads the merges from what
    training answered (its attributes, or what it returned), and setting(merges) gives the
    attributes that hand it merges (both in the class's own layout: minbpe_style)."""
    def find(cls, train, encode, merges_of, setting, sized=False, returns=False, pattern=None, bare=False):
        """`pattern`: made as Cls(pattern), for a class that takes one (does it split with it?);
        `bare`: made without its constructor (one that loads its tables from a file)."""
        trained = encoded = None
        made = [pattern] if pattern is not None else []
        if train:  # `returns`: train returns the merges instead of keeping them
            text, size = TRAIN_PROBE
            init_args, given = ([size], [text]) if sized else (made, [text, size])
            read = {} if returns else {"read": "*"}
            reply = object_call(sandbox, cls, deadline, init=wired(init_args), call=[train, wired(given)], **read)
            if reply.kind == "ok":
                trained = told(agrees_in_training, merges_of(reply.value, text))
        if encode:
            text, merges = ENCODE_PROBE
            reply = object_call(sandbox, cls, deadline, init=wired([256 + len(merges)] if sized else made),
                                set=wired(setting(merges)), call=[encode, wired([text])],
                                **without_constructor(bare))
            if reply.kind == "ok":
                encoded = told(agrees_in_encoding, reply.value)
        if pattern is not None:  # a split it was not given, no split at all, or none told
            found = trained or encoded
            if found:
                return found, f"it splits as {CANDIDATES[found]} does, whatever pattern it is given"
            # one character a chunk, yet it trained across them: no split at all, unless its name says
            # regex (then it is a regex tokenizer that fails to split, as choose() reads such a class)
            if trained == NO_SPLIT and encoded in (NO_SPLIT, None) and "regex" not in cls.lower():
                return IGNORED, "it does not split the text, whatever pattern it is given"
            return NO_SPLIT, ""
        return choose(cls, trained, encoded)
    return find
