"""The workbooks' charts: one function per picture, so a demo cell stays a few lines long.

Each function draws from data the cell prepared and returns the matplotlib Figure. Jupyter
shows a Figure that is a cell's last value; elsewhere, `fig.savefig("chart.png")` saves it.

    from bpe_ref.course import plots
    plots.compression_curves(steps, {"English": [1.0, 1.3, 1.4]})

The benchmark's training-at-scale chart is drawn here too (training_scale_chart).
The figure is closed in pyplot before it is returned, so Jupyter shows it once (as the cell's
value) and not a second time when the cell ends.
"""

import matplotlib.pyplot as plt
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch, Rectangle

from ..core.naive import merge

HEX_DIGITS = "0123456789abcdef"
LIGHT_BLUE, LIGHT_ORANGE = "#cfe2f3", "#fde9c9"  # two alternating box colours


def _new_figure(width, height, columns=1):
    """A figure and its axes, created through pyplot so that Jupyter's inline backend renders it."""
    return plt.subplots(1, columns, figsize=(width, height))


def _shown_once(fig):
    """Close `fig` in pyplot and return it: Jupyter then shows it as the cell's value, once."""
    plt.close(fig)
    return fig


def _grouped_bars(ax, values, series):
    """Bars side by side: one group per key of `values`, one bar per series in each group.

    values: {group label: [one number per series]}; series: the labels of the series.
    """
    groups = list(values)
    for group in groups:
        if len(values[group]) != len(series):
            raise ValueError(f"{group!r} has {len(values[group])} numbers; give one per series: {series}")
    width = 0.8 / len(series)
    for k, label in enumerate(series):
        offset = (k - (len(series) - 1) / 2) * width
        ax.bar([i + offset for i in range(len(groups))], [values[g][k] for g in groups], width, label=label)
    ax.set_xticks(range(len(groups)), groups)


# ---------------------------------------------------------------------------- 00, 01, 02, 03


def characters_bytes_tokens(counts):
    """Code points, UTF-8 bytes and GPT-4 tokens of the same greeting in several languages.

    >>> fig = characters_bytes_tokens({"English": (5, 5, 1), "Korean": (2, 6, 2)})
    >>> len(fig.axes[0].patches)  # 2 texts x 3 bars
    6
    """
    fig, ax = _new_figure(9, 3.5)
    _grouped_bars(ax, counts, ["code points", "UTF-8 bytes", "GPT-4 tokens"])
    ax.set_ylabel("count")
    ax.set_title(f"One greeting, {len(counts)} ways: characters, bytes, tokens")
    ax.legend()
    return _shown_once(fig)


def _byte_kind(b):
    """0: an ASCII control code, 1: printable ASCII, 2: 0x80-0xff (never a character alone in UTF-8)."""
    if b < 0x20 or b == 0x7F:
        return 0
    return 1 if b < 0x80 else 2


def _byte_label(b):
    """The byte in hex, with its character under it when it is printable ASCII ('sp' for space)."""
    if b == 0x20:
        return f"{b:02x}\nsp"
    if 0x20 < b < 0x7F:
        return f"{b:02x}\n{chr(b)}"
    return f"{b:02x}"


def byte_table():
    """All 256 bytes in a 16 x 16 grid: row = first hex digit, column = second.

    >>> len(byte_table().axes[0].texts)
    256
    """
    fig, ax = _new_figure(8.5, 8.5)
    kinds = [[_byte_kind(16 * row + col) for col in range(16)] for row in range(16)]
    ax.imshow(kinds, cmap=ListedColormap(["#d0d0d0", "#9ecae1", "#fdd0a2"]))
    for b in range(256):
        row, col = divmod(b, 16)
        ax.text(col, row, _byte_label(b), ha="center", va="center", fontsize=8.5, family="monospace")
    ax.set_xticks(range(16), [f"_{d}" for d in HEX_DIGITS])
    ax.set_yticks(range(16), [f"{d}_" for d in HEX_DIGITS])
    ax.set_title("The 256 bytes: grey = ASCII control, blue = printable ASCII, orange = 0x80–0xff")
    return _shown_once(fig)


def graphemes_vs_code_points(seen, points):
    """Two bars per text: grapheme clusters (what a reader sees) and code points (what len counts).

    seen, points: {label: count}, with the same labels.
    >>> fig = graphemes_vs_code_points({"café": 4, "👩‍💻": 1}, {"café": 4, "👩‍💻": 3})
    >>> len(fig.axes[0].patches)
    4
    """
    if list(seen) != list(points):
        raise ValueError("seen and points must have the same labels, in the same order")
    labels = list(seen)
    fig, ax = _new_figure(8, 4)
    y = range(len(labels))
    ax.barh([i + 0.2 for i in y], [seen[k] for k in labels], height=0.4,
            label="grapheme clusters (what you see)")
    ax.barh([i - 0.2 for i in y], [points[k] for k in labels], height=0.4, label="code points (len)")
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel("count")
    ax.set_title("What you see is not what len() counts")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=2)
    return _shown_once(fig)


def unicode_groups(groups, version, top=12):
    """The `top` largest groups of assigned code points, as horizontal bars with their sizes.

    groups: {first word of the name: number of code points}; version: the Unicode version.
    >>> len(unicode_groups({"CJK": 9, "LATIN": 3, "GREEK": 2}, "15.0.0", top=2).axes[0].patches)
    2
    """
    largest = sorted(groups.items(), key=lambda item: -item[1])[:top]
    fig, ax = _new_figure(8, 4)
    ax.barh([word for word, _ in largest], [n for _, n in largest], color="#6a9fb5")
    ax.invert_yaxis()
    for i, (_, n) in enumerate(largest):
        ax.text(n, i, f" {n:,}", va="center", fontsize=8)
    ax.set_xlabel("assigned code points")
    ax.set_title(f"Unicode {version}: the {len(largest)} largest groups, by first word of the name")
    return _shown_once(fig)


UTF8_LEADS = ["0", "110", "1110", "11110"]  # the lead byte's prefix, for 1 to 4 bytes
UTF8_SPANS = ["U+0000–U+007F", "U+0080–U+07FF", "U+0800–U+FFFF", "U+10000–U+10FFFF"]
BYTE_STEP = 8.6  # horizontal distance between two bytes of the diagram, in bit widths


def _draw_utf8_byte(ax, x, y, prefix, lead):
    """Eight bit boxes at (x, y): the prefix bits filled in, the payload bits as 'x'. Returns
    the number of payload bits."""
    for bit in range(8):
        fixed = bit < len(prefix)
        colour = ("tab:orange" if lead else "tab:blue") if fixed else "whitesmoke"
        ax.add_patch(Rectangle((x + bit, y), 0.92, 0.8, facecolor=colour, edgecolor="grey"))
        ax.text(x + bit + 0.46, y + 0.4, prefix[bit] if fixed else "x", ha="center", va="center",
                color="white" if fixed else "dimgrey", fontweight="bold" if fixed else None)
    return 8 - len(prefix)


def utf8_layout():
    """UTF-8's four forms as bit boxes: the fixed prefix bits of every byte and the payload bits.

    >>> len(utf8_layout().axes[0].patches)  # 1 + 2 + 3 + 4 bytes of 8 bits
    80
    """
    fig, ax = _new_figure(11, 3.8)
    for n, (lead, span) in enumerate(zip(UTF8_LEADS, UTF8_SPANS), start=1):
        y = 4 - n
        prefixes = [lead] + ["10"] * (n - 1)
        payload = sum(_draw_utf8_byte(ax, b * BYTE_STEP, y, prefix, b == 0)
                      for b, prefix in enumerate(prefixes))
        ax.text(-0.5, y + 0.4, f"{n} byte{'s' if n > 1 else ''}   {span}", ha="right", va="center")
        ax.text(n * BYTE_STEP, y + 0.4, f"{payload} payload bits", va="center", color="dimgrey")
    ax.set(xlim=(-15, 46), ylim=(-0.2, 4), title="UTF-8: fixed prefix bits and payload bits (x)")
    legend = [Patch(color="tab:orange", label="lead prefix"),
              Patch(color="tab:blue", label="continuation prefix 10"),
              Patch(facecolor="whitesmoke", edgecolor="grey", label="payload x")]
    ax.legend(handles=legend, loc="upper center", bbox_to_anchor=(0.5, 0.02), ncol=3, frameon=False)
    ax.axis("off")
    return _shown_once(fig)


def encoding_sizes(samples, sizes, codecs):
    """Bytes of each sample text in each codec, grouped by text.

    samples: {label: text}; sizes: {label: [bytes in each codec]}; codecs: e.g. ["utf-8", "utf-16-le"].
    >>> fig = encoding_sizes({"English": "hi"}, {"English": [2, 4]}, ["utf-8", "utf-16-le"])
    >>> [int(bar.get_height()) for bar in fig.axes[0].patches]
    [2, 4]
    """
    labelled = {f"{label}\n{len(text)} code pts": sizes[label] for label, text in samples.items()}
    fig, ax = _new_figure(10, 4)
    _grouped_bars(ax, labelled, [codec.upper().replace("-LE", "") for codec in codecs])
    ax.set(ylabel="bytes", title="The same kind of sentence in three encodings")
    ax.legend()
    return _shown_once(fig)


# ---------------------------------------------------------------------------- 03a


def vocabulary_growth(curves):
    """Distinct words against words read, one line per language: a word vocabulary keeps growing.

    curves: {language: [(tokens read, distinct tokens so far), ...]} (words.vocabulary_growth).
    >>> len(vocabulary_growth({"English": [(1, 1), (4, 3)], "Arabic": [(1, 1), (4, 4)]}).axes[0].lines)
    2
    """
    fig, ax = _new_figure(7, 3.8)
    for language, points in curves.items():
        ax.plot([n for n, _ in points], [types for _, types in points], marker=".", label=language)
    ax.set(xlabel="words read", ylabel="distinct words so far (the vocabulary)",
           title="The word vocabulary never stops growing")
    ax.grid(alpha=0.3)
    ax.legend()
    return _shown_once(fig)


def bytes_per_token(table):
    """Bytes per token of several tokenizers on the same texts: bars grouped by text.

    table: {text label: {tokenizer label: bytes per token}}, the same tokenizers for every text.
    >>> len(bytes_per_token({"English": {"words": 5.0, "BPE": 3.0}}).axes[0].patches)
    2
    """
    series = list(next(iter(table.values())))
    fig, ax = _new_figure(7, 3.6)
    _grouped_bars(ax, {text: [row[name] for name in series] for text, row in table.items()}, series)
    ax.set(ylabel="bytes per token (held-out text)", title="Words against subwords on the same text")
    ax.legend()
    return _shown_once(fig)


# ---------------------------------------------------------------------------- 04, 05, 06


def compression_curves(steps, curves):
    """Bytes per token against the number of merges, one line per training text.

    curves: {text label: [bytes per token after each number of merges in `steps`]}.
    >>> len(compression_curves([0, 10], {"English": [1.0, 1.3], "Korean": [1.0, 1.2]}).axes[0].lines)
    2
    """
    fig, ax = _new_figure(7, 3.8)
    for name, curve in curves.items():
        if len(curve) != len(steps):
            raise ValueError(f"the {name!r} curve has {len(curve)} points for {len(steps)} steps")
        ax.plot(steps, curve, marker=".", label=f"{name} text")
    ax.set(xlabel="number of merges", ylabel="bytes per token (on the training text)",
           title="Compression grows with every merge")
    ax.grid(alpha=0.3)
    ax.legend()
    return _shown_once(fig)


def compression_by_language(table, title="Each tokenizer compresses its own language"):
    """Bytes per token of each tokenizer on each sentence, with a dashed line at 1 (no compression).

    table: {(trained on, sentence language): bytes per token}.
    >>> fig = compression_by_language({("English", "English"): 2.0, ("English", "Korean"): 1.0})
    >>> len(fig.axes[0].patches)
    2
    """
    trained_on = list(dict.fromkeys(tok for tok, _ in table))
    languages = list(dict.fromkeys(lang for _, lang in table))
    values = {f"{lang} sentence": [table[tok, lang] for tok in trained_on] for lang in languages}
    fig, ax = _new_figure(7, 3.6)
    _grouped_bars(ax, values, [f"trained on {tok}" for tok in trained_on])
    ax.axhline(1, color="grey", lw=0.8, ls="--")
    ax.set(ylabel="bytes per token", title=title)
    ax.legend()
    return _shown_once(fig)


def token_cuts(text, ids, vocab, names):
    """The text's UTF-8 bytes as boxes coloured by character, its tokens as bars below them, and
    each token boundary as a line: red where it cuts through a character.

    names: a short Latin-script label for each character (the chart's font may lack the script).
    >>> vocab = {i: bytes([i]) for i in range(256)}
    >>> ax = token_cuts("é", [0xC3, 0xA9], vocab, names=["e acute"]).axes[0]
    >>> [line.get_color() for line in ax.lines]
    ['red']
    """
    raw = text.encode("utf-8")
    if b"".join(vocab[idx] for idx in ids) != raw:
        raise ValueError("the ids do not spell the text: give the ids that encode it, and their vocab")
    if len(names) != len(text):
        raise ValueError(f"give one name per character: {len(text)} characters, {len(names)} names")
    char_of = [i for i, ch in enumerate(text) for _ in ch.encode("utf-8")]  # byte -> its character
    fig, ax = _new_figure(0.75 * len(raw) + 1, 3)
    for x, byte in enumerate(raw):
        colour = (LIGHT_BLUE, LIGHT_ORANGE)[char_of[x] % 2]
        ax.add_patch(Rectangle((x, 0), 1, 1, facecolor=colour, edgecolor="grey"))
        ax.text(x + 0.5, 0.5, f"{byte:02X}", ha="center", va="center", family="monospace")
    x = 0
    for ch, name in zip(text, names):
        width = len(ch.encode("utf-8"))
        ax.text(x + width / 2, 1.2, f"U+{ord(ch):04X}\n{name}", ha="center")
        x += width
    x = 0
    for number, idx in enumerate(ids):
        width = len(vocab[idx])
        ax.add_patch(Rectangle((x + 0.05, -0.75), width - 0.1, 0.45,
                               facecolor=("#ddd", "#bbb")[number % 2]))
        ax.text(x + width / 2, -0.53, f"id {idx}", ha="center", va="center")
        if x > 0:
            cut = char_of[x] == char_of[x - 1]
            ax.plot([x, x], [-0.8, 1.05], color="red" if cut else "black", lw=3 if cut else 1)
        x += width
    ax.set(xlim=(-0.1, len(raw) + 0.1), ylim=(-0.9, 1.7))
    ax.axis("off")
    ax.set_title("characters (above), their UTF-8 bytes, tokens (below); "
                 "red: a cut inside a character")
    return _shown_once(fig)


def _token_text(raw):
    """A token's text in quotes, or its bytes in hex when they are not valid UTF-8 on their own."""
    try:
        return repr(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return raw.hex(" ").upper()


def encoding_trace(rows, vocab):
    """One row of token boxes per encoding step; the token each merge just made is orange.

    rows: [(None, the byte ids), (merge id, ids after it), ...]; vocab: {id: bytes}.
    >>> vocab = {**{i: bytes([i]) for i in range(256)}, 256: b"ab"}
    >>> len(encoding_trace([(None, [97, 98]), (256, [256])], vocab).axes[0].patches)
    3
    """
    text = b"".join(vocab[idx] for idx in rows[0][1]).decode("utf-8", errors="replace")
    fig, ax = _new_figure(9, 0.55 * len(rows) + 0.6)
    for y, (idx, ids) in enumerate(rows):
        x = 0
        for token in ids:
            width = len(vocab[token])
            colour = LIGHT_ORANGE if token == idx else LIGHT_BLUE
            ax.add_patch(Rectangle((x, -y), width, 0.8, facecolor=colour, edgecolor="grey"))
            ax.text(x + width / 2, -y + 0.4, _token_text(vocab[token]), ha="center", va="center",
                    family="monospace")
            x += width
        ax.text(-0.3, -y + 0.4, "bytes" if idx is None else f"merge {idx}", ha="right", va="center")
    ax.set(xlim=(-3, x + 0.2), ylim=(-len(rows) + 0.8, 1))
    ax.axis("off")
    ax.set_title(f"encoding {text!r} merge by merge "
                 "(orange: the token just made; hex: not a whole character)")
    return _shown_once(fig)


def encoder_token_counts(counts):
    """Tokens per sentence for the right encoder (lowest rank first) and the wrong one.

    counts: {language: (tokens with the right encoder, tokens with the wrong one)}.
    >>> len(encoder_token_counts({"English": (25, 25), "Spanish": (28, 40)}).axes[0].patches)
    4
    """
    fig, ax = _new_figure(9, 3.5)
    _grouped_bars(ax, counts, ["right (lowest rank first)", "wrong (highest rank first)"])
    ax.set_ylabel("tokens")
    ax.set_title("the same merges, two encoders: tokens per sentence")
    ax.legend()
    return _shown_once(fig)


# ---------------------------------------------------------------------------- 09, 10


def byte_ranks(byte_shuffle):
    """The rank of each byte's one-byte token: GPT-2's printable bytes first, the other 68 after.

    byte_shuffle: a list, byte value -> rank (256 entries).
    >>> len(byte_ranks(list(range(256))).axes[0].collections)  # printable, others
    2
    """
    if sorted(byte_shuffle) != list(range(256)):
        raise ValueError("byte_shuffle must give each of the 256 bytes its own rank from 0 to 255")
    printable = [b for b in range(256) if byte_shuffle[b] < 188]
    others = [b for b in range(256) if byte_shuffle[b] >= 188]
    fig, ax = _new_figure(7, 3.5)
    ax.scatter(printable, [byte_shuffle[b] for b in printable], s=8,
               label="printable bytes: ranks 0-187")
    ax.scatter(others, [byte_shuffle[b] for b in others], s=8, color="tab:red",
               label="the other 68: ranks 188-255")
    ax.set_xlabel("byte value")
    ax.set_ylabel("rank of the one-byte token")
    ax.set_title("The byte shuffle of GPT-2, GPT-4 and GPT-4o")
    ax.legend()
    return _shown_once(fig)


def naive_training_times(sizes_kb, by_size, merge_counts, by_merges, *, merges, size_kb, ylabel="seconds"):
    """Two panels: the naive loop's cost (seconds, or pair lookups: `ylabel`) against text size
    (at `merges` merges) and against the number of merges (on `size_kb` KB).

    >>> fig = naive_training_times([2, 4], [0.1, 0.2], [16, 32], [0.1, 0.2], merges=64, size_kb=8)
    >>> [len(ax.lines) for ax in fig.axes]
    [1, 1]
    """
    fig, (left, right) = _new_figure(10, 3.6, columns=2)
    left.plot(sizes_kb, by_size, "o-")
    left.set(xlabel="text size (KB)", ylabel=ylabel, xlim=(0, None), ylim=(0, None),
             title=f"naive training, {merges} merges")
    right.plot(merge_counts, by_merges, "o-", color="tab:orange")
    right.set(xlabel="number of merges", ylabel=ylabel, xlim=(0, None), ylim=(0, None),
              title=f"naive training, {size_kb} KB")
    fig.suptitle(f"The naive loop's {ylabel} grow with the text and with the merges")
    fig.tight_layout()
    return _shown_once(fig)


def incremental_race(merge_counts, lookups, seconds):
    """Two panels against the number of merges: pair lookups (left) and seconds (right), one
    line per trainer.

    lookups, seconds: {trainer name: [one number per merge count]}.
    >>> fig = incremental_race([8, 16], {"naive": [10, 20]}, {"naive": [0.1, 0.2], "fast": [0.1, 0.1]})
    >>> [len(ax.lines) for ax in fig.axes]
    [1, 2]
    """
    for table in (lookups, seconds):
        for name, values in table.items():
            if len(values) != len(merge_counts):
                raise ValueError(f"{name!r} has {len(values)} numbers for {len(merge_counts)} merge counts")
    fig, (left, right) = _new_figure(10, 3.8, columns=2)
    for ax, table, ylabel in [(left, lookups, "pair lookups"), (right, seconds, "seconds")]:
        for name, values in table.items():
            ax.plot(merge_counts, values, "o-", label=name)
        ax.set(xlabel="number of merges", ylabel=ylabel, xlim=(0, None), ylim=(0, None))
        ax.legend()
    left.set_title("work: counted, the same on any machine")
    right.set_title("time: measured now, on this machine")
    fig.tight_layout()
    return _shown_once(fig)


def training_race(naive_kb, big_kb, race, *, merges):
    """Training time against corpus size on log-log axes: the naive loop (measured on small sizes,
    then extended as a straight line, linear in size), the fast trainer and Hugging Face's.

    race: {"naive": [seconds at each size of naive_kb], "fast": [...], "HF": [...] at big_kb}.
    >>> race = {"naive": [0.1, 0.2], "fast": [0.01, 0.02], "HF": [0.01, 0.03]}
    >>> len(training_race([2, 4], [16, 64], race, merges=256).axes[0].lines)
    4
    """
    for name, sizes in [("naive", naive_kb), ("fast", big_kb), ("HF", big_kb)]:
        if len(race[name]) != len(sizes):
            raise ValueError(f"race[{name!r}] has {len(race[name])} times for {len(sizes)} sizes")
    fig, ax = _new_figure(8, 5)
    ax.loglog(naive_kb, race["naive"], "o-", color="tab:red", label="naive loop (measured)")
    per_kb = race["naive"][-1] / naive_kb[-1]  # linear in size: seconds per KB at the largest size
    ax.loglog([naive_kb[-1], big_kb[-1]], [per_kb * naive_kb[-1], per_kb * big_kb[-1]], "--",
              color="tab:red", label="naive loop (extrapolated, linear in size)")
    ax.loglog(big_kb, race["fast"], "o-", color="tab:blue",
              label="bpe_ref fast trainer (pure Python)")
    ax.loglog(big_kb, race["HF"], "s-", color="tab:green", label="Hugging Face BpeTrainer (Rust)")
    ax.set(xlabel="corpus size (KB, log scale)", ylabel="training time (s, log scale)",
           title=f"Training {merges} merges with the GPT-4 split")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    return _shown_once(fig)


# ---------------------------------------------------------------------------- 11


def tokens_per_byte_by_language(rates):
    """Tokens per UTF-8 byte of the same messages in each language, one bar per tokenizer, with a
    dashed line at 1 (a token for every byte: no compression at all).

    rates: {tokenizer label: {language: tokens per byte}}, the same languages for every tokenizer.
    >>> fig = tokens_per_byte_by_language({"gpt2": {"English": 0.25, "Tamil": 0.99}})
    >>> len(fig.axes[0].patches)
    2
    """
    series = list(rates)
    languages = list(next(iter(rates.values())))
    fig, ax = _new_figure(12, 4)
    _grouped_bars(ax, {lang: [rates[name][lang] for name in series] for lang in languages}, series)
    ax.axhline(1, color="grey", lw=0.8, ls="--")
    ax.tick_params(axis="x", labelrotation=45)
    ax.set(ylabel="tokens per byte", title="The same 200 messages: tokens per byte, by language")
    ax.legend()
    fig.tight_layout()
    return _shown_once(fig)


def grouped_token_counts(values, series, title):
    """Token counts as bars grouped by tokenizer (or by text), one bar per series in each group.

    values: {group label: [one count per series]}.
    >>> len(grouped_token_counts({"gpt2": [10, 4]}, ["all", "spaces"], "code").axes[0].patches)
    2
    """
    fig, ax = _new_figure(8, 3.6)
    _grouped_bars(ax, values, series)
    for bars in ax.containers:
        ax.bar_label(bars, fontsize=8)
    ax.margins(y=0.2)  # room for the legend above the labelled bars
    ax.set(ylabel="tokens", title=title)
    ax.legend(loc="upper center", ncols=len(series))
    return _shown_once(fig)


def _occurrences(ids, pair):
    """The positions where `merge` finds `pair` (left to right, without overlaps)."""
    starts, i = [], 0
    while i < len(ids) - 1:
        if (ids[i], ids[i + 1]) == pair:
            starts.append(i)
            i += 2
        else:
            i += 1
    return starts


def _id_text(idx):
    """A short label for an id: a printable ASCII byte as itself, another byte in hex, else the id."""
    if 0x20 < idx < 0x7F:
        return chr(idx)
    return f"{idx:02X}" if idx < 256 else str(idx)


def _draw_row(ax, y, labels, colours):
    """One row of boxes with a label each; returns the x centre of each box."""
    xs = []
    for i, (label, colour) in enumerate(zip(labels, colours)):
        ax.add_patch(Rectangle((i * 1.6, y), 1.25, 0.8, facecolor=colour, edgecolor="black"))
        ax.text(i * 1.6 + 0.625, y + 0.4, label, ha="center", va="center", fontsize=12)
        xs.append(i * 1.6 + 0.625)
    return xs


def _draw_pairs(ax, xs, y, marks):
    """Under each pair of neighbouring boxes, a bracket with its text and colour."""
    for (x0, x1), (text, colour) in zip(zip(xs, xs[1:]), marks):
        ax.plot([x0, x0, x1, x1], [y, y - 0.25, y - 0.25, y], color=colour, lw=2)
        ax.text((x0 + x1) / 2, y - 0.55, text, ha="center", color=colour, fontsize=10)


def merge_neighbours(ids, pair, idx, names=None):
    """Before and after merging `pair` into `idx`: which neighbour-pair counts lose one (red),
    gain one (green) or stay the same (grey).

    names: optional box labels by id, e.g. {256: "256 (ñ)"}.
    >>> ax = merge_neighbours([115, 101, 0xC3, 0xB1, 111], (0xC3, 0xB1), 256).axes[0]
    >>> sorted(t.get_text() for t in ax.texts if t.get_text().endswith(("+1", "−1")))
    ['(256, o) +1', '(B1, o) −1', '(e, 256) +1', '(e, C3) −1']
    """
    starts = _occurrences(ids, pair)
    if not starts:
        raise ValueError(f"the pair {pair} does not occur in ids: there is no merge to draw")
    joined = set(starts) | {i + 1 for i in starts}
    after = merge(ids, pair, idx)
    names = names or {}
    grey, red, green, gold = "0.6", "tab:red", "tab:green", "gold"
    before_marks = []
    for i, (a, b) in enumerate(zip(ids, ids[1:])):
        if i in starts:
            before_marks.append(("merged", "darkgoldenrod"))
        elif i in joined or i + 1 in joined:
            before_marks.append((f"({_id_text(a)}, {_id_text(b)}) −1", red))
        else:
            before_marks.append(("same", grey))
    after_marks = [(f"({_id_text(a)}, {_id_text(b)}) +1", green) if idx in (a, b) else ("same", grey)
                   for a, b in zip(after, after[1:])]
    fig, ax = _new_figure(1.5 * len(ids), 4)
    xs = _draw_row(ax, 3, [names.get(i, _id_text(i)) for i in ids],
                   [gold if i in joined else "white" for i in range(len(ids))])
    _draw_pairs(ax, xs, 3, before_marks)
    xs = _draw_row(ax, 0.8, [names.get(i, _id_text(i)) for i in after],
                   [gold if i == idx else "white" for i in after])
    _draw_pairs(ax, xs, 0.8, after_marks)
    ax.text(-0.3, 3.4, "before", ha="right", va="center")
    ax.text(-0.3, 1.2, "after", ha="right", va="center")
    changed = sum(colour in (red, green) for _, colour in before_marks + after_marks)
    ax.set(xlim=(-1.5, 1.6 * len(ids)), ylim=(-0.3, 4.1),
           title=f"Merging ({_id_text(pair[0])}, {_id_text(pair[1])}) → {idx}{_spelled(ids)}: "
                 f"{changed} neighbour counts change")
    ax.axis("off")
    return _shown_once(fig)


def _spelled(ids):
    """' in 'señor'' when the ids are bytes that spell a text, else ''."""
    if any(idx > 255 for idx in ids):
        return ""
    try:
        return f" in {bytes(ids).decode('utf-8')!r}"
    except UnicodeDecodeError:
        return ""


# ---------------------------------------------------------------------------- the benchmark (python -m bpe_ref.bench)

SCALE_STYLES = {"fast2": ("o-", "tab:blue"), "fast1": ("s--", "tab:cyan"), "hf": ("^-", "tab:orange")}


def training_scale_chart(series, sizes, caption, title, path):
    """Log-log chart of training time and peak memory against corpus size, saved as a PNG
    (python -m bpe_ref.bench --scale). `series`: who ('fast2', 'fast1' or 'hf') -> (label,
    [(MB, seconds, peak MB), ...]); `sizes`: the corpus sizes on the x axis, in MB."""
    import matplotlib.ticker
    from matplotlib.figure import Figure  # no pyplot: the caller's backend stays as it is

    fig = Figure(figsize=(10, 4))
    left, right = fig.subplots(1, 2)
    for who, (label, points) in series.items():
        marker, color = SCALE_STYLES[who]
        mbs = [mb for mb, _, _ in points]
        left.loglog(mbs, [seconds for _, seconds, _ in points], marker, color=color, label=label)
        right.loglog(mbs, [peak for _, _, peak in points], marker, color=color, label=label)
    for ax, what in ((left, "training time (s, wall clock)"), (right, "peak memory rise (MB)")):
        ax.set_xlabel("corpus size (MB)")
        ax.set_ylabel(what)
        ax.set_xticks(sizes, [f"{mb:g}" for mb in sizes])
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        ax.yaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda y, _: f"{y:g}"))
        ax.grid(True, which="major", alpha=0.3)
    right.set_title(caption, fontsize=9)
    left.legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return path
