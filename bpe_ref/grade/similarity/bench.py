"""Benchmark the similarity report on a class: students x 3 notebooks, every pair compared.

    python -m bpe_ref.grade.similarity.bench                     100 and 1,000 students
    python -m bpe_ref.grade.similarity.bench --students 300      one size

The class comes from the class benchmark's generator (bench_class.write_class: workbooks 04, 05
and 06 as the solution, the untouched notebook or a known bug). That class holds only a dozen
distinct pieces of code per exercise, which flatters any method that groups identical code, so
each size is also run with every student's functions disguised by a seed of their own
(disguise.py: renamed, reformatted, reordered, comments and dead code), so that no two students
hand in the same text. The report is made in this process, as bpe-grade --similarity makes it
after grading, with its CSV and class-page section (grading itself is not timed here:
bench_class measures it); nothing is run.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from ..classroom.bench import write_class
from ..classroom.results import class_results
from .disguise import disguise
from ..judge.exercises import REGISTRY
from ..classroom.points import DEFAULT_POINTS
from .report import Course, similarity_report, write_similarity_csv
from .page import similarity_section
from ..reading.source import function_source


def disguise_class(folder, seed=0):
    """Give every student's graded functions a disguise of their own, in place."""
    for number, path in enumerate(sorted((folder / "submissions").rglob("*.ipynb"))):
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            if cell.cell_type != "code" or cell.metadata.get("bpe_course", {}).get("given"):
                continue
            for name in REGISTRY:
                original = function_source([{"source": cell.source}], name)
                if original and "NotImplementedError" not in original:
                    cell.source = cell.source.replace(original, disguise(original, seed + number, REGISTRY).strip())
        nbformat.write(notebook, path)


def ungraded_book(folder):
    """The class as bpe-grade groups it (a row per student, their files), without grading anything."""
    results = [{"path": str(p), "exercises": {}, "notes": []}
               for p in sorted((folder / "submissions").rglob("*.ipynb"))]
    return class_results(results, DEFAULT_POINTS)


def measure(students, disguised):
    with tempfile.TemporaryDirectory(prefix="bpe-similarity-") as scratch:
        folder = Path(scratch)
        write_class(folder, students)
        if disguised:
            disguise_class(folder)
        book = ungraded_book(folder)
        start = time.perf_counter()
        report = similarity_report(book, course=Course())
        write_similarity_csv(report, folder / "similarity.csv")
        page = similarity_section(report)
        seconds = time.perf_counter() - start
    pieces = sum(e.pieces for e in report.exercises)
    pairs = sum(len(e.matches) for e in report.exercises)
    solution = sum(len(e.solution) for e in report.exercises)
    largest = max((len(c) for e in report.exercises for c in e.clusters), default=0)
    kind = "disguised, every student's code distinct" if disguised else "as generated"
    print(f"{students:>5} students x 3 notebooks ({kind}): {seconds:5.1f} s; "
          f"{pieces} pieces of code; {pairs} student pairs (largest group {largest}), "
          f"{solution} like the solution; class-page section {len(page) // 1024} KB")
    return seconds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, action="append", help="class size (repeatable; default 100 and 1000)")
    options = parser.parse_args(argv)
    for students in options.students or [100, 1000]:
        for disguised in (False, True):
            measure(students, disguised)
    return 0


if __name__ == "__main__":
    sys.exit(main())
