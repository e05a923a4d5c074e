"""Correct, but not the way the reference does it: Counter, recursion (to_hex), a skip flag,
bytearray, rank-order encoding, a tie-break that takes the LAST of the tied pairs. Every
exercise must pass.

expect: to_hex pass, from_hex pass, u_plus pass, from_u_plus pass, strip_marks pass, utf8_encode pass, get_stats pass, merge pass, train pass, build_vocab pass, decode pass, encode pass, split_text pass, train_regex pass, encode_ordinary pass, encode_special pass, recover_merges pass, save_load pass
"""

import unicodedata
from collections import Counter

import regex

DIGITS = dict(zip("0123456789abcdef", range(16)))


def to_hex(n):
    if n < 16:
        return "0123456789abcdef"[n]
    return to_hex(n // 16) + to_hex(n % 16)


def from_hex(s):
    s = s.lower().removeprefix("0x")
    total = 0
    for power, ch in enumerate(reversed(s)):
        total += DIGITS[ch] * 16 ** power
    return total


def u_plus(ch):
    digits = to_hex(ord(ch)).upper()
    return "U+" + digits.rjust(4, "0")


def from_u_plus(name):
    return chr(from_hex(name[2:]))


def strip_marks(text):
    bare = regex.sub(r"\p{Mn}+", "", unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFC", bare)


def utf8_encode(text):
    out = bytearray()
    for ch in text:
        cp = ord(ch)
        if cp < 0x80:
            out.append(cp)
            continue
        n = 2 if cp < 0x800 else 3 if cp < 0x10000 else 4
        lead = (0xF00 >> n) & 0xFF  # 110xxxxx, 1110xxxx, 11110xxx
        out.append(lead | (cp >> (6 * (n - 1))))
        for shift in range(6 * (n - 2), -1, -6):
            out.append(0x80 | ((cp >> shift) & 0x3F))
    return bytes(out)


def get_stats(ids):
    return Counter(zip(ids, ids[1:]))


def merge(ids, pair, idx):
    out, skip = [], False  # a flag, not recursion: a merge that calls itself per id fails on long texts
    for i, token in enumerate(ids):
        if skip:
            skip = False
        elif tuple(ids[i:i + 2]) == tuple(pair):
            out.append(idx)
            skip = True
        else:
            out.append(token)
    return out


def train(text, vocab_size):
    ids = list(text.encode("utf-8"))
    merges = {}
    while len(merges) < vocab_size - 256 and len(ids) >= 2:
        stats = get_stats(ids)
        best = max(stats.values())
        pair = [p for p, n in stats.items() if n == best][-1]  # the LAST of the tied pairs
        idx = 256 + len(merges)
        merges[pair] = idx
        ids = merge(ids, pair, idx)
    return merges


def build_vocab(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for pair, idx in sorted(merges.items(), key=lambda item: item[1]):
        vocab[idx] = b"".join(vocab[p] for p in pair)
    return vocab


def decode(ids, vocab):
    buffer = bytearray()
    for idx in ids:
        buffer.extend(vocab[idx])
    return buffer.decode("utf-8", "replace")


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    for pair, idx in sorted(merges.items(), key=lambda item: item[1]):
        ids = merge(ids, pair, idx)  # every merge, in rank order: the same as lowest-rank-first
    return ids


def split_text(text, pattern):
    return [m.group() for m in regex.compile(pattern).finditer(text)]


def train_regex(text, vocab_size, pattern):
    chunks = [list(chunk.encode("utf-8")) for chunk in split_text(text, pattern)]
    merges = {}
    for idx in range(256, vocab_size):
        stats = Counter()
        for ids in chunks:
            stats.update(get_stats(ids))
        if not stats:
            break
        best = max(stats.values())
        pair = [p for p, n in stats.items() if n == best][-1]
        merges[pair] = idx
        chunks = [merge(ids, pair, idx) for ids in chunks]
    return merges


def encode_ordinary(text, merges, pattern):
    return [idx for chunk in split_text(text, pattern) for idx in encode(chunk, merges)]


def encode_special(text, merges, pattern, special_tokens, allowed_special):
    allowed = special_tokens.keys() if allowed_special == "all" else allowed_special
    ids, start, i = [], 0, 0
    while i < len(text):
        token = next((t for t in sorted(special_tokens, key=len, reverse=True) if text.startswith(t, i)), None)
        if token is None:
            i += 1
            continue
        if token not in allowed:
            raise ValueError(f"disallowed special token {token!r}")
        ids += encode_ordinary(text[start:i], merges, pattern) + [special_tokens[token]]
        i = start = i + len(token)
    return ids + encode_ordinary(text[start:], merges, pattern)


def recover_merges(mergeable_ranks):
    merges = {}
    for token, rank in sorted(mergeable_ranks.items(), key=lambda item: item[1]):
        if len(token) == 1:
            continue
        parts = [token[i:i + 1] for i in range(len(token))]
        while len(parts) > 2:
            ranks = [mergeable_ranks.get(a + b, float("inf")) for a, b in zip(parts, parts[1:])]
            i = ranks.index(min(ranks))
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        merges[mergeable_ranks[parts[0]], mergeable_ranks[parts[1]]] = rank
    return merges


def save_merges(merges, path):
    with open(path, "w", encoding="utf-8") as f:
        f.write("minbpe v1\n")
        for p0, p1 in merges:
            f.write(f"{p0} {p1}\n")


def load_merges(path):
    merges = {}
    with open(path, encoding="utf-8") as f:
        assert f.readline().strip() == "minbpe v1"
        for idx, line in enumerate(f, start=256):
            p0, p1 = map(int, line.split())
            merges[(p0, p1)] = idx
    return merges
