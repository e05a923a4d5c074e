"""BUG in a second try at merge: the notebook's merge is right, and a later rewrite beside it,
merge_tokens, stops one step early when the pair is not at the end (while i < len(ids) - 1), so
the last id is lost. A second try named for the exercise is graded too, under its own name.

expect: get_stats pass, merge pass, merge_tokens fail
cause: merge_tokens drops_last
"""


def get_stats(ids):
    counts = {}
    for a, b in zip(ids, ids[1:]):
        counts[(a, b)] = counts.get((a, b), 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def merge_tokens(tokens, pair, new_id):
    out, i = [], 0
    while i < len(tokens) - 1:  # the bug: an unmerged last token is never copied
        if (tokens[i], tokens[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out
