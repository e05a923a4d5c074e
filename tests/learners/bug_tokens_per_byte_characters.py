"""BUG in tokens_per_byte: divides by the number of characters, not of UTF-8 bytes, so Korean and
emoji look cheaper than they are. (unused_tokens is right, written with a generator and sorted().)

expect: tokens_per_byte fail, unused_tokens pass
cause: tokens_per_byte per_character
shows: tokens_per_byte len(text.encode('utf-8'))
"""


def tokens_per_byte(texts, ids):
    return {language: len(ids[language]) / len(text) if text else 0.0
            for language, text in texts.items()}


def unused_tokens(vocab, encoded):
    produced = {idx for document in encoded for idx in document}
    return sorted(idx for idx in vocab if idx not in produced)
