"""BUG in encode: every merge is applied once, in the order the merges dict lists them. That is
right for a dict built by training (listed in rank order), wrong for one listed in any other order.

expect: encode fail
cause: encode dict_order
"""


def encode(text, merges):
    tokens = list(text.encode("utf-8"))
    for (left, right), new in merges.items():
        joined, k = [], 0
        while k < len(tokens):
            if k + 1 < len(tokens) and tokens[k] == left and tokens[k + 1] == right:
                joined.append(new)
                k += 2
            else:
                joined.append(tokens[k])
                k += 1
        tokens = joined
    return tokens
