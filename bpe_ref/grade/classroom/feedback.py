"""Feedback to hand back: one self-contained HTML page per student, and the class page.

    write_feedback(book, "feedback/")   # feedback/students/<name>.html, index.html, two PNG charts

Pages are plain HTML with inline CSS, readable offline. Every piece of text that comes from a
submission (names, code, messages, values) is escaped, and each page's Content-Security-Policy
allows no script but the class page's own one (SORTER, allowed by its SHA-256 hash, which sorts
and filters its tables and reaches nothing outside the page), so nothing a student wrote can
become markup or run. The code shown is read from the file as text; it is never run to show it.
"""

import base64
import datetime
import hashlib
import html
import re
import statistics
from pathlib import Path

from . import overview
from .results import atomic_text
from .charts import pass_rate_figure, png_bytes, score_figure
from ..judge.exercises import REGISTRY
from .points import show_points
from ..reading.source import UnreadableSubmission, function_source, read_submission

ICONS = {"pass": "✅", "fail": "❌", "error": "💥", "timeout": "⏰", "missing": "⏳", "reference": "🚫"}
VERDICTS = {"pass": "passes", "fail": "a wrong answer", "error": "raises or crashes", "timeout": "too slow",
            "missing": "not written", "reference": "uses the reference"}
POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
# The class page's one script: click a header to sort its table, type in a filter box to show only
# the rows holding that text. No network, no eval, nothing outside the page.
SORTER = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  var body = table.tBodies[0];
  table.querySelectorAll("thead th").forEach(function (th, column) {
    th.tabIndex = 0;
    th.addEventListener("click", function () {
      var up = th.getAttribute("aria-sort") !== "ascending";
      table.querySelectorAll("thead th").forEach(function (other) { other.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[column].getAttribute("data-sort") || a.cells[column].textContent;
        var y = b.cells[column].getAttribute("data-sort") || b.cells[column].textContent;
        var nx = parseFloat(x), ny = parseFloat(y);
        var order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
        return up ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
document.querySelectorAll("input.filter").forEach(function (box) {
  var table = document.getElementById(box.getAttribute("data-table"));
  box.addEventListener("input", function () {
    var wanted = box.value.toLowerCase();
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      row.hidden = wanted !== "" && row.textContent.toLowerCase().indexOf(wanted) < 0;
    });
  });
});
"""
SCRIPT_POLICY = (f"{POLICY}; script-src 'sha256-"
                 f"{base64.b64encode(hashlib.sha256(SORTER.encode('utf-8')).digest()).decode('ascii')}'")
STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: 0.5rem 0; } td, th { border: 1px solid #ccc; padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; } .num { text-align: right; }
table.sortable thead th { cursor: pointer; } th[aria-sort=ascending]::after { content: " \\25B2"; }
th[aria-sort=descending]::after { content: " \\25BC"; } .flag { color: #c62828; font-weight: 600; }
.exercise { border: 1px solid #ccc; border-left: 6px solid #999; border-radius: 4px; margin: 1rem 0; padding: 0.4rem 1rem; }
.pass { border-left-color: #2e7d32; } .fail, .error { border-left-color: #c62828; }
.timeout, .reference { border-left-color: #ef6c00; } .missing { border-left-color: #9e9e9e; }
.exercise h3 { margin: 0.3rem 0; font-size: 1.05rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0.5rem 0; }
dt { font-weight: 600; } dd { margin: 0; }
pre, code { font: 13px/1.35 ui-monospace, monospace; } pre { background: #f6f6f6; padding: 0.6rem; overflow-x: auto; white-space: pre-wrap; }
.muted { color: #666; } img { max-width: 100%; }
"""


def esc(value):
    """Any value as text that is safe inside HTML (elements and quoted attributes alike)."""
    return html.escape(str(value), quote=True)


def page(title, body, script=False):
    """A whole HTML document around already-escaped `body`; with `script`, SORTER at its end,
    which the page's policy allows by its hash (and nothing else)."""
    policy = SCRIPT_POLICY if script else POLICY
    body += f"\n<script>{SORTER}</script>" if script else ""
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\n"
            f'<p class="muted">Made by bpe-grade on {datetime.date.today().isoformat()}.</p>\n</body>\n</html>\n')


def page_names(rows):
    """{row name: a file name for its page}, from the name, made unique (alice.html, alice-2.html)."""
    taken, out = set(), {}
    for row in rows:
        base = Path(row.name).stem if not row.is_student else row.name
        slug = re.sub(r"[^A-Za-z0-9._-]+", "_", base).strip("._-") or "student"
        name, n = slug, 1
        while name.lower() in taken:
            n += 1
            name = f"{slug}-{n}"
        taken.add(name.lower())
        out[row.name] = f"{name}.html"
    return out


# ---------------------------------------------------------------------------- a student's page


def student_page(book, row):
    """The HTML page for one row: score, then every exercise's verdict, failing input, hint and code."""
    sources = SourceReader()
    passed = sum(row.exercises[name]["status"] == "pass" for name in book.columns)
    who = "Student" if row.is_student else "File"
    student = book.display_name(row)
    final = book.final_score(row)
    score = (f"Score: {esc(show_points(final))} / {esc(show_points(book.maximum))} points</strong>"
             + (f" ({esc(show_points(book.score(row)))} before the late penalty)" if final != book.score(row) else ""))
    parts = [f"<h1>Feedback: {esc(student)}</h1>",
             f"<p><strong>{score} &middot; {passed} of {len(book.columns)} exercises pass.</p>",
             f"<p class=\"muted\">{who}. Files graded: {', '.join(f'<code>{esc(f)}</code>' for f in row.files)}</p>"]
    parts += [f"<p>{esc(fact)}</p>" for fact in book.facts(row)]  # roster and lateness, when given
    parts += [f'<p class="flag">{esc(line)}</p>' for line in row.duplicates]
    for name in book.columns:
        parts.append(exercise_section(book, row, name, sources))
    if row.notes:
        parts.append("<h2>Notes</h2>\n<ul>" + "".join(f"<li>{esc(note)}</li>" for note in row.notes) + "</ul>")
    return page(f"Feedback: {student}", "\n".join(parts))


def exercise_section(book, row, name, sources):
    verdict = row.exercises[name]
    status = verdict["status"]
    points = f"{show_points(book.points(row, name))} / {show_points(book.table[name])} points"
    lines = [f'<section class="exercise {esc(status)}">',
             f"<h3>{ICONS.get(status, '')} <code>{esc(name)}</code>: {esc(VERDICTS.get(status, status))}"
             f"{' (overridden by the instructor)' if verdict.get('override') else ''}"
             f' <span class="muted">({esc(points)})</span></h3>',
             f"<p>{esc(verdict.get('message', ''))}</p>"]
    if status != "pass":
        lines.append(detail_list(verdict))
    code = sources.code(verdict.get("file"), name) if name in REGISTRY else None  # a function, not merges/vocab
    if code:
        lines.append(f"<details><summary>The code that was graded ({esc(Path(verdict['file']).name)})</summary>"
                     f"<pre>{esc(code)}</pre></details>")
    lines.append("</section>")
    return "\n".join(lines)


DETAILS = (("graded as", "exercise"), ("smallest failing input", "call"), ("expected", "expected"), ("got", "got"),
           ("why", "note"), ("hint", "hint"), ("also", "also"), ("note", "refused"))
PROSE = {"exercise", "note", "hint", "also", "refused"}  # shown as text; the other details are Python values


def detail_list(verdict):
    """The failing call, expected, got, why and hint of a verdict, as far as it has them."""
    items = []
    for label, key in DETAILS:
        value = verdict.get(key)
        if value:
            shown = esc(value) if key in PROSE else f"<code>{esc(value)}</code>"
            items.append(f"<dt>{esc(label)}</dt><dd>{shown}</dd>")
    return f"<dl>{''.join(items)}</dl>" if items else ""


class SourceReader:
    """The source of an exercise in a submission, read as text (never run), each file read once."""

    def __init__(self):
        self.cells = {}

    def code(self, path, name):
        if not path:
            return None
        if path not in self.cells:
            try:
                self.cells[path] = read_submission(path)[0]
            except UnreadableSubmission:
                self.cells[path] = []
        return function_source(self.cells[path], name)


# ---------------------------------------------------------------------------- the class page


def class_page(book, links, charts, sections=()):
    """The instructor's page: score distribution, pass rate per exercise, commonest failures, students;
    `sections` (HTML, e.g. the similarity report) go before the list of students."""
    scores = overview.percentages(book)
    parts = ["<h1>Class overview</h1>",
             f"<p>{len(book.rows)} {'students' if any(r.is_student for r in book.rows) else 'files'}, "
             f"{len(book.columns)} exercises, {esc(show_points(book.maximum))} points in all.</p>",
             reteach_section(book),
             "<h2>Score distribution</h2>", score_text(scores),
             img(charts["scores.png"], "Score distribution: students per band of 10 %"),
             "<h2>Pass rate per exercise</h2>",
             img(charts["pass_rate.png"], "Pass rate per exercise"),
             exercise_table(book), *sections,
             *section_table(book),
             "<h2>Students</h2>", esc(book.assignment.describe()) if book.assignment else "",
             '<p><label>Filter: <input class="filter" data-table="students" type="search" '
             'placeholder="a name, section or status"></label> <span class="muted">Click a heading to sort.</span></p>',
             student_table(book, links)]
    return page("Class overview", "\n".join(parts), script=True)


def img(png, alt):
    data = base64.b64encode(png).decode("ascii")
    return f'<p><img src="data:image/png;base64,{data}" alt="{esc(alt)}"></p>'


def score_text(scores):
    summary = overview.score_summary(scores)
    if summary is None:
        return "<p>No exercise is worth points, so there are no scores.</p>"
    bands = overview.score_bands(scores)
    cells = "".join(f"<th>{10 * i}&ndash;{10 * i + 10}%</th>" for i in range(len(bands)))
    counts = "".join(f'<td class="num">{n}</td>' for n in bands)
    return (f"<p>Mean {summary['mean']:.0f}%, median {summary['median']:.0f}%, "
            f"lowest {summary['lowest']:.0f}%, highest {summary['highest']:.0f}%.</p>"
            f"<table><tr><th>score</th>{cells}</tr><tr><th>students</th>{counts}</tr></table>")


def reteach_section(book):
    """The wrong answers most students share: what to go over again on Monday."""
    top = overview.reteach_first(book)
    if not top:
        return "<h2>Reteach first</h2>\n<p>No exercise was written and got wrong.</p>"
    items = "".join(f"<li><code>{esc(name)}</code>: {failure_text(failure, len(book.rows))}</li>"
                    for name, failure in top)
    return f"<h2>Reteach first</h2>\n<ol>{items}</ol>"


def exercise_table(book):
    rates = overview.pass_rates(book)
    commonest = overview.commonest_failures(book)
    rows = []
    for name in book.columns:
        counts = ", ".join(f"{n} {esc(status)}" for status, n in overview.status_counts(book, name).items())
        failure = commonest.get(name)
        rows.append(f"<tr><td><code>{esc(name)}</code></td><td class=\"num\">{esc(show_points(book.table[name]))}</td>"
                    f'<td class="num">{100 * rates[name]:.0f}%</td><td>{counts}</td>'
                    f"<td>{failure_text(failure, len(book.rows))}</td></tr>")
    return ("<table><tr><th>exercise</th><th>points</th><th>pass rate</th><th>verdicts</th>"
            "<th>commonest failure</th></tr>" + "".join(rows) + "</table>")


def failure_text(failure, total):
    if failure is None:
        return "&mdash;"
    example = failure.example
    text = f"{esc(failure.shape)} <span class=\"muted\">({failure.count} of {total})</span>"
    if example.get("call"):
        text += (f"<br><span class=\"muted\">e.g. <code>{esc(example['call'])}</code> gave "
                 f"<code>{esc(example.get('got', ''))}</code>, expected <code>{esc(example.get('expected', ''))}</code>"
                 "</span>")
    return text


def student_table(book, links):
    """One row per student: name, login, section, final score (after late work and overrides) with
    the raw score beside it, the status of each exercise, and a flag for two files of one workbook."""
    roster = bool(book.roster)
    head = ["student"] + (["login", "section"] if roster else []) + ["final", "raw", "late"]
    head += [name for name in book.columns] + ["flags"]
    rows = []
    for row in book.rows:
        person = book.person(row)
        cells = [f'<td data-sort="{esc(book.display_name(row).lower())}"><a href="students/{esc(links[row.name])}">'
                 f"{esc(book.display_name(row))}</a></td>"]
        if roster:
            cells += [f"<td>{esc(row.name)}</td>", f"<td>{esc(person.section if person else '')}</td>"]
        cells += [f'<td class="num">{esc(show_points(book.final_score(row)))}</td>',
                  f'<td class="num">{esc(show_points(book.score(row)))}</td>',
                  f'<td class="num">{esc(show_points(book.penalty(row)))}%</td>']
        for name in book.columns:
            verdict = row.exercises[name]
            status = "override" if verdict.get("override") else verdict["status"]
            cells.append(f'<td data-sort="{esc(status)}" title="{esc(verdict.get("message", ""))}">'
                         f"{ICONS.get(verdict['status'], '')} {esc(status)}</td>")
        unlisted = roster and row.is_student and not (person and person.student_id)
        flags = "; ".join(row.duplicates + (["not in the roster"] if unlisted else []))
        cells.append(f'<td class="flag">{esc(flags)}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    header = "".join(f"<th>{esc(name)}</th>" for name in head)
    return (f'<table id="students" class="sortable"><thead><tr>{header}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def section_table(book):
    """Per-section figures (students, mean, median, lowest and highest final score in %, pass rate
    per exercise); nothing when the roster names no sections."""
    if not book.roster or not book.maximum:
        return []
    groups = {}
    for row in book.rows:
        person = book.person(row)
        groups.setdefault(person.section if person and person.section else "(none)", []).append(row)
    if list(groups) == ["(none)"]:
        return []
    head = ["section", "students", "mean", "median", "lowest", "highest"] + list(book.columns)
    lines = []
    for section, rows in sorted(groups.items()):
        finals = [100 * book.final_score(row) / book.maximum for row in rows]
        cells = [esc(section), str(len(rows))] + [f"{value:.0f}%" for value in (
            statistics.fmean(finals), statistics.median(finals), min(finals), max(finals))]
        cells += [f"{100 * sum(row.exercises[n]['status'] == 'pass' for row in rows) / len(rows):.0f}%"
                  for n in book.columns]
        lines.append("<tr>" + "".join(f'<td{"" if i == 0 else " class=num"}>{c}</td>'
                                      for i, c in enumerate(cells)) + "</tr>")
    header = "".join(f"<th>{esc(name)}</th>" for name in head)
    return ["<h2>Sections</h2>", '<p class="muted">Final scores (after late work and overrides) as a share of '
            "the maximum; pass rate per exercise.</p>",
            f'<table class="sortable"><thead><tr>{header}</tr></thead><tbody>{"".join(lines)}</tbody></table>']


# ---------------------------------------------------------------------------- writing it all


def class_charts(book):
    """{file name: PNG bytes} for the class page's two charts."""
    return {"pass_rate.png": png_bytes(pass_rate_figure(overview.pass_rates(book))),
            "scores.png": png_bytes(score_figure(overview.score_bands(overview.percentages(book))))}


def write_feedback(book, folder, sections=()):
    """Write every page and chart under `folder`, each file atomically (written beside, then
    renamed); returns the paths written, class page first. `sections` are extra HTML for the
    class page only, never a student's."""
    folder = Path(folder)
    (folder / "students").mkdir(parents=True, exist_ok=True)
    links = page_names(book.rows)
    charts = class_charts(book)
    written = [folder / "index.html"]
    write_atomically(written[0], class_page(book, links, charts, sections).encode("utf-8"))
    for name, png in charts.items():
        write_atomically(folder / name, png)
        written.append(folder / name)
    for row in book.rows:
        path = folder / "students" / links[row.name]
        write_atomically(path, student_page(book, row).encode("utf-8"))
        written.append(path)
    return written


def write_atomically(path, data):
    with atomic_text(path, binary=True) as f:
        f.write(data)
