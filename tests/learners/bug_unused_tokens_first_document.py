"""BUG in unused_tokens: reads only the first document of `encoded`. (tokens_per_byte is right.)

expect: tokens_per_byte pass, unused_tokens fail
cause: unused_tokens first_document_only
shows: unused_tokens every document
"""


def tokens_per_byte(texts, ids):
    rates = {}
    for language in texts:
        size = len(texts[language].encode("utf-8"))
        rates[language] = 0.0 if size == 0 else len(ids[language]) / size
    return rates


def unused_tokens(vocab, encoded):
    seen = set(encoded[0]) if encoded else set()
    return sorted(idx for idx in vocab if idx not in seen)
