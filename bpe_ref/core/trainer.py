"""Fast byte-level BPE training in pure Python: exactly the merges of the naive loop, sooner.

The naive loop recounts every pair of the whole text for every merge. Here:
- equal chunks are counted once: each distinct chunk is laid out once with its `weight`
  (how often it occurs), in order of first appearance in the text;
- the bytes of all distinct chunks form one doubly linked list, so a merge only touches the
  places where its pair occurs and their neighbours;
- the next pair comes from a heap with lazy deletion.

Which pair is next. The naive loop takes the most frequent pair; on a tie, with
tie_break="first", the pair that occurs first in the current ids (what
`max(stats, key=stats.get)` does), and with tie_break="lexicographic", the pair whose
(bytes, bytes) is greatest (CS336's rule), then the first one. A position here is a byte
offset into the distinct chunks laid end to end, so "occurs first" is "has the smallest
position". The heap key is (-count, [the pair's bytes, greatest first,] first position).

Why the heap gives exactly that pair. Every pair the merge of `idx` creates contains `idx`;
an older pair never gains an occurrence, it only loses some. So after its creation a pair's
count can only fall and its first position can only rise: its key only grows. Each pair is
pushed with its exact key when it is created; when an entry is popped whose key has grown
since, it is pushed back with its new key. Then the smallest entry whose key is still exact
is the smallest key of all live pairs: the naive choice.

Where a pair occurs. All of a pair's positions are recorded when it is created (the first
count, or the merge that makes it), in increasing order, so each pair's list of positions
stays sorted. A position whose pair has since changed is not removed, only skipped: a
position holds its pair while its id and its right neighbour's id are still the pair's ids.
Once it stops, it never holds it again (ids only ever change to a new id or to a hole).
"""

import heapq
from array import array
from bisect import bisect_left
from collections import Counter

from .naive import check_tie_break, check_vocab_size

HOLE = -1  # the id left at the right half of a merged pair, and the "no neighbour" link


def train_fast(chunks, vocab_size, on_merge=None, *, tie_break="first"):
    """Learn merges ((id, id) -> id, ids from 256) from text chunks; exactly naive training.

    `chunks` are the pieces of the text in order (the whole text as one chunk for a
    BasicTokenizer). No merge crosses a chunk.

    >>> train_fast(["ab", "ab", "cd"], 257)
    {(97, 98): 256}
    """
    return train_counts(Counter(chunks), vocab_size, on_merge, tie_break=tie_break)


def train_counts(weights, vocab_size, on_merge=None, *, tie_break="first"):
    """Learn merges from {chunk: how often it occurs}, chunks in order of first appearance.

    `on_merge(merges, pair, idx, count)`, if given, is called after each merge.

    >>> train_counts({"ab": 1, "cd": 1}, 257, tie_break="lexicographic")
    {(99, 100): 256}
    """
    check_vocab_size(vocab_size)
    return PairTable(weights, tie_break).learn_merges(vocab_size, on_merge)


class PairTable:
    """The adjacent pairs of the distinct chunks laid end to end: counts, places, a heap.

    It keeps no reference to `weights`, so a caller that drops them saves their memory.
    """

    def __init__(self, weights, tie_break="first"):
        check_tie_break(tie_break)
        self.ids, self.nxt, self.prv, self.weight = layout(weights)
        # token id -> a str that sorts its bytes greatest first: each byte b as chr(255 - b),
        # then chr(256), so that b'ab' comes before its prefix b'a', as b'ab' > b'a'.
        self.descending = None
        if tie_break == "lexicographic":
            self.descending = {b: chr(255 - b) + chr(256) for b in range(256)}
        self.count, self.where = count_pairs(self.ids, self.nxt, self.weight)
        self.heap = [self._entry(pair, positions[0]) for pair, positions in self.where.items()]
        heapq.heapify(self.heap)

    def learn_merges(self, vocab_size, on_merge=None):
        """Merge the best pair until the vocab has `vocab_size` tokens; the merges, in order."""
        check_vocab_size(vocab_size)
        merges = {}
        for idx in range(256, vocab_size):
            pair = self.pop_best()
            if pair is None:
                break  # no pair left anywhere
            merges[pair] = idx
            pair_count = self.merge(pair, idx)
            if on_merge is not None:
                on_merge(merges, pair, idx, pair_count)
        return merges

    def _entry(self, pair, first):
        if self.descending is None:
            return (-self.count[pair], first, pair)
        return (-self.count[pair], self.descending[pair[0]], self.descending[pair[1]], first, pair)

    def holds(self, pos, pair):
        """Does the pair still start at this position?"""
        ids = self.ids
        right = self.nxt[pos]
        return ids[pos] == pair[0] and right != HOLE and ids[right] == pair[1]

    def first_position(self, pair, start=0):
        """The first position where the pair still occurs, looking from its start-th place."""
        positions = self.where[pair]
        k = start
        while not self.holds(positions[k], pair):
            k += 1  # never runs off the end: a pair with a count has an occurrence
        return positions[k]

    def pop_best(self):
        """Pop the pair the naive loop would merge next; None if no pair is left."""
        heap = self.heap
        while heap:
            entry = heapq.heappop(heap)
            pair = entry[-1]
            if pair not in self.count:
                continue  # merged already, or every occurrence is gone
            first = entry[-2]
            if not self.holds(first, pair):
                first = self.first_position(pair, bisect_left(self.where[pair], first))
            fresh = self._entry(pair, first)
            if fresh == entry:
                return pair
            heapq.heappush(heap, fresh)  # stale: its key only grew
        return None

    def merge(self, pair, idx):
        """Replace each occurrence of `pair` by `idx`, left to right; return how many there were.

        At an occurrence  p | i j | k  (positions; ids[i], ids[j] == pair) the pairs starting
        at p and j lose one occurrence, and the new pairs (ids[p], idx) at p and (idx, ids[k])
        at i gain one. Only pairs containing `idx` are created, so only they go on the heap.
        """
        a, b = pair
        ids, nxt, prv, weight = self.ids, self.nxt, self.prv, self.weight
        merged = self.count.pop(pair)
        if self.descending is not None:
            self.descending[idx] = self.descending[a][:-1] + self.descending[b]
        created = {}  # the new pairs, in order
        lose, gain = self._lose, self._gain
        for i in self.where.pop(pair):
            j = nxt[i]
            if ids[i] != a or j == HOLE or ids[j] != b:
                continue  # this place changed since (or was taken by the last one, when a == b)
            w = weight[i]
            p, k = prv[i], nxt[j]
            if p != HOLE:
                lose((ids[p], a), w)
                created[gain((ids[p], idx), p, w)] = None
            if k != HOLE:
                lose((b, ids[k]), w)
                created[gain((idx, ids[k]), i, w)] = None
            ids[i], ids[j] = idx, HOLE
            nxt[i] = k
            if k != HOLE:
                prv[k] = i
        for new in created:
            if new in self.count:  # it can lose every occurrence again when a == b
                heapq.heappush(self.heap, self._entry(new, self.first_position(new)))
        return merged

    def _lose(self, pair, w):
        """One occurrence of `pair` (in a chunk of weight w) is gone; forget the pair at zero."""
        count = self.count
        left = count.get(pair)
        if left is None:
            return  # the pair being merged itself (a == b)
        if left == w:
            del count[pair], self.where[pair]
        else:
            count[pair] = left - w

    def _gain(self, pair, pos, w):
        """One new occurrence of `pair` at `pos` (in a chunk of weight w); returns the pair."""
        count = self.count
        left = count.get(pair)
        if left is None:
            count[pair] = w
            self.where[pair] = array("i", [pos])
        else:
            count[pair] = left + w
            self.where[pair].append(pos)
        return pair


def layout(weights):
    """Lay the distinct chunks' bytes end to end as a doubly linked list of token ids.

    {'ab': 3, 'c': 1} -> ids [97, 98, 99], nxt [1, -1, -1], prv [-1, 0, -1], weight [3, 3, 1]
    -1 marks a chunk's ends, so no pair spans two chunks. The lists are arrays of machine
    ints: a fifth of the memory of Python lists, which matters on a large corpus. Each is
    made with numpy, whole (a loop over the chunks would cost as much as a hundred merges
    on a small corpus), then handed over as a plain array, which the merge loop indexes fastest.
    """
    import numpy as np

    encoded = [chunk.encode("utf-8") for chunk in weights]
    lengths = np.fromiter(map(len, encoded), np.int64, len(encoded))
    ids = _as_array(np.frombuffer(b"".join(encoded), np.uint8), "i")
    del encoded
    ends = np.cumsum(lengths)[lengths > 0]  # an empty chunk holds no byte and no pair
    starts = ends - lengths[lengths > 0]
    nxt = np.arange(1, len(ids) + 1, dtype=np.int32)
    nxt[ends - 1] = HOLE
    nxt = _as_array(nxt, "i")
    prv = np.arange(-1, len(ids) - 1, dtype=np.int32)
    prv[starts] = HOLE
    prv = _as_array(prv, "i")
    typecode = "q" if max(weights.values(), default=0) >= 2**31 else "i"
    counts = np.fromiter(weights.values(), np.int64 if typecode == "q" else np.int32, len(lengths))
    weight = _as_array(np.repeat(counts, lengths), typecode)
    return ids, nxt, prv, weight


def _as_array(values, typecode):
    """A numpy array's values as an array.array of `typecode` (which Python indexes fastest)."""
    import numpy as np

    out = array(typecode)
    values = np.asarray(values, dtype=f"int{8 * out.itemsize}")  # a copy only if the type differs
    out.frombytes(memoryview(values).cast("B"))  # read in place, not through a bytes copy
    return out


COUNT_BLOCK = 1 << 19  # positions counted at a time: sorting a block takes about 20 MB


def count_pairs(ids, nxt, weight):
    """Count every adjacent pair (weighted by its chunk's count) and list where it starts.

    count: pair -> weighted count; where: pair -> its positions, increasing (an array); both
    with the pairs in order of first occurrence. A block of positions at a time, with numpy:
    the block's positions are sorted by their pair (stably, so each pair's stay in order)
    and each pair's run is added at once: a step of Python per pair per block, not per byte.
    """
    import numpy as np

    ids_np, nxt_np = np.frombuffer(ids, np.int32), np.frombuffer(nxt, np.int32)
    weight_np = np.frombuffer(weight, np.int64 if weight.itemsize == 8 else np.int32)
    count, where = {}, {}
    for start in range(0, len(ids), COUNT_BLOCK):
        block = np.arange(start, min(start + COUNT_BLOCK, len(ids)), dtype=np.int32)
        positions = block[nxt_np[block] != HOLE]
        if not len(positions):
            continue  # only chunks' last bytes here
        keys = ids_np[positions].astype(np.int64) << 32 | ids_np[nxt_np[positions]]
        order = np.argsort(keys, kind="stable")
        keys, positions = keys[order], positions[order]
        del order
        runs = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))  # where each pair's run starts
        sums = np.add.reduceat(weight_np[positions].astype(np.int64), runs)
        stops = [*runs[1:].tolist(), len(positions)]
        raw = positions.tobytes()
        for k in np.argsort(positions[runs], kind="stable").tolist():  # in order of first occurrence
            run, key = int(runs[k]), int(keys[runs[k]])
            pair = (key >> 32, key & 0xFFFFFFFF)
            if pair in count:
                count[pair] += int(sums[k])
            else:
                count[pair], where[pair] = int(sums[k]), array("i")
            where[pair].frombytes(raw[4 * run:4 * stops[k]])
    return count, where
