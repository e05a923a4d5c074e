"""The class page's similarity section: groups of students, matches with the course, side by side.

    similarity_section(report)   HTML for feedback.write_feedback(..., sections=[...])

Only the instructor's class page carries it; a student's own page never does. Everything from a
submission (names, paths, code) is escaped. Each match opens into the two pieces of code side by
side, the lines they share marked, so the instructor reads the code before deciding anything.
"""

import html
import os
import sys

from ..outputs import say
from .report import (MIN_TOKENS, THRESHOLD, pair_summaries, similarity_report, solution_threshold, summary_lines,
                     write_similarity_csv)

SHOWN = 25  # groups, and matches with the solution, shown per exercise; the CSV has them all
PAIRS_SHOWN = 100  # rows of the table of pairs across exercises; the CSV's note has every pair's
STYLE = """<style>
.sbs { display: grid; grid-template-columns: 1fr 1fr; gap: 0.5rem; }
.sbs pre { margin: 0; padding: 0.4rem; font-size: 12px; }
.sbs .same { background: #fff1a8; }
.sbs .head { font-weight: 600; font-size: 13px; }
.caveat { border-left: 6px solid #ef6c00; padding: 0.3rem 0.8rem; background: #fff8ef; }
h3 code { font-size: 1.05rem; }
</style>"""


def esc(value):
    return html.escape(str(value), quote=True)


def similarity_section(report):
    """The whole section, as HTML."""
    parts = [STYLE, "<h2>Similar code</h2>",
             '<p class="caveat"><strong>A high score is a reason to look, not a verdict.</strong> '
             "Students are taught the same few ways to write each function, and short code written "
             "independently often looks alike. Read the two pieces side by side, and talk to the students, "
             "before drawing any conclusion.</p>",
             f"<p>For each exercise, each student's own code (never the course's given helpers or stubs) was "
             f"compared with every other student's and with the course's solutions, after renaming, layout, "
             f"comments and docstrings were taken out. The score is the share of the shorter piece's "
             f"fingerprints (runs of a few normalized tokens) found in the other; pairs at or above "
             f"<strong>{report.threshold:.2f}</strong> are listed, and matches with the solution at or above "
             f"<strong>{solution_threshold(report.threshold):.2f}</strong> (honest code often comes close to the "
             f"form every learner was shown). Two students are compared on what "
             f"they wrote beyond the course's own code, so two who both pasted the solution are listed under the "
             f"solution, not as a pair. Code shorter than {MIN_TOKENS} normalized tokens is left out and counted: that "
             f"short, independent answers too often look like copies.</p>",
             overview_table(report), pairs_table(report), hidden_part(report)]
    for exercise in report.exercises:
        if exercise.matches or exercise.solution:
            parts.append(exercise_part(exercise))
    if report.refused:
        parts.append("<h3>Files not read</h3><ul>" + "".join(f"<li>{esc(line)}</li>" for line in report.refused)
                     + "</ul>")
    return "\n".join(parts)


def overview_table(report):
    rows = []
    for e in report.exercises:
        rows.append(f"<tr><td><code>{esc(e.name)}</code></td><td class=\"num\">{e.pieces}</td>"
                    f'<td class="num">{e.short}</td><td class="num">{len(e.clusters)}</td>'
                    f'<td class="num">{len(e.matches)}</td><td class="num">{len(e.solution)}</td></tr>')
    if not rows:
        return "<p>No student's own code for any exercise was found.</p>"
    return ("<table><tr><th>exercise</th><th>students with code</th><th>left out: too short to tell apart</th>"
            "<th>groups of students</th><th>pairs</th><th>like the course's solution</th></tr>"
            + "".join(rows) + "</table>")


def exercise_part(exercise):
    """One exercise: its groups of students, each with its closest pairs side by side, then the
    students whose code is like the course's solution."""
    parts = [f"<h3><code>{esc(exercise.name)}</code></h3>"]
    by_group = {}
    for m in exercise.matches:  # sorted by group, then score
        by_group.setdefault(m.cluster, []).append(m)
    for number, group in enumerate(exercise.clusters[:SHOWN], 1):
        pairs = by_group.get(number, [])
        shown = evidence(pairs)
        parts.append(f"<p><strong>Group {number}</strong> ({len(group)} students): "
                     f"{', '.join(esc(s) for s in group)}</p>")
        parts += group_evidence(shown)
        parts.append(more(len(pairs) - len(shown), "pairs of this group"))
    parts.append(more(len(exercise.clusters) - SHOWN, "groups"))
    if exercise.solution:
        parts.append("<p><strong>Like the course's own solution</strong> (every learner can read it in "
                     "<code>solutions/</code>):</p>")
        parts += [match_details(m) for m in exercise.solution[:SHOWN]]
        parts.append(more(len(exercise.solution) - SHOWN, "students like the solution"))
    return "\n".join(parts)


def evidence(pairs):
    """The pairs that show every member of a group: each member's closest pair (pairs come closest
    first), each pair once. A group of n students shows at most n pairs, never only three."""
    shown, covered = [], set()
    for m in pairs:
        if m.a.student not in covered or m.b.student not in covered:
            shown.append(m)
            covered |= {m.a.student, m.b.student}
    return shown


def group_evidence(shown):
    """Each shown pair side by side, except a second copy of code already shown whole: the same
    fingerprints as a student shown before is one line, so a group of 150 identical hand-ins
    stays readable (and the page small) while naming every member."""
    parts, seen = [], {}
    for m in shown:
        twin = identical_to(m, seen)
        if twin:
            parts.append(f'<p class="muted">{esc(twin[0])} and {esc(twin[1])}: score 1.00, the same code '
                         f"(after renaming, layout and comments) as shown above.</p>")
        else:
            parts.append(match_details(m))
        for piece in (m.a, m.b):
            seen.setdefault(frozenset(piece.prints), piece.student)
    return parts


def identical_to(match, seen):
    """(new student, the student shown before with the very same code) when `match` pairs two
    identical pieces and one of them was already shown; else None."""
    if match.score < 1 or match.a.prints.keys() != match.b.prints.keys():
        return None
    earlier = seen.get(frozenset(match.a.prints))
    if earlier is None:
        return None
    new = match.b.student if earlier == match.a.student else match.a.student
    return new, earlier


def pairs_table(report):
    """Each flagged pair of students across the exercises: "flagged on 5 of 5" is more than one match."""
    summaries = pair_summaries(report)
    rows = [f"<tr><td>{esc(p.a)}</td><td>{esc(p.b)}</td><td>{esc(p.line)}</td>"
            f"<td>{', '.join(f'<code>{esc(name)}</code>' for name in p.flagged)}</td></tr>"
            for p in summaries[:PAIRS_SHOWN]]
    if not rows:
        return ""
    return ("<h3>Pairs across exercises</h3><p>Each pair of students flagged at least once, most often first, "
            "with how many of the exercises they both wrote (long enough to compare) flagged them.</p>"
            "<table><tr><th>student</th><th>student</th><th>flagged</th><th>exercises</th></tr>" + "".join(rows)
            + "</table>" + more(len(summaries) - PAIRS_SHOWN, "pairs (each row's note in the CSV)"))


def hidden_part(report):
    """Code that could not be compared, as it hides itself from a reading of its text (hiding.py)."""
    rows = [f"<li>{esc(student)}, <code>{esc(e.name)}</code> ({esc(file)}): {esc(reason)}</li>"
            for e in report.exercises for student, file, reason in e.hidden]
    if not rows:
        return ""
    return (f"<h3>Could not be compared: hides its code</h3><p>This code builds or finds itself at run time "
            f"(a string run by exec, names looked up through globals(), a wrapper around each name), so what it "
            f"says is not what runs, and no score could be trusted. It is not a match: read it.</p>"
            f"<ul>{''.join(rows)}</ul>")


def more(extra, what):
    return f'<p class="muted">{extra} more {what} in the CSV.</p>' if extra > 0 else ""


def match_details(match):
    """One match: a one-line summary that opens into the side-by-side view."""
    who = "the course" if match.solution else esc(match.b.student)
    group = f"group {match.cluster}: " if match.cluster else ""
    return (f"<details><summary>{group}{esc(match.a.student)} and {who}: score {match.score:.2f} "
            f'<span class="muted">({match.a_in_b:.0%} of the first found in the second, '
            f"{match.b_in_a:.0%} the other way)</span></summary>\n{side_by_side(match)}</details>")


def side_by_side(match):
    """The two pieces of code in two columns, the lines covered by shared fingerprints marked."""
    shared = set(match.a.prints) & set(match.b.prints)
    columns = []
    for piece in (match.a, match.b):
        marked = set().union(*(piece.prints[fp] for fp in shared)) if shared else set()
        lines = []
        for number, line in enumerate(piece.text.splitlines(), 1):
            text = esc(line) or " "
            lines.append(f'<span class="same">{text}</span>' if number in marked else text)
        columns.append(f'<div><div class="head">{esc(piece.student)} &middot; <code>{esc(piece.file)}</code></div>'
                       f"<pre>{chr(10).join(lines)}</pre></div>")
    return f'<div class="sbs">{"".join(columns)}</div>'


def similarity_sections(book, options, out=None):
    """bpe-grade --similarity after grading: the report, its CSV and a summary on `out` (stderr, so
    that --json stays JSON); returns the class page's section (a list of one HTML string, empty
    without --feedback)."""
    out = out or sys.stderr
    threshold = options.similarity_threshold or THRESHOLD
    try:
        report = similarity_report(book, threshold)
    except Exception as e:  # noqa: BLE001 - the pages and gradebook that come after are still written
        say(f"similarity: no report, it failed on the grader's side ({type(e).__name__}: {e})", out)
        return []
    path = options.similarity if isinstance(options.similarity, str) else default_csv_path(options)
    if os.path.dirname(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    write_similarity_csv(report, path)
    for line in summary_lines(report):
        say(line, out)
    say(f"similarity: {report.flagged} matches in {path}", out)
    if not options.feedback:
        return []
    return [similarity_section(report)]


def default_csv_path(options):
    """Where --similarity writes its CSV when not told: beside --csv, in --feedback, or here."""
    if options.csv:
        stem, _ = os.path.splitext(options.csv)
        return f"{stem}-similarity.csv"
    if options.feedback:
        return os.path.join(options.feedback, "similarity.csv")
    return "similarity.csv"
