"""Right: a regex trainer's merge that replaces a pair in every chunk at once, taking and giving a
list of id lists. Nothing is named merge; what it does shows which exercise it is, graded on one
chunk at a time.

expect: count_pairs pass, replace_everywhere pass
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
                i += 2
            else:
                out.append(chunk[i])
                i += 1
        result.append(out)
    return result
