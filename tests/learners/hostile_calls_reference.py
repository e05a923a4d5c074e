"""HOSTILE: functions that call the reference from inside: bpe_ref imported in the body, tiktoken,
and importlib.import_module. All of them are `reference`; decode is the learner's own and right.
(Loading bpe_ref/naive.py by its file path: hostile_reference_by_path.py.)

expect: decode pass, get_stats reference, build_vocab reference, encode reference
shows: encode tiktoken.get_encoding
shows: build_vocab bpe_ref.naive.build_vocab
"""

import importlib


def get_stats(ids):
    import bpe_ref
    return bpe_ref.get_stats(ids)


def encode(text, merges):
    import tiktoken
    return tiktoken.get_encoding("gpt2").encode(text)


def build_vocab(merges):
    return importlib.import_module("bpe_ref.naive").build_vocab(merges)


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
