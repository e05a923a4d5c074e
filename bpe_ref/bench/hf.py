"""Hugging Face tokenizers, set up as our like: byte level, the GPT-4 split, cl100k as an HF BPE."""


def hf_pattern():
    """GPT-4's split for Oniguruma, which reads the possessive {1,3}+ as a repeat."""
    from bpe_ref import GPT4_SPLIT_PATTERN

    if r"\p{N}{1,3}+" not in GPT4_SPLIT_PATTERN:
        raise ValueError("GPT4_SPLIT_PATTERN changed: update hf_pattern() to match it")
    return GPT4_SPLIT_PATTERN.replace(r"\p{N}{1,3}+", r"\p{N}{1,3}")


def hf_pre_tokenizer():
    """Split with the GPT-4 pattern, then map bytes to ByteLevel characters (no other regex)."""
    from tokenizers import Regex, pre_tokenizers

    return pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(hf_pattern()), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])


def hf_train(documents, vocab_size, *, files=None):
    """A Hugging Face tokenizer trained by its byte-level BpeTrainer with the GPT-4 split.

    documents: a list of strings (one text is a list of one); or files: paths HF reads itself.
    """
    from tokenizers import Tokenizer, models, trainers
    from tokenizers.pre_tokenizers import ByteLevel

    if isinstance(documents, str):
        raise TypeError("documents must be a list of strings: wrap a single text as [text]")
    if (documents is None) == (files is None):
        raise TypeError("give hf_train either documents or files")
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = hf_pre_tokenizer()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, initial_alphabet=ByteLevel.alphabet(),
                                  special_tokens=[], show_progress=False)
    if files is not None:
        tok.train([str(f) for f in files], trainer=trainer)
    else:
        tok.train_from_iterator(documents, trainer=trainer)
    return tok


def byte_level_chars():
    """GPT-2's byte -> printable character table, which HF's ByteLevel uses."""
    from bpe_ref import bytes_to_unicode

    return bytes_to_unicode()


def hf_cl100k():
    """cl100k_base rebuilt as an HF BPE model: its ranks as the vocab, our recovered merges."""
    from tokenizers import Tokenizer, models

    import bpe_ref

    tok = bpe_ref.from_tiktoken("cl100k_base")
    chars = byte_level_chars()

    def show(idx):
        return "".join(chars[b] for b in tok.vocab[idx])

    ordinary = [idx for idx in tok.vocab if idx not in tok.special_tokens.values()]
    vocab = {show(idx): idx for idx in ordinary}
    merges = [(show(p0), show(p1)) for (p0, p1), _ in sorted(tok.merges.items(), key=lambda m: m[1])]
    hf = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    hf.pre_tokenizer = hf_pre_tokenizer()
    return hf
