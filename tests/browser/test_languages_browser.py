"""The languages in Chromium: ?lang= opens the app in that language with the
page's lang attribute set; the picker writes the language into the address; Korean and
Chinese are drawn with a CJK font (no empty boxes). Screenshots go to test-artifacts/."""

import re

import pytest

from .helpers import ARTIFACTS, ST, TIMEOUT, drawn, shot

TITLES = {"fr": "Bac à sable", "ko": "플레이그라운드", "zh": "练习场"}
LESSON = {"fr": "Précision, rappel et F1 à k", "ko": "k에서의 정밀도, 재현율, F1", "zh": "k 处的精确率、召回率和 F1"}


def _html_lang(page) -> str:
    page.wait_for_function("document.documentElement.lang !== 'en'", timeout=30_000)
    return page.evaluate("document.documentElement.lang")


@pytest.mark.browser
@pytest.mark.parametrize("lang", list(TITLES))
def test_a_link_opens_the_app_in_its_language(server, page, lang):
    page.goto(f"{server}/?lang={lang}")
    page.get_by_role("heading", name=TITLES[lang]).wait_for(timeout=60_000)
    assert _html_lang(page) == lang
    shot(page, f"lang_{lang}_playground")
    page.goto(f"{server}/lesson_precision_recall?lang={lang}")
    page.get_by_role("heading", name=LESSON[lang]).wait_for(timeout=60_000)
    drawn(page, timeout=60_000)
    shot(page, f"lang_{lang}_lesson_precision_recall")
    assert f"lang={lang}" in page.url   # the language stays in the link


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["ko", "zh"])
def test_cjk_text_has_a_font(server, page, lang):
    """Each CJK character of the title is drawn wider than a missing-glyph box would make a
    Latin letter, and the document reports a font for it (Debian's fonts-noto-cjk)."""
    page.goto(f"{server}/?lang={lang}")
    page.get_by_role("heading", name=TITLES[lang]).wait_for(timeout=60_000)
    sample = TITLES[lang]
    assert page.evaluate("(text) => document.fonts.check('16px sans-serif', text)", sample)
    # a CJK glyph is about one em wide; measured against a Latin "n" in the same font
    widths = page.evaluate("""(text) => {
        const c = document.createElement('canvas').getContext('2d');
        c.font = '40px sans-serif';
        return [c.measureText(text[0]).width, c.measureText('n').width];
    }""", sample)
    assert widths[0] > 1.5 * widths[1]


@pytest.mark.browser
def test_the_picker_writes_the_language_into_the_link(server, page):
    page.goto(server)
    page.get_by_role("heading", name="Playground").wait_for(timeout=60_000)
    sidebar = page.locator(ST.SIDEBAR)
    picker = sidebar.locator(ST.SELECTBOX, has_text="Language").first
    picker.wait_for(timeout=TIMEOUT)
    # the first visit's runs over and the page still: a picker opened while the page is drawn
    # again is taken away from under the click
    picker.evaluate("e => e.scrollIntoView({block: 'center'})")
    drawn(page, timeout=60_000)
    try:
        picker.click()
    except Exception:
        shot(page, "lang_picker_not_clickable")
        raise
    page.get_by_role("option", name="Français").click()
    page.get_by_role("heading", name=TITLES["fr"]).wait_for(timeout=60_000)
    page.wait_for_url(re.compile(r"[?&]lang=fr"), timeout=30_000)
    assert _html_lang(page) == "fr"
    shot(page, "lang_picker_fr")
    page.goto(f"{server}/lesson_dcg?lang=ko")   # a deep link: full page, charts included
    page.get_by_role("heading", name="CG → DCG → IDCG → nDCG").wait_for(timeout=60_000)
    drawn(page, timeout=60_000)
    page.screenshot(path=str(ARTIFACTS / "browser_lang_ko_lesson_dcg_full.png"), full_page=True)


@pytest.mark.browser
@pytest.mark.parametrize("locale, lang", [("fr-CA", "fr"), ("ko-KR", "ko"), ("zh-CN", "zh"), ("zh-TW", "en"), ("de-DE", "en")])
def test_the_browsers_language_is_the_default(server, browser, locale, lang):
    """Without ?lang=, the browser's language (st.context.locale) decides; one Ranklab does not
    speak is English. A language other than English then goes into the link."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale=locale)
    try:
        pg = context.new_page()
        pg.goto(server)
        pg.get_by_role("heading", name=TITLES.get(lang, "Playground")).wait_for(timeout=60_000)
        if lang != "en":
            assert _html_lang(pg) == lang
            pg.wait_for_url(re.compile(rf"[?&]lang={lang}\b"), timeout=30_000)
        else:
            assert "lang=" not in pg.url
    finally:
        context.close()
