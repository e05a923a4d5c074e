"""bpe-practice: new drills, grading with a clock, the append-only history, its table and chart.

Every test works in tmp_path. Learner code is written into the drill's empty cell, as a learner
would; the drills are graded by the real grader (in its sandbox process).
"""

import json
import linecache
import multiprocessing
import re
import subprocess
import sys
from datetime import date, datetime, timedelta
from pathlib import Path

import nbformat
import pytest

from bpe_ref.practice import check_drill, cli, history, workbook
from bpe_ref.practice.levels import LEVELS
from bpe_ref.practice.sample import SAMPLE_TODAY, sample_history, write_sample

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

NAIVE_SOLUTION = '''
def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


ids = list(text.encode("utf-8"))
merges = {}
for idx in range(256, vocab_size):
    stats = get_stats(ids)
    pair = max(stats, key=stats.get)
    ids = merge(ids, pair, idx)
    merges[pair] = idx

vocab = {idx: bytes([idx]) for idx in range(256)}
for (p0, p1), idx in merges.items():
    vocab[idx] = vocab[p0] + vocab[p1]


def decode(ids):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def encode(text):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids
'''

# a classic decode bug: strict UTF-8, so a token that ends inside a character raises
BUGGY_NAIVE = NAIVE_SOLUTION.replace('.decode("utf-8", errors="replace")', '.decode("utf-8")')
assert BUGGY_NAIVE != NAIVE_SOLUTION

FULL_SOLUTION = '''
import re

import regex


def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def split_text(text, pattern):
    return regex.findall(pattern, text)


def train_regex(text, vocab_size, pattern):
    chunks = [list(c.encode("utf-8")) for c in split_text(text, pattern)]
    merges = {}
    for idx in range(256, vocab_size):
        stats = {}
        for ids in chunks:
            get_stats(ids, stats)
        if not stats:
            break
        pair = max(stats, key=stats.get)
        chunks = [merge(ids, pair, idx) for ids in chunks]
        merges[pair] = idx
    return merges


def build_vocab(merges):
    vocab = {idx: bytes([idx]) for idx in range(256)}
    for (p0, p1), idx in merges.items():
        vocab[idx] = vocab[p0] + vocab[p1]
    return vocab


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def encode_ordinary(text, merges, pattern):
    out = []
    for chunk in split_text(text, pattern):
        ids = list(chunk.encode("utf-8"))
        while len(ids) >= 2:
            stats = get_stats(ids)
            pair = min(stats, key=lambda p: merges.get(p, float("inf")))
            if pair not in merges:
                break
            ids = merge(ids, pair, merges[pair])
        out.extend(ids)
    return out


def encode_special(text, merges, pattern, special_tokens, allowed_special):
    allowed = set(special_tokens) if allowed_special == "all" else set(allowed_special)
    for token in special_tokens:
        if token in text and token not in allowed:
            raise ValueError(f"{token!r} is not allowed")
    if not allowed:
        return encode_ordinary(text, merges, pattern)
    out = []
    for piece in re.split("(" + "|".join(re.escape(s) for s in sorted(allowed, key=len, reverse=True)) + ")", text):
        if piece in allowed:
            out.append(special_tokens[piece])
        elif piece:
            out.extend(encode_ordinary(piece, merges, pattern))
    return out


def save_merges(merges, path):
    with open(path, "w", encoding="utf-8") as f:
        f.write("bpe-drill v1\\n")
        for (p0, p1), idx in sorted(merges.items(), key=lambda item: item[1]):
            f.write(f"{p0} {p1}\\n")


def load_merges(path):
    merges = {}
    with open(path, encoding="utf-8") as f:
        f.readline()
        for idx, line in enumerate(f, start=256):
            p0, p1 = map(int, line.split())
            merges[(p0, p1)] = idx
    return merges


merges = train_regex(text, vocab_size, pattern)
vocab = build_vocab(merges)
'''

WORDS_SOLUTION = r'''
import regex

PATTERN = r"""(?x)
    (?:[A-Z]\.)+ | \$?\d+(?:\.\d+)?%? | \w+(?:-\w+)* | \.\.\. | (?!\s)\X
"""


def word_tokenize(text):
    return regex.findall(PATTERN, text)


tokens = word_tokenize(text)
'''


# ---------------------------------------------------------------------------- helpers

def fill_drill(path, code, started_minutes_ago=None):
    """Write `code` into the drill's empty cell (and move its start time back), like a learner."""
    notebook = nbformat.read(path, as_version=4)
    empty = [c for c in notebook.cells if c.cell_type == "code" and not c.source.strip()]
    assert len(empty) == 1, "a new drill has exactly one empty code cell"
    empty[0].source = code
    if started_minutes_ago is not None:
        started = datetime.now().astimezone() - timedelta(minutes=started_minutes_ago)
        notebook.metadata["bpe_course"]["practice"]["started"] = started.isoformat(timespec="seconds")
    nbformat.write(notebook, path)


def new(tmp_path, level="naive"):
    return workbook.new_drill(tmp_path / "practice", level)


def records_of(folder):
    path = folder / history.HISTORY_NAME
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def record(file="2026-11-22-naive.ipynb", day="2026-11-22", green=True, minutes=20.0, level="naive"):
    total = len(LEVELS[level].exercises)
    return {"date": day, "file": file, "level": level, "minutes": minutes,
            "passed": total if green else 1, "total": total, "all_green": green}


def start_method():
    """fork where there is one (fast: the children share what is already imported), else spawn."""
    return multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")


def png_size(path):
    """(width, height) from a PNG's IHDR chunk, after checking the signature."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, f"{path} is not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


# ---------------------------------------------------------------------------- new

@pytest.mark.parametrize("level", list(LEVELS))
def test_new_writes_a_blank_dated_drill(tmp_path, level):
    path = new(tmp_path, level)
    assert path.name == f"{date.today():%Y-%m-%d}-{level}.ipynb"
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    code = [c.source for c in notebook.cells if c.cell_type == "code"]
    assert len(code) == 3 and code[1] == "", "text cell, ONE empty cell, check cell"
    assert f"check_drill({path.name!r}, globals())" in code[2]
    namespace = {}
    exec(code[0], namespace)  # the training-text cell runs and gives the real text
    assert namespace["text"] == workbook.practice_text() and len(namespace["text"].encode("utf-8")) > 3000
    assert all(script in namespace["text"] for script in ("é", "مرحبا", "안녕", "नमस्ते", "你好", "😀"))
    meta = notebook.metadata["bpe_course"]
    assert meta["practice"]["level"] == level and meta["exercises"] == list(LEVELS[level].exercises)
    assert workbook.parse_time(meta["practice"]["started"]) is not None
    assert "Ctrl-S" in notebook.cells[-2].source


def test_second_drill_the_same_day_gets_a_new_name_and_nothing_is_overwritten(tmp_path):
    first = new(tmp_path)
    before = first.read_bytes()
    second, third = new(tmp_path), new(tmp_path)
    assert second.name == first.name.replace(".ipynb", "-2.ipynb")
    assert third.name == first.name.replace(".ipynb", "-3.ipynb")
    assert first.read_bytes() == before
    mine = tmp_path / "practice" / f"{date.today():%Y-%m-%d}-regex.ipynb"
    mine.write_text("my own notes", encoding="utf-8")  # a file the learner made by hand
    assert new(tmp_path, "regex").name.endswith("-regex-2.ipynb")
    assert mine.read_text(encoding="utf-8") == "my own notes"


# ---------------------------------------------------------------------------- grade

def test_grade_a_correct_and_a_buggy_drill_records_both(tmp_path, capsys):
    folder = tmp_path / "practice"
    good = new(tmp_path)
    fill_drill(good, NAIVE_SOLUTION, started_minutes_ago=25)
    assert cli.main(["grade", str(good)]) == 0
    shown = capsys.readouterr().out
    assert "6/6 exercises pass" in shown and "all green" in shown
    minutes = float(re.search(r"after (\d+\.\d) minutes", shown).group(1))
    assert 25.0 <= minutes < 26.0  # started 25 minutes ago, plus the time grading took on a busy machine

    buggy = new(tmp_path)  # ...-naive-2.ipynb, the newest: graded when no FILE is given
    fill_drill(buggy, BUGGY_NAIVE)
    assert cli.main(["grade", "--dir", str(folder)]) == 1
    shown = capsys.readouterr().out
    assert buggy.name in shown and "decode           error" in shown and "errors='replace'" in shown

    first, second = records_of(folder)
    assert first["file"] == good.name and first["all_green"] and first["passed"] == first["total"] == 6
    assert 24.9 <= first["minutes"] <= 26 and first["attempt"] == 1 and first["level"] == "naive"
    assert second["file"] == buggy.name and not second["all_green"] and second["passed"] == 5
    assert second["date"] == date.today().isoformat()

    assert cli.main(["grade", str(good)]) == 0  # a second attempt at the same drill
    assert records_of(folder)[-1]["attempt"] == 2


def test_an_untouched_drill_reports_every_exercise_missing_and_records_nothing(tmp_path, capsys):
    path = new(tmp_path)
    assert cli.main(["grade", str(path)]) == 1
    shown = capsys.readouterr().out
    for name in LEVELS["naive"].exercises:
        assert f"  {name:<16} missing" in shown
    assert "nothing written yet, so nothing was recorded" in shown
    assert records_of(path.parent) == []
    fill_drill(path, "def merge(ids, pair, idx):\n    return ids\n")  # one wrong answer is an attempt
    assert cli.main(["grade", str(path)]) == 1
    assert [(r["attempt"], r["passed"], r["total"]) for r in records_of(path.parent)] == [(1, 0, 6)]


def test_full_level_grades_save_and_load(tmp_path, capsys):
    path = new(tmp_path, "full")
    fill_drill(path, FULL_SOLUTION)
    assert cli.main(["grade", str(path)]) == 0
    assert "save_load        pass" in capsys.readouterr().out

    broken = new(tmp_path, "full")
    fill_drill(broken, FULL_SOLUTION.replace("start=256", "start=0"))
    assert cli.main(["grade", str(broken)]) == 1
    shown = capsys.readouterr().out
    assert "save_load        fail" in shown and "encode_special   pass" in shown


def test_user_errors_are_one_line_messages_with_exit_status_2(tmp_path, capsys):
    assert cli.main(["grade", "--dir", str(tmp_path / "nowhere")]) == 2
    assert "no drill found" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert cli.main(["grade", "--dir", str(tmp_path / "empty")]) == 2
    assert "bpe-practice new" in capsys.readouterr().err
    assert cli.main(["grade", str(tmp_path / "typo.ipynb"), "--dir", str(tmp_path / "drills")]) == 2
    message = capsys.readouterr().err
    assert "no drill at" in message and f"newest drill in {tmp_path / 'drills'}/" in message
    assert cli.main(["history", "--dir", str(tmp_path / "empty")]) == 0
    assert "No graded drill" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stopped:
        cli.main(["new", "--level", "expert", "--dir", str(tmp_path)])
    assert stopped.value.code == 2


def test_the_console_entry_point_exits_with_the_status(tmp_path):
    run = subprocess.run([sys.executable, "-m", "bpe_ref.practice", "grade", "--dir", str(tmp_path)],
                         capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert run.returncode == 2 and "Traceback" not in run.stderr and "no drill found" in run.stderr


# ---------------------------------------------------------------------------- the check cell

def define_in_main(source, cell_name):
    """Functions as a notebook kernel has them: __module__ '__main__', their source in linecache."""
    filename = f"<{cell_name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"__name__": "__main__"}
    exec(compile(source, filename, "exec"), namespace)
    return namespace


def test_check_drill_refuses_a_stale_file_and_grades_a_saved_one(tmp_path, capsys, monkeypatch):
    path = new(tmp_path)
    fill_drill(path, NAIVE_SOLUTION)
    monkeypatch.chdir(path.parent)  # the kernel runs in the drill's folder
    text_cell = nbformat.read(path, as_version=4).cells[3].source

    ran = define_in_main(text_cell + "\n" + NAIVE_SOLUTION.replace("return counts", "return dict(counts)"), "a")
    check_drill(path.name, ran)
    assert "get_stats: what you ran differs from the saved file" in capsys.readouterr().out
    assert not (path.parent / history.HISTORY_NAME).exists(), "a stale check records nothing"

    check_drill(path.name, define_in_main(text_cell + "\n" + NAIVE_SOLUTION, "b"))
    assert "6/6, all green!" in capsys.readouterr().out
    assert records_of(path.parent)[0]["all_green"]

    monkeypatch.chdir(tmp_path)
    check_drill(path.name, {})
    assert "not running in the drill's folder" in capsys.readouterr().out


def test_check_cell_grades_from_inside_a_real_kernel(tmp_path):
    nbclient = pytest.importorskip("nbclient")
    path = new(tmp_path)
    fill_drill(path, NAIVE_SOLUTION)
    notebook = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}}).execute()
    shown = "".join(out.get("text", "") for out in notebook.cells[-1].outputs)
    assert "6/6 exercises pass" in shown and "attempt 1" in shown
    assert records_of(path.parent)[0]["all_green"]


# ---------------------------------------------------------------------------- history: safety

def test_bad_lines_are_reported_with_their_number_and_left_in_place(tmp_path, capsys):
    path = tmp_path / history.HISTORY_NAME
    good = json.dumps({**record(), "attempt": 1})
    old = "\n".join([good, "{not json", json.dumps({"date": "2026-11-22", "file": "x"}), "\udcff",
                     good.replace('"attempt": 1', '"attempt": 2')])  # the last line has lost its newline
    old = old.encode("utf-8", errors="surrogateescape")  # line 4 is a lone 0xFF byte: not UTF-8
    path.write_bytes(old)

    added = history.append_attempt(tmp_path, record())
    err = capsys.readouterr().err
    assert "line 2: not valid JSON" in err and "line 3: field 'level'" in err and "line 4: not valid JSON" in err
    assert "left in the file" in err
    assert added["attempt"] == 3, "two valid earlier records of the same file"
    now = path.read_bytes()
    assert now.startswith(old), "nothing before the new record changed"
    assert json.loads(now[len(old):].decode("utf-8").strip())["attempt"] == 3, "the new record has a line of its own"

    assert len(history.read_history(tmp_path)) == 3
    assert "line 2" in capsys.readouterr().err


def append_many(folder, worker, count, barrier):
    barrier.wait()
    for _ in range(count):
        history.append_attempt(folder, record(file="same.ipynb", minutes=float(worker)))


def test_concurrent_appends_lose_no_record(tmp_path):
    context = start_method()
    barrier = context.Barrier(8)
    workers = [context.Process(target=append_many, args=(tmp_path, n, 25, barrier)) for n in range(8)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
    assert all(w.exitcode == 0 for w in workers)
    lines = (tmp_path / history.HISTORY_NAME).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 200
    records = [json.loads(line) for line in lines]  # every line is whole
    assert sorted(r["attempt"] for r in records) == list(range(1, 201)), "attempts counted under the lock"
    assert sorted(r["minutes"] for r in records) == sorted(float(n) for n in range(8) for _ in range(25))


def grade_in_child(path, barrier):
    barrier.wait()
    sys.exit(cli.main(["grade", str(path)]))


def test_concurrent_grade_runs_record_every_attempt(tmp_path):
    path = new(tmp_path)
    fill_drill(path, NAIVE_SOLUTION)
    context = start_method()
    barrier = context.Barrier(3)
    runs = [context.Process(target=grade_in_child, args=(path, barrier)) for _ in range(3)]
    for run in runs:
        run.start()
    for run in runs:
        run.join(120)
    assert [run.exitcode for run in runs] == [0, 0, 0]
    assert sorted(r["attempt"] for r in records_of(path.parent)) == [1, 2, 3]


# ---------------------------------------------------------------------------- history: table and chart

def test_streak_counts_iso_weeks_and_survives_the_current_week_until_it_ends():
    records = [record(day="2026-11-03"), record(day="2026-11-10", green=False), record(day="2026-11-12"),
               record(day="2026-11-17")]  # W45, W46 (red, then green), W47
    assert history.streak(records, date(2026, 11, 22)) == (3, (2026, 45), (2026, 47))
    assert history.streak(records, date(2026, 11, 24))[0] == 3, "W48 has just begun: still alive"
    assert history.streak(records, date(2026, 12, 1)) == (0, None, None)
    assert history.best_times(records)["naive"]["minutes"] == 20.0


def test_history_table_and_plot_after_grading(tmp_path, capsys):
    folder = tmp_path / "practice"
    for file, day, green, minutes in [("a.ipynb", "2026-11-02", False, 10.0), ("a.ipynb", "2026-11-02", True, 31.5),
                                      ("b.ipynb", "2026-11-10", True, 22.0), ("c.ipynb", "2026-11-20", True, 18.25)]:
        history.append_attempt(folder, record(file=file, day=day, green=green, minutes=minutes))
    out_png = tmp_path / "h.png"
    assert cli.main(["history", "--dir", str(folder), "--plot", str(out_png), "--today", "2026-11-22"]) == 0
    shown = capsys.readouterr().out
    assert "naive    18.2 min  c.ipynb" in shown
    assert "Streak: 3 ISO weeks in a row with an all-green drill (2026-W45 to 2026-W47)" in shown
    last = shown.split("Last 5 attempts")[1].split("wrote")[0].strip().splitlines()[1:]
    assert [line.split()[1] for line in last] == ["a.ipynb", "a.ipynb", "b.ipynb", "c.ipynb"]
    assert png_size(out_png)[0] > 0 and out_png.stat().st_size > 1000
    assert cli.main(["history", "--dir", str(folder), "--plot"]) == 0  # no name: a default file in DIR
    assert f"wrote {folder / 'history.png'}" in capsys.readouterr().out
    assert png_size(folder / "history.png")[0] > 0


def test_sample_history_and_drill_page_picture_are_reproducible(tmp_path, capsys):
    assert sample_history() == sample_history()
    write_sample(tmp_path)
    with pytest.raises(FileExistsError):
        write_sample(tmp_path)  # never over an existing history
    first, second = tmp_path / "1.png", tmp_path / "2.png"
    assert cli.main(["history", "--dir", str(tmp_path), "--plot", str(first), "--today", str(SAMPLE_TODAY)]) == 0
    assert cli.main(["history", "--dir", str(tmp_path), "--plot", str(second), "--today", str(SAMPLE_TODAY)]) == 0
    shown = capsys.readouterr().out
    assert "Streak: 7 ISO weeks in a row with an all-green drill (2026-W41 to 2026-W47)" in shown
    assert first.read_bytes() == second.read_bytes(), "same history, same picture"
    drill_picture = Path(__file__).parent.parent / "docs" / "img" / "practice_history.png"
    if drill_picture.exists():  # redraw: python -m bpe_ref.practice.sample docs/img/practice_history.png
        assert png_size(drill_picture) == png_size(first)


def test_words_level_draws_word_tokenize_and_grades_it(tmp_path, capsys):
    """The drill of workbook 03a: a blank cell for word_tokenize, graded by the catalogue."""
    path = new(tmp_path, "words")
    notebook = nbformat.read(path, as_version=4)
    assert notebook.cells[0].source.startswith("# Weekly drill: word-level tokenization")
    assert "vocab_size" not in notebook.cells[3].source  # only the text to try it on
    fill_drill(path, WORDS_SOLUTION)
    assert cli.main(["grade", str(path)]) == 0
    assert "word_tokenize    pass" in capsys.readouterr().out
    broken = new(tmp_path, "words")
    fill_drill(broken, WORDS_SOLUTION.replace("(?!\\s)\\X", "[^\\w\\s]"))  # emoji cut into code points
    assert cli.main(["grade", str(broken)]) == 1
    shown = capsys.readouterr().out
    assert "word_tokenize    fail" in shown and "one grapheme at a time" in shown
