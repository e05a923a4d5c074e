"""Not byte-level BPE, in a tutorial notebook's module style: words split on spaces, characters
plus an end-of-word mark, and module-level `merges` that pair strings; encode_text returns symbol
tuples and decode(symbols) joins them. A note says the merges are not byte-level: `merges`,
encode_text and decode get no verdict, and the file is not passed. Its merge over one word's
symbols, apply(symbols, pair), is graded in its own terms, as the course's merge, and so is its
trainer learn(text, num_merges), its merges replayed over words spelt its way.

expect: learn pass, apply pass
file: not passed
shows: notes merges and what reads it (encode, decode of one argument): not graded, this is not byte-level BPE
"""

END = "</w>"


def pair_counts(words):
    counts = {}
    for symbols, n in words.items():
        for pair in zip(symbols, symbols[1:]):
            counts[pair] = counts.get(pair, 0) + n
    return counts


def apply(symbols, pair):
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(symbols[i] + symbols[i + 1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def learn(text, steps):
    words = {}
    for word in text.split():
        key = tuple(word) + (END,)
        words[key] = words.get(key, 0) + 1
    learned = []
    for _ in range(steps):
        counts = pair_counts(words)
        if not counts:
            break
        best = max(counts, key=counts.get)
        learned.append(best)
        words = {apply(s, best): n for s, n in words.items()}
    return learned


def encode_text(text, merges):
    out = []
    for word in text.split():
        symbols = tuple(word) + (END,)
        for pair in merges:
            symbols = apply(symbols, pair)
        out.append(symbols)
    return out


def decode(symbols):
    return " ".join("".join(s).replace(END, "") for s in symbols)


merges = learn("low low low lower lowest newer wider", 10)
