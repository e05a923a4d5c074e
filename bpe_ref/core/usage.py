"""What a tokenizer does to text, measured: workbook 11's references.

Two measures behind two of the model's weirdnesses: how many tokens each byte of a language costs
(the "token tax" on languages a vocabulary saw little of), and which tokens of a vocabulary a
corpus never produces (a model trained on that corpus never learns them: "SolidGoldMagikarp").
"""


def tokens_per_byte(texts, ids):
    """Tokens per UTF-8 byte of each text: {language: len(ids[language]) / its bytes}.

    texts: {language: str}; ids: {language: the token ids of that text}. An empty text gets 0.0.
    tokens_per_byte({"en": "hi", "ko": "안"}, {"en": [1], "ko": [2, 3]}) -> {"en": 0.5, "ko": 0.666...}
    """
    rates = {}
    for language, text in texts.items():
        size = len(text.encode("utf-8"))
        rates[language] = len(ids[language]) / size if size else 0.0
    return rates


def unused_tokens(vocab, encoded):
    """The ids of `vocab` that no list of `encoded` holds, in increasing order.

    vocab: {id: bytes}; encoded: a list of token-id lists (one per document).
    unused_tokens({0: b"a", 1: b"b", 7: b"ab"}, [[0, 7], [0]]) -> [1]
    """
    seen = set()
    for ids in encoded:
        seen.update(ids)
    return sorted(idx for idx in vocab if idx not in seen)
