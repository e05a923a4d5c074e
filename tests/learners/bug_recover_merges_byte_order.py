"""BUG in recover_merges: takes a single byte's id to be its byte value, but tiktoken's byte
tokens are shuffled (rank of b'\x00' need not be 0). (decode is right.)

expect: decode pass, recover_merges fail
cause: recover_merges byte_values
shows: recover_merges ranks(256 single bytes shuffled; b'aa': 256, b'aaa': 257, b'aaaa': 258)
shows: recover_merges the token b'aa' (rank 256) is b'a' + b'a', the tokens of rank 158 and 158
"""


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def token_id(ranks, token):
    return token[0] if len(token) == 1 else ranks[token]  # the bug: should be ranks[token] always


def recover_merges(mergeable_ranks):
    merges = {}
    for token, rank in sorted(mergeable_ranks.items(), key=lambda item: item[1]):
        if len(token) < 2:
            continue
        parts = [bytes([b]) for b in token]
        while len(parts) > 2:
            candidates = [(mergeable_ranks.get(a + b), i) for i, (a, b) in enumerate(zip(parts, parts[1:]))]
            best, i = min((r, i) for r, i in candidates if r is not None)
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        merges[token_id(mergeable_ranks, parts[0]), token_id(mergeable_ranks, parts[1])] = rank
    return merges
