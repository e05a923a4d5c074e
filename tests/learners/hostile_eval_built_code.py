"""eval() in the sandbox: decode keeps its vocab as the text of each token's bytes ("b'ab'") and
eval()s that text back, which is data, not code: it is graded like any decode, with no flag.
merge is made by eval() of a lambda built from pieces of text, code the grader never read: in
the sandbox eval reads data only, so the load refuses it and merge is never defined.

expect: decode pass, merge error
shows: merge eval() reads data only
"""


def decode(ids, vocab):
    as_text = {i: repr(token) for i, token in vocab.items()}
    return b"".join(eval(as_text[i]) for i in ids).decode("utf-8", errors="replace")


merge = eval("lam" + "bda ids, pair, idx: [idx if False else i for i in ids]")
