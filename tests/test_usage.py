"""Workbook 11's references (core/usage.py) and its parallel texts (basics/texts.py)."""

from bpe_ref.basics.texts import LANGUAGE_NAMES, parallel_texts
from bpe_ref.core.usage import tokens_per_byte, unused_tokens


def test_tokens_per_byte_counts_bytes_not_characters():
    rates = tokens_per_byte({"en": "hi", "ko": "안", "empty": ""}, {"en": [1], "ko": [2, 3], "empty": []})
    assert rates == {"en": 0.5, "ko": 2 / 3, "empty": 0.0}


def test_unused_tokens_reads_every_document_and_sorts():
    vocab = {7: b"ab", 0: b"a", 1: b"b", 100257: b"<|endoftext|>"}
    assert unused_tokens(vocab, [[0], [7]]) == [1, 100257]
    assert unused_tokens({}, []) == [] and unused_tokens({3: b"c"}, []) == [3]


def test_parallel_texts_are_the_same_messages_in_every_language():
    texts = parallel_texts()
    assert list(texts) == list(LANGUAGE_NAMES.values()) and len(texts) == 17
    lines = {language: text.splitlines() for language, text in texts.items()}
    assert {len(rows) for rows in lines.values()} == {200}
    assert all(row.strip() for rows in lines.values() for row in rows)
    assert lines["English"][0] != lines["Korean"][0]
