"""BUG in the full drill's save/load: load_merges numbers the merges from 0, as the lines are
numbered. Graded in the same sandbox as every other exercise. (decode is right.)

expect: decode pass, save_load fail
cause: save_load ids_from_zero
shows: save_load load_merges(...) after save_merges(
"""


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def save_merges(merges, path):
    with open(path, "w", encoding="utf-8") as f:
        f.write("bpe-drill v1\n")
        f.writelines(f"{p0} {p1}\n" for p0, p1 in merges)


def load_merges(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()[1:]
    return {(int(a), int(b)): i for i, (a, b) in enumerate(line.split() for line in lines)}
