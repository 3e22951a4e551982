"""Printing a lesson: Chromium printed the sidebar and cut the formula and the step
table at the right margin of A4. In print, the sidebar, the toolbar and the buttons are gone,
the columns stack, and at A4's printable width (718 CSS px) no text is cut or past the edge: not
in a box that would scroll on the screen, and not in a table drawn on a canvas (which prints only
what it shows)."""

from pathlib import Path

from ranklab_ui.core.codec import encode
from ranklab_ui.core.presets import build_preset

from .helpers import ARTIFACTS, QUIET, ST, drawn
from .layout import CANVAS_CUT, CUT_TEXT

A4_WIDTH = 718  # 210 mm at 96 px per inch, less Chromium's default margins of 0.4 in


def test_a_lesson_prints_on_a4_without_the_sidebar_and_nothing_cut(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto(f"{server}/lesson_average_precision?ex={encode(build_preset('cat'))}")
        page.locator(ST.METRIC_VALUE).first.wait_for(timeout=60_000)
        page.locator(".katex-display").first.wait_for(timeout=60_000)
        drawn(page, 60_000)
        page.emulate_media(media="print")
        hidden = page.evaluate("""(parts) => parts.map(part =>
            [...document.querySelectorAll(part)].every(e => getComputedStyle(e).display === 'none'))""",
                               [ST.SIDEBAR, ST.HEADER, ST.DOWNLOAD_BUTTON])
        assert hidden == [True, True, True]
        ARTIFACTS.mkdir(exist_ok=True)
        pdf = Path(ARTIFACTS / "browser_lesson_print.pdf")
        page.pdf(path=str(pdf), format="A4", margin={"top": "0.4in", "bottom": "0.4in", "left": "0.4in",
                                                      "right": "0.4in"})
        assert pdf.read_bytes().startswith(b"%PDF")
        page.set_viewport_size({"width": A4_WIDTH, "height": 1000})
        page.evaluate(QUIET, [500, 5000])   # the layout follows the paper's width
        assert page.evaluate(CUT_TEXT, {"paper": True}) == []
        assert page.evaluate(CANVAS_CUT, {"paper": True}) == []
        # the step table is on the page, every rank of it
        ranks = page.locator(f"{ST.TABLE} tbody tr")
        assert ranks.count() == len(build_preset("cat").queries[0].ranking)
        # every formula inside the page's width
        rights = page.evaluate("() => [...document.querySelectorAll('.katex-display .katex')]"
                               ".map(e => e.getBoundingClientRect().right)")
        assert rights and max(rights) <= A4_WIDTH + 1
    finally:
        context.close()
