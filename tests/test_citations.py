"""Every source the repository cites resolves inside it, under one name.

The documents Ranklab was specified from are listed in docs/sources.md, by title and author,
each with a short name; the comparison of the reference tools is in
docs/measures-and-conventions.md. A citation by a number a reader cannot look up ("seed 004")
or of a file that is not in the repository ("REFERENCE.md") is a broken reference. The
presets' captions, the conventions and the Conventions explorer's columns use the short names.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from metrics.conventions import PRESETS

ROOT = Path(__file__).resolve().parents[1]
SKIP_DIRS = {".git", ".venv", "node_modules", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis", "build",
             "dist"}
SKIP_SUFFIXES = {".mo", ".png", ".jpg", ".gif", ".ico", ".parquet", ".arrow", ".gz", ".bz2", ".zst", ".pyc"}
UNRESOLVED = re.compile(r"\bseed[ _-]?00[0-4]\b|REFERENCE\.md", re.IGNORECASE)
# files that name the broken citations in order to forbid them: this test, and the browser test
# that keeps them out of the app's pages
GUARDS = {Path("tests/test_citations.py"), Path("tests/browser/test_jargon_browser.py")}
# the conventions that follow one of the documents, by the short name docs/sources.md gives it
SOURCE_CONVENTIONS = {"pinecone": "Pinecone notebook", "course-lab": "IR course lab",
                      "autorag": "AutoRAG study notes", "piaf": "PIAF QA notes"}


def text_files():
    for path in sorted(ROOT.rglob("*")):
        relative = path.relative_to(ROOT)
        if SKIP_DIRS & set(relative.parts) or any(p.endswith(".egg-info") for p in relative.parts):
            continue
        if not path.is_file() or path.suffix in SKIP_SUFFIXES or relative in GUARDS:
            continue
        try:
            yield relative, path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue


def short_names() -> list[str]:
    """The short names of docs/sources.md's table of documents: the bold first column."""
    text = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")
    return re.findall(r"^\| \*\*([^*|]+)\*\* \|", text, flags=re.MULTILINE)


def test_no_file_cites_a_source_the_repository_does_not_hold():
    found = [f"{path}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
             for path, text in text_files() for m in UNRESOLVED.finditer(text)]
    assert found == [], "name the source as docs/sources.md does:\n" + "\n".join(found)


def test_the_scan_sees_the_code_the_docs_and_the_catalogs():
    seen = {path for path, _ in text_files()}
    for path in ("README.md", "metrics/core.py", "docs/sources.md", "assets/presets/10-cat.json",
                 "ranklab_ui/locales/fr/LC_MESSAGES/messages.po", "tests/metrics/test_sources.py"):
        assert Path(path) in seen, path
    assert UNRESOLVED.search("Seed 004's cat") and UNRESOLVED.search("see REFERENCE.md")
    assert not UNRESOLVED.search("seed 0, 10,000 resamples") and not UNRESOLVED.search("seed=004")


def test_sources_lists_five_documents_each_with_a_title_and_an_author():
    names = short_names()
    assert names == ["Pinecone notebook", "IR course lab", "AutoRAG study notes", "Azure AI Search README",
                     "PIAF QA notes"]
    text = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")
    for name in names:
        row = re.search(rf"^\| \*\*{re.escape(name)}\*\* \| (.+) \| (.+) \|$", text, flags=re.MULTILINE)
        title, author = row.groups()
        assert "*" in title and author.strip(), name  # a title in italics, and who wrote it
        assert f"**{name}.**" in text, f"what Ranklab takes from the {name} is missing"


@pytest.mark.parametrize(("key", "name"), SOURCE_CONVENTIONS.items())
def test_a_sources_convention_takes_its_name(key, name):
    assert name in short_names()
    convention = PRESETS[key]
    assert convention.short == name and convention.title.startswith(name)


def test_the_presets_name_their_source_as_docs_sources_does():
    names = tuple(short_names()) + ("Wikipedia's DCG example",)
    sources = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")
    assert "**Wikipedia's DCG example**" in sources
    for path in sorted((ROOT / "assets" / "presets").glob("*.json")):
        caption = json.loads(path.read_text(encoding="utf-8"))["source"]
        assert caption.startswith(names), f"{path.name}: {caption!r} names no source of docs/sources.md"
