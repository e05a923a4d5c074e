"""Benchmark grading a whole class: wall time and peak memory of bpe-grade on students x notebooks.

    python -m bpe_ref.grade.classroom.bench                    100 students x 3 notebooks, every core
    python -m bpe_ref.grade.classroom.bench --students 10 --serial-sample 0    a quick look
    python -m bpe_ref.grade.classroom.bench --keep /tmp/class  keep the class folder, CSV and feedback

Needs a checkout of the course (solutions/, notebooks/ and tests/learners/). Each student hands in
workbooks 04, 05 and 06 as one of: the solution, the untouched learner notebook, or the solution
with one function swapped for a known-buggy one from tests/learners/ (a fixed, seeded mix).
The class goes into a temporary submissions/<student>/ folder and is graded by the real command,
`bpe-grade submissions --csv --feedback --jobs N`, in a process of its own.

Memory is sampled every 0.1 s over the whole process tree (bpe-grade, its pool workers and every
sandbox): the peak of the summed RSS (shared pages counted once per process, so an overestimate)
and of the summed PSS (shared pages split between the processes sharing them: the honest total).
--serial-sample K also grades the first K students with --jobs 1 and with --jobs N, and prints the
speedup: the ratio, measured in the same run, that shows the class path uses every core.
"""

import argparse
import csv
import json
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat

from ...core.parallel import default_workers
from ..reading.source import function_source

ROOT = Path(__file__).resolve().parents[3]
WORKBOOKS = ["04_naive_bpe", "05_decoding", "06_encoding"]
BUGS = {  # workbook -> (function, the learner file whose version of it is wrong)
    "04_naive_bpe": [("get_stats", "bug_get_stats_last_pair.py"), ("merge", "bug_merge_overlap.py"),
                     ("train", "bug_train_min.py"), ("train", "bug_train_one_too_many.py")],
    "05_decoding": [("build_vocab", "bug_build_vocab_no_bytes.py"), ("decode", "bug_decode_strict.py")],
    "06_encoding": [("encode", "bug_encode_max_rank.py"), ("encode", "bug_encode_empty_crash.py")],
}
MIX = {"solution": 5, "untouched": 2, "bug": 3}  # relative weights of what a student hands in
MB = 1024 * 1024


# ---------------------------------------------------------------------------- the class


def checkout():
    """The course checkout this package runs from; a clear error when it is installed without one."""
    needed = [ROOT / "solutions", ROOT / "notebooks", ROOT / "tests" / "learners"]
    missing = [str(p) for p in needed if not p.is_dir()]
    if missing:
        raise SystemExit(f"bench_class needs a checkout of the course; not found: {', '.join(missing)}")
    return ROOT


def with_bug(solution, function, learner_file):
    """A copy of a solution notebook whose `function` is the buggy one from a learner file."""
    buggy = function_source([{"source": learner_file.read_text(encoding="utf-8")}], function)
    notebook = nbformat.from_dict(solution)
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        original = function_source([{"source": cell.source}], function)
        if original:
            cell.source = cell.source.replace(original, buggy)
            return notebook
    raise ValueError(f"no cell defines {function}() in the solution")


def variants(root):
    """{workbook: [(plan, notebook)]}: what a student may hand in for each workbook."""
    out = {}
    for name in WORKBOOKS:
        solution = nbformat.read(root / "solutions" / f"{name}.ipynb", as_version=4)
        out[name] = [("solution", solution),
                     ("untouched", nbformat.read(root / "notebooks" / f"{name}.ipynb", as_version=4))]
        for function, learner in BUGS[name]:
            out[name].append((f"bug:{function}", with_bug(solution, function, root / "tests" / "learners" / learner)))
    return out


def write_class(folder, students, seed=13):
    """submissions/student_NNN/<workbook>.ipynb for every student; returns {path: plan}."""
    rng = random.Random(seed)
    choices = variants(checkout())
    plans = {}
    for number in range(students):
        student = folder / "submissions" / f"student_{number:03d}"
        student.mkdir(parents=True)
        for name in WORKBOOKS:
            kind = rng.choices(list(MIX), weights=list(MIX.values()))[0]
            options = [v for v in choices[name] if v[0].startswith(kind)]
            plan, notebook = rng.choice(options)
            path = student / f"{name}.ipynb"
            nbformat.write(notebook, path)
            plans[f"submissions/{student.name}/{path.name}"] = plan
    return plans


# ---------------------------------------------------------------------------- measuring


class TreeMemory:
    """Samples the summed RSS and PSS of a process and all its descendants, keeping the peaks."""

    def __init__(self, pid, every=0.1):
        import psutil  # the [instructor] extra; ipykernel needs it too

        self.psutil, self.root = psutil, psutil.Process(pid)
        self.every, self.peak_rss, self.peak_pss, self.most_processes = every, 0, 0, 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.done.is_set():
            self.sample()
            self.done.wait(self.every)

    def sample(self):
        try:
            processes = [self.root] + self.root.children(recursive=True)
        except self.psutil.NoSuchProcess:
            return
        rss = pss = 0
        for process in processes:
            try:
                info = process.memory_full_info()
            except (self.psutil.NoSuchProcess, self.psutil.AccessDenied):
                continue  # it ended between the listing and the reading
            rss += info.rss
            pss += getattr(info, "pss", info.rss)
        self.peak_rss, self.peak_pss = max(self.peak_rss, rss), max(self.peak_pss, pss)
        self.most_processes = max(self.most_processes, len(processes))

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()


def grade_class(folder, jobs, extra=()):
    """Run bpe-grade on folder/submissions (its --json into folder/class.json); returns wall s,
    CPU s of the whole tree, and its memory peaks."""
    command = [sys.executable, "-m", "bpe_ref.grade.cli", "submissions", "--json", "--jobs", str(jobs), *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(folder / "class.json", "w", encoding="utf-8") as out:
        process = subprocess.Popen(command, cwd=folder, stdout=out, stderr=subprocess.PIPE)
        with TreeMemory(process.pid) as memory:
            _, err = process.communicate()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if process.returncode not in (0, 1):
        raise SystemExit(f"bpe-grade failed ({process.returncode}):\n{err.decode('utf-8', 'replace')[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "rss": memory.peak_rss / MB, "pss": memory.peak_pss / MB,
            "processes": memory.most_processes, "largest": after.ru_maxrss / 1024}


EXERCISES = {"04_naive_bpe": ["get_stats", "merge", "train"], "05_decoding": ["build_vocab", "decode"],
             "06_encoding": ["encode"]}  # what each workbook asks the learner to write


def as_planned(folder, plans):
    """How many files got the verdicts their plan implies (solution: all pass; untouched: none
    pass; bug:f: f does not pass), read back from --json; and the number of CSV rows."""
    graded = {r["path"]: {name: v["status"] for name, v in r["exercises"].items()}
              for r in json.loads((folder / "class.json").read_text(encoding="utf-8"))}
    good = 0
    for path, plan in plans.items():
        statuses = [graded[path].get(name) for name in EXERCISES[Path(path).stem]]
        if plan == "solution":
            good += all(s == "pass" for s in statuses)
        elif plan == "untouched":
            good += not any(s == "pass" for s in statuses)
        else:
            good += graded[path].get(plan.split(":")[1]) != "pass"
    with open(folder / "class.csv", encoding="utf-8", newline="") as f:
        rows = sum(1 for _ in csv.DictReader(f))
    return good, rows


# ---------------------------------------------------------------------------- the report


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=default_workers(), help="bpe-grade --jobs (default: every core)")
    parser.add_argument("--serial-sample", type=int, default=10, metavar="K",
                        help="also grade K students with --jobs 1 and --jobs N for the speedup (0: skip)")
    parser.add_argument("--keep", metavar="DIR", help="build the class in DIR and keep it")
    parser.add_argument("--isolation", choices=("both", "isolated", "not isolated"), default="both",
                        help="grade the class in bubblewrap's sandbox, without it, or both in one run (default)")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bpe-class-") as scratch:
        folder = Path(options.keep or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        plans = write_class(folder, options.students)
        print(f"class: {options.students} students x {len(WORKBOOKS)} notebooks = {len(plans)} files "
              f"({', '.join(WORKBOOKS)}); {options.jobs} jobs on {default_workers()} cores")
        if options.serial_sample:
            speedup(folder, options)
        walls = {}
        for mode in (("isolated", "not isolated") if options.isolation == "both" else (options.isolation,)):
            extra = ["--csv", "class.csv", "--feedback", "feedback"] + (["--no-isolation"] if mode == "not isolated" else [])
            result = walls[mode] = grade_class(folder, options.jobs, extra)
            good, rows = as_planned(folder, plans)
            print(f"whole class, {mode}, --csv and --feedback: {result['wall']:.1f} s wall, {result['cpu']:.1f} s CPU "
                  f"({result['cpu'] / result['wall']:.2f} cores busy on average), "
                  f"{len(plans) / result['wall']:.2f} files/s")
            print(f"  peak memory of the process tree: {result['pss']:.0f} MB PSS ({result['rss']:.0f} MB summed RSS) "
                  f"over at most {result['processes']} processes; the largest single process: {result['largest']:.0f} MB")
            print(f"  CSV rows: {rows} (one per student); files graded as planned: {good}/{len(plans)}")
        if len(walls) == 2:
            print(f"isolation costs {walls['isolated']['wall'] / walls['not isolated']['wall']:.2f}x the wall time "
                  f"(goal: at most 1.5x)")
            print(start_cost())
    return 0


def start_cost(starts=20):
    """The cost of starting one submission's worker, behind bubblewrap's walls and without: one line."""
    from ..walls.sandbox import Sandbox

    cells = [{"name": "a.py", "source": "def get_stats(ids):\n    return {}\n", "raises_on_purpose": False, "given": []}]
    took = {}
    for isolated in (True, False):
        start = time.perf_counter()
        for _ in range(starts):
            sandbox = Sandbox(cells, cwd=tempfile.gettempdir(), isolated=isolated)
            sandbox.start()
            sandbox.close()
        took[isolated] = (time.perf_counter() - start) / starts
    return (f"starting one submission's worker and loading it: {took[True] * 1000:.0f} ms in a sandbox, "
            f"{took[False] * 1000:.0f} ms without (+{(took[True] - took[False]) * 1000:.0f} ms a file)")


def speedup(folder, options):
    """Grade the first K students with --jobs 1 and --jobs N in the same run; print the ratio."""
    sample = folder / "sample"
    for number in range(options.serial_sample):
        name = f"student_{number:03d}"
        target = sample / "submissions" / name
        target.mkdir(parents=True, exist_ok=True)
        for path in (folder / "submissions" / name).iterdir():
            target.joinpath(path.name).write_bytes(path.read_bytes())
    one = grade_class(sample, 1)
    many = grade_class(sample, options.jobs)
    print(f"sample of {options.serial_sample} students: --jobs 1 {one['wall']:.1f} s wall ({one['cpu']:.1f} s CPU), "
          f"--jobs {options.jobs} {many['wall']:.1f} s wall ({many['cpu']:.1f} s CPU): "
          f"{one['wall'] / many['wall']:.2f}x faster (ideal {options.jobs}x on an idle machine)")


if __name__ == "__main__":
    sys.exit(main())
