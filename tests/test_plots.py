"""The workbooks' charts: each draws what its data says (bars, lines, boxes, labels), and bad
data gets a clear error instead of a wrong picture."""

import doctest

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from bpe_ref import plots  # noqa: E402
from bpe_ref.naive import build_vocab, train  # noqa: E402


def bar_heights(ax):
    return [round(float(bar.get_height()), 6) for bar in ax.patches]


def texts(ax):
    return [t.get_text() for t in ax.texts]


def test_the_docstring_examples_hold():
    result = doctest.testmod(plots)
    assert result.attempted >= 15 and result.failed == 0


def test_a_returned_figure_is_closed_in_pyplot_so_jupyter_shows_it_once():
    before = set(plt.get_fignums())
    fig = plots.byte_table()
    assert isinstance(fig, matplotlib.figure.Figure) and set(plt.get_fignums()) == before


def test_grouped_bars_one_bar_per_number_in_series_order():
    counts = {"English": (26, 26, 7), "Korean": (17, 41, 17), "emoji": (7, 25, 15)}
    ax = plots.characters_bytes_tokens(counts).axes[0]
    assert bar_heights(ax) == [26, 17, 7, 26, 41, 25, 7, 17, 15]  # code points, bytes, tokens
    assert [t.get_text() for t in ax.get_xticklabels()] == ["English", "Korean", "emoji"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "code points", "UTF-8 bytes", "GPT-4 tokens"]
    assert "3 ways" in ax.get_title()
    with pytest.raises(ValueError, match="one per series"):
        plots.characters_bytes_tokens({"English": (1, 2)})


def test_byte_table_labels_every_byte_and_colours_three_kinds():
    ax = plots.byte_table().axes[0]
    labels = texts(ax)
    assert len(labels) == 256 and labels[0x41] == "41\nA" and labels[0x20] == "20\nsp"
    assert labels[0x0A] == "0a" and labels[0xE9] == "e9"
    kinds = ax.images[0].get_array()
    assert (kinds[0][10], kinds[4][1], kinds[7][15], kinds[14][9]) == (0, 1, 0, 2)  # \n, A, DEL, e9


def test_graphemes_against_code_points():
    seen, points = {"café": 4, "family": 1}, {"café": 5, "family": 5}
    ax = plots.graphemes_vs_code_points(seen, points).axes[0]
    assert [bar.get_width() for bar in ax.patches] == [4, 1, 5, 5]
    with pytest.raises(ValueError, match="same labels"):
        plots.graphemes_vs_code_points(seen, {"family": 5, "café": 5})


def test_unicode_groups_keeps_the_largest_in_order():
    groups = {"LATIN": 1208, "CJK": 94018, "(no name)": 65, "GREEK": 518}
    ax = plots.unicode_groups(groups, "14.0.0", top=3).axes[0]
    assert [bar.get_width() for bar in ax.patches] == [94018, 1208, 518]
    assert texts(ax) == [" 94,018", " 1,208", " 518"]
    assert ax.get_title().startswith("Unicode 14.0.0: the 3 largest")


def test_utf8_layout_has_the_prefix_bits_of_every_form():
    ax = plots.utf8_layout().axes[0]
    assert len(ax.patches) == 8 * (1 + 2 + 3 + 4)
    bits = [t for t in texts(ax) if len(t) == 1]
    assert bits.count("x") == 7 + 11 + 16 + 21  # the payload bits of the four forms
    assert [t for t in texts(ax) if "payload" in t] == [
        "7 payload bits", "11 payload bits", "16 payload bits", "21 payload bits"]


def test_encoding_sizes_label_each_text_with_its_code_points():
    samples = {"English": "hi", "Korean": "한"}
    sizes = {label: [len(t.encode(c)) for c in ("utf-8", "utf-16-le")] for label, t in samples.items()}
    ax = plots.encoding_sizes(samples, sizes, ["utf-8", "utf-16-le"]).axes[0]
    assert bar_heights(ax) == [2, 3, 4, 2]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["English\n2 code pts", "Korean\n1 code pts"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["UTF-8", "UTF-16"]


def test_compression_curves_one_line_per_text():
    ax = plots.compression_curves([0, 10, 20], {"English": [1, 1.3, 1.4], "Korean": [1, 1.2, 1.5]}).axes[0]
    assert [list(line.get_ydata()) for line in ax.lines] == [[1, 1.3, 1.4], [1, 1.2, 1.5]]
    with pytest.raises(ValueError, match="3 steps"):
        plots.compression_curves([0, 10, 20], {"English": [1, 2]})


def test_compression_by_language_groups_by_sentence():
    table = {("English", "English"): 2.0, ("English", "Korean"): 1.0,
             ("Korean", "English"): 1.01, ("Korean", "Korean"): 2.2}
    ax = plots.compression_by_language(table, title="t").axes[0]
    assert bar_heights(ax) == [2.0, 1.0, 1.01, 2.2]  # trained on English, then on Korean
    assert [t.get_text() for t in ax.get_xticklabels()] == ["English sentence", "Korean sentence"]
    assert [list(line.get_ydata()) for line in ax.lines] == [[1, 1]]  # the no-compression line


def test_token_cuts_are_red_only_inside_a_character():
    merges = train("안녕 안녕 😀😀", 256 + 3)
    vocab = build_vocab(merges)
    text, ids = "안녕", [0xEC, 0x95, 0x88, 0xEB, 0x85, 0x95]  # bytes: a cut after every byte
    ax = plots.token_cuts(text, ids, vocab, names=["an", "nyeong"]).axes[0]
    colours = [line.get_color() for line in ax.lines]
    assert colours == ["red", "red", "black", "red", "red"]
    assert len(ax.patches) == 6 + 6 and "id 236" in texts(ax)
    with pytest.raises(ValueError, match="do not spell"):
        plots.token_cuts("안", [0xEC], vocab, names=["an"])
    with pytest.raises(ValueError, match="one name per character"):
        plots.token_cuts(text, ids, vocab, names=["an"])


def test_encoding_trace_draws_each_step_and_marks_the_new_token():
    vocab = {**{i: bytes([i]) for i in range(256)}, 256: b"\xc3\xa9", 257: b"r\xc3\xa9"}
    rows = [(None, [114, 0xC3, 0xA9]), (256, [114, 256]), (257, [257])]
    ax = plots.encoding_trace(rows, vocab).axes[0]
    assert len(ax.patches) == 3 + 2 + 1
    orange = [p for p in ax.patches if p.get_facecolor()[:3] == matplotlib.colors.to_rgb(plots.LIGHT_ORANGE)]
    assert len(orange) == 2  # the token made by merge 256, then by merge 257
    assert {"'r'", "C3", "A9", "'é'", "'ré'", "merge 257", "bytes"} <= set(texts(ax))
    assert "'ré'" in ax.get_title()


def test_encoder_token_counts_right_then_wrong():
    ax = plots.encoder_token_counts({"Spanish": (28, 40), "Korean": (23, 23)}).axes[0]
    assert bar_heights(ax) == [28, 23, 40, 23]


def test_byte_ranks_split_at_188():
    shuffle = list(range(256))
    ax = plots.byte_ranks(shuffle).axes[0]
    printable, others = ax.collections
    assert len(printable.get_offsets()) == 188 and len(others.get_offsets()) == 68
    with pytest.raises(ValueError, match="its own rank"):
        plots.byte_ranks([0] * 256)


def test_naive_training_times_two_panels():
    fig = plots.naive_training_times([2, 4, 8], [0.1, 0.2, 0.4], [16, 32], [0.1, 0.2], merges=64, size_kb=8)
    left, right = fig.axes
    assert list(left.lines[0].get_ydata()) == [0.1, 0.2, 0.4] and list(right.lines[0].get_xdata()) == [16, 32]
    assert left.get_title() == "naive training, 64 merges" and right.get_title() == "naive training, 8 KB"


def test_naive_training_times_claims_only_growth():
    fig = plots.naive_training_times([2, 4], [10, 20], [16, 32], [10, 20], merges=64, size_kb=8, ylabel="pair lookups")
    assert fig.axes[0].get_ylabel() == "pair lookups" and "straight" not in fig._suptitle.get_text()


def test_incremental_race_two_panels():
    fig = plots.incremental_race([8, 16], {"naive": [10, 20], "yours": [5, 6]},
                                 {"naive": [0.1, 0.2], "yours": [0.1, 0.1], "fast": [0.0, 0.0]})
    work, time_ = fig.axes
    assert [len(work.lines), len(time_.lines)] == [2, 3] and list(work.lines[1].get_ydata()) == [5, 6]
    with pytest.raises(ValueError, match="1 numbers for 2 merge counts"):
        plots.incremental_race([8, 16], {"naive": [10]}, {})


def test_merge_neighbours_marks_what_changes():
    ids = list("señor".encode("utf-8"))
    ax = plots.merge_neighbours(ids, (0xC3, 0xB1), 256, names={256: "256 (ñ)"}).axes[0]
    labels = texts(ax)
    assert labels.count("same") == 4 and labels.count("merged") == 1
    assert {"(e, C3) −1", "(B1, o) −1", "(e, 256) +1", "(256, o) +1", "256 (ñ)"} <= set(labels)
    assert len(ax.patches) == 6 + 5 and "'señor': 4 neighbour counts" in ax.get_title()
    # touching occurrences: the pair between them loses one, and (X, X) appears
    ax = plots.merge_neighbours(list(b"jaja"), (106, 97), 256).axes[0]
    assert {"(a, j) −1", "(256, 256) +1"} <= set(texts(ax))
    with pytest.raises(ValueError, match="does not occur"):
        plots.merge_neighbours([1, 2], (2, 1), 256)


def test_training_race_extends_the_naive_line():
    race = {"naive": [0.1, 0.2, 0.4], "fast": [0.01, 0.03], "HF": [0.02, 0.03]}
    ax = plots.training_race([2, 4, 8], [16, 1000], race, merges=256).axes[0]
    measured, extended, fast, hf = ax.lines
    assert list(extended.get_xdata()) == [8, 1000] and list(extended.get_ydata()) == [0.4, 0.4 / 8 * 1000]
    assert extended.get_linestyle() == "--" and list(hf.get_ydata()) == [0.02, 0.03]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    with pytest.raises(ValueError, match="2 times for 3 sizes"):
        plots.training_race([2, 4, 8], [16], {"naive": [1, 2], "fast": [1], "HF": [1]}, merges=256)


def test_tokens_per_byte_by_language_groups_by_language():
    fig = plots.tokens_per_byte_by_language({"gpt2": {"English": 0.25, "Tamil": 0.99},
                                             "o200k_base": {"English": 0.22, "Tamil": 0.14}})
    ax = fig.axes[0]
    assert len(ax.patches) == 4 and [t.get_text() for t in ax.get_xticklabels()] == ["English", "Tamil"]


def test_grouped_token_counts_labels_its_bars():
    ax = plots.grouped_token_counts({"gpt2": [10, 4], "cl100k_base": [6, 1]}, ["all", "spaces"], "code").axes[0]
    assert len(ax.patches) == 4 and "10" in [t.get_text() for t in ax.texts]
