"""Fast byte-level BPE encoding in pure Python: the same tokens as bpe_ref.naive, sooner.

Training lives in bpe_ref.trainer.

Encoding. `encode_chunk_fast` repeatedly merges the leftmost adjacent pair with the lowest
rank, as tiktoken does. A merge's rank is its place in the merges' order; when the ids grow in
that order (training, `load` of v1 files and `from_tiktoken` give such merges) the id itself
serves as the rank, and `merge_ranks` says which case applies. Merging one occurrence at a
time this way equals naive.encode's "merge every occurrence of the best pair", because the
pairs a merge creates contain the new id, and a merge that uses an id gets a larger id itself
(true of all merges that training, `load` and `from_tiktoken` produce), so they rank after it.
It also equals tiktoken, which ranks the concatenated bytes instead of the pair of ids: in a
from_tiktoken tokenizer each token's merge is the split tiktoken itself reaches on the token's
bytes, and BPE inside a token's span runs as it would on the token alone.
"""

import heapq
from itertools import repeat

NO_RANK = float("inf")  # the rank of a pair no merge knows
LONG_CHUNK = 64  # ids; above this, encode with a heap instead of rescanning the ranks
CHUNK_CACHE_SIZE = 500_000  # chunks a tokenizer remembers the ids of before it starts afresh


# ------------------------------------------------------------------ encoding


def merge_ranks(merges):
    """What the encoder ranks merges by: (ranks, rank_ids).

    When the ids grow in the merges' order, an id is as good as a rank: (merges, None).
    Otherwise ranks are places in the order and rank_ids[rank] is the id that merge makes.
    {(97, 98): 300, (300, 99): 256} -> ({(97, 98): 0, (300, 99): 1}, [300, 256])
    """
    ids = list(merges.values())
    if all(a < b for a, b in zip(ids, ids[1:])):
        return merges, None
    return {pair: rank for rank, pair in enumerate(merges)}, ids


def byte_table(byte_shuffle):
    """How encode_chunk_fast looks up byte tokens: a bytes.translate table when the byte
    tokens' ids are 0..255 in some order (as in tiktoken's encodings), else the list itself."""
    if sorted(byte_shuffle) == list(range(256)):
        return bytes(byte_shuffle)
    return list(byte_shuffle)


def encode_chunk_fast(chunk_bytes, ranks, byte_shuffle, rank_ids=None):
    """The ids of one chunk: its byte tokens, then BPE by rank (see merge_ranks).

    `byte_shuffle` maps a byte to its token's id: a list, or a translate table (byte_table).
    encode_chunk_fast(b"aaa", {(97, 97): 256}, list(range(256))) -> [256, 97]
    """
    if isinstance(byte_shuffle, bytes):
        ids = list(chunk_bytes.translate(byte_shuffle))
    else:
        ids = [byte_shuffle[b] for b in chunk_bytes]
    if len(ids) > LONG_CHUNK:
        return _bpe_heap(ids, ranks, rank_ids)
    return _bpe_scan(ids, ranks, rank_ids)


def _bpe_scan(ids, ranks, rank_ids=None):
    """BPE on a short list: keep the rank of each adjacent pair, merge the leftmost lowest.

    `min` and `list.index` run in C, which beats any bookkeeping when the list is short.
    """
    get = ranks.get
    pair_ranks = list(map(get, zip(ids, ids[1:]), repeat(NO_RANK)))
    while pair_ranks:
        rank = min(pair_ranks)
        if rank == NO_RANK:
            break
        i = pair_ranks.index(rank)
        new = rank if rank_ids is None else rank_ids[rank]
        ids[i:i + 2] = [new]
        del pair_ranks[i]
        if i > 0:
            pair_ranks[i - 1] = get((ids[i - 1], new), NO_RANK)
        if i < len(pair_ranks):
            pair_ranks[i] = get((new, ids[i + 1]), NO_RANK)
    return ids


def _bpe_heap(ids, ranks, rank_ids=None):
    """BPE on a long list in O(n log n): a linked list plus a heap of (rank, position).

    Positions keep their order as tokens merge, so the smallest (rank, position) is the
    leftmost lowest-ranked pair, the one _bpe_scan would merge. Stale entries are skipped.
    """
    n = len(ids)
    nxt = [*range(1, n), -1] if ids else []
    prv = list(range(-1, n - 1))
    heap = [(ranks[pair], i) for i, pair in enumerate(zip(ids, ids[1:])) if pair in ranks]
    heapq.heapify(heap)
    while heap:
        rank, i = heapq.heappop(heap)
        j = nxt[i]
        if ids[i] == -1 or j == -1 or ranks.get((ids[i], ids[j])) != rank:
            continue  # this pair was changed by an earlier merge
        k = nxt[j]
        new = rank if rank_ids is None else rank_ids[rank]
        ids[i], ids[j] = new, -1
        nxt[i] = k
        if k != -1:
            prv[k] = i
            if (new, ids[k]) in ranks:
                heapq.heappush(heap, (ranks[(new, ids[k])], i))
        p = prv[i]
        if p != -1 and (ids[p], new) in ranks:
            heapq.heappush(heap, (ranks[(ids[p], new)], p))
    return [idx for idx in ids if idx != -1]
