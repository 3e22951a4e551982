"""Dark mode: the theme was forced light. The app follows the browser's colour
preference, and the grade tiles keep their contrast on a dark page (the strip is its own white
card, with dark axis texts)."""

import pytest

from ranklab_ui.core.charts import STRIP_BACKGROUND, STRIP_TEXT

from .helpers import drawn


def luminance(rgb: str) -> float:
    parts = [int(x) / 255 for x in rgb[rgb.index("(") + 1: rgb.index(")")].split(",")[:3]]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_app_follows_the_colour_preference_and_the_tiles_stay_readable(browser, server, scheme):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    try:
        page.goto(f"{server}/lesson_average_precision")
        page.locator("[data-testid='stVegaLiteChart'] svg .role-axis-label text").first.wait_for(timeout=60_000)
        drawn(page, timeout=60_000)
        background = page.evaluate("() => getComputedStyle(document.querySelector('[data-testid=\"stApp\"]'))"
                                   ".backgroundColor")
        assert (luminance(background) < 0.2) == (scheme == "dark"), background
        # the body text on the page's background: AA
        text = page.evaluate("() => getComputedStyle(document.querySelector('[data-testid=\"stMarkdownContainer\"] p'))"
                             ".color")
        assert contrast(text, background) >= 4.5
        # the strip: its own white card, its rank labels dark on it
        strip = page.evaluate("""() => { for (const svg of document.querySelectorAll("[data-testid='stVegaLiteChart'] svg")) {
            const labels = [...svg.querySelectorAll(".role-axis-label text")];
            if (labels.length && labels.every(t => t.textContent.startsWith("#")))
              return {bg: svg.style.backgroundColor, ink: getComputedStyle(labels[0]).fill}; } return null; }""")
        assert strip is not None
        assert luminance(strip["bg"]) == pytest.approx(1.0) and STRIP_BACKGROUND == "#ffffff"
        assert contrast(strip["ink"], strip["bg"]) >= 4.5
        assert strip["ink"].replace(" ", "") == "rgb(49,51,63)" and STRIP_TEXT == "#31333f"
    finally:
        context.close()
