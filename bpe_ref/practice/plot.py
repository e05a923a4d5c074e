"""The history picture: minutes to all green, per ISO week and level (matplotlib, Agg, no pyplot).

Using a bare Figure with the Agg canvas keeps the chart off-screen and leaves the backend of a
notebook that imports this module alone. The PNG carries no version stamp, so the same history
gives the same bytes with the same matplotlib.
"""

from datetime import date, timedelta

from .history import LEVEL_ORDER, first_greens, iso_week

COLOURS = {"words": "#e7298a", "naive": "#1b9e77", "regex": "#d95f02", "full": "#7570b3"}
MARKERS = {"words": "v", "naive": "o", "regex": "s", "full": "D"}


def weekly_best(records):
    """{level: {monday of the ISO week: fewest minutes to all green that week}}."""
    series = {}
    for record in first_greens(records).values():
        if record.get("minutes") is None:
            continue
        year, week = iso_week(record["date"])
        monday = date.fromisocalendar(year, week, 1)
        per_week = series.setdefault(record["level"], {})
        per_week[monday] = min(per_week.get(monday, record["minutes"]), record["minutes"])
    return series


def with_gaps(per_week):
    """(mondays, minutes) in week order, with a NaN after each missed week so the line breaks there."""
    mondays, minutes = [], []
    for monday in sorted(per_week):
        if mondays and monday - mondays[-1] > timedelta(days=7):
            mondays.append(mondays[-1] + timedelta(days=7))
            minutes.append(float("nan"))
        mondays.append(monday)
        minutes.append(per_week[monday])
    return mondays, minutes


def plot_history(records, out_path):
    """Write the chart of `records` to `out_path` (a PNG); returns the path."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    series = weekly_best(records)
    figure = Figure(figsize=(8, 4.2), dpi=120)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    levels = [lv for lv in LEVEL_ORDER if lv in series] + sorted(set(series) - set(LEVEL_ORDER))
    for level in levels:
        weeks, minutes = with_gaps(series[level])
        axes.plot(weeks, minutes, marker=MARKERS.get(level, "^"),
                  color=COLOURS.get(level), linewidth=2, markersize=6, label=level)
    style_axes(axes, sorted({w for s in series.values() for w in s}))
    if levels:
        axes.legend(title="level", frameon=False, loc="best")
    else:
        axes.text(0.5, 0.5, "no all-green drill yet", ha="center", va="center", transform=axes.transAxes)
    figure.tight_layout()
    figure.savefig(out_path, format="png", metadata={"Software": None})
    return out_path


def style_axes(axes, mondays):
    """Titles, a y axis from zero, and one x tick per ISO week ('W47'), thinned when crowded."""
    axes.set_title("Weekly drill: minutes to all green (best drill of each ISO week)")
    axes.set_ylabel("minutes")
    axes.set_ylim(bottom=0)
    axes.grid(axis="y", alpha=0.3)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    if not mondays:
        axes.set_xticks([])
        return
    span = range(mondays[0].toordinal(), mondays[-1].toordinal() + 1, 7)
    ticks = [date.fromordinal(day) for day in span]
    step = max(1, len(ticks) // 16 + 1) if len(ticks) > 16 else 1
    ticks = ticks[::step]
    axes.set_xticks(ticks, [f"W{d.isocalendar()[1]:02d}" for d in ticks])
    years = sorted({d.isocalendar()[0] for d in mondays})
    axes.set_xlabel("ISO week of " + (str(years[0]) if len(years) == 1 else f"{years[0]}-{years[-1]}"))
    axes.set_xlim(mondays[0] - timedelta(days=4), mondays[-1] + timedelta(days=4))
