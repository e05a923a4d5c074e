"""RIGHT, a trainer written over ids: learn_merges takes one id list per chunk (the caller has
split the text already) and a number of merges, and returns (vocab, merges), vocab first. It
carries what train_regex does, so the grader must hand it the chunks' ids and the number of
merges, read the merges from the pair, and pass it.

expect: learn_merges pass
shows: learn_merges ids of each chunk
"""


def learn_merges(chunk_ids, num_merges):
    chunks = [list(ids) for ids in chunk_ids]
    vocab = {i: bytes([i]) for i in range(256)}
    merges = {}
    for step in range(num_merges):
        counts = {}
        for ids in chunks:
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        pair = max(counts, key=counts.get)
        new_id = 256 + step
        merges[pair] = new_id
        vocab[new_id] = vocab[pair[0]] + vocab[pair[1]]
        joined = []
        for ids in chunks:
            out, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    out.append(new_id)
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            joined.append(out)
        chunks = joined
    return vocab, merges
