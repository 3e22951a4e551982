"""Generated notebooks (ranklab_ui.core.notebook): built, fuzzed with hostile ids and labels, and executed
on a fresh kernel with nbclient, every printed number checked against metrics.score."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import nbformat
import pytest

import metrics
from ranklab_ui.core import notebook
from ranklab_ui.core.i18n import _, language
from ranklab_ui.core.model import Example, Item, Query
from ranklab_ui.core.presets import build_preset
from ranklab_ui.core.validation import ExampleError, validate

SEED = 20261127
HOSTILE = ["<script>alert(1)</script>", "a&b", "'\"", "\"\"\"", "'''", "#1", "a/b", "مرحبا", "\u202eevil",
           "$x$", "\\", "\\n", "{k}", "{{}}", "%s", "\t", "🐈‍⬛", "文書#1", "x" * 300, "print('pwned')",
           "\n# comment\n", "\u2028", "\x00", "\ud800", "); import os; (", "[l](http://evil.example)"]


def unjudged_example() -> Example:
    """The Pinecone notebook's cat with two unjudged results and a tray of two judged, unretrieved documents."""
    cat = build_preset("cat")
    q = cat.query
    ranking = tuple(replace(item, grade=None) if item.id in ("3", "6") else item for item in q.ranking)
    tray = (Item("t1", "a cat never retrieved", 1), Item("t2", "another box", 0))
    return replace(cat, queries=(replace(q, ranking=ranking, tray=tray),), k=5)


def hostile_example(rng: random.Random) -> Example:
    """An example whose ids, labels and query names are hostile, and still valid."""
    def text() -> str:
        return "".join(rng.choice(HOSTILE) for _ in range(rng.randint(1, 3)))[:200]

    queries = []
    for n in range(rng.randint(1, 3)):
        ids = list(dict.fromkeys(text() for _ in range(rng.randint(1, 8))))
        ranking = tuple(Item(d, text(), rng.choice([None, 0, 0, 1, 2, 3])) for d in ids)
        tray = tuple(Item(f"{text()}#{i}", text(), rng.randint(0, 3)) for i in range(rng.randint(0, 2)))
        queries.append(Query(text() or f"q{n}", ranking, tray))
    return Example(tuple(queries), k=rng.randint(1, 10), mode=rng.choice(["binary", "graded"]),
                   current=rng.randrange(len(queries)))


def valid_hostile_examples(count: int, seed: int) -> list[Example]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        try:
            out.append(validate(hostile_example(rng)))
        except ExampleError:
            continue
    return out


def example_cell(nb) -> str:
    return next(c.source for c in nb.cells if c.cell_type == "code" and "example = Example(" in c.source)


def test_first_cell_installs_ranklab_and_names_its_version():
    nb = notebook.build(notebook.page_view("playground", build_preset("cat")))
    version = notebook.ranklab_version()
    assert f"Ranklab {version}" in nb.cells[0].source
    install = nb.cells[1].source
    assert f"Made by Ranklab {version}" in install and "'pip', 'install'" in install
    assert nb.metadata["ranklab"]["version"] == version


def test_conventions_reach_the_measures_and_the_charts():
    view = notebook.page_view("lesson_dcg", build_preset("dcg"), conventions={"dcg": "jarvelin", "ideal": "ranking"})
    assert "nDCG(dcg='jarvelin',ideal='ranking')@6" in view.measures
    assert "CG(dcg='jarvelin')@6" in view.measures  # CG takes no ideal ordering
    nb = notebook.build(view)
    assert any("NDCG = \"nDCG(dcg='jarvelin',ideal='ranking')\"" in c.source for c in nb.cells)
    ap = notebook.page_view("lesson_ap", build_preset("cat"), conventions={"denominator": "min(k,R)"})
    assert ap.measures == ("AP(denominator='min(k,R)')@2",)


# --------------------------------------------------------------------------- executed notebooks

LINE = re.compile(r"^(mean )?(\S+) = (\S+)$")


def execute(nb):
    nbclient = pytest.importorskip("nbclient", reason="nbclient is needed to run the notebooks (pip install nbclient)")
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    return nb


def printed(nb) -> list[tuple[bool, str, float]]:
    out = []
    for cell in nb.cells:
        # a cell's printed text, whole: a busy kernel flushes its output in pieces that may
        # cut a line in two
        text = ""
        for o in cell.get("outputs", []):
            if o.output_type == "error":
                raise AssertionError(f"{o.ename}: {o.evalue}")
            if o.output_type == "stream" and o.name == "stdout":
                text += o.text
        for line in text.splitlines():
            m = LINE.match(line)
            if m:
                out.append((bool(m.group(1)), m.group(2), float(m.group(3))))
    return out


def check_numbers(view: notebook.PageView, nb) -> None:
    ex = view.example
    ranking, judgments = ex.query.inputs(ex.mode)
    lines = printed(nb)
    single = [(m, v) for mean, m, v in lines if not mean]
    assert [m for m, _v in single] == list(view.measures)
    for m, v in single:
        assert v == metrics.score(m, ranking, judgments), m
    means = [(m, v) for mean, m, v in lines if mean]
    if len(ex.queries) > 1:
        assert [m for m, _v in means] == list(view.measures)
        for m, v in means:
            per_query = [metrics.score(m, *q.inputs(ex.mode)) for q in ex.queries]
            assert v == pytest.approx(sum(per_query) / len(per_query), abs=1e-12), m
    else:
        assert not means
    # the charts drew: each chart cell shows a Vega-Lite chart
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.endswith("\nchart"):
            assert any("data" in o for o in cell.outputs), cell.source[:60]


CASES = [
    ("playground", "cat", "en"),               # the Playground's default
    ("playground", "three-queries", "fr"),     # three queries
    ("playground", "unjudged", "ko"),          # unjudged items and a tray
    ("lesson_pr", "cat", "zh"),
    ("lesson_rr", "three-queries", "en"),
    ("lesson_ap", "dcg", "fr"),
    ("lesson_dcg", "white-cat", "ko"),
    ("lesson_prc", "grouped", "zh"),
    ("lesson_unjudged", "unjudged", "en"),
    ("lesson_users", "white-cat", "fr"),
    ("playground", "hostile", "zh"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("page", "preset", "lang"), CASES)
def test_generated_notebook_runs_and_prints_the_page_numbers(page, preset, lang):
    if preset == "unjudged":
        example = unjudged_example()
    elif preset == "hostile":
        example = next(e for e in valid_hostile_examples(20, SEED + 1) if len(e.queries) > 1 and e.query.ranking)
    else:
        example = build_preset(preset)
    with language(lang):
        title = _("Playground")
        conventions = {"dcg": "exp-log2"} if page == "lesson_dcg" else {}
        view = notebook.page_view(page, example, conventions=conventions, title=title, text=_("Language"))
    nb = nbformat.reads(notebook.write(view).decode("utf-8"), as_version=4)
    assert nb.cells[0].source.startswith("# " + title)
    with language(lang):
        assert any(c.source == "## " + _("The example") for c in nb.cells)
    check_numbers(view, execute(nb))
