""""Open as a notebook" in headless Chromium: the download is a valid notebook of what the
page shows (its convention from the link included), and the button fits at three widths."""

import nbformat
import pytest

from ranklab_ui.core import notebook

from .helpers import ST, TIMEOUT, shot, wait_ready

pytestmark = pytest.mark.browser
LABEL = "Open as a notebook (.ipynb)"


def download(page) -> dict:
    button = page.get_by_role("button", name=LABEL)
    button.scroll_into_view_if_needed()
    with page.expect_download(timeout=TIMEOUT) as info:
        button.click()
    path = info.value.path()
    nb = nbformat.read(str(path), as_version=4)
    nbformat.validate(nb)
    return nb


def measures(nb) -> list[str]:
    return [c.source.strip("#` ") for c in nb.cells if c.cell_type == "markdown" and c.source.startswith("### ")]


def test_the_dcg_lesson_downloads_its_notebook_with_the_linked_convention(server, page):
    page.goto(f"{server}/lesson_dcg?dcg=exp-log2")
    wait_ready(page)
    page.wait_for_function("() => document.body.innerText.includes(\"nDCG(dcg='exp-log2')@2\")", timeout=TIMEOUT)
    nb = download(page)
    # cat in the box at k = 2, the gain 2^grade - 1 chosen in the link
    assert measures(nb) == ["CG(dcg='exp-log2')@2", "DCG(dcg='exp-log2')@2", "IDCG(dcg='exp-log2')@2",
                            "nDCG(dcg='exp-log2')@2"]
    assert nb.metadata["ranklab"]["page"] == "lesson_dcg"
    assert nb.cells[0].source.startswith("# CG → DCG → IDCG → nDCG")
    assert page.locator(ST.EXCEPTION).count() == 0


def test_the_playground_downloads_its_notebook(server, page):
    page.goto(server)
    wait_ready(page)
    nb = download(page)
    assert measures(nb)[:3] == ["P@2", "R@2", "F1@2"]
    source = next(c.source for c in nb.cells if "example = Example(" in c.source)
    namespace: dict = {}
    exec(compile(source, "cell", "exec"), namespace)  # noqa: S102 - the cell we wrote
    assert namespace["example"].query.name == "cat in the box"
    assert notebook.PAGES["playground"].measures[0] == "P@{k}"


def test_a_k_moved_in_the_lesson_reaches_its_notebook(server, page):
    """The slider reruns only the lesson's fragment: the button drawn in it writes the new k."""
    page.goto(f"{server}/lesson_precision_recall")
    wait_ready(page)
    assert measures(download(page)) == ["P@2", "R@2", "F1@2"]  # the cat in the box, k = 2
    slider = page.locator(f"{ST.SLIDER} input[type='range']").first
    slider.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.body.innerText.includes('P@3')", timeout=TIMEOUT)
    wait_ready(page)
    assert measures(download(page)) == ["P@3", "R@3", "F1@3"]


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1024, 768), (390, 844)])
def test_the_button_fits(browser, server, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        for path, name in (("lesson_precision_recall", "lesson"), ("", "playground")):
            page.goto(f"{server}/{path}")
            wait_ready(page)
            button = page.get_by_role("button", name=LABEL)
            button.scroll_into_view_if_needed()
            box = button.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, box
            shot(page, f"notebook_button_{name}_{width}x{height}")
    finally:
        context.close()
