"""Wrong: the trainer calls count_pairs, a helper renamed get_stats before the file was handed in,
so it raises NameError on every text with a merge to learn. Nothing it returns shows which
exercise it is; its name does, and the error is shown under it rather than only in a note. A demo
helper that raises NameError too is named for no exercise, and is left alone.

expect: get_stats pass, merge pass, train_bpe error
shows: train_bpe taken for it by its name
shows: train_bpe `count_pairs` does not exist
"""


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


def train_bpe(text, vocab_size):
    ids = list(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        stats = count_pairs(ids)  # noqa: F821 - the learner's bug
        if not stats:
            break
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges


def show_merges(merges):
    for pair, idx in merges.items():
        print(pair, "->", idx, vocab_names[idx])  # noqa: F821
