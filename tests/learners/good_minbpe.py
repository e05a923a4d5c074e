"""A learner who wrote every exercise in the plain minbpe style: all of it is right.

expect: to_hex pass, from_hex pass, u_plus pass, from_u_plus pass, strip_marks pass, utf8_encode pass, get_stats pass, merge pass, train pass, build_vocab pass, decode pass, encode pass, split_text pass, train_regex pass, encode_ordinary pass, encode_special pass, recover_merges pass
"""

import unicodedata
import regex


def to_hex(n):
    if n == 0:
        return "0"
    digits = ""
    while n:
        n, r = divmod(n, 16)
        digits = "0123456789abcdef"[r] + digits
    return digits


def from_hex(s):
    s = s.lower()
    if s.startswith("0x"):
        s = s[2:]
    n = 0
    for ch in s:
        n = n * 16 + "0123456789abcdef".index(ch)
    return n


def u_plus(ch):
    return "U+" + f"{ord(ch):04X}"


def from_u_plus(name):
    return chr(from_hex(name[2:]))


def strip_marks(text):
    out = ""
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.category(ch) != "Mn":
            out += ch
    return unicodedata.normalize("NFC", out)


def utf8_encode(text):
    out = []
    for ch in text:
        cp = ord(ch)
        if cp < 0x80:
            out.append(cp)
        elif cp < 0x800:
            out += [0xC0 | cp >> 6, 0x80 | cp & 0x3F]
        elif cp < 0x10000:
            out += [0xE0 | cp >> 12, 0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F]
        else:
            out += [0xF0 | cp >> 18, 0x80 | cp >> 12 & 0x3F, 0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F]
    return bytes(out)


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    newids = []
    i = 0
    while i < len(ids):
        if i < len(ids) - 1 and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids


def train(text, vocab_size):
    ids = list(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges


def build_vocab(merges):
    vocab = {idx: bytes([idx]) for idx in range(256)}
    for (p0, p1), idx in merges.items():
        vocab[idx] = vocab[p0] + vocab[p1]
    return vocab


def decode(ids, vocab):
    return b"".join(vocab[idx] for idx in ids).decode("utf-8", errors="replace")


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids


def split_text(text, pattern):
    return regex.findall(pattern, text)


def train_regex(text, vocab_size, pattern):
    chunks = [list(c.encode("utf-8")) for c in regex.findall(pattern, text)]
    merges = {}
    for idx in range(256, vocab_size):
        stats = {}
        for ids in chunks:
            for pair, n in get_stats(ids).items():
                stats[pair] = stats.get(pair, 0) + n
        if not stats:
            break
        pair = max(stats, key=stats.get)
        chunks = [merge(ids, pair, idx) for ids in chunks]
        merges[pair] = idx
    return merges


def encode_ordinary(text, merges, pattern):
    ids = []
    for chunk in regex.findall(pattern, text):
        ids.extend(encode(chunk, merges))
    return ids


def encode_special(text, merges, pattern, special_tokens, allowed_special):
    allowed = set(special_tokens) if allowed_special == "all" else set(allowed_special)
    for token in special_tokens:
        if token not in allowed and token in text:
            raise ValueError(f"{token!r} is a special token; allow it or remove it")
    if not allowed:
        return encode_ordinary(text, merges, pattern)
    special = "(" + "|".join(regex.escape(t) for t in sorted(allowed, key=len, reverse=True)) + ")"
    ids = []
    for i, part in enumerate(regex.split(special, text)):
        if i % 2:
            ids.append(special_tokens[part])
        else:
            ids.extend(encode_ordinary(part, merges, pattern))
    return ids


def bpe(ranks, token, max_rank):
    parts = [bytes([b]) for b in token]
    while True:
        best = None
        for i in range(len(parts) - 1):
            rank = ranks.get(parts[i] + parts[i + 1])
            if rank is not None and (best is None or rank < best[1]):
                best = (i, rank)
        if best is None or best[1] >= max_rank:
            return parts
        i = best[0]
        parts = parts[:i] + [parts[i] + parts[i + 1]] + parts[i + 2:]


def recover_merges(mergeable_ranks):
    merges = {}
    for token, rank in sorted(mergeable_ranks.items(), key=lambda kv: kv[1]):
        if len(token) < 2:
            continue
        left, right = bpe(mergeable_ranks, token, rank)
        merges[(mergeable_ranks[left], mergeable_ranks[right])] = rank
    return merges
