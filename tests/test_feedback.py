"""Feedback pages and the class page: the right verdicts, nothing a student wrote ever becomes markup,
failures grouped by what to reteach, and charts that are real PNGs with the right bars.

One bpe-grade run grades a small class for real (a good, a buggy and a hostile student); the
grouping and chart tests use hand-made results.
"""

import base64
import hashlib
import io
import json
import re
import shutil
import struct
from html.parser import HTMLParser
from pathlib import Path

import matplotlib.image
import numpy as np
import pytest

from bpe_ref.grade.classroom import overview
from bpe_ref.grade.classroom.charts import DPI, PASS_COLOUR, pass_rate_figure, png_bytes, score_figure
from bpe_ref.grade.classroom.results import class_results
from bpe_ref.grade.judge.exercises import REGISTRY
from bpe_ref.grade.classroom.feedback import SORTER, write_feedback
from bpe_ref.grade.classroom.points import GRADED, load_points

LEARNERS = Path(__file__).parent / "learners"
EVE = "eve<img src=x onerror=alert(1)>"  # a folder name is student text too (no "/" in it)
HOSTILE = '''"""Strings and comments that would break out of a <pre> if they were not escaped."""
# </pre><script>alert("comment")</script>


def merge(ids, pair, idx):
    banner = "</pre></details><script>alert('string')</script><img src=x onerror=alert(1)>"
    return list(ids)  # never merges: a wrong answer, so the code is shown with its verdict


def u_plus(ch):
    return "<script>alert('got')</script>"
'''
ALLOWED_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "strong", "code",
                "section", "dl", "dt", "dd", "details", "summary", "pre", "ul", "ol", "li", "span", "table",
                "tr", "th", "td", "a", "img", "br"}


class Page(HTMLParser):
    """What a browser would see in a page: its tags, and per exercise section the name, status,
    details and code, as text."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.sections, self.images = [], [], [], []
        self.open = {tag: 0 for tag in ("h1", "h3", "code", "dt", "dd", "pre", "script")}
        self.title = ""
        self.key = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [name for name, _ in attrs]
        attrs = dict(attrs)
        if tag == "section":
            self.sections.append({"status": attrs["class"].split()[1], "name": "", "details": {}, "code": ""})
        if tag == "img":
            self.images.append(attrs["src"])
        if tag in self.open:
            self.open[tag] += 1

    def handle_endtag(self, tag):
        if tag in self.open:
            self.open[tag] -= 1

    def handle_data(self, data):
        section = self.sections[-1] if self.sections else None
        if self.open["h1"]:
            self.title += data
        if section is None:
            return
        if self.open["h3"] and self.open["code"] and not section["name"]:
            section["name"] = data
        elif self.open["dt"]:
            self.key = data
        elif self.open["dd"]:
            section["details"][self.key] = section["details"].get(self.key, "") + data
        elif self.open["pre"]:
            section["code"] += data

    def exercise(self, name):
        return next(s for s in self.sections if s["name"] == name)


EVERY = ",".join(GRADED)  # the assignment: every exercise (ann's file has 17 of them)


@pytest.fixture(scope="module")
def class_run(tmp_path_factory, bpe_grade):
    """bpe-grade submissions/ --json --feedback: ann is right, bob has one bug, eve is hostile."""
    root = tmp_path_factory.mktemp("class")
    for student, name in (("ann", "good_minbpe.py"), ("bob", "bug_encode_max_rank.py")):
        (root / "submissions" / student).mkdir(parents=True)
        shutil.copy(LEARNERS / name, root / "submissions" / student / name)
    (root / "submissions" / EVE).mkdir(parents=True)
    (root / "submissions" / EVE / "eve.py").write_text(HOSTILE, encoding="utf-8")
    run = bpe_grade("submissions", "--json", "--feedback", "feedback", "--jobs", "2", "--exercises", EVERY, cwd=root)
    results = {r["student"]: r for r in json.loads(run.stdout)}
    return root / "feedback", results


def student_page(folder, name):
    pages = {Page(p.read_text(encoding="utf-8")).title: p for p in (folder / "students").glob("*.html")}
    return Page(pages[f"Feedback: {name}"].read_text(encoding="utf-8"))


def test_a_page_per_student_and_a_class_page(class_run):
    folder, _ = class_run
    assert sorted(p.name for p in folder.iterdir()) == ["index.html", "pass_rate.png", "scores.png", "students"]
    assert sorted(p.name for p in (folder / "students").iterdir()) == [
        "ann.html", "bob.html", "eve_img_src_x_onerror_alert_1.html"]


def test_the_good_student_passes_everything(class_run):
    folder, results = class_run
    page = student_page(folder, "ann")
    shown = {s["name"]: s["status"] for s in page.sections}
    assert {name: shown[name] for name in results["ann"]["exercises"]} == dict.fromkeys(results["ann"]["exercises"], "pass")
    assert len(results["ann"]["exercises"]) == 17 and list(shown) == GRADED  # every exercise of the assignment


def test_the_buggy_student_sees_the_verdict_input_expected_got_and_hint(class_run):
    folder, results = class_run
    page = student_page(folder, "bob")
    verdicts = {name: v["status"] for name, v in results["bob"]["exercises"].items()}
    assert verdicts == {"get_stats": "pass", "merge": "pass", "decode": "pass", "encode": "fail"}
    shown = {s["name"]: s["status"] for s in page.sections}
    assert {name: shown[name] for name in verdicts} == verdicts
    assert shown["to_hex"] == "missing"  # graded for someone in the class, not handed in by bob
    encode = page.exercise("encode")
    graded = results["bob"]["exercises"]["encode"]
    wanted = {"smallest failing input": graded["call"], "expected": graded["expected"],
              "got": graded["got"], "why": graded.get("note"), "hint": graded["hint"]}
    assert encode["details"] == {key: value for key, value in wanted.items() if value}
    assert "take the min() instead" in encode["details"]["hint"]  # bob's max() with a default of inf
    assert "max(stats, key=lambda p: merges.get(p, float(\"inf\")))" in encode["code"]


def test_nothing_a_student_wrote_becomes_markup(class_run):
    folder, results = class_run
    path = next(p for p in (folder / "students").glob("eve*.html"))
    text = path.read_text(encoding="utf-8")
    page = Page(text)
    assert page.title == f"Feedback: {EVE}"
    assert set(page.tags) <= ALLOWED_TAGS and "script" not in page.tags
    assert not [a for a in page.attrs if a.startswith("on")]
    assert text.count("<pre>") == text.count("</pre>") == 2  # the code of merge and of u_plus, and no more
    assert "script-src" not in text and "default-src 'none'" in text  # the page forbids scripts outright
    merge = page.exercise("merge")
    assert merge["status"] == "fail"
    assert "</pre></details><script>alert('string')</script><img src=x onerror=alert(1)>" in merge["code"]
    assert page.exercise("u_plus")["details"]["got"] == "\"<script>alert('got')</script>\""
    assert "return \"<script>alert('got')</script>\"" in page.exercise("u_plus")["code"]
    assert results[EVE]["exercises"]["u_plus"]["status"] == "fail"
    index_text = (folder / "index.html").read_text(encoding="utf-8")
    index = Page(index_text)
    assert index.tags.count("script") == 1 and set(index.tags) <= ALLOWED_TAGS | {"script", "input", "label",
                                                                                  "thead", "tbody"}
    assert index_text.count("<script>") == 1 and f"<script>{SORTER}</script>" in index_text  # the page's own only
    assert f"script-src 'sha256-{base64.b64encode(hashlib.sha256(SORTER.encode()).digest()).decode()}'" in index_text
    assert "unsafe-inline'; img-src data:; script-src 'sha256-" in index_text  # no 'unsafe-inline' for scripts
    assert not [a for a in index.attrs if a.startswith("on")] and "http" not in SORTER


def test_the_code_shown_is_read_never_run(tmp_path):
    marker = tmp_path / "ran.txt"
    source = tmp_path / "submissions" / "zoe" / "zoe.py"
    source.parent.mkdir(parents=True)
    source.write_text(f"open({str(marker)!r}, 'w').write('ran')\n\n\ndef merge(ids, pair, idx):\n    return ids\n",
                      encoding="utf-8")
    verdict = {"status": "fail", "message": "merge([5, 5], (5, 5), 256) returned [5, 5], expected [256]",
               "call": "merge([5, 5], (5, 5), 256)", "expected": "[256]", "got": "[5, 5]", "hint": "h"}
    book = class_results([{"path": str(source), "passed": False, "exercises": {"merge": verdict}, "notes": []}],
                         load_points())
    write_feedback(book, tmp_path / "feedback")
    page = Page((tmp_path / "feedback" / "students" / "zoe.html").read_text(encoding="utf-8"))
    assert page.exercise("merge")["code"] == "def merge(ids, pair, idx):\n    return ids"
    assert not marker.exists()


# ---------------------------------------------------------------------------- the class page


def verdict(status, message="", **detail):
    return {"status": status, "message": message, **detail}


def test_failures_are_grouped_by_what_to_reteach(tmp_path):
    specific = "you apply the highest-ranked merge first; apply the lowest (earliest learned) first: min, not max"
    general = REGISTRY["encode"].hint
    encode = [verdict("fail", "encode('ab', {...}) returned [1]", call="encode('ab', {...})", hint=specific),
              verdict("fail", "encode('abc', {...}) returned [2]", call="encode('abc', {...})", hint=specific),
              verdict("fail", "encode('', {}) returned [3]", call="encode('', {})", hint=specific),
              verdict("fail", "encode('x', {}) returned [4]", call="encode('x', {})", hint=general),
              verdict("missing", "not implemented yet"), verdict("missing", "not implemented yet"),
              verdict("missing", "not implemented yet"), verdict("missing", "not implemented yet"),
              verdict("pass", "passed")]
    decode = [verdict("error", f"decode([{n}], vocab) raised UnicodeDecodeError: byte 0x{n:x}", hint=REGISTRY[
        "decode"].hint, call=f"decode([{n}], vocab)") for n in (128, 200)] + [verdict("pass")] * 7
    results = [{"path": str(tmp_path / "submissions" / f"s{i}" / "a.py"), "passed": False, "notes": [],
                "exercises": {"encode": e, "decode": d}} for i, (e, d) in enumerate(zip(encode, decode))]
    book = class_results(results, load_points())
    found = overview.failures(book, "encode")
    assert [(f.shape, f.count) for f in found] == [
        (specific, 3), ("a wrong answer", 1), ("not implemented yet", 4)]  # written-but-wrong comes first
    assert overview.commonest_failures(book)["decode"].shape == "raises UnicodeDecodeError"
    assert overview.commonest_failures(book)["decode"].count == 2
    assert [(name, f.shape) for name, f in overview.reteach_first(book)][:2] == [
        ("encode", specific), ("decode", "raises UnicodeDecodeError")]
    write_feedback(book, tmp_path / "feedback")
    index = (tmp_path / "feedback" / "index.html").read_text(encoding="utf-8")
    assert "min, not max" in index and "(3 of 9)" in index


def test_the_class_page_embeds_the_charts_it_writes(class_run):
    folder, _ = class_run
    index = Page((folder / "index.html").read_text(encoding="utf-8"))
    embedded = [base64.b64decode(src.split(",", 1)[1]) for src in index.images]
    assert embedded == [(folder / "scores.png").read_bytes(), (folder / "pass_rate.png").read_bytes()]


def png_size(png):
    """(width, height) from a PNG's header, after checking its signature."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR", "not a PNG"
    return struct.unpack(">II", png[16:24])


def runs(mask):
    """How many separate runs of True a 1-D boolean array holds."""
    return int(np.count_nonzero(mask[1:] & ~mask[:-1]) + mask[0])


def test_the_pass_rate_chart_is_a_png_with_a_bar_per_exercise():
    rates = {"to_hex": 1.0, "get_stats": 0.9, "merge": 0.75, "train": 0.4, "decode": 0.55, "encode": 0.2,
             "split_text": 0.3}
    fig = pass_rate_figure(rates)
    ax = fig.axes[0]
    assert [bar.get_height() for bar in ax.patches] == pytest.approx([100 * r for r in rates.values()])
    assert [label.get_text() for label in ax.get_xticklabels()] == list(rates)
    png = png_bytes(fig)
    width, height = png_size(png)
    assert (width, height) == tuple(round(v * DPI) for v in fig.get_size_inches())
    pixels = matplotlib.image.imread(io.BytesIO(png))
    assert pixels.shape[:2] == (height, width)
    green = np.all(np.abs(pixels[:, :, :3] - np.array(matplotlib.colors.to_rgb(PASS_COLOUR))) < 0.02, axis=2)
    row = height - int(ax.transData.transform((0, 10))[1])  # 10 %: every bar reaches it
    assert runs(green[row]) == len(rates), "the bars read back from the PNG"


def test_the_score_chart_has_a_bar_per_band():
    bands = overview.score_bands([5, 12, 18, 55, 55, 91, 100, 100])
    assert bands == [1, 2, 0, 0, 0, 2, 0, 0, 0, 3]
    fig = score_figure(bands)
    assert [bar.get_height() for bar in fig.axes[0].patches] == bands
    assert png_size(png_bytes(fig)) == tuple(round(v * DPI) for v in fig.get_size_inches())
    with pytest.raises(ValueError, match="wants 10 bands"):
        score_figure([1, 2])


def test_placeholders_group_messages_of_one_shape():
    a = overview.failure_shape("train", verdict("timeout", "took longer than 10 s: an endless loop?"))
    b = overview.failure_shape("train", verdict("timeout", "took longer than 3 s: an endless loop?"))
    assert a == b == "took longer than N s: an endless loop?"
    assert re.fullmatch(r"raises \w+", overview.failure_shape("decode", verdict("error", "decode([1]) raised KeyError: 1")))
    notes = [f"merge #{n} picked ({n}, 97), which occurs 1 times, but (97, 97) occurs {n + 2} times" for n in (1, 12)]
    shapes = {overview.failure_shape("train", verdict("fail", "", call="train(...)", note=note)) for note in notes}
    assert shapes == {"merge #N picked (N, N), which occurs N times, but (N, N) occurs N times"}
