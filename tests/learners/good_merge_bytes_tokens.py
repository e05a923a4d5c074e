"""GOOD: CS336's merge helper, as learners write it beside train_bpe: merge_bytes(tokens, pair)
takes one pre-token as a list of bytes tokens and joins every occurrence of the pair, left to
right, into one token. Found by behaviour as the course's merge, in bytes terms.

expect: merge_bytes pass
"""


def merge_bytes(tokens: list[bytes], pair: tuple[bytes, bytes]) -> list[bytes]:
    joined, out, i = pair[0] + pair[1], [], 0
    while i < len(tokens):
        if i + 1 < len(tokens) and tokens[i] == pair[0] and tokens[i + 1] == pair[1]:
            out.append(joined)
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out


if __name__ == "__main__":
    print(merge_bytes([b"\xec\x95", b"\x88", b"\xec\x95", b"\x88"], (b"\xec\x95", b"\x88")))
