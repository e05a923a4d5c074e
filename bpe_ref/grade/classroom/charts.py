"""The class page's two charts, drawn with matplotlib's object API (no pyplot, no global state).

    fig = pass_rate_figure({"merge": 0.9, "train": 0.4})   # one bar per exercise
    png = png_bytes(fig)                                   # the PNG file's bytes
"""

import io

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .overview import BINS

DPI = 100
PASS_COLOUR, SCORE_COLOUR = "#2e7d32", "#1565c0"


def pass_rate_figure(rates):
    """A bar per exercise: the percentage of the class that passes it.

    >>> len(pass_rate_figure({"merge": 0.9, "train": 0.4}).axes[0].patches)
    2
    """
    names = list(rates)
    fig = Figure(figsize=(max(4.0, 0.6 * len(names) + 1.5), 3.6), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    bars = ax.bar(range(len(names)), [100 * rates[name] for name in names], color=PASS_COLOUR)
    ax.bar_label(bars, fmt="%.0f%%", fontsize=8)
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_ylim(0, 110)
    ax.set_ylabel("students who pass (%)")
    ax.set_title("Pass rate per exercise")
    return fig


def score_figure(bands):
    """A bar per band of 10 %: how many students scored in it (bands from overview.score_bands)."""
    if len(bands) != BINS:
        raise ValueError(f"score_figure wants {BINS} bands (overview.score_bands), got {len(bands)}")
    fig = Figure(figsize=(6.0, 3.2), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    width = 100 / BINS
    ax.bar([width * i for i in range(BINS)], bands, width=width * 0.9, align="edge", color=SCORE_COLOUR)
    ax.set_xlim(0, 100)
    ax.set_xlabel("score (% of the maximum)")
    ax.set_ylabel("students")
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_title("Score distribution")
    return fig


def png_bytes(fig):
    """The figure as a PNG file's bytes."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()
