"""Right, a CS336 helper module: get_stats(ids) counts pairs as the course's does, and a merge of
its own that updates pair counts over pre-token counts, merge(pair_counts, word_counts, pair,
new_token). That merge shares the course's name, not its job: its parameters cannot take
merge(ids, pair, idx), so a note says it is not graded as the course's merge.

expect: get_stats pass
shows: notes merge(pair_counts, word_counts, pair, new_token) is not graded as the course's merge
"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(pair_counts, word_counts, pair, new_token):
    merged = {}
    for word, n in word_counts.items():
        out, i = [], 0
        while i < len(word):
            if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
                out.append(new_token)
                i += 2
            else:
                out.append(word[i])
                i += 1
        merged[tuple(out)] = merged.get(tuple(out), 0) + n
    pair_counts.pop(pair, None)
    return merged
