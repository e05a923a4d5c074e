"""bpe-practice: the weekly drill. A blank dated workbook, grading with a clock, and a history.

    bpe-practice new --level naive      write practice/2026-11-22-naive.ipynb
    bpe-practice grade                  grade the newest drill, record the attempt
    bpe-practice history --plot h.png   best times, streak, last five attempts, a chart

Modules: levels (what each drill asks), workbook (writing and finding drills), grading (grade,
time, record; `check_drill` for the drill's last cell), history (the append-only JSON Lines
file and its summaries), plot (the chart), sample (a made-up history for the docs and tests:
`python -m bpe_ref.practice.sample docs/img/practice_history.png` redraws docs/drill.md's picture), cli.
"""

from .cli import main
from .grading import check_drill, grade_drill
from .history import read_history
from .workbook import new_drill

__all__ = ["main", "check_drill", "grade_drill", "new_drill", "read_history"]
