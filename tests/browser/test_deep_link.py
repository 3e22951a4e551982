"""A page URL opened as the very first request of a fresh server still goes through app.py.

With a folder called ``pages/`` beside app.py, Streamlit 1.67 ran such a page on its own
(raw file names in the sidebar, no wide layout) until someone opened ``/``; the pages
live in ``app_pages/`` so that it never happens. This module starts its own server, so
its first request is the deep link.
"""

from .helpers import ST, shot


def test_first_request_to_a_lesson_url_uses_the_apps_navigation(server, page):
    page.goto(f"{server}/lesson_dcg")
    page.get_by_role("heading", name="CG → DCG → IDCG → nDCG").wait_for(timeout=60_000)
    sidebar = page.locator(ST.SIDEBAR)
    sidebar.get_by_text("Precision, recall, F1").first.wait_for(timeout=30_000)
    shot(page, "deep_link_lesson_dcg")
    assert sidebar.get_by_text("lesson dcg").count() == 0  # no raw file names
    assert sidebar.get_by_text("Check my calculation").count() == 1
