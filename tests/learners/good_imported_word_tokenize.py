"""A learner's get_stats and merge beside NLTK's word_tokenize, imported to split a demo text into
words: only the learner's own code is graded, not a library's function under a course's name.

expect: get_stats pass, merge pass
shows: notes word_tokenize comes from an import
"""
from nltk.tokenize import word_tokenize


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


if __name__ == "__main__":
    print(word_tokenize("low lower lowest"))
