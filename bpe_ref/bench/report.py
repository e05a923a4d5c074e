"""The printed tables' shared pieces: ratios, aligned rows, a training row."""


def shared_tokens(ours, theirs):
    """The share of our merged tokens that the other trainer learned too (None if a row failed)."""
    if "error" in ours or "error" in theirs:
        return None
    return len(set(ours["tokens"]) & set(theirs["tokens"])) / max(1, len(ours["tokens"]))


def time_ratios(a, b, scale=1.0):
    """a's time over b's, by wall clock and by CPU; None where a row failed."""
    if "error" in a or "error" in b:
        return None
    return {"wall": a["seconds"] * scale / b["seconds"], "cpu": a["cpu_seconds"] * scale / b["cpu_seconds"]}


def fmt_row(cols, widths):
    """Left-align the first and last columns, right-align the figures between."""
    return "  ".join(str(c).ljust(w) if i in (0, len(cols) - 1) else str(c).rjust(w)
                     for i, (c, w) in enumerate(zip(cols, widths)))


def pair_text(ratio, spec):
    """{'wall': 2.0, 'cpu': 2.5} -> '2.00x (2.50x)'"""
    return f"{ratio['wall']:{spec}}x ({ratio['cpu']:{spec}}x)"


def train_line(label, row, note=""):
    if "error" in row:
        return [label, f"{row['mb']:g}", row["vocab"], "-", "-", "-", "error: " + row["error"]]
    return [label, f"{row['mb']:g}", row["vocab"], f"{row['seconds']:.2f}", f"{row['cpu_seconds']:.2f}",
            f"{row['peak_mb']:.1f}", note]


def without_tokens(row):
    return {k: v for k, v in row.items() if k != "tokens"}
