"""Wrong: a merge over every chunk at once that steps one place, not two, past a pair it replaced,
so the second id of the pair is kept as well: [5, 5, 5] with (5, 5) gives [256, 256, 5]
where [256, 5] is right.

expect: count_pairs pass, replace_everywhere fail
cause: replace_everywhere overlap
"""


def count_pairs(chunks):
    counts = {}
    for chunk in chunks:
        for pair in zip(chunk, chunk[1:]):
            counts[pair] = counts.get(pair, 0) + 1
    return counts


def replace_everywhere(chunks, pair, new_id):
    result = []
    for chunk in chunks:
        out, i = [], 0
        while i < len(chunk):
            if i + 1 < len(chunk) and chunk[i] == pair[0] and chunk[i + 1] == pair[1]:
                out.append(new_id)
                i += 1
            else:
                out.append(chunk[i])
                i += 1
        result.append(out)
    return result
