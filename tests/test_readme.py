"""The README's Python tour runs and says what it claims, and every page it links to exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md")), ROOT / "benchmarks" / "README.md"]
# [text](target) outside code: the target up to a space, a closing parenthesis or a title
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def test_readme_quick_start_is_the_two_make_commands():
    text = README.read_text()
    assert "make run" in text and "make test" in text


def test_readme_python_tour_runs_and_its_comments_hold():
    block = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    namespace: dict = {}
    exec(compile(block, "README.md", "exec"), namespace)  # noqa: S102 - our own README
    m = namespace["metrics"]
    ranking, cats, white_cat = namespace["ranking"], namespace["cats"], namespace["white_cat"]
    assert m.score("P@5", ranking, cats) == pytest.approx(3 / 5)
    assert round(m.score("AP", ranking, cats), 4) == 0.5429
    assert namespace["e"].steps[1]["precision"] == 0.5
    assert round(m.score("nDCG@5", ranking, white_cat), 2) == 0.58
    assert m.score("RR", {"a": 0.9, "b": 0.9, "c": 0.1}, {"a": 1}) == 0.5


def test_readme_shows_the_app_before_the_command_line_and_the_python_api():
    headings = [line for line in README.read_text().splitlines() if line.startswith("## ")]
    assert headings[:4] == ["## Quick start", "## The app", "## Command line",
                            "## The Python API in five minutes"]


def relative_links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
    text = re.sub(r"`[^`\n]*`", "", text)
    return [target for target in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:", target)]


def anchors(page: Path) -> set[str]:
    """GitHub's anchors: a heading lowercased, punctuation dropped, spaces made hyphens."""
    found = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") and not line.startswith("#!"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


def test_the_link_finder_sees_links_and_skips_code():
    page = "[a](docs/x.md) `[b](y.md)` [c](https://e.org)\n\n    [d](z.md)\n```\n[e](w.md)\n```\n"
    text = re.sub(r"```.*?```", "", page, flags=re.S)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
    assert [t for t in LINK.findall(re.sub(r"`[^`\n]*`", "", text))] == ["docs/x.md", "https://e.org"]
    assert anchors(README) >= {"quick-start", "the-app", "command-line", "the-python-api-in-five-minutes"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_points_to_an_existing_file(page):
    links = relative_links(page)
    broken = []
    for target in links:
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(target)
    assert broken == [], f"{page.name}: broken links {broken}"


def test_the_readme_links_to_every_page_of_docs():
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in relative_links(README)}
    pages = {page.resolve() for page in (ROOT / "docs").glob("*.md")}
    assert pages and pages <= linked, sorted(p.name for p in pages - linked)


def test_readme_chart_example_runs_with_the_installed_names():
    # the block a notebook user copies: its imports are the package's real names
    blocks = re.findall(r"```(?:python)?\n(.*?)```", README.read_text(), re.S)
    *body, last = next(b for b in blocks if "charts.metric_over_k" in b).strip().splitlines()
    namespace: dict = {}
    exec(compile("\n".join(body), "README.md", "exec"), namespace)  # noqa: S102 - our own README
    chart = eval(last.split("#")[0], namespace)  # noqa: S307 - our own README
    spec = chart.to_dict()
    assert "layer" in spec or "mark" in spec
