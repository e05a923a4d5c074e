"""The learner's workspace: one git-ignored folder that holds all of the learner's own work.

`bpe-course lab` (and `python3 course.py lab` in a checkout) opens JupyterLab on it. Each start
makes it current without touching the learner's work:
- a workbook it lacks is copied in from the course's notebooks/ (a new one after an update, or
  one the learner deleted to start it over);
- a workbook the learner has not changed since it was copied follows the course's updates;
  one they have changed is kept, and the course's new version goes to updates/ beside it.
  Changed means its cells changed: a source edited, a cell added, deleted or moved. Opening,
  running and saving a workbook changes only metadata, outputs and execution counts, and
  JupyterLab does that on every save, so those do not count;
- solutions/, README.md and docs/ are read-only copies of the course's, refreshed each time
  (each solution notebook with a banner on top and its cells locked, so it reads as one);
- practice/ is where `bpe-practice` keeps drills and their history (run from the workspace).
Which file the course wrote, and with which content, is kept in a hidden manifest.
"""

import hashlib
import json
import os
import stat
from pathlib import Path

MANIFEST = ".bpe-course.json"  # {"workbooks": {name: {"file": sha256, "cells": cells_digest}}}
READ_ONLY = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
SOLUTIONS_NOTE = """# The solutions (read only)

These are the course's full solutions, copied here for you to look at when you are stuck.
They are read only and refreshed each time you start the course, so nothing you type here is kept:
work in the workbooks one folder up.
"""


def cells_digest(data):
    """A digest of what the learner writes in a notebook: each cell's type and source, in order.

    Metadata, outputs, execution counts and the file's layout are left out, so a workbook that
    was only opened, run and saved digests as it did when the course wrote it. None when `data`
    is not a notebook.
    """
    try:
        cells = json.loads(data).get("cells")
    except (UnicodeDecodeError, ValueError, AttributeError):
        return None
    if not isinstance(cells, list):
        return None
    written = [[cell.get("cell_type"), source_text(cell.get("source", ""))]
               for cell in cells if isinstance(cell, dict)]
    return hashlib.sha256(json.dumps(written, ensure_ascii=False).encode("utf-8")).hexdigest()


def source_text(source):
    """A cell's source as one string (nbformat stores it as a string or a list of lines)."""
    return "".join(source) if isinstance(source, list) else str(source)


def untouched(target, entry):
    """Whether the learner's copy at `target` still holds the cells the course wrote (`entry`).

    Older manifests kept only the file's sha256 (a plain string): then only the same bytes count."""
    data = target.read_bytes()
    if isinstance(entry, dict):
        return entry.get("cells") is not None and cells_digest(data) == entry["cells"]
    return hashlib.sha256(data).hexdigest() == entry


def written(data):
    """The manifest's entry for a workbook the course writes with the bytes `data`."""
    return {"file": hashlib.sha256(data).hexdigest(), "cells": cells_digest(data)}


def has_outputs(path):
    """Whether a notebook holds run cells: the course's learner copies never do, a learner's work does."""
    try:
        cells = json.loads(Path(path).read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError):
        return False
    return any(cell.get("outputs") or cell.get("execution_count") for cell in cells if isinstance(cell, dict))


def write_new(path, data):
    """Write bytes to a path that must not exist yet (never over someone's file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "xb") as f:
        f.write(data)


def replace_read_only(path, data):
    """Write a read-only copy of the course's material, replacing an older copy."""
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        os.chmod(path, READ_ONLY | stat.S_IWUSR)
        path.unlink()
    path.write_bytes(data)
    os.chmod(path, READ_ONLY)
    return True


def sync_workbooks(course, workspace, manifest):
    """Add, restore or update the learner's workbooks; returns one line per change."""
    notes = []
    known = manifest.setdefault("workbooks", {})
    for source in sorted((course / "notebooks").glob("*.ipynb")):
        name, data = source.name, source.read_bytes()
        wanted, target = written(data), workspace / source.name
        entry = known.get(name)
        if has_outputs(source):  # work done in notebooks/ before the workspace existed
            if not target.exists():
                write_new(target, data)
                known[name] = "yours"
                notes.append(f"copied your work in notebooks/{name} to {target}; "
                             "give the course back its copy with `git checkout -- notebooks/`")
            continue
        if not target.exists():
            write_new(target, data)
            notes.append(f"{'restored a fresh' if name in known else 'added the'} workbook {name}")
            known[name] = wanted
        elif entry == wanted or entry == wanted["file"]:  # the course has not changed it since
            known[name] = wanted  # (an older manifest's entry gets its cells' digest)
        elif entry not in (None, "yours") and untouched(target, entry):
            target.write_bytes(data)
            known[name] = wanted
            notes.append(f"updated {name} (you had not changed its cells)")
        elif entry not in (None, "yours"):
            if replace_read_only(workspace / "updates" / name, data):
                notes.append(f"the course updated {name}; your copy keeps your work, and the new "
                             f"version is in updates/{name}")
    return notes


def solution_view(source):
    """A solution notebook as the workspace shows it: a banner on top, every cell locked."""
    notebook = json.loads(Path(source).read_text(encoding="utf-8"))
    name = Path(source).stem
    banner = {"cell_type": "markdown", "id": "read-only-solution", "metadata": {}, "source": (
        f"**The solution of `{name}`, read only.** Your own copy of this workbook, where your work is "
        f"saved, is `{name}.ipynb` in the folder above. Run these cells to see a finished workbook; "
        "nothing typed here is kept.")}
    notebook["cells"].insert(0, banner)
    for cell in notebook["cells"]:
        cell.setdefault("metadata", {}).update(editable=False, deletable=False)
    return (json.dumps(notebook, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def sync_material(course, workspace):
    """Read-only copies of the solutions, the README and docs/; returns one line if any changed."""
    changed = replace_read_only(workspace / "solutions" / "README.md", SOLUTIONS_NOTE.encode("utf-8"))
    for source in sorted((course / "solutions").glob("*.ipynb")):
        changed |= replace_read_only(workspace / "solutions" / source.name, solution_view(source))
    changed |= replace_read_only(workspace / "README.md", (course / "README.md").read_bytes())
    docs = course / "docs"
    for source in sorted(p for p in docs.rglob("*") if p.is_file()):
        changed |= replace_read_only(workspace / "docs" / source.relative_to(docs), source.read_bytes())
    return ["refreshed the read-only solutions/, README.md and docs/"] if changed else []


def prepare(course, workspace):
    """Make `workspace` current for the course whose files are at `course` (a checkout, or the
    installed package's copies: bpe_ref.course.material); returns what changed."""
    course, workspace = Path(course), Path(workspace)
    manifest = open_manifest(course, workspace)
    notes = sync_workbooks(course, workspace, manifest)
    notes += sync_material(course, workspace)
    (workspace / "practice").mkdir(exist_ok=True)
    if (course / "practice").is_dir():
        notes.append(f"your older drills are in {course / 'practice'}; move them into "
                     f"{workspace / 'practice'} to see them in JupyterLab")
    save_manifest(workspace, manifest)
    return notes


def copy_workbooks(course, folder):
    """Only the learner workbooks, into `folder`, for another front end (VS Code, Notebook, Colab),
    by the workspace's rules: a changed workbook is never overwritten. Returns what changed."""
    course, folder = Path(course), Path(folder)
    manifest = open_manifest(course, folder)
    notes = sync_workbooks(course, folder, manifest)
    save_manifest(folder, manifest)
    return notes


def open_manifest(course, workspace):
    """Create `workspace` if needed and read its manifest ({} for a new one)."""
    if not (course / "notebooks").is_dir():
        raise FileNotFoundError(f"{course} has no notebooks/ folder: reinstall the course "
                                "(pip install bpe-course), or run this from a clone of it")
    workspace.mkdir(parents=True, exist_ok=True)
    try:
        return json.loads((workspace / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def save_manifest(workspace, manifest):
    """Write the manifest whole or not at all (a temporary file, then a rename)."""
    path = workspace / MANIFEST
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(temporary, path)
