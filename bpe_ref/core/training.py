"""Training as one pipeline that flows one way: source -> split and count -> merge loop -> merges.

Tokenizer.train checks its arguments, hands `learn_merges` everything it needs at the start (the
source, the split pattern, the special tokens, the last id), and takes the merges back to set
its state. No stage calls back into the tokenizer:
- split and count (bpe_ref.core.pretokenize): read the source, cut it at special tokens and safe
  cuts, split each part with the pattern, count the distinct chunks;
- merge loop (bpe_ref.core.trainer): lay the counted chunks out once and merge the best pair
  until the last id. The lesson's loop (algorithm="naive") recounts every pair instead.
"""

from .naive import best_pair, get_stats, merge
from .pretokenize import count_chunks, read_text
from .progress import MergeReporter, progress_bar
from .stream import special_token_regex
from .trainer import PairTable
from .unicode_classes import split_regex


def learn_merges(source, last_id, *, pattern=None, special_tokens=(), tie_break="first", algorithm="fast",
                 workers=None, verbose=False):
    """The merges ((id, id) -> id, ids 256 .. last_id - 1) learned from `source`, in order.

    `source` is a str, a path, an open file or an iterable of str (see count_chunks); the
    special tokens are cut out first, and no merge crosses a chunk of `pattern` (None: the
    stretches between special tokens stay whole). Progress bars as Tokenizer.train says.

    >>> learn_merges("ab ab cd", 257, pattern=r" ?\\w+")
    {(97, 98): 256}
    """
    reporter = MergeReporter(last_id - 256, verbose)
    if algorithm == "naive":
        with reporter:
            return naive_merges(read_text(source), last_id, pattern, special_tokens, tie_break, reporter)
    with progress_bar("counting chunks", "B", verbose) as bar:
        progress = None if bar.disable else bar
        # the chunk counts are dropped once laid out: only the table is kept
        table = PairTable(count_chunks(source, pattern, special_tokens, workers=workers, progress=progress),
                          tie_break)
    with reporter:
        return table.learn_merges(last_id, reporter)


def naive_merges(text, last_id, pattern, special_tokens, tie_break, on_merge):
    """The lesson's loop: recount every pair in every chunk, merge the most frequent, repeat."""
    chunks = [list(chunk.encode("utf-8")) for chunk in split_text(text, pattern, special_tokens)]
    vocab = {idx: bytes([idx]) for idx in range(256)}
    merges = {}
    for idx in range(256, last_id):
        stats = {}
        for ids in chunks:
            get_stats(ids, stats)
        if not stats:
            break
        pair = best_pair(stats, vocab, tie_break)
        chunks = [merge(ids, pair, idx) for ids in chunks]
        merges[pair] = idx
        vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
        on_merge(merges, pair, idx, stats[pair])
    return merges


def split_text(text, pattern=None, special_tokens=()):
    """The chunks of a whole text: cut at the special tokens (left out), then split by `pattern`.

    >>> split_text("hi there<|endoftext|>you", r" ?\\w+", ["<|endoftext|>"])
    ['hi', ' there', 'you']
    """
    stretches = special_token_regex(special_tokens).split(text)[::2] if special_tokens else [text]
    if not pattern:
        return [stretch for stretch in stretches if stretch]
    findall = split_regex(pattern).findall
    return [chunk for stretch in stretches for chunk in findall(stretch)]
