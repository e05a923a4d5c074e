"""Fast byte-level BPE encoding in pure Python: the same tokens as bpe_ref.core.naive, sooner.

Training lives in bpe_ref.core.trainer.

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

A new chunk costs the most, so three shortcuts come first (ChunkEncoder):
- A chunk that is a whole token is that token. tiktoken does this before any merging, so it
  is exact for tiktoken's encodings. It is exact for a tokenizer trained here too: each merge
  was made somewhere in the training text, and BPE on a token's own bytes repeats the merges
  made inside its span there, which no merge from outside the span disturbed. It is not exact
  for merges from elsewhere (from_vocab, a loaded file): {(a,b): 256, (b,c): 257, (a,257): 258}
  encodes "abc" as [256, 99], yet "abc" is token 258. Those tokenizers skip it.
- Seams. Two neighbouring bytes x, y that sit side by side in no token (no merge has a left
  part ending in x and a right part starting in y) are never joined, so BPE runs on each side
  alone. A chunk is cut at its seams into pieces, and each piece is encoded once and cached:
  in a new Chinese or Russian word most pieces are characters met before.
- What is left goes through the merge loop below.

Many new chunks at once (the first encode of a text) go through `encode_many`: their bytes are
joined and every seam among them is found in one numpy lookup of a 65,536-entry table, so the
per-chunk Python work is a few C-level maps: slice the pieces, look each up, join their ids.
"""

import contextlib
import functools
import gc
import heapq
import sys
from itertools import chain, compress, pairwise, product, repeat

NO_RANK = sys.maxsize  # the rank of a pair no merge knows (an int: min() compares ints faster)
LONG_CHUNK = 64  # ids; above this, encode with a heap instead of rescanning the ranks
SHORT_CHUNK = 4  # bytes; a chunk this short goes straight to BPE: looking for seams costs more
MANY_CHUNKS = 64  # new chunks; from this many on, encode_many's one numpy pass beats a loop
CHUNK_CACHE_SIZE = 500_000  # chunks a tokenizer remembers the ids of before it starts afresh


# ------------------------------------------------------------------ encoding


class ChunkEncoder:
    """Encodes chunks not seen before: whole token, else pieces between seams, else BPE.

    `whole_tokens` (bytes -> id) is given only where the whole-token shortcut is exact (see
    the module's doc); `vocab` is id -> bytes for the byte tokens and the merges' tokens.
    """

    def __init__(self, merges, byte_shuffle, vocab, whole_tokens=None):
        self.ranks, self.rank_ids = merge_ranks(merges)
        self.byte_table = byte_table(byte_shuffle)
        self.byte_shuffle = list(byte_shuffle)
        self.whole_tokens = whole_tokens or {}
        self.seams = seams(merges, vocab)
        self.pieces = PieceCache(self)

    def clear(self):
        """Forget the pieces met so far (when the tokenizer's chunk cache is cleared)."""
        self.pieces = PieceCache(self)

    def encode(self, chunk_bytes):
        """The ids of one chunk's bytes."""
        whole = self.whole_tokens.get(chunk_bytes)
        if whole is not None:
            return [whole]
        if len(chunk_bytes) <= SHORT_CHUNK:
            return self.bpe(chunk_bytes)
        is_seam = map(self.seams.__contains__, pairwise(chunk_bytes))
        cuts = list(compress(range(1, len(chunk_bytes)), is_seam))
        if not cuts:
            return self.bpe(chunk_bytes)
        pieces = map(chunk_bytes.__getitem__, map(slice, [0, *cuts], [*cuts, len(chunk_bytes)]))
        return list(chain.from_iterable(map(self.pieces.__getitem__, pieces)))  # all in C but new pieces

    @functools.cached_property
    def seam_table(self):
        """The seams as a numpy table for encode_many (numpy is imported on first use, not with
        bpe_ref: it would double the package's import time)."""
        return seam_table(self.seams)

    def encode_many(self, chunks):
        """The ids of each chunk in a list of new chunks (str), as tuples, in order: one pass over
        all their bytes cuts them at chunk ends and seams, and each piece is looked up (or
        encoded) once. Tuples, because a cache holds them: immutable, and the garbage
        collector stops scanning a tuple of ints once it has seen it (a list it scans again
        and again as the cache grows)."""
        if len(chunks) < MANY_CHUNKS or "" in chunks:  # a pattern may match empty text
            return [tuple(self.encode(chunk.encode("utf-8"))) for chunk in chunks]
        import numpy as np

        with collector_paused():
            encoded = list(map(str.encode, chunks))
            data = b"".join(encoded)
            chunk_ends = np.cumsum(np.fromiter(map(len, encoded), np.int64, len(encoded)))
            ends = piece_ends(data, chunk_ends, self.seam_table)
            bounds = ends.tolist()
            pieces = map(data.__getitem__, map(slice, [0, *bounds[:-1]], bounds))
            piece_ids = list(map(self.pieces.__getitem__, pieces))
            # each chunk's ids are one slice of all the pieces' ids joined
            ids = tuple(chain.from_iterable(piece_ids))
            id_ends = np.cumsum(np.fromiter(map(len, piece_ids), np.int64, len(piece_ids)))
            chunk_id_ends = id_ends[np.searchsorted(ends, chunk_ends)].tolist()  # a chunk ends where a piece does
            return list(map(ids.__getitem__, map(slice, [0, *chunk_id_ends[:-1]], chunk_id_ends)))

    def encode_piece(self, piece):
        """The ids of bytes with no seam inside: the whole token, else BPE."""
        whole = self.whole_tokens.get(piece)
        if whole is not None:
            return [whole]
        return self.bpe(piece)

    def bpe(self, piece):
        """BPE on bytes already looked up, and not found, among the whole tokens."""
        return encode_chunk_fast(piece, self.ranks, self.byte_table, self.rank_ids)


class PieceCache(dict):
    """piece (bytes) -> ids; a piece not in it yet is encoded on the spot (__missing__)."""

    def __init__(self, encoder):
        super().__init__((bytes([b]), (idx,)) for b, idx in enumerate(encoder.byte_shuffle))
        self.encoder = encoder

    def __missing__(self, piece):
        ids = self[piece] = tuple(self.encoder.encode_piece(piece))
        return ids


def seams(merges, vocab):
    """The byte pairs (x, y) that no token holds side by side: BPE never joins them.

    Every two neighbouring bytes inside a token met when some merge joined its two parts, so
    the pairs tokens hold are (last byte of the left part, first byte of the right part).
    seams({(104, 105): 256}, vocab) holds (105, 104) but not (104, 105) ('hi' is a token).
    """
    joined = {(vocab[left][-1], vocab[right][0]) for left, right in merges}
    return BYTE_PAIRS.difference(joined)


BYTE_PAIRS = frozenset(product(range(256), repeat=2))  # all 65,536 (byte, byte) pairs


def seam_table(seam_pairs):
    """A numpy bool per byte pair, at x * 256 + y: True where (x, y) is a seam."""
    import numpy as np

    table = np.zeros(65536, dtype=bool)
    table[[x << 8 | y for x, y in seam_pairs]] = True
    return table


def piece_ends(data, chunk_ends, table):
    """Where the pieces of the joined chunks end (a numpy array): at each chunk's end and at
    each seam. piece_ends(b"hihi", np.array([2, 4]), table) -> [2, 4], when 'hi' is a token."""
    import numpy as np

    pairs = np.frombuffer(data, np.uint8).astype(np.uint16)
    cut = np.append(table[pairs[:-1] << 8 | pairs[1:]], True)  # cut[i]: a piece ends after byte i
    cut[chunk_ends - 1] = True
    return np.flatnonzero(cut) + 1


@contextlib.contextmanager
def collector_paused():
    """Pause Python's cycle collector for a block that makes a hundred thousand small tuples of
    ints: they can hold no cycle, yet the collector would stop every 700 of them to look."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


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
        ids[i] = new
        del ids[i + 1]
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
