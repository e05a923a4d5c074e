"""Fast byte-level BPE encoding in pure Python: the same tokens as bpe_ref.naive, sooner.

Training lives in bpe_ref.trainer.

Encoding. `encode_chunk_fast` repeatedly merges the leftmost adjacent pair with the lowest
rank, as tiktoken does; a pair's rank is the id merges gives it. Merging one occurrence at a
time this way equals naive.encode's "merge every occurrence of the best pair", because the
pairs a merge creates contain the new id, and a merge that uses an id gets a larger id itself
(true of all merges that training, `load` and `from_tiktoken` produce), so they rank after it.
It also equals tiktoken, which ranks the concatenated bytes instead of the pair of ids: in a
from_tiktoken tokenizer each token's merge is the split tiktoken itself reaches on the token's
bytes, and BPE inside a token's span runs as it would on the token alone.
"""

import heapq

NO_RANK = float("inf")  # the rank of a pair no merge knows
LONG_CHUNK = 64  # ids; above this, encode with a heap instead of rescanning the ranks
CHUNK_CACHE_SIZE = 500_000  # chunks a tokenizer remembers the ids of before it starts afresh


# ------------------------------------------------------------------ encoding


def encode_chunk_fast(chunk_bytes, merges, byte_shuffle):
    """The ids of one chunk: its byte tokens, then BPE by rank (a merged pair's id).

    encode_chunk_fast(b"aaa", {(97, 97): 256}, list(range(256))) -> [256, 97]
    """
    ids = [byte_shuffle[b] for b in chunk_bytes]
    if len(ids) > LONG_CHUNK:
        return _bpe_heap(ids, merges)
    return _bpe_scan(ids, merges)


def _bpe_scan(ids, merges):
    """BPE on a short list: keep the rank of each adjacent pair, merge the leftmost lowest.

    `min` and `list.index` run in C, which beats any bookkeeping when the list is short.
    """
    get = merges.get
    ranks = [get(pair, NO_RANK) for pair in zip(ids, ids[1:])]
    while ranks:
        rank = min(ranks)
        if rank == NO_RANK:
            break
        i = ranks.index(rank)
        ids[i:i + 2] = [rank]  # the rank of a pair is the id it merges into
        del ranks[i]
        if i > 0:
            ranks[i - 1] = get((ids[i - 1], rank), NO_RANK)
        if i < len(ranks):
            ranks[i] = get((rank, ids[i + 1]), NO_RANK)
    return ids


def _bpe_heap(ids, merges):
    """BPE on a long list in O(n log n): a linked list plus a heap of (rank, position).

    Positions keep their order as tokens merge, so the smallest (rank, position) is the
    leftmost lowest-ranked pair, the one _bpe_scan would merge. Stale entries are skipped.
    """
    n = len(ids)
    nxt = [*range(1, n), -1] if ids else []
    prv = list(range(-1, n - 1))
    heap = [(merges[pair], i) for i, pair in enumerate(zip(ids, ids[1:])) if pair in merges]
    heapq.heapify(heap)
    while heap:
        rank, i = heapq.heappop(heap)
        j = nxt[i]
        if ids[i] == -1 or j == -1 or merges.get((ids[i], ids[j])) != rank:
            continue  # this pair was changed by an earlier merge
        k = nxt[j]
        ids[i], ids[j] = rank, -1
        nxt[i] = k
        if k != -1:
            prv[k] = i
            if (rank, ids[k]) in merges:
                heapq.heappush(heap, (merges[(rank, ids[k])], i))
        p = prv[i]
        if p != -1 and (ids[p], rank) in merges:
            heapq.heappush(heap, (merges[(ids[p], rank)], p))
    return [idx for idx in ids if idx != -1]
