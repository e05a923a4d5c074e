"""The README as a front page and the docs/ pages behind it: every link between them leads to a file
(and a heading) that exists, and the README stays short enough to read first.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")  # [text](target) and ![alt](target)


def prose(markdown):
    """The text outside fenced code blocks, where links are links."""
    return re.sub(r"^```.*?^```", "", markdown, flags=re.MULTILINE | re.DOTALL)


def anchors(markdown):
    """The anchors GitHub and JupyterLab give a page's headings: 'Every code point' -> every-code-point."""
    headings = re.findall(r"^#+\s+(.+)$", prose(markdown), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}


def local_links(page):
    """(target file, anchor or '') of each link of `page` that stays inside the course."""
    for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):  # https:, attachment:
            continue
        path, _, anchor = target.partition("#")
        yield (page.parent / path if path else page), anchor


def test_every_link_leads_to_a_file_and_heading_that_exist():
    for page in PAGES:
        for target, anchor in local_links(page):
            where = page.relative_to(ROOT)
            assert target.exists(), f"{where} links to {target.relative_to(ROOT)}, which does not exist"
            if anchor:
                found = anchors(target.read_text(encoding="utf-8"))
                assert anchor in found, f"{where} links to #{anchor}, a heading {target.name} does not have"


def test_the_readme_links_every_docs_page():
    linked = {target.resolve() for target, _ in local_links(ROOT / "README.md")}
    unlinked = [p.name for p in PAGES[1:] if p.resolve() not in linked]
    assert not unlinked, f"README.md does not link {unlinked}: add them to 'Where to go next'"


def test_the_readme_stays_a_front_page():
    size = len((ROOT / "README.md").read_bytes())
    assert size < 12_000, f"README.md is {size} bytes: move details into a docs/ page and link it"
