"""HOSTILE: a class whose own helpers would be found by behaviour and called on a fresh instance,
but call the reference from inside: get_stats imports bpe_ref in its body, merge loads
bpe_ref.core.naive through importlib. The reference's answer never reaches the grader as theirs:
the probes meet the reference, so neither behaves like an exercise, nothing is graded and the
file is not passed.

expect: nothing
"""


class Tokenizer:
    def __init__(self):
        self.merges = {}

    def get_stats(self, ids):
        import bpe_ref
        return bpe_ref.get_stats(ids)

    def merge(self, ids, pair, idx):
        import importlib
        return importlib.import_module("bpe_ref.core.naive").merge(ids, pair, idx)
