"""GOOD: word-level BPE over one word at a time, as a bootcamp template has it: a word is a tuple
of its characters and an end-of-word marker; merge_pair(word, pair) joins the pair wherever it
stands, left to right; apply_bpe(word, merge_rules) keeps merging the earliest rule the word still
holds. Graded in its own terms: each id a symbol, the merges handed in as rules of symbols.

expect: merge_pair pass, apply_bpe pass
"""


def split_word(word):
    return (*word, "</w>")


def merge_pair(word, pair):
    out, skip = [], False
    for i, symbol in enumerate(word):
        if skip:
            skip = False
        elif i + 1 < len(word) and (symbol, word[i + 1]) == tuple(pair):
            out.append(symbol + word[i + 1])
            skip = True
        else:
            out.append(symbol)
    return tuple(out)


def apply_bpe(word, merge_rules):
    symbols = list(word)
    rank = {rule: i for i, rule in enumerate(merge_rules)}
    while len(symbols) > 1:
        ranked = [(rank[p], i) for i, p in enumerate(zip(symbols, symbols[1:])) if p in rank]
        if not ranked:
            break
        _, at = min(ranked)
        symbols[at:at + 2] = [symbols[at] + symbols[at + 1]]
    return tuple(symbols)


print(apply_bpe(split_word("سلام"), [("س", "ل"), ("ا", "م"), ("سل", "ام")]))
print(apply_bpe(split_word("한국"), [("한", "국")]))
