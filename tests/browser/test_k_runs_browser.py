"""A new k is one run of the fragment that holds what k changes, in Chromium: the messages the
server sends for one step of a lesson's slider (the browser's own websocket, decoded with
Streamlit's protocol) hold one script run, the new values, and not the page's header again."""

import time

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from .helpers import ST, TIMEOUT, shot, wait_ready

pytestmark = pytest.mark.browser

SLIDER = f"{ST.SLIDER} input[type='range']"


def decoded(frames: list) -> list[ForwardMsg]:
    out = []
    for payload in frames:
        if isinstance(payload, bytes | bytearray):
            msg = ForwardMsg()
            msg.ParseFromString(bytes(payload))
            out.append(msg)
    return out


@pytest.mark.parametrize("lesson", ["lesson_dcg", "lesson_precision_recall"])
def test_one_step_of_a_lessons_slider_is_one_run_of_its_body(server, page, lesson):
    frames: list = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    page.goto(f"{server}/{lesson}")
    wait_ready(page)
    slider = page.locator(SLIDER).first
    k = int(slider.input_value())
    frames.clear()
    slider.focus()
    page.keyboard.press("ArrowRight")
    # the cat in the box has 8 results: every measure of the body is shown at the new k
    page.wait_for_function(f"() => document.body.innerText.includes('@{k + 1}')", timeout=TIMEOUT)
    wait_ready(page)
    time.sleep(0.3)
    shot(page, f"k_step_{lesson}")
    msgs = decoded(frames)
    kinds = [m.WhichOneof("type") for m in msgs]
    assert kinds.count("new_session") == 1, kinds  # one run (not the page's, stopped, then the body's)
    assert kinds.count("script_finished") == 1, kinds
    elements = [m.delta.new_element.WhichOneof("type") for m in msgs
                if m.WhichOneof("type") == "delta" and m.delta.WhichOneof("type") == "new_element"]
    assert "slider" in elements and "title" not in elements and "heading" not in elements[:1]
    assert int(page.locator(SLIDER).first.input_value()) == k + 1
    assert page.locator(ST.EXCEPTION).count() == 0


def settle(page) -> None:
    page.wait_for_timeout(300)
    wait_ready(page)
    page.wait_for_timeout(500)


TABLES = f"{ST.DATAFRAME}, {ST.TABLE}"   # on the canvas, or HTML (a short one)


def test_a_k_step_draws_a_lessons_details_again(server, page):
    # a k step reruns the lesson's fragment: everything under its values (the step table,
    # the charts) must follow the new k, none of them left twice or stale
    page.goto(f"{server}/lesson_precision_recall")
    wait_ready(page)
    # the confusion matrix, the curve over k and the step table
    page.wait_for_function(f"() => document.querySelectorAll(\"{ST.CHART}\").length >= 2"
                           f" && document.querySelector(\"{TABLES}\")", timeout=TIMEOUT)
    settle(page)
    charts = page.locator(ST.CHART).count()
    tables = page.locator(TABLES).count()
    slider = page.locator(SLIDER).first
    k = int(slider.input_value())
    for step in (1, 2):
        slider.focus()
        page.keyboard.press("ArrowRight")
        # the step table's caption: "Row k = {k} is highlighted"
        page.wait_for_function(f"() => document.body.innerText.includes('Row k = {k + step} is highlighted')",
                               timeout=TIMEOUT)
        settle(page)
        assert page.locator(ST.CHART).count() == charts
        assert page.locator(TABLES).count() == tables
        assert page.locator("[data-stale='true']").count() == 0
    assert f"Row k = {k} is highlighted" not in page.inner_text("body")
    assert page.locator(ST.EXCEPTION).count() == 0
