"""BUG in apply_bpe: word-level BPE over one word's symbols whose encoder looks for the rules from
the end of the list, so the latest-learned rule the word holds is applied first. merge_pair is
right.

expect: merge_pair pass, apply_bpe fail
cause: apply_bpe highest_rank
"""


def merge_pair(word, pair):
    merged, i = [], 0
    while i < len(word):
        if i + 1 < len(word) and (word[i], word[i + 1]) == tuple(pair):
            merged.append(word[i] + word[i + 1])
            i += 2
        else:
            merged.append(word[i])
            i += 1
    return tuple(merged)


def apply_bpe(word, merge_rules):
    word = tuple(word)
    while True:
        pairs = set(zip(word, word[1:]))
        for rule in reversed(merge_rules):
            if rule in pairs:
                word = merge_pair(word, rule)
                break
        else:
            return word
