"""Collect the held-out learners' files again from their public repositories, as the manifest says.

    python tools/collect_heldout.py --mirrors /work/.mirror           from local git mirrors
    python tools/collect_heldout.py --clone CACHE_DIR                  git clone what is missing into CACHE_DIR
    python tools/collect_heldout.py --manifest tests/data/heldout-b/manifest.json --out heldout-b --mirrors DIR
                                                                      the second held-out set, the same way
    python tools/collect_heldout.py --manifest tests/data/tuning/manifest.json --out tuning --mirrors DIR
                                                                      the public tuning set, the same way

The held-out set is other people's code, so the project keeps only where each file came from:
tests/data/heldout/manifest.json names, per file, the repository, the commit, the paths pasted
in order, and every line removed (a dataset read at import, or an import between pasted files).
This script rebuilds each file into heldout/ (git ignores it), byte for byte what was graded.
A mirror is found as DIR/owner+name/repo or DIR/owner+name (a bare or ordinary git directory).
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "tests" / "data" / "heldout" / "manifest.json"


def git_dir(repo, mirrors, clone_into):
    """The local git directory holding `repo` (owner/name), cloned first when asked to."""
    key = repo.replace("/", "+")
    for base in mirrors:
        for candidate in (Path(base) / key / "repo", Path(base) / key):
            if (candidate / "HEAD").exists() or (candidate / ".git").exists():
                return candidate
    if clone_into is None:
        raise ValueError(f"no mirror of {repo}: pass --mirrors DIR holding {key}/, or --clone DIR to clone it")
    target = Path(clone_into) / key
    if not target.exists():
        subprocess.run(["git", "clone", "--quiet", "--bare", f"https://github.com/{repo}", str(target)], check=True)
    return target


def show(gitdir, commit, path):
    """The bytes of `path` at `commit`."""
    return subprocess.run(["git", "-C", str(gitdir), "show", f"{commit}:{path}"], check=True, capture_output=True).stdout


def drop_lines(text, edits, path):
    """`text` without the 1-based inclusive line ranges the manifest's edits name for `path`."""
    lines = text.splitlines(keepends=True)
    gone = set()
    for edit in edits:
        if edit["path"] == path and "lines" in edit:
            first, last = edit["lines"]
            gone.update(range(first, last + 1))
    return "".join(line for number, line in enumerate(lines, 1) if number not in gone)


def drop_cells(raw, edits):
    """A notebook's bytes without the cells (0-based indexes) the manifest's edits name."""
    gone = {index for edit in edits for index in edit.get("cells", [])}
    if not gone:
        return raw
    notebook = json.loads(raw.decode("utf-8"))
    notebook["cells"] = [cell for index, cell in enumerate(notebook["cells"]) if index not in gone]
    return (json.dumps(notebook, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def header(entry):
    """The comment block that opens a pasted .py file: where it came from and what was removed."""
    out = [f"# Source: github.com/{entry['repo']} @ {entry['commit']}",
           f"# Files: {', '.join(entry['paths'])}, pasted in that order."]
    for edit in entry.get("edits", []):
        out.append(f"# Edit: {edit['path']} lines {edit['lines'][0]}-{edit['lines'][1]} removed: {edit['why']}")
    if not entry.get("edits"):
        out.append("# No edits.")
    return "\n".join(out) + "\n"


def build(entry, gitdir):
    """The held-out file's bytes: a notebook as it is, or the .py files pasted under a header."""
    paths = entry["paths"]
    if paths[0].endswith(".ipynb"):
        return drop_cells(show(gitdir, entry["commit"], paths[0]), entry.get("edits", []))
    parts = [header(entry)]
    for path in paths:
        text = show(gitdir, entry["commit"], path).decode("utf-8")
        parts.append(f"# ---- {path} ----\n" + drop_lines(text, entry.get("edits", []), path))
        if not parts[-1].endswith("\n"):
            parts[-1] += "\n"
    return "".join(parts).encode("utf-8")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", action="append", default=[], help="a folder of git mirrors (owner+name/)")
    parser.add_argument("--clone", metavar="DIR", help="clone repositories no mirror holds into DIR")
    parser.add_argument("--out", default=str(ROOT / "heldout"), help="where to write the files (default heldout/)")
    parser.add_argument("--manifest", default=str(MANIFEST))
    args = parser.parse_args(argv)
    with open(args.manifest, encoding="utf-8") as f:
        files = json.load(f)["files"]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, entry in files.items():
        (out / name).write_bytes(build(entry, git_dir(entry["repo"], args.mirrors, args.clone)))
    print(f"{len(files)} files written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
