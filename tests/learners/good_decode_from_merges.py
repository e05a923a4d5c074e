"""A right decode that takes the merges, under a name of its own (`table`), and unfolds each
merged id into the two it was made of, until only bytes are left.

expect: decode pass
"""


def decode(ids, table):
    made_of = {idx: pair for pair, idx in table.items()}

    def spell(idx):
        if idx < 256:
            return bytes([idx])
        left, right = made_of[idx]
        return spell(left) + spell(right)
    return b"".join(spell(i) for i in ids).decode("utf-8", errors="replace")
