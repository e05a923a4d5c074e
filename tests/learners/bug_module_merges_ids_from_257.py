"""BUG in a module-level training loop, tutorial-notebook style: it bumps the id before it uses
it (idx = 256, then idx += 1 at the top of the loop), so the first merge gets 257 and 256 is never
made. The vocab built beside it from those same merges is right for them, and is graded on its own.

expect: get_stats pass, merge pass, merges fail, vocab pass
shows: merges new ids run 256
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


text = "a rose is a rose is a rose, and the rose rose 🌹🌹"
ids = list(text.encode("utf-8"))
merges = {}
idx = 256
for _ in range(8):
    stats = get_stats(ids)
    pair = max(stats, key=stats.get)
    idx += 1  # the bug: 256 is skipped
    merges[pair] = idx
    ids = merge(ids, pair, idx)

vocab = {i: bytes([i]) for i in range(256)}
for (a, b), new in merges.items():
    vocab[new] = vocab[a] + vocab[b]
