"""The class page in a real Chromium (driven with Playwright, as test_browser.py does): its one
script runs under the page's own policy with no console error, a click on a heading sorts the
students, the filter box shows only matching rows, and a student's name from a hostile folder
stays text. A screenshot goes to $BPE_COURSE_SCREENSHOTS (default <tmp>/bpe-course-screenshots)."""

from datetime import datetime, timezone

import pytest

from bpe_ref.grade.classroom.assignment import load_assignment
from bpe_ref.grade.classroom.feedback import write_feedback
from bpe_ref.grade.classroom.late import LateRule, Lateness
from bpe_ref.grade.classroom.points import load_points
from bpe_ref.grade.classroom.results import class_results
from bpe_ref.grade.classroom.roster import Person
from test_browser import SCREENSHOTS, browser_or_skip

HOSTILE = '<img src=x onerror="document.title=1">'
PEOPLE = [("ann", "Ann Lee", "A", "pass"), ("bob", "Bob Roe", "B", "fail"), ("cat", "Cat Kim", "A", "error"),
          ("dan", HOSTILE, "B", "pass")]


def graded_class(tmp_path):
    results = []
    for login, _, _, status in PEOPLE:
        folder = tmp_path / "submissions" / login
        folder.mkdir(parents=True)
        (folder / "04_naive_bpe.py").write_text("x = 1\n", encoding="utf-8")
        verdicts = {"get_stats": "pass", "merge": status, "train": status if login != "dan" else "fail"}
        results.append({"path": str(folder / "04_naive_bpe.py"), "passed": False, "notes": [], "student": login,
                        "exercises": {n: {"status": s, "message": f"{n} {s}"} for n, s in verdicts.items()}})
    book = class_results(results, load_points(), load_assignment(workbooks=["04", "05"]))
    book.roster = {login: Person(login, f"10{i}", name, section) for i, (login, name, section, _) in enumerate(PEOPLE)}
    book.due = datetime(2026, 3, 1, tzinfo=timezone.utc)
    book.late = {row.name: Lateness(None, 50.0 if row.name == "ann" else 0.0) for row in book.rows}
    return book


def test_the_class_page_sorts_and_filters_in_chromium(tmp_path):
    sync_playwright, chromium = browser_or_skip()
    write_feedback(graded_class(tmp_path), tmp_path / "feedback")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        problems, requests = [], []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("request", lambda r: requests.append(r.url))
        page.goto((tmp_path / "feedback" / "index.html").as_uri())
        names = lambda: page.locator("#students tbody tr:not([hidden]) td:first-child").all_inner_texts()
        assert names() == ["Ann Lee", "Bob Roe", "Cat Kim", HOSTILE]  # the roster's names, as text
        assert page.title() == "Class overview"  # the hostile name's onerror never ran
        page.click("#students thead th:has-text('final')")
        finals = page.locator("#students tbody td:nth-child(4)").all_inner_texts()
        assert finals == sorted(finals, key=float)
        assert page.locator("#students thead th:has-text('final')").get_attribute("aria-sort") == "ascending"
        page.fill("input.filter", "Roe")
        assert names() == ["Bob Roe"]
        page.fill("input.filter", "")
        assert len(names()) == 4
        assert page.locator("h2:has-text('Sections')").count() == 1
        assert page.locator("table.sortable").nth(0).locator("tbody tr").count() == 2  # sections A and B
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "class_page.png"), full_page=True)
        page.goto((tmp_path / "feedback" / "students" / "bob.html").as_uri())
        assert page.title() == "Feedback: Bob Roe"  # a student's page is titled by their name
        browser.close()
    assert problems == []  # the script ran under the page's policy: no violation, no error
    assert all(url.startswith(("file:", "data:")) for url in requests)  # nothing outside the page
