"""Signature variants that carry the same information as the course's, graded in their own terms.

decode(ids, merges) builds its own vocab from the merges: it is handed the merges that make the
course's vocab, never the vocab itself (which its code would rightly refuse). The parameter's name
tells the variant apart, since a vocab and a merges dict are both dicts.
"""

MERGES_WORDS = ("merge", "rank")  # a decode parameter so named takes merges, not a vocab


def merges_from_vocab(vocab):
    """The merges {(a, b): idx} that build `vocab` ({id: bytes}, bytes 0-255 first): each new
    token split into two earlier ones. None when some token is not made of two earlier ones."""
    earliest = {}
    for idx in sorted(vocab):
        earliest.setdefault(vocab[idx], idx)
    merges = {}
    for idx in sorted(i for i in vocab if i >= 256):
        token = vocab[idx]
        split = next(((earliest[token[:k]], earliest[token[k:]]) for k in range(1, len(token))
                      if earliest.get(token[:k], idx) < idx and earliest.get(token[k:], idx) < idx), None)
        if split is None:
            return None
        merges[split] = idx
    return merges


def takes_merges(exercise, params):
    """Whether a learner's function graded as `exercise` takes merges where the course passes a vocab."""
    return exercise == "decode" and len(params) >= 2 and any(w in params[1].lower() for w in MERGES_WORDS)


class MergesForVocab:
    """A caller for decode(ids, merges): the course's (ids, vocab) go in as (ids, merges)."""

    how = "decode(ids, merges): handed the merges that build the vocab, since it builds its own"

    def __init__(self, caller):
        self.caller = caller

    def call(self, args, rule=None):
        ids, vocab = args
        merges = merges_from_vocab(vocab) if isinstance(vocab, dict) else None
        return self.caller.call((ids, vocab if merges is None else merges), rule)

    def by_hand(self, rule):
        return self.caller.by_hand(rule)

    def measure(self, text, vocab_size):
        return self.caller.measure(text, vocab_size)
