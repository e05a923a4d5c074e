"""The Results of word-level grading, and how a tokenizer's answer is read and compared: each marked
word-level, so the file's other helpers are still looked for as those of no byte-level design.
"""

from ..display import show
from ..engine import Result



def passed(name, exercise, how):  # word_level: no byte-level design, whose helpers a file's others would be
    return Result(name, "pass", "ok", {"exercise": how, "course": exercise, "word_level": True})


def failed(name, exercise, how, message, call):
    return Result(name, "fail", message, {"exercise": how, "course": exercise, "call": call, "word_level": True})


def raised_text(reply):
    raised = reply.info.get("raised") or {}
    where = f" ({raised['where']})" if raised.get("where") else ""
    return f"raised {raised.get('type', 'an exception')}: {raised.get('message', '')}{where}"


def tokens_of(reply):
    """A tokenizer's answer as one flat list of symbols (a list per word is flattened), or None when it
    is something else (ids, or a reply that is no answer): not judged here."""
    got = reply.value if reply.kind == "ok" else None
    if isinstance(got, list) and got and all(isinstance(g, list) for g in got):
        got = [s for word in got for s in word]
    return got if isinstance(got, list) and all(isinstance(s, str) for s in got) else None


def judged_tokens(name, call, got, expected, marker, how, after="", spelt="as training spells it"):
    if got == expected:
        return passed(name, "encode", how)
    at = next((i for i, (e, g) in enumerate(zip(expected, got)) if e != g), min(len(expected), len(got)))
    ending = f"ending in {marker!r}" if marker else "with no end-of-word marker"
    return failed(name, "encode", how, (
        f"{after}{call} differs from {'its own ' if after else 'the '}merges applied in order to each word, "
        f"spelt {spelt} ({ending}): they first differ at token {at}: expected "
        f"{show(expected[at:at + 1])[1:-1] or 'the end'}, got {show(got[at:at + 1])[1:-1] or 'the end'} "
        f"(the tokens before it: {show(expected[max(0, at - 5):at])})"), call)


def takes_one_word(param):
    """Whether a tokenizer's parameter is one word (segment(word, merges)), handed the words one by one,
    not a text of several."""
    lowered = param.lower()
    return "word" in lowered and "words" not in lowered


def tokens_by_word(call, text, one_word):
    """A tokenizer's tokens for `text` (call(text) -> Reply): of the whole text, or, for one that takes
    one word, of its words one by one, put together; None when an answer is not tokens."""
    if not one_word:
        return tokens_of(call(text))
    out = []
    for word in text.split():
        got = tokens_of(call(word))
        if got is None:
            return None
        out += got
    return out

