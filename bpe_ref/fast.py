"""Fast byte-level BPE in pure Python: the same merges and tokens as bpe_ref.naive, sooner.

Training. The naive loop recounts every pair of the whole text for every merge. Here:
- equal chunks are counted once: each unique chunk is stored once with its `weight`
  (how often it occurs), in order of first appearance in the text;
- the bytes of all unique chunks form one doubly linked list, so a merge only touches the
  places where its pair occurs (`where`: pair -> set of positions) and their neighbours;
- the next pair comes from a heap keyed by (-count, first position), with lazy deletion.

Why the heap gives exactly the naive pair. `max(stats, key=stats.get)` picks the most
frequent pair and, on a tie, the pair that occurs first in the current ids. A position here
is a byte offset into the unique chunks laid end to end, so "occurs first" is "has the
smallest position". Every pair the merge of `idx` creates contains `idx`; an older pair
never gains an occurrence, it only loses some. So after its creation a pair's count can
only fall and its first position can only rise: its heap key only grows. Each pair is
pushed with its exact key when it is created; when an entry is popped whose key has grown
since, it is pushed back with its new key. Then the smallest entry whose key is still exact
is the smallest key of all live pairs, which is the naive choice.

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
from collections import Counter
from itertools import repeat

from .naive import check_vocab_size

NO_RANK = float("inf")  # the rank of a pair no merge knows
LONG_CHUNK = 64  # ids; above this, encode with a heap instead of rescanning the ranks
CHUNK_CACHE_SIZE = 500_000  # chunks a tokenizer remembers the ids of before it starts afresh


# ------------------------------------------------------------------ training


def train_fast(chunks, vocab_size, on_merge=None):
    """Learn merges ((id, id) -> id, ids from 256) from text chunks; exactly naive training.

    `chunks` are the pieces of the text in order (the whole text as one chunk for a
    BasicTokenizer). No merge crosses a chunk. `on_merge(merges, pair, idx, count)`, if given,
    is called after each merge.
    """
    check_vocab_size(vocab_size)
    weights = Counter(chunks)
    del chunks  # often millions of strings: free them before the pair tables are built
    ids, nxt, prv, weight = _layout(weights)
    count, where = _count_pairs(ids, nxt, weight)
    heap = [(-c, min(where[pair]), pair) for pair, c in count.items()]
    heapq.heapify(heap)
    merges = {}
    for idx in range(256, vocab_size):
        pair = _pop_best(heap, count, where)
        if pair is None:
            break  # no pair left anywhere
        merges[pair] = idx
        pair_count = count[pair]
        _merge_pair(pair, idx, ids, nxt, prv, weight, count, where, heap)
        if on_merge is not None:
            on_merge(merges, pair, idx, pair_count)
    return merges


def _layout(weights):
    """Lay the unique chunks' bytes end to end as a doubly linked list of token ids.

    {'ab': 3, 'c': 1} -> ids [97, 98, 99], nxt [1, -1, -1], prv [-1, 0, -1], weight [3, 3, 1]
    -1 marks a chunk's ends, so no pair spans two chunks.
    """
    ids, weight, spans = [], [], []
    for chunk, w in weights.items():
        data = chunk.encode("utf-8")
        if data:
            spans.append((len(ids), len(ids) + len(data)))
            ids.extend(data)
            weight.extend([w] * len(data))
    nxt = list(range(1, len(ids) + 1))
    prv = list(range(-1, len(ids) - 1))
    for start, end in spans:
        prv[start] = -1
        nxt[end - 1] = -1
    return ids, nxt, prv, weight


def _count_pairs(ids, nxt, weight):
    """Count every adjacent pair (weighted by its chunk's count) and where it starts."""
    count, where = {}, {}
    for pos, right in enumerate(nxt):
        if right == -1:
            continue
        pair = (ids[pos], ids[right])
        if pair in count:
            count[pair] += weight[pos]
            where[pair].add(pos)
        else:
            count[pair] = weight[pos]
            where[pair] = {pos}
    return count, where


def _pop_best(heap, count, where):
    """Pop the live pair with the largest count, earliest first position on a tie; None if none.

    An entry is exact while its count is the pair's count and its position is still one of
    the pair's positions (positions are only ever removed, so it is still the smallest).
    """
    while heap:
        neg_count, first, pair = heapq.heappop(heap)
        c = count.get(pair)
        if c is None:
            continue  # merged already, or every occurrence is gone
        if c == -neg_count and first in where[pair]:
            return pair
        heapq.heappush(heap, (-c, min(where[pair]), pair))  # stale: its key only grew
    return None


def _merge_pair(pair, idx, ids, nxt, prv, weight, count, where, heap):
    """Replace each occurrence of `pair` by `idx`, left to right; update counts and the heap.

    At an occurrence  p | i j | k  (positions; ids[i], ids[j] == pair) the pairs starting at
    p and j lose one occurrence, and the new pairs (ids[p], idx) at p and (idx, ids[k]) at i
    gain one. Only pairs containing `idx` are created, so only they are pushed on the heap.
    """
    a, b = pair
    positions = where.pop(pair)
    del count[pair]
    if a == b:
        positions = sorted(positions)  # 'aaa' -> [idx, 'a']: the leftmost occurrence wins
    created = set()
    for i in positions:
        if ids[i] != a:
            continue  # taken by the previous occurrence (only when a == b)
        j = nxt[i]
        w = weight[i]
        p, k = prv[i], nxt[j]
        if p != -1:
            _discard(count, where, (ids[p], a), p, w)
            new = (ids[p], idx)
            _add(count, where, new, p, w)
            created.add(new)
        if k != -1:
            _discard(count, where, (b, ids[k]), j, w)
            new = (idx, ids[k])
            _add(count, where, new, i, w)
            created.add(new)
        ids[i], ids[j] = idx, -1
        nxt[i] = k
        if k != -1:
            prv[k] = i
    for new in created:
        if new in count:  # it can lose every occurrence again when a == b
            heapq.heappush(heap, (-count[new], min(where[new]), new))


def _discard(count, where, pair, pos, w):
    """Remove one occurrence (at `pos`, weight `w`) of `pair`; forget the pair at zero."""
    positions = where.get(pair)
    if positions is None:
        return  # the pair being merged itself (a == b)
    positions.discard(pos)
    left = count[pair] - w
    if left:
        count[pair] = left
    else:
        del count[pair], where[pair]


def _add(count, where, pair, pos, w):
    """Record one occurrence (at `pos`, weight `w`) of `pair`."""
    if pair in count:
        count[pair] += w
        where[pair].add(pos)
    else:
        count[pair] = w
        where[pair] = {pos}


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
