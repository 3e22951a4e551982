"""Dark mode: the theme was forced light. The app follows the browser's colour preference, and
the ranking editor keeps its contrast on a dark page: its text on its rows, every grade's digit
on its chip, the k bar's label on the bar."""

import pytest

from ranklab_ui.core import model

from .helpers import st_js
from .pages import Lesson

# each grade shown (a digit on its coloured chip), a row's label and the k bar's label: the
# colour of each text and of what is behind it (the nearest background that is not transparent)
COLOURS = st_js("""(box) => {
  const back = (e) => { for (; e; e = e.parentElement || (e.getRootNode() && e.getRootNode().host)) {
      const c = getComputedStyle(e).backgroundColor; if (c && c !== 'transparent' && !/rgba\\(.*, 0\\)$/.test(c)) return c; }
    return getComputedStyle(document.querySelector(ST.APP)).backgroundColor; };
  const out = [...box.querySelectorAll('.grade')].map(g => [g.textContent, getComputedStyle(g).color, back(g)]);
  const label = box.querySelector('.label');
  out.push(['label', getComputedStyle(label).color, back(label)]);
  const cut = box.querySelector('.item.cut');
  if (cut) { const a = getComputedStyle(cut, '::after'); out.push(['k bar', a.color, a.backgroundColor]); }
  return out; }""")


def luminance(rgb: str) -> float:
    parts = [int(float(x)) / 255 for x in rgb[rgb.index("(") + 1: rgb.index(")")].split(",")[:3]]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_app_follows_the_colour_preference_and_the_editor_stays_readable(browser, server, scheme):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    try:
        # grades 0..10 and unjudged, each shown once
        items = tuple(model.Item(f"d{g}", f"grade {g}", g) for g in range(11)) + (model.Item("u", "unjudged", None),)
        lesson = Lesson(page, "lesson_average_precision").open(server, model.Example((model.Query("q", items),), k=2))
        lesson.finished()
        background = page.evaluate(st_js("() => getComputedStyle(document.querySelector(ST.APP))"
                                         ".backgroundColor"))
        assert (luminance(background) < 0.2) == (scheme == "dark"), background
        # the body text on the page's background: AA
        text = page.evaluate(st_js("() => getComputedStyle(document.querySelector(ST.MARKDOWN + ' p'))"
                                   ".color"))
        assert contrast(text, background) >= 4.5
        found = lesson.editor().box.evaluate(COLOURS)
        assert [f[0] for f in found[:12]] == [str(g) for g in range(11)] + ["?"]
        low = [(what, ink, behind, round(contrast(ink, behind), 2)) for what, ink, behind in found
               if contrast(ink, behind) < 4.5]
        assert low == [], low
    finally:
        context.close()
