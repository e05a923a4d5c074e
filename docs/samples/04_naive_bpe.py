"""A half-done workbook 04, graded in workbook 00's sample of `bpe-grade` (tools/make_notebooks.py
writes what the grader prints for it into 00_start_here.ipynb): get_stats is right, merge forgets to
jump past a pair it has just merged, train is not written yet."""


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
        else:
            out.append(ids[i])
        i += 1
    return out


def train(text, vocab_size):
    raise NotImplementedError()
