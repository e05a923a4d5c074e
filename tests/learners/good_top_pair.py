"""GOOD: a lecture follow-along that never writes get_stats: most_common_pair(ids) gives the most
frequent pair and its count straight away (max() of nothing raises ValueError, which is its way to
say there is no pair), and the training loop keeps calling it. Found by what it does.

expect: most_common_pair pass, swap_pair pass
"""


def most_common_pair(ids):
    tally = {}
    for left, right in zip(ids, ids[1:]):
        tally[left, right] = tally.get((left, right), 0) + 1
    return max(tally.items(), key=lambda item: item[1])


def swap_pair(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if ids[i:i + 2] == list(pair):
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


if __name__ == "__main__":
    ids = list("안녕 안녕 مرحبا مرحبا 🙂🙂".encode("utf-8"))
    for new_id in range(256, 266):
        (pair, count) = most_common_pair(ids)
        ids = swap_pair(ids, pair, new_id)
    print(len(ids))
