"""The Tokenizer base class: vocab, special tokens, encode/decode around them, save/load.

Subclasses differ only in how text is split into chunks before BPE (`split`):
BasicTokenizer keeps the text whole, RegexTokenizer cuts it with a pattern.
Special tokens follow tiktoken: text that spells a special token raises by default.
"""

from .fast import CHUNK_CACHE_SIZE, ChunkEncoder
from .naive import check_tie_break, check_vocab_size
from .parallel import encode_ordinary_parts
from .pretokenize import check_special_token_list
from .specials import check_disallowed, refuse_disallowed, special_policy
from .stream import iter_parts, special_token_regex
from .training import learn_merges

IDENTITY_BYTES = list(range(256))  # byte value -> id of its one-byte token, when nothing is shuffled


class Tokenizer:
    """Byte-level BPE over chunks; see BasicTokenizer and RegexTokenizer."""

    pattern = None

    def __init__(self):
        self.merges = {}  # (id, id) -> id, in training order
        self.special_tokens = {}  # str -> id, e.g. {'<|endoftext|>': 100257}
        self.byte_shuffle = list(IDENTITY_BYTES)  # byte value -> id of its one-byte token
        self.extra_tokens = {}  # id -> bytes: tokens a loaded vocab has beyond bytes, merges, specials
        self.vocab = self._build_vocab()  # id -> bytes
        self._cache = {}  # chunk (str) -> ids
        self._encoder = None  # the ChunkEncoder for new chunks, made on first use
        self.whole_tokens = None  # bytes -> id where a whole token encodes as itself (bpe_ref.core.fast)

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
        (bpe_ref.core.training) learns exactly the same merges, much sooner. `workers` is how many
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
        merges = learn_merges(text, last_id, pattern=self.pattern, special_tokens=specials, tie_break=tie_break,
                              algorithm=algorithm, workers=workers, verbose=verbose)
        self._set_merges(merges, IDENTITY_BYTES)
        self.whole_tokens = self._trained_tokens()
        if special_tokens is not None:
            self.special_tokens = {token: 256 + len(merges) + i for i, token in enumerate(specials)}
            self.vocab = self._build_vocab()

    # ------------------------------------------------------------------ encoding

    def encode_ordinary(self, text):
        """Encode text, treating any special-token text as ordinary text.

        Chunks repeat a lot in real text ('the', ' of', '\n'), so each distinct chunk is
        encoded once (new chunks first, all at once) and its ids are cached by the chunk's text.
        >>> tok.encode_ordinary("hi<|endoftext|>") == tok.encode("hi<|endoftext|>", disallowed_special=())
        True
        """
        return self.encode_ordinary_many([text])[0]

    def encode_ordinary_many(self, texts):
        """[encode_ordinary(text) for text in texts], with the new chunks of all of them encoded
        in one pass: many short texts (a batch of lines, the parts between special tokens) cost
        about what one text of the same length does."""
        split = [self.split(replace_surrogates(check_text(text))) for text in texts]
        cache = self._cache
        chunks = set().union(*split)
        new = chunks.difference(cache)
        if new:
            if len(cache) + len(new) > CHUNK_CACHE_SIZE:
                self._clear_cache()
                new = chunks
            new = list(new)
            cache.update(zip(new, self._chunk_encoder().encode_many(new)))
        batch = []
        for text_chunks in split:
            ids = []
            for chunk in text_chunks:
                ids.extend(cache[chunk])
            batch.append(ids)
        return batch

    def encode(self, text, allowed_special=frozenset(), *, disallowed_special="all"):
        """Encode text; special tokens follow tiktoken's rules, or minbpe's.

        `allowed_special` ("all" or a set) names special tokens to encode as their id.
        `disallowed_special` ("all" or a set) names those whose text raises a ValueError;
        "all" means every special token not allowed. Pass `disallowed_special=()` to encode
        such text as ordinary text. minbpe's calls work too: `allowed_special` may be given
        by position, and "none" (special-token text is ordinary text) or "none_raise" (it
        raises, the default).

        >>> tok.encode("hi<|endoftext|>", allowed_special="all")[-1] == tok.special_tokens["<|endoftext|>"]
        True
        >>> tok.encode("hi<|endoftext|>", "none") == tok.encode_ordinary("hi<|endoftext|>")
        True
        """
        allowed, disallowed = special_policy(self.special_tokens, allowed_special, disallowed_special)
        check_disallowed(check_text(text), disallowed)
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

    def encode_iterable(self, iterable, *, allowed_special=frozenset(), disallowed_special="all"):
        """Encode text that arrives in pieces (a file's lines, say), yielding ids as they settle.

        The ids are those of encode("".join(iterable), ...), also where a chunk or a special
        token spans two pieces. Text is held back only up to the next place where no chunk can
        cross (bpe_ref.core.stream), so memory grows with the longest such stretch, not with the
        input; with no split pattern, or a pattern other than GPT-2's, GPT-4's and o200k's,
        only special tokens cut the text. A disallowed special token raises where it is met.

        >>> with open("big.txt", encoding="utf-8") as f:
        ...     total = sum(1 for _ in tok.encode_iterable(f))
        """
        allowed, disallowed = special_policy(self.special_tokens, allowed_special, disallowed_special)
        if disallowed and not isinstance(iterable, (bytes, bytearray)):
            iterable = refuse_disallowed(iterable, disallowed)
        for part in iter_parts(iterable, self.pattern, allowed):
            if part in allowed:
                yield self.special_tokens[part]
            else:
                yield from self.encode_ordinary(part)

    def encode_ordinary_batch(self, texts, *, num_workers=None):
        """encode_ordinary of each text, on `num_workers` processes (default: one per core).

        >>> tok.encode_ordinary_batch(["hello world", "goodbye"]) == [tok.encode_ordinary("hello world"),
        ...                                                          tok.encode_ordinary("goodbye")]
        True
        """
        return self.encode_batch(texts, num_workers=num_workers, disallowed_special=())

    def encode_batch(self, texts, *, num_workers=None, allowed_special=frozenset(), disallowed_special="all"):
        """encode of each text, like tiktoken's encode_batch, on `num_workers` processes.

        A long text is cut where no chunk can cross (bpe_ref.core.stream), so even one text is
        shared out: encode_batch([text])[0] == encode(text), sooner on several cores.

        >>> tok.encode_batch(["hi", "<|endoftext|>"], allowed_special="all")[1] == [tok.special_tokens["<|endoftext|>"]]
        True
        """
        if isinstance(texts, str):
            raise TypeError("encode_batch takes a list of texts; for one text pass [text]")
        allowed, disallowed = special_policy(self.special_tokens, allowed_special, disallowed_special)
        parts = []  # (which text, its next part)
        for i, text in enumerate(texts):
            check_disallowed(check_text(text), disallowed)
            parts += [(i, part) for part in iter_parts(text, self.pattern, allowed)]
        ordinary = [part for _, part in parts if part not in allowed]
        encoded = iter(encode_ordinary_parts(self, ordinary, num_workers))
        batch = [[] for _ in texts]
        for i, part in parts:
            if part in allowed:
                batch[i].append(self.special_tokens[part])
            else:
                batch[i] += next(encoded)
        return batch

    def _chunk_encoder(self):
        """The ChunkEncoder for chunks not in the cache (bpe_ref.core.fast), made once per set of merges."""
        if self._encoder is None:
            self._encoder = ChunkEncoder(self.merges, self.byte_shuffle, self.vocab, self.whole_tokens)
        return self._encoder

    def _clear_cache(self):
        """Forget every chunk and piece encoded so far: the next encode starts cold."""
        self._cache.clear()
        if self._encoder is not None:
            self._encoder.clear()

    @property
    def whole_tokens(self):
        """bytes -> id of the tokens that BPE on their own bytes gives back, or None.

        Set by training and by from_tiktoken, where every token is such a token; the encoder
        then takes a chunk that is a whole token as that token, as tiktoken does.
        """
        return self._whole_tokens

    @whole_tokens.setter
    def whole_tokens(self, tokens):
        self._whole_tokens = tokens
        self._encoder = None

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
        """Add special tokens, e.g. {'<|endoftext|>': 100257}; their ids must be unused.

        An extra token of a loaded vocab with the same text may become special under its own id.
        """
        ordinary = self._build_vocab(self.merges, with_specials=False)
        for token, idx in special_tokens.items():
            if not isinstance(token, str) or not token:
                raise ValueError(f"a special token must be a non-empty str, got {token!r}")
            if idx in ordinary and self.extra_tokens.get(idx) != token.encode("utf-8"):
                raise ValueError(
                    f"special token {token!r} asks for id {idx}, which an ordinary token already has; "
                    f"choose an id of {max(ordinary) + 1} or more"
                )
        self.special_tokens = {**self.special_tokens, **special_tokens}
        self.extra_tokens = {i: t for i, t in self.extra_tokens.items() if i not in special_tokens.values()}
        self.vocab = self._build_vocab()

    def _check_special_ids_free(self, vocab_size):
        clashes = {t: i for t, i in self.special_tokens.items() if i < vocab_size}
        if clashes:
            raise ValueError(
                f"special tokens {clashes} have ids below vocab_size={vocab_size}; "
                "training would give those ids to merges. Register them with ids >= vocab_size."
            )

    # ------------------------------------------------------------------ vocab

    def _set_merges(self, merges, byte_shuffle, extra_tokens=None):
        self.whole_tokens = None
        self.extra_tokens = dict(extra_tokens or {})
        self.merges = dict(merges)
        self.byte_shuffle = list(byte_shuffle)
        self.vocab = self._build_vocab()
        self._cache = {}

    def _trained_tokens(self):
        """bytes -> id of the byte tokens and the merges' tokens. After training, and in
        tiktoken's encodings, each one is what BPE makes of its own bytes (bpe_ref.core.fast)."""
        ids = [*self.byte_shuffle, *self.merges.values()]
        return {self.vocab[idx]: idx for idx in ids}

    def _build_vocab(self, merges=None, with_specials=True):
        """id -> bytes, always rebuilt from the byte tokens, the merges, extras and the specials."""
        merges = self.merges if merges is None else merges
        vocab = {idx: bytes([b]) for b, idx in enumerate(self.byte_shuffle)}
        for (p0, p1), idx in merges.items():
            vocab[idx] = vocab[p0] + vocab[p1]
        vocab.update(self.extra_tokens)
        if with_specials:
            for token, idx in self.special_tokens.items():
                vocab[idx] = token.encode("utf-8")
        return vocab

    # ------------------------------------------------------------------ formats (the logic lives in bpe_ref.formats)

    def to_tiktoken(self, name):
        """A tiktoken.Encoding named `name` with the same ids (bpe_ref.formats.export explains when it can).

        >>> tok.to_tiktoken("mytok").encode("hello world") == tok.encode("hello world")
        True
        """
        from ..formats.export import to_tiktoken
        return to_tiktoken(self, name)

    def save_huggingface(self, path):
        """Write a Hugging Face tokenizer.json; `tokenizers.Tokenizer.from_file` encodes as this does.

        >>> hf = tokenizers.Tokenizer.from_file(tok.save_huggingface(tmp_path / "tokenizer.json"))
        >>> hf.encode("hello world").ids == tok.encode("hello world")
        True
        """
        from ..formats.export import save_huggingface
        return save_huggingface(self, path)

    # ------------------------------------------------------------------ save / load

    def save(self, prefix):
        """Write `prefix.model` (to load later) and `prefix.vocab` (for people to read).

        >>> tok.save(tmp_path / "mytok")  # doctest: +ELLIPSIS
        '.../mytok.model'
        """
        from ..formats.model_file import write_model
        return write_model(self, prefix)

    def load(self, path):
        """Read a `.model` file (bpe_ref's v1 or v2, or minbpe's); fills this tokenizer and returns it.

        >>> RegexTokenizer().load(tmp_path / "mytok.model").merges == tok.merges
        True
        """
        from ..formats.model_file import load_model
        return load_model(self, path)


def check_text(text):
    """The text itself, or a TypeError that says what to pass instead."""
    if not isinstance(text, str):
        hint = " (decode bytes first: data.decode('utf-8'))" if isinstance(text, (bytes, bytearray)) else ""
        raise TypeError(f"encode takes a str, got {type(text).__name__}{hint}")
    return text


def replace_surrogates(text):
    """Lone surrogates cannot be UTF-8; like tiktoken, encode them as U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text
