"""Every page, in every language, at a projector's, a laptop's and a phone's size:
no text cut in its box or past the right edge, none cut in a read-only canvas table (st.dataframe),
and no character drawn as an empty box.

The checks are generic (tests/browser/layout.py walks every rendered element with text of its
own), not a list of known places. One server and one browser page for the whole sweep: each
page is loaded once per language, then the viewport is resized to each size in turn.
"""

import json

import pytest

from ranklab_ui.core.i18n import LANGUAGES

from .helpers import QUIET, ST, drawn, shot
from .layout import CANVAS_CUT, CUT_TEXT, EMPTY_GLYPHS

SIZES = [(1024, 768), (1280, 720), (390, 844)]
# every page of app.py's navigation, by its address ("" is the default page)
PAGES = ["", "start", "many_queries", "lesson_precision_recall", "lesson_reciprocal_rank", "lesson_average_precision",
         "lesson_dcg", "lesson_pr_curve", "lesson_users", "lesson_unjudged", "check_calculation", "practice",
         "class_poll", "conventions", "pitfalls", "compare", "swap_map", "reader", "evaluate_files", "diagnose"]


def test_the_pages_list_is_the_navigation():
    """A page added to app.py's navigation is swept too."""
    import re
    from pathlib import Path

    app = (Path(__file__).resolve().parents[2] / "app.py").read_text(encoding="utf-8")
    paths = re.findall(r'st\.Page\("app_pages/(\w+)\.py"', app)
    default = re.search(r'st\.Page\("app_pages/(\w+)\.py"[^\n]*default=True', app).group(1)
    assert sorted(p if p != default else "" for p in paths) == sorted(PAGES)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_no_text_is_cut_and_no_glyph_is_empty(browser, server, lang):
    context = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
    page = context.new_page()
    found = []
    try:
        for path in PAGES:
            page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
            page.goto(f"{server}/{path}?lang={lang}")
            page.locator(f"{ST.MAIN_BLOCK} h1, {ST.MAIN_BLOCK} {ST.HEADING}").first.wait_for(timeout=60_000)
            drawn(page, 60_000)   # the charts and frames drawn, and the page still
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                page.evaluate(QUIET, [300, 5000])  # the layout and the charts follow the new width
                where = f"{path or 'playground'} {lang} {width}x{height}"
                here = [f for check in (CUT_TEXT, CANVAS_CUT, EMPTY_GLYPHS) for f in page.evaluate(check, None)]
                if here:  # a finding must still be there once the page has settled (a font, a late chart)
                    page.evaluate(QUIET, [1000, 5000])
                    here = [f for check in (CUT_TEXT, CANVAS_CUT, EMPTY_GLYPHS) for f in page.evaluate(check, None)]
                found += [f"{where}: {json.dumps(f, ensure_ascii=False)}" for f in here]
                if found and len(found) < 4:
                    shot(page, f"sweep_{path or 'playground'}_{lang}_{width}")
    finally:
        context.close()
    assert found == [], "\n".join(found)
