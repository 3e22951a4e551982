"""Read-only tables once a page shows its results: no text cut, in a canvas table (st.dataframe)
or an HTML one, at a laptop's, a projector's and a phone's size; and the text a reader typed
(hostile labels and ids) shows in an HTML table as typed, never as markup.

The default state of every page is swept by test_sweep_browser; the tables here appear only
after a choice (a pitfall, a diagnosis, several systems). The checks are the sweep's generic ones.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ranklab_ui.core import codec, model, validation

from .helpers import QUIET, ST, drawn, shot
from .layout import CANVAS_CUT, CUT_TEXT

pytestmark = pytest.mark.browser
TIMEOUT = 60_000
SIZES = [(1280, 800), (1024, 768), (390, 844)]
SAMPLE = Path(__file__).resolve().parents[2] / "assets" / "collection"


def _exponential_ndcg() -> str:
    """Their numbers, for the Diagnose page to explain: pytrec_eval's nDCG@10 on the sample
    collection with 2^grade - 1 as the grades, printed as trec_eval -q prints it."""
    import pytrec_eval

    with open(SAMPLE / "qrels.txt") as q, open(SAMPLE / "run_bm25.txt") as r:
        qrels, run = pytrec_eval.parse_qrel(q), pytrec_eval.parse_run(r)
    remapped = {t: {d: 2 ** g - 1 for d, g in docs.items()} for t, docs in qrels.items()}
    res = pytrec_eval.RelevanceEvaluator(remapped, {"ndcg_cut_10"}).evaluate(run)
    return "".join(f"ndcg_cut_10\t{t}\t{v['ndcg_cut_10']:.4f}\n" for t, v in res.items())


def _settle(page) -> None:
    drawn(page, TIMEOUT)   # the canvas tables drawn, and the page still


def _cut(page, where: str) -> list[str]:
    found = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(QUIET, [300, 5000])  # the layout and the canvas follow the new width
        here = [f for check in (CUT_TEXT, CANVAS_CUT) for f in page.evaluate(check, None)]
        if here:  # still there once the page has settled
            page.evaluate(QUIET, [1000, 5000])
            here = [f for check in (CUT_TEXT, CANVAS_CUT) for f in page.evaluate(check, None)]
        found += [f"{where} {width}x{height}: {json.dumps(f, ensure_ascii=False)}" for f in here]
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    return found


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_table_text_is_cut_once_the_results_show(browser, server, lang):
    context = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
    page = context.new_page()
    found = []
    try:
        # every pitfall: its "wrong and right" table of notes
        page.goto(f"{server}/pitfalls?lang={lang}")
        radios = page.locator(f"{ST.RADIO} {ST.RADIO_OPTION}")
        radios.first.wait_for(timeout=TIMEOUT)
        _settle(page)
        for i in range(radios.count()):
            radios.nth(i).click()
            _settle(page)
            found += _cut(page, f"pitfall {i + 1} {lang}")
        # a diagnosis: the conventions it changed, and why each moves the value
        page.goto(f"{server}/diagnose?lang={lang}")
        area = page.locator("textarea").first
        area.wait_for(timeout=TIMEOUT)
        area.fill(_exponential_ndcg())
        area.press("Control+Enter")
        page.locator(ST.TABLE).first.wait_for(timeout=TIMEOUT)
        _settle(page)
        found += _cut(page, f"diagnose {lang}")
        # several systems: the means, and every pair
        page.goto(f"{server}/compare?lang={lang}")
        page.locator(f"{ST.RADIO} {ST.RADIO_OPTION}").nth(5).click(timeout=TIMEOUT)
        page.locator(ST.TABLE).first.wait_for(timeout=TIMEOUT)  # every pair
        _settle(page)
        found += _cut(page, f"compare {lang}")
        if found:
            shot(page, f"tables_cut_{lang}")
    finally:
        context.close()
    assert found == [], "\n".join(found)


def test_labels_in_a_step_table_show_as_typed(browser, server):
    labels = ["<script>alert(9)</script>", "[l](http://evil.example/l) **b**", "\u05e9\u05dc\u05d5\u05dd RTL",
              "zero\u200bwidth # / \\ |"]
    ids = ["a#1", "x/y", "<b>c</b>", "d e"]
    example = validation.validate(model.Example((model.Query(
        "q", tuple(model.Item(d, lab, g) for d, lab, g in zip(ids, labels, [1, 0, 2, 1], strict=True))),), k=3))
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        page.goto(f"{server}/lesson_average_precision?{codec.PARAM}={codec.encode(example)}")
        table = page.locator(ST.TABLE).first
        table.wait_for(timeout=TIMEOUT)
        _settle(page)
        cells = [t.replace("\u200b", "") for t in table.locator("td").all_inner_texts()]
        for text in labels + ids:
            assert text.replace("\u200b", "") in cells, (text, cells)
        markup = table.evaluate("t => t.querySelectorAll('a, img, script, strong, b, em').length")
        assert markup == 0 and dialogs == []
        shot(page, "tables_hostile_step_table")
    finally:
        context.close()
