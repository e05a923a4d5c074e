"""RIGHT under names of its own: detokenize(token_codes, encoding_mapping) decodes ids with the
merges {pair: id} it is handed (it builds each token's bytes from them), not a vocab. Found by what
it does: handed a vocab it cannot answer, handed the merges that build that vocab it spells the ids.

expect: detokenize pass, pair_counts pass
"""


def pair_counts(codes):
    counts = {}
    for pair in zip(codes, codes[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def detokenize(token_codes, encoding_mapping, base=256):
    parts = {code: bytes([code]) for code in range(base)}
    for (left, right), code in sorted(encoding_mapping.items(), key=lambda item: item[1]):
        parts[code] = parts[left] + parts[right]
    return b"".join(parts[code] for code in token_codes).decode("utf-8", errors="replace")
