"""Right: a notebook-style trainer that returns its merges as a list of ((a, b), id) in the order it
made them, beside its id -> bytes table and that table's inverse. Found by behaviour, its merges
read from what it returns.

expect: learn pass
"""


def learn(text, target_vocab_size):
    itos = {i: bytes([i]) for i in range(256)}
    ids = list(text.encode("utf-8"))
    merges = []
    while len(itos) < target_vocab_size:
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        top = max(counts, key=counts.get)
        new_id = len(itos)
        itos[new_id] = itos[top[0]] + itos[top[1]]
        merges.append((top, new_id))
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == top:
                out.append(new_id)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return merges, itos, {b: i for i, b in itos.items()}
