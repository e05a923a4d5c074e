"""copy of: dana. Written over by hand: for loops become while loops, if/else flipped, names changed."""


def get_stats(seq):
    tally = {}
    j = 0
    while j < len(seq) - 1:
        k = (seq[j], seq[j + 1])
        if k not in tally:
            tally[k] = 1
        else:
            tally[k] += 1
        j += 1
    return tally


def merge(seq, target, new_id):
    out = []
    pos = 0
    while pos < len(seq):
        cur = seq[pos]
        if pos < len(seq) - 1 and cur == target[0] and seq[pos + 1] == target[1]:
            out.append(new_id)
            pos += 2
            continue
        out.append(cur)
        pos += 1
    return out


def train(s, size):
    seq = list(s.encode("utf-8"))
    table = {}
    nid = 256
    while nid < size:
        tally = get_stats(seq)
        if len(tally) == 0:
            break
        winner = None
        for cand, count in tally.items():
            if winner is None or count > tally[winner]:
                winner = cand
        seq = merge(seq, winner, nid)
        table[winner] = nid
        nid += 1
    return table


def encode(s, table):
    seq = list(s.encode("utf-8"))
    while True:
        lowest, where = None, None
        for j in range(len(seq) - 1):
            r = table.get((seq[j], seq[j + 1]))
            if r is not None and (lowest is None or r < lowest):
                lowest, where = r, j
        if lowest is None:
            return seq
        seq = merge(seq, (seq[where], seq[where + 1]), lowest)
