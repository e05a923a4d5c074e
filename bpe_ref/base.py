"""The Tokenizer base class: vocab, special tokens, encode/decode around them, save/load.

Subclasses differ only in how text is split into chunks before BPE (`split`):
BasicTokenizer keeps the text whole, RegexTokenizer cuts it with a pattern.
Special tokens follow tiktoken: text that spells a special token raises by default.
"""

import json

from .fast import CHUNK_CACHE_SIZE, encode_chunk_fast
from .naive import best_pair, check_tie_break, check_vocab_size, get_stats, merge
from .pretokenize import check_special_token_list, count_chunks, read_text
from .progress import MergeReporter, progress_bar
from .stream import special_token_regex
from .trainer import PairTable

FORMAT_HEADER = "bpe-course tokenizer v1"
IDENTITY_BYTES = list(range(256))


class Tokenizer:
    """Byte-level BPE over chunks; see BasicTokenizer and RegexTokenizer."""

    pattern = None

    def __init__(self):
        self.merges = {}  # (id, id) -> id, in training order
        self.special_tokens = {}  # str -> id, e.g. {'<|endoftext|>': 100257}
        self.byte_shuffle = list(IDENTITY_BYTES)  # byte value -> id of its one-byte token
        self.vocab = self._build_vocab()  # id -> bytes
        self._cache = {}
        self.whole_tokens = None  # bytes -> id: tiktoken's shortcut, set only by from_tiktoken

    # ------------------------------------------------------------------ training

    def split(self, text):
        """Cut text into the chunks BPE works inside (no merge crosses a chunk)."""
        return [text] if text else []

    def train(self, text, vocab_size, verbose=False, *, special_tokens=None, tie_break="first",
              algorithm="fast", workers=None):
        """Learn merges until the vocab has `vocab_size` tokens (or no pair is left).

        `text` is a str (always the text itself), a path (pathlib.Path), an open file or an
        iterable of str (pieces of one text): the fast trainer reads it as a stream and never
        holds a list of its chunks (a BasicTokenizer, which has no split, holds each stretch
        between special tokens whole).
        `special_tokens` (a list of str): the text is cut at them first, so no merge touches
        them, and they enter the vocab right after the merges, in the order given (ids
        256 + len(merges), ...). `vocab_size` counts them too: 256 bytes + merges + specials.
        They replace any special tokens registered before.
        `tie_break`: of equally frequent pairs, "first" takes the one that occurs first in the
        text, "lexicographic" the one whose (bytes, bytes) is greatest (CS336's rule).
        algorithm="naive" runs the lesson's loop (recount, pick, merge); the default "fast"
        (bpe_ref.trainer) learns exactly the same merges, much sooner. `workers` is how many
        processes count chunks (default: every core, for inputs of a few MB or more).
        Progress bars show on stderr when `verbose` or when stderr is a terminal.

        >>> tok = RegexTokenizer()
        >>> tok.train("hello hello<|endoftext|>", 258, special_tokens=["<|endoftext|>"])
        >>> tok.special_tokens
        {'<|endoftext|>': 257}
        """
        if algorithm not in ("fast", "naive"):
            raise ValueError(f"unknown training algorithm {algorithm!r}; choose 'fast' or 'naive'")
        check_vocab_size(vocab_size)
        check_tie_break(tie_break)
        specials = check_special_token_list(special_tokens)
        if special_tokens is None:
            self._check_special_ids_free(vocab_size)
        elif vocab_size < 256 + len(specials):
            raise ValueError(
                f"vocab_size={vocab_size} cannot hold the 256 byte tokens and {len(specials)} special "
                f"tokens; ask for at least {256 + len(specials)} (vocab_size counts the special tokens)"
            )
        last_id = vocab_size - len(specials)  # merges get the ids 256 .. last_id - 1
        reporter = MergeReporter(last_id - 256, verbose)
        if algorithm == "fast":
            with progress_bar("counting chunks", "B", verbose) as bar:
                progress = None if bar.disable else bar
                # the chunk counts are dropped once laid out: only the table is kept
                table = PairTable(count_chunks(text, self.pattern, specials, workers=workers,
                                               progress=progress), tie_break)
            with reporter:
                merges = table.learn_merges(last_id, reporter)
        else:
            with reporter:
                merges = self._train_naive(read_text(text), last_id, specials, tie_break, reporter)
        self._set_merges(merges, IDENTITY_BYTES)
        if special_tokens is not None:
            self.special_tokens = {token: 256 + len(merges) + i for i, token in enumerate(specials)}
            self.vocab = self._build_vocab()

    def _train_naive(self, text, vocab_size, specials, tie_break, on_merge):
        """The lesson's loop: recount every pair in every chunk, merge the most frequent, repeat."""
        stretches = special_token_regex(specials).split(text)[::2] if specials else [text]
        chunks = [list(chunk.encode("utf-8")) for stretch in stretches for chunk in self.split(stretch)]
        vocab = {idx: bytes([idx]) for idx in range(256)}
        merges = {}
        for idx in range(256, vocab_size):
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

    # ------------------------------------------------------------------ encoding

    def encode_ordinary(self, text):
        """Encode text, treating any special-token text as ordinary text.

        Chunks repeat a lot in real text ('the', ' of', '\n'), so each one is encoded once and
        its ids are cached by the chunk's text.
        """
        text = replace_surrogates(text)
        ids = []
        cache = self._cache
        for chunk in self.split(text):
            chunk_ids = cache.get(chunk)
            if chunk_ids is None:
                chunk_ids = self._encode_chunk(chunk)
            ids.extend(chunk_ids)
        return ids

    def encode(self, text, *, allowed_special=frozenset(), disallowed_special="all"):
        """Encode text; special tokens follow tiktoken's rules.

        `allowed_special` ("all" or a set) names special tokens to encode as their id.
        `disallowed_special` ("all" or a set) names those whose text raises a ValueError;
        "all" means every special token not allowed. Pass `disallowed_special=()` to encode
        such text as ordinary text.

        >>> tok.encode("hi<|endoftext|>", allowed_special="all")[-1] == tok.special_tokens["<|endoftext|>"]
        True
        """
        allowed = set(self.special_tokens) if allowed_special == "all" else set(allowed_special)
        if disallowed_special == "all":
            disallowed = set(self.special_tokens) - allowed
        else:
            disallowed = set(disallowed_special)
        if disallowed:
            found = special_token_regex(disallowed).search(text)
            if found:
                raise_disallowed_special_token(found.group())
        allowed &= set(self.special_tokens)
        if not allowed:
            return self.encode_ordinary(text)
        ids = []
        # split() with a capture group alternates: ordinary, special, ordinary, ...
        for i, part in enumerate(special_token_regex(allowed).split(text)):
            if i % 2 == 1:
                ids.append(self.special_tokens[part])
            else:
                ids.extend(self.encode_ordinary(part))
        return ids

    def _encode_chunk(self, chunk):
        """BPE inside one chunk (a str) not seen before: merge the lowest-ranked known pair until
        none is left; the result goes into the chunk cache."""
        chunk_bytes = chunk.encode("utf-8")
        whole = self.whole_tokens.get(chunk_bytes) if self.whole_tokens else None
        if whole is not None:
            ids = [whole]  # tiktoken's own first step: a chunk that is a token is that token
        else:
            ids = encode_chunk_fast(chunk_bytes, self.merges, self.byte_shuffle)
        if len(self._cache) >= CHUNK_CACHE_SIZE:
            self._cache.clear()
        self._cache[chunk] = ids
        return ids

    # ------------------------------------------------------------------ decoding

    def decode_bytes(self, ids):
        """The raw bytes of a list of ids (specials included)."""
        parts = []
        for idx in ids:
            token = self.vocab.get(idx)
            if token is None:
                raise ValueError(f"unknown token id {idx}: this tokenizer has no token with that id")
            parts.append(token)
        return b"".join(parts)

    def decode(self, ids):
        """Turn ids back into text; bytes that are not valid UTF-8 become U+FFFD."""
        return self.decode_bytes(ids).decode("utf-8", errors="replace")

    # ------------------------------------------------------------------ special tokens

    def register_special_tokens(self, special_tokens):
        """Add special tokens, e.g. {'<|endoftext|>': 100257}; their ids must be unused."""
        ordinary = self._build_vocab(self.merges, with_specials=False)
        for token, idx in special_tokens.items():
            if not isinstance(token, str) or not token:
                raise ValueError(f"a special token must be a non-empty str, got {token!r}")
            if idx in ordinary:
                raise ValueError(
                    f"special token {token!r} asks for id {idx}, which an ordinary token already has; "
                    f"choose an id of {max(ordinary) + 1} or more"
                )
        self.special_tokens = {**self.special_tokens, **special_tokens}
        self.vocab = self._build_vocab()

    def _check_special_ids_free(self, vocab_size):
        clashes = {t: i for t, i in self.special_tokens.items() if i < vocab_size}
        if clashes:
            raise ValueError(
                f"special tokens {clashes} have ids below vocab_size={vocab_size}; "
                "training would give those ids to merges. Register them with ids >= vocab_size."
            )

    # ------------------------------------------------------------------ vocab

    def _set_merges(self, merges, byte_shuffle):
        self.whole_tokens = None
        self.merges = dict(merges)
        self.byte_shuffle = list(byte_shuffle)
        self.vocab = self._build_vocab()
        self._cache = {}

    def _build_vocab(self, merges=None, with_specials=True):
        """id -> bytes, always rebuilt from the byte tokens, the merges and the specials."""
        merges = self.merges if merges is None else merges
        vocab = {idx: bytes([b]) for b, idx in enumerate(self.byte_shuffle)}
        for (p0, p1), idx in merges.items():
            vocab[idx] = vocab[p0] + vocab[p1]
        if with_specials:
            for token, idx in self.special_tokens.items():
                vocab[idx] = token.encode("utf-8")
        return vocab

    # ------------------------------------------------------------------ save / load

    def save(self, prefix):
        """Write `prefix.model` (to load later) and `prefix.vocab` (for people to read)."""
        lines = [FORMAT_HEADER, f"kind {type(self).__name__}", f"pattern {json.dumps(self.pattern)}"]
        lines.append(f"special_tokens {len(self.special_tokens)}")
        lines += [f"{json.dumps(t)} {i}" for t, i in self.special_tokens.items()]
        if self.byte_shuffle == IDENTITY_BYTES:
            lines.append("byte_shuffle identity")
        else:
            lines.append("byte_shuffle " + " ".join(map(str, self.byte_shuffle)))
        lines.append(f"merges {len(self.merges)}")
        lines += [f"{p0} {p1} {idx}" for (p0, p1), idx in self.merges.items()]
        with open(f"{prefix}.model", "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        with open(f"{prefix}.vocab", "w", encoding="utf-8") as f:
            f.write(self._vocab_listing())
        return f"{prefix}.model"

    def _vocab_listing(self):
        children = {idx: pair for pair, idx in self.merges.items()}
        rows = []
        for idx, token in sorted(self.vocab.items()):
            if idx in children:
                p0, p1 = children[idx]
                rows.append(f"[{render_token(self.vocab[p0])}][{render_token(self.vocab[p1])}] "
                            f"-> [{render_token(token)}] {idx}")
            else:
                rows.append(f"[{render_token(token)}] {idx}")
        return "\n".join(rows) + "\n"

    def load(self, path):
        """Read a `.model` file written by save(); fills this tokenizer and returns it."""
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        if not lines or not lines[0].startswith("bpe-course tokenizer"):
            raise ValueError(f"{path} is not a bpe-course tokenizer file (it should start with {FORMAT_HEADER!r})")
        if lines[0] != FORMAT_HEADER:
            raise ValueError(f"{path} has format {lines[0]!r}; this version reads {FORMAT_HEADER!r}")
        rows = iter(lines[1:])
        next(rows)  # kind: informational
        pattern = json.loads(_field(next(rows), "pattern"))
        if pattern != self.pattern and type(self).pattern is None and pattern is not None:
            raise ValueError(f"{path} was saved with a split pattern; load it with RegexTokenizer")
        self.pattern = pattern
        specials = {}
        for _ in range(int(_field(next(rows), "special_tokens"))):
            token, idx = next(rows).rsplit(" ", 1)
            specials[json.loads(token)] = int(idx)
        shuffle = _field(next(rows), "byte_shuffle")
        byte_shuffle = IDENTITY_BYTES if shuffle == "identity" else [int(x) for x in shuffle.split()]
        merges = {}
        for _ in range(int(_field(next(rows), "merges"))):
            p0, p1, idx = map(int, next(rows).split())
            merges[(p0, p1)] = idx
        self.special_tokens = specials
        self._set_merges(merges, byte_shuffle)
        return self


def replace_surrogates(text):
    """Lone surrogates cannot be UTF-8; like tiktoken, encode them as U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _field(line, name):
    key, _, value = line.partition(" ")
    if key != name:
        raise ValueError(f"tokenizer file: expected a {name!r} line, found {line[:60]!r}")
    return value


def raise_disallowed_special_token(token):
    raise ValueError(
        f"The text contains {token!r}, which is a special token, and special tokens are "
        "disallowed by default.\n"
        f"  - to encode it as the special token, pass allowed_special={{{token!r}}} (or allowed_special=\"all\");\n"
        f"  - to encode it as ordinary text, pass disallowed_special=() "
        "(or leave this token out of disallowed_special)."
    )


def render_token(token):
    """Show a token's bytes readably: invalid UTF-8 as U+FFFD, control characters escaped."""
    text = token.decode("utf-8", errors="replace")
    return "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in text)
