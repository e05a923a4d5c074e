"""The held-out measure's counting: a tiny truth and grader reports written here, no learner code run
(bpe_ref.grade.judge.heldout_score), and the command's reading of a truth file and a folder."""

import itertools
import json

import pytest

from bpe_ref.grade import heldout
from bpe_ref.grade.judge.heldout_score import Tally, judge_hint, score_file, summary

TRUTH = {
    "passed": False,
    "pass": ["get_stats", "Tok.decode"],
    "notpass": ["Tok.train", "Tok.encode", "merge"],
    "why": {"Tok.train": "no stop when no pair is left: max() of an empty dict raises ValueError.",
            "Tok.encode": "applies the merges in dict order, not the lowest rank first.",
            "merge": "drops the last id."},
    "hint_names": {"merge": ["last id"]},
    "not_an_exercise": ["Base.train"],
}


def verdict(status, hint=None, cause=None):
    return {"status": status, "message": "...", "hint": hint, "cause": cause}


REPORT = {
    "passed": False,
    "exercises": {
        "get_stats": verdict("pass"),
        "Tok.decode": verdict("fail", hint="join the bytes of every id"),                   # false fail, vague
        "Tok.train": verdict("error", hint="stop when no pair is left: if not stats: break"),  # right, right
        "Tok.encode": verdict("pass"),                                                        # false pass
        "Base.train": verdict("error"),                                                       # not an exercise
        "split_text": verdict("error"),                                                       # not in the truth
    },
}


def scored(report=REPORT, truth=TRUTH):
    tally = Tally()
    score_file("f.py", truth, report, tally)
    return tally


def test_counts_found_right_false_passes_and_fails():
    tally = scored()
    assert (tally.exercises, tally.found, tally.right) == (5, 4, 2)
    assert (tally.false_pass, tally.false_fail) == (1, 1)
    assert (tally.not_exercises, tally.unlisted) == (1, 1)
    assert (tally.files, tally.files_right) == (1, 1)
    assert tally.hints == {"right": 1, "vague": 1, "misleading": 0}
    assert "f.py: merge not found (truly notpass)" in tally.lines


def test_a_hint_naming_another_cause_misleads():
    assert judge_hint("take the lowest merge id: min, not max", None, TRUTH["why"]["Tok.train"]) == "misleading"
    assert judge_hint("check what that line passes", "encode_max_rank", TRUTH["why"]["Tok.train"]) == "misleading"
    assert judge_hint("take the lowest merge id: min, not max", None, TRUTH["why"]["Tok.encode"]) == "right"
    assert judge_hint("your code raised ValueError (f.py, line 3)", None, TRUTH["why"]["Tok.train"]) == "right"
    assert judge_hint("it drops the last id", None, "", keywords=["last id"]) == "right"
    assert judge_hint(None, None, TRUTH["why"]["Tok.train"]) == "vague"


def test_no_report_finds_nothing_and_a_pass_on_an_unloadable_file_is_false():
    tally = scored(report=None)
    assert (tally.exercises, tally.found, tally.files_right) == (5, 0, 0)
    unloadable = {"passed": False, "pass": [], "notpass": [], "unloadable": {"encode": "does not parse"}}
    assert scored({"passed": False, "exercises": {}}, unloadable).exercises == 0
    tally = scored({"passed": True, "exercises": {"encode": verdict("pass")}}, unloadable)
    assert (tally.exercises, tally.found, tally.false_pass, tally.files_right) == (1, 1, 1, 0)


def test_an_encode_graded_as_encode_special_is_found_under_its_special_tokens_name():
    truth = {"passed": False, "pass": ["Tok.encode_ordinary"], "notpass": ["Tok.encode:special_tokens"],
             "why": {"Tok.encode:special_tokens": "the special alternation is not longest first."}}
    report = {"passed": False, "exercises": {
        "Tok.encode_ordinary": verdict("pass"),
        "Tok.encode": dict(verdict("fail", hint="put the longest special token first"), course="encode_special")}}
    tally = scored(report, truth)
    assert (tally.found, tally.right, tally.unlisted) == (2, 2, 0)
    assert tally.hints["right"] == 1


def test_summary_says_each_count():
    text = "\n".join(summary(scored(), "fixture"))
    for line in ("exercises found:  4 of 5 (80.0 %)", "false passes:     1", "false fails:      1",
                 "hints (on 2 non-pass verdicts): 1 right, 1 vague, 0 misleading"):
        assert line in text


def test_the_command_reads_a_folders_expectations_and_grades_each_file(tmp_path, monkeypatch, capsys):
    (tmp_path / "expectations.json").write_text(json.dumps({"f.py": TRUTH, "notes": {"min_found": 1}}), encoding="utf-8")
    (tmp_path / "f.py").write_text("", encoding="utf-8")
    monkeypatch.setattr(heldout, "grade", lambda path, timeout: REPORT)
    assert heldout.main([str(tmp_path), "--details"]) == 0
    out = capsys.readouterr().out
    assert "1 files, 5 exercises in the truth" in out and "f.py: Tok.encode false pass" in out


def test_a_truth_without_verdicts_is_refused(tmp_path):
    (tmp_path / "expectations.json").write_text(json.dumps({"f.py": {"min_found": 3}}), encoding="utf-8")
    with pytest.raises(ValueError, match="--truth"):
        heldout.read_truth(tmp_path)


def test_a_per_file_truth_counts_what_it_can_and_sets_causes_beside_why(tmp_path, monkeypatch, capsys):
    truth = {"f.py": {"passed": False, "min_found": 3, "why": "encode applies merges in dict order"},
             "g.py": {"passed": True, "min_found": 2, "why": "all right"}}
    (tmp_path / "expectations.json").write_text(json.dumps(truth), encoding="utf-8")
    for name in truth:
        (tmp_path / name).write_text("", encoding="utf-8")
    reports = {
        "f.py": {"passed": False, "exercises": {
            "merge": {"status": "pass"}, "missed": {"status": "missing"},
            "Tok.encode": {"status": "fail", "message": "m", "hint": "apply them by rank, the lowest merge id first"}}},
        "g.py": {"passed": False, "exercises": {"a": {"status": "pass"}, "b": {"status": "error", "message": "boom"}}},
    }
    monkeypatch.setattr(heldout, "grade", lambda path, timeout: reports[path.name])
    assert heldout.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "exercises found:  4 of 5" in out and "1 of 2 files with at least min_found" in out
    assert "files passed right: 1 of 2" in out
    assert "true why: encode applies merges in dict order" in out
    assert "grader:   Tok.encode fail: [merge order] apply them by rank" in out
    assert "grader:   b error: boom" in out and "g.py: passed=False (WRONG, truly passed=True)" in out


def test_an_empty_split_pattern_named_by_hint_and_truth_is_a_right_hint():
    hint = ("with no special token to split on (none allowed, or an empty list of them) the pattern is '()', "
            "which matches between every two characters")
    why = "with special_tokens=[] it builds the split pattern '()' and re.split cuts the text into characters"
    assert judge_hint(hint, "empty_group", why) == "right"
    assert judge_hint(hint, "empty_group", "joins the special tokens in the order given, not longest first") \
        == "misleading"


def test_encode_iterable_encoding_each_line_on_its_own_is_a_cause_hint_and_truth_can_name():
    hint = "it encodes each line on its own, but a line's last chunk may still grow with the next line"
    assert judge_hint(hint, "per_line", "Encodes each string of the iterable separately, so ...") == "right"
    assert judge_hint(hint, "per_line", "Encodes each line separately (yield from self.encode(line))") == "right"
    assert judge_hint(hint, "per_line", "it drops the last line") == "misleading"


def test_a_folder_without_expectations_is_scored_by_the_manifest_naming_its_files(tmp_path):
    (tmp_path / "chinthasaicharan__tinybpe.py").write_text("", encoding="utf-8")
    path, truths = heldout.read_truth(tmp_path)
    assert path == heldout.DATA / "tuning" / "manifest.json" and "chinthasaicharan__tinybpe.py" in truths
    (tmp_path / "chinthasaicharan__tinybpe.py").unlink()
    assert heldout.read_truth(tmp_path)[0] == heldout.MANIFEST


def test_the_tuning_set_shares_no_repository_with_the_held_out_sets_and_has_its_fields():
    def files(name):
        with open(heldout.DATA / name / "manifest.json", encoding="utf-8") as f:
            return json.load(f)["files"]
    sets = [files(name) for name in ("tuning", "heldout", "heldout-b", "heldout-c", "tuning-j", "heldout-j",
                                                "tuning-k", "heldout-k")]
    repos = [{e["repo"].lower() for e in entries.values()} for entries in sets]
    for one, other in itertools.combinations(repos, 2):
        assert not one & other
    for entry in [entry for entries in sets[:1] + sets[2:] for entry in entries.values()]:
        assert {"repo", "commit", "paths", "kind", "edits", "passed", "pass", "notpass", "why", "hint_names"} <= set(entry)
        assert set(entry["why"]) <= set(entry["notpass"]) and set(entry["pass"]).isdisjoint(entry["notpass"])
        assert isinstance(entry.get("unloadable", {}), dict) and isinstance(entry.get("optional", []), list)
