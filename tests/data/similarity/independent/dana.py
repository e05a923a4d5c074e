"""Independent author 'dana': index loops, a while loop to merge, sorted merges to build the vocabulary."""


def get_stats(ids):
    counts = {}
    for i in range(len(ids) - 1):
        key = (ids[i], ids[i + 1])
        if key in counts:
            counts[key] += 1
        else:
            counts[key] = 1
    return counts


def merge(ids, pair, idx):
    result = []
    position = 0
    while position < len(ids):
        here = ids[position]
        if position < len(ids) - 1 and here == pair[0] and ids[position + 1] == pair[1]:
            result.append(idx)
            position = position + 2
            continue
        result.append(here)
        position = position + 1
    return result


def train(text, vocab_size):
    tokens = list(text.encode("utf-8"))
    learned = {}
    next_id = 256
    while next_id < vocab_size:
        counts = get_stats(tokens)
        if not counts:
            break
        top = None
        for candidate, n in counts.items():
            if top is None or n > counts[top]:
                top = candidate
        tokens = merge(tokens, top, next_id)
        learned[top] = next_id
        next_id += 1
    return learned


def build_vocab(merges):
    table = {}
    for b in range(256):
        table[b] = bytes([b])
    ordered = sorted(merges.items(), key=lambda kv: kv[1])
    for (left, right), new in ordered:
        table[new] = table[left] + table[right]
    return table


def decode(ids, vocab):
    raw = bytearray()
    for token in ids:
        raw.extend(vocab[token])
    return bytes(raw).decode("utf-8", errors="replace")


def encode(text, merges):
    tokens = list(text.encode("utf-8"))
    while True:
        best_rank, best_at = None, None
        for i in range(len(tokens) - 1):
            rank = merges.get((tokens[i], tokens[i + 1]))
            if rank is not None and (best_rank is None or rank < best_rank):
                best_rank, best_at = rank, i
        if best_rank is None:
            return tokens
        pair = (tokens[best_at], tokens[best_at + 1])
        tokens = merge(tokens, pair, best_rank)
