"""The weekly-drill style: module-level `text`, `merges` and `vocab`, with encode(text) and
decode(ids) that read them. One home for it, used by check_all() in the kernel and by bpe-grade.

The values are read once per submission (`ModuleStyle.read`); encode and decode are graded
against the learner's own merges, on texts where two of those merges compete.
"""

from dataclasses import dataclass

import regex
from hypothesis import strategies as st

from ._private import naive
from .bounds import TooLarge, replay_problem, token_lengths, vocab_of
from .engine import Result
from .exercises import REGISTRY
from .exercises.common import MIXED_TEXT, Bug, Exercise, Mismatch, same
from .exercises.w04_naive_bpe import replay
from .exercises.w06_encoding import ENCODE_BUGS, observe_encoding
from .exercises.w07_regex_splitting import competing_texts

NAMES = ("text", "merges", "vocab")
NOT_YET = {"merges": "not defined yet: train at module level, into `merges`",
           "vocab": "not defined yet, or not checked: `vocab` is checked once `merges` builds one"}


@dataclass
class ModuleStyle:
    merges: object
    vocab: object = None
    text: object = None
    course: tuple = None  # (text, vocab_size) the course asked to train on (a drill's): judged on that
    others: dict = None  # {name: str} the module's other texts: a notebook may train on `fullText`

    def for_drill(self):
        """The same values, judged against the drill's own text and vocab_size (the course's,
        never the submission's): `merges = {}` is no training of it."""
        from ...practice.levels import VOCAB_SIZE  # practice imports the grader: imported when used
        from ...practice.workbook import practice_text

        self.course = (practice_text(), VOCAB_SIZE)
        return self

    @classmethod
    def read(cls, get, other_texts=()):
        """The module-level values, each fetched once with get(name) (None when it is not defined);
        `other_texts`: names of the module's other strings, fetched too."""
        values = {name: get(name) for name in NAMES}
        text = values["text"] if isinstance(values["text"], str) else None
        others = {name: value for name in other_texts if name not in NAMES and isinstance(value := get(name), str)}
        return cls(values["merges"], values["vocab"], text, others=others)

    def problem(self):
        """None if `merges` is well formed; else what is wrong with it."""
        if not isinstance(self.merges, dict):
            return f"`merges` should be a dict {{(id, id): new_id}}, not {type(self.merges).__name__}"
        for step, (pair, idx) in enumerate(self.merges.items()):
            if idx != 256 + step:
                return f"merge #{step + 1} has id {idx}; new ids run 256, 257, ..."
            if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(p, int) and p < idx for p in pair)):
                return f"merge #{step + 1} should map a pair of earlier ids to {idx}, not {pair!r}"
        return self.size_problem()

    def size_problem(self):
        """None if the grader can afford to rebuild and replay these merges; else why not (one
        learner's merges must not take the whole class run's memory or time)."""
        try:
            token_lengths(self.merges)
        except TooLarge as e:
            return str(e)
        return replay_problem(len(self.text.encode("utf-8")), self.merges) if self.text is not None else None

    # ------------------------------------------------------------------ the values

    def value_results(self):
        """Results for `merges` (a greedy BPE of `text`, when there is one) and `vocab` (if defined)."""
        problem = self.problem()
        if problem is None and self.course is not None:
            text, vocab_size = self.course
            problem = replay([list(text.encode("utf-8"))], self.merges, vocab_size)
            done = f"{len(self.merges)} merges, the drill's training of its text to vocab_size={vocab_size}"
        elif problem is None and (trained := self.training_text()) is not None:
            name, problem = trained
            done = f"{len(self.merges)} merges, a greedy BPE of `{name}`"
        else:
            done = f"{len(self.merges)} well-formed merges"
        done = problem or done
        too_large = isinstance(self.merges, dict) and problem is not None and problem == self.size_problem()
        results = [Result("merges", "error" if too_large else "fail" if problem else "pass", done)]
        if self.vocab is not None and (not problem or self.builds_vocab()):  # a vocab right for the merges it has
            vocab_problem = self.vocab_problem()
            results.append(Result("vocab", "fail" if vocab_problem else "pass", vocab_problem or "matches the merges"))
        return results

    def _could_train(self, text):
        first = next(iter(self.merges))
        ids = list(text.encode("utf-8"))
        return first in set(zip(ids, ids[1:])) and replay_problem(len(ids), self.merges) is None

    def training_text(self):
        """(name, what is wrong, or None) of the text the merges are judged as a greedy BPE of, or
        None (judged as well formed): the first of `text` and the module's other strings that they
        replay on, else `text` when its bytes hold the first merge's pair. Another string never
        fails them: a notebook's strings are often not what it trained on (a paragraph reassigned,
        a file, chunks of a split)."""
        named = ([("text", self.text)] if self.text is not None else []) + list((self.others or {}).items())
        if not self.merges:
            return ("text", self._replayed(self.text)) if self.text is not None else None
        first = None
        for name, text in named:
            if self._could_train(text):
                problem = self._replayed(text)
                if problem is None:
                    return name, None
                first = first or (name, problem)
        return first if first and first[0] == "text" else None

    def _replayed(self, text):
        """What replaying the merges as a greedy BPE of `text` finds wrong, or None."""
        return replay([list(text.encode("utf-8"))], self.merges, 256 + len(self.merges))

    @staticmethod
    def missing(listed, results):
        """Results for the module-level values a drill lists (`merges`, `vocab`) that got none."""
        return [Result(name, "missing", message) for name, message in NOT_YET.items()
                if name in listed and name not in results]

    def builds_vocab(self):
        """Whether `merges` builds a vocab, however wrong it is as training: each pair joins ids made
        already (bytes, or earlier merges) into an id of its own, and the grader can afford the tokens."""
        if not isinstance(self.merges, dict):
            return False
        made = set(range(256))
        for pair, idx in self.merges.items():
            if not (isinstance(pair, tuple) and len(pair) == 2 and all(type(p) is int and p in made for p in pair)
                    and type(idx) is int and idx not in made):
                return False
            made.add(idx)
        try:
            token_lengths(self.merges)
        except TooLarge:
            return False
        return True

    def vocab_problem(self):
        if not isinstance(self.vocab, dict):
            return f"`vocab` should be a dict {{id: bytes}}, not {type(self.vocab).__name__}"
        for idx, token in vocab_of(self.merges).items():
            if self.vocab.get(idx) != token:
                return f"vocab[{idx}] should be {token!r} (built from merges), got {self.vocab.get(idx)!r}"
        return None

    # ------------------------------------------------------------------ encode(text), decode(ids)

    def exercise(self, name):
        """The Exercise for encode(text) or decode(ids), judged against the learner's merges."""
        return self.encode_exercise() if name == "encode" else self.decode_exercise()

    def encode_exercise(self):
        merges = self.merges
        return Exercise(
            name="encode", signature="encode(text) with module-level merges",
            cases=self.encode_cases, strategy=st.tuples(self.mixes()),
            judge=lambda args, got: _equal(got, naive.encode(args[0], merges)),
            hint=REGISTRY["encode"].hint, bugs=tuple(_bound(bug, merges) for bug in ENCODE_BUGS),
            probes=lambda: [(t,) for t in competing_texts(merges)],
            observe=lambda args, got, expected: observe_encoding(args[0].encode("utf-8"), got, expected, merges),
        )

    def decode_exercise(self):
        vocab = vocab_of(self.merges)
        decode_bugs = REGISTRY["decode"].bugs
        return Exercise(
            name="decode", signature="decode(ids) with module-level vocab",
            cases=self.decode_cases, strategy=st.tuples(st.lists(st.sampled_from(sorted(vocab)), max_size=8)),
            judge=lambda args, got: _equal(got, naive.decode(args[0], vocab)),
            hint=REGISTRY["decode"].hint,
            bugs=tuple(Bug(b.name, b.hint, _with_vocab(b.model, vocab), errors=b.errors) for b in decode_bugs),
        )

    def encode_cases(self):
        cases = [("",), ("h",), ("é",), ("hello world",), ("안녕 😀",)]
        cases += [(t,) for t in competing_texts(self.merges, limit=60)]
        if self.text:
            words = regex.findall(r" ?\S+", self.text[:2000])
            cases += [(w,) for w in dict.fromkeys(words)][:60] + [(self.text[:400],)]
        return cases

    def decode_cases(self):
        some = sorted(vocab_of(self.merges))[256:262]
        texts = ("hello world", "안녕 😀", "mañana", (self.text or "")[:200])
        return [([],), ([104, 105],), ([0x80],), ([0xF0, 0x9F],), (some,)] + [
            (naive.encode(t, self.merges),) for t in texts]

    def mixes(self):
        """Texts likely to make the learner's own merges compete: joined runs of learned tokens,
        and slices of the training text."""
        vocab = vocab_of(self.merges)
        tokens = [vocab[idx] for idx in self.merges.values()] or [b"ab"]
        joined = st.lists(st.sampled_from(tokens), min_size=1, max_size=5).map(
            lambda parts: b"".join(parts).decode("utf-8", errors="replace"))
        if not self.text:
            return joined | MIXED_TEXT
        text = self.text
        start = st.integers(0, max(0, len(text) - 1))
        slices = st.tuples(start, st.integers(1, 40)).map(lambda sl: text[sl[0]: sl[0] + sl[1]])
        return joined | slices | MIXED_TEXT


def _equal(got, expected):
    return None if same(got, expected) else Mismatch(expected)


def _bound(bug, merges):
    """An encode(text, merges) bug as an encode(text) one, reading these merges."""
    return Bug(bug.name, bug.hint, _with_merges(bug.model, merges),
               also=tuple(_with_merges(m, merges) for m in bug.also), errors=bug.errors)


def _with_merges(model, merges):
    return lambda text: model(text, merges)


def _with_vocab(model, vocab):
    return lambda ids: model(ids, vocab)
