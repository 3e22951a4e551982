"""Hostile and broken input: a clear inline message, no exception, the previous example kept,
and no HTML, link or image rendered from user text."""

import base64
import json
import re
import zlib

import pytest

from ranklab_ui.core import codec, model, presets
from ranklab_ui.session import keys

from .conftest import (
    PAGES,
    drawn,
    edit,
    editor_data,
    event,
    example,
    grade,
    label,
    new_app,
    send,
    send_value,
)

HOSTILE = "<img src=x onerror=alert(1)> [click](http://evil.example) ![i](http://evil.example/i.png) **bold**"


def shown(text: str) -> str:
    """What a reader sees of Markdown made by ``ranklab_ui.core.views.escape_markdown``: escapes and
    zero-width spaces removed."""
    return re.sub(r"\\(.)", r"\1", text).replace("\u200b", "")


def errors(at) -> list[str]:
    return [shown(e.value) for e in at.error]


def forge(payload) -> str:
    """A permalink holding any JSON, as someone editing a link by hand could make (a lone
    surrogate written as the JSON escape \\ud800)."""
    raw = json.dumps(payload).encode()
    return "1." + base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")


def live_markdown(value: str) -> bool:
    """Whether Markdown source holds an unescaped link, image or HTML tag."""
    return bool(re.search(r"(?<!\\)\]\(|(?<!\\)<[a-zA-Z]|https?:(\\?/){2}\w", value))


def all_pages_run(at):
    for page in PAGES:
        at.switch_page(page)
        at.run()
        assert not at.exception, (page, at.exception)


def test_hostile_label_is_kept_as_plain_text(app):
    label(app, 1, HOSTILE)
    assert not app.exception and not errors(app)
    assert example(app).query.ranking[0].label == HOSTILE
    assert editor_data(app)["ranking"][0][1] == HOSTILE   # data for the editor, which shows it as text
    for page in PAGES:
        app.switch_page(page)
        app.run()
        assert not app.exception
        # user text never reaches Markdown unescaped (labels live in the editor, tables and charts only)
        for md in app.markdown:
            assert "<img" not in md.value and "](http" not in md.value, (page, md.value)


def test_hostile_query_name_is_escaped(app):
    app.switch_page("app_pages/many_queries.py")
    app.run()
    key = f"many.name.0.v{app.session_state['state.version']}"
    app.text_input(key=key).set_value("[x](http://evil.example) <b>hi</b>").run()
    assert example(app).query.name == "[x](http://evil.example) <b>hi</b>"
    app.switch_page("app_pages/playground.py")
    app.run()
    shown = [md.value for md in app.markdown if "Ranked results" in md.value][0]
    assert "](http" not in shown and "<b>" not in shown
    # escaped, and the address broken by a zero-width space (Chromium links it otherwise:
    # tests/browser/test_app_browser.py::test_hostile_text_is_shown_as_text_never_as_a_link)
    assert r"\[x\]\(http\:\/" + "\u200b" + r"\/evil\.example\)" in shown


def test_a_10000_character_label_is_refused(app):
    label(app, 1, "x" * 10_000)
    assert not app.exception
    reason = ("Not applied: query 1 'cat in the box', ranking, position 1: label: 10,000 characters is too long "
              "(at most 200)")
    assert errors(app) == [reason]
    assert example(app).query.ranking[0].label == "🐱 cat"
    # the editor is told why, and shows the list the server holds
    data = editor_data(app)
    assert data["notice"] == {"seq": 1, "text": reason} and data["ranking"][0][1] == "🐱 cat"


WHERE = "query 1 'cat in the box', ranking, position 3"
ALLOWED = "is not allowed: use a whole number from 0 to 10, or ? for unjudged"
NOT_WHOLE = "ranking, position 3: the grade must be a whole number or unjudged, got"


@pytest.mark.parametrize(("grade_sent", "reason"), [
    # what the editor's number could hold, were its own check skipped (a hand-made client)
    (-1, f"{WHERE}: grade -1 {ALLOWED}"),
    (11, f"{WHERE}: grade 11 {ALLOWED}"),
    (100, f"{WHERE}: grade 100 {ALLOWED}"),
    (10**400, f"{WHERE}: grade a 401-digit number {ALLOWED}"),
    (2.5, f"{NOT_WHOLE} 2.5"),
    (1.0, f"{NOT_WHOLE} 1.0"),
    (1e12, f"{NOT_WHOLE} 1000000000000.0"),
    (float("inf"), f"{NOT_WHOLE} inf"),
    (True, f"{NOT_WHOLE} True"),
    # text where the editor sends a number: the grid's typed grades are no more, so none is read
    ("3", f"{NOT_WHOLE} '3'"),
    (" 2 ", f"{NOT_WHOLE} ' 2 '"),
    ("?", f"{NOT_WHOLE} '?'"),
    ("1e3", f"{NOT_WHOLE} '1e3'"),
    ("\u0663", f"{NOT_WHOLE} '\u0663'"),
    ("high", f"{NOT_WHOLE} 'high'"),
])
def test_bad_grades_are_refused_and_the_previous_value_stays(app, grade_sent, reason):
    before = example(app)
    grade(app, 3, grade_sent)
    assert not app.exception
    # the message names the row and what is wrong
    assert errors(app) == ["Not applied: " + reason]
    assert example(app) == before
    # the editor is given the list as the server holds it: rank 3 shows its grade, 0
    assert editor_data(app)["ranking"][2] == ["3", "📦 box", 0]


def test_an_unjudged_grade_is_none(app):
    # cat in the box: relevant at 2, 4, 5, 7; rank 2 unjudged leaves 3 relevant of 3 judged:
    # P@2 = 0 / 2 (an unjudged document is not relevant, as in trec_eval) and R@8 = 3 / 3
    grade(app, 2, None)
    assert not errors(app)
    ex = example(app)
    assert ex.query.ranking[1].grade is None
    ranking, judgments = ex.query.inputs(ex.mode)
    assert "2" not in judgments
    assert any("Precision@2 = **0**" in str(link.proto.label) for link in app.get("page_link"))
    assert editor_data(app)["ranking"][1] == ["2", "🐱📦 cat in a box", None]


def test_ten_thousand_rows_are_refused(app):
    before = example(app)
    send(app, event(app, ranking=[[f"r{i}", f"r{i}", 0] for i in range(10_000)], tray=[]))
    assert not app.exception
    assert errors(app) == ["Not applied: ranking: 10,000 items is too many (at most 1,000)"]
    assert example(app) == before


def test_an_empty_list_is_explained_on_every_page(app):
    def empty(ranking, tray):
        ranking.clear()
        tray.clear()

    edit(app, empty)
    assert not app.exception and not errors(app)
    assert example(app).query.ranking == ()
    for page in PAGES:
        app.switch_page(page)
        app.run()
        assert not app.exception, page
        if page != "app_pages/many_queries.py":
            assert any("ranking is empty" in i.value for i in app.info), page


@pytest.mark.parametrize("value", [
    None, "junk", [], {"events": None}, {"events": "x"}, {"events": [None, 1, "x", {}]},
    {"events": [{"seq": "1", "base": 0, "op": "set"}]},
    {"events": [{"seq": 1, "base": 0, "op": "set", "ranking": [[{"deep": [[[]]]}]], "tray": {}}]},
])
def test_a_hand_made_component_value_never_breaks_the_page(app, value):
    # what a websocket client other than the editor could send as the component's state
    before = example(app)
    send_value(app, value)
    assert not app.exception and example(app) == before
    assert len(errors(app)) <= 1 and all(e.startswith("Not applied") for e in errors(app))
    app.run()
    assert not app.exception and not app.error


def test_k_beyond_the_list_uses_the_whole_list():
    ex = presets.build_preset("cat")
    from dataclasses import replace

    at = new_app(ex=codec.encode(replace(ex, k=50)))
    at.run()
    assert not at.exception
    assert any("k = 50 is beyond the 8 ranked items; using k = 8" in c.value for c in at.caption)
    all_pages_run(at)


HOSTILE_NAME = "[Fix it here](http://evil.example/x) ![i](http://evil.example/i.png) <img src=x onerror=alert(1)> **b**"
CAT = {"v": 1, "k": 2, "m": "b", "q": [{"n": "cat in the box", "r": [["1", "cat", 0], ["2", "box", 1]]}]}


def _with(path, value) -> dict:
    payload = json.loads(json.dumps(CAT))
    node = payload
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return payload


DAMAGED = {
    "garbage": "1.garbage",
    "another version": "9.eNqrVg",
    "too long": "1." + "A" * 5000,
    "empty json": "1.eNqLjgUAARUAuQ",
    "grade 10**400": forge(_with(("q", 0, "r", 0, 2), 10**400)),
    "k 10**400": forge(_with(("k",), 10**400)),
    "deep nesting": "1." + base64.urlsafe_b64encode(zlib.compress(b'{"v":1,"q":' + b"[" * 200_000)).decode(),
    "lone surrogate name": forge(_with(("q", 0, "n"), "\ud800")),
    "lone surrogate label": forge(_with(("q", 0, "r", 0, 1), "a\udfffb")),
    "control character id": forge(_with(("q", 0, "r", 0, 0), "a\x00b")),
    "hostile name, bad grade": forge({**CAT, "q": [{"n": HOSTILE_NAME, "r": [["1", "cat", 99]]}]}),
}


@pytest.mark.parametrize("link", ["", *DAMAGED.values()], ids=["empty", *DAMAGED])
def test_a_tampered_permalink_keeps_the_default_example(link):
    at = new_app(ex=link)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert example(at) == presets.build_preset("cat")
    if link:
        assert any("example was not changed" in e for e in errors(at)), errors(at)
        # the message quotes the link's text, as plain text
        assert not any(live_markdown(e.value) for e in at.error), [e.value for e in at.error]
    at.run()   # the session is not broken: the next run works and says nothing more
    assert not at.exception and not at.error
    assert example(at) == presets.build_preset("cat")


def test_a_damaged_link_on_every_page_keeps_the_example_and_says_so():
    for page in PAGES:
        at = new_app()
        at.switch_page(page)   # a switch drops the query string: the link is set after it
        at.query_params["ex"] = DAMAGED["lone surrogate name"]
        at.run()
        assert not at.exception, (page, [e.value for e in at.exception])
        assert example(at) == presets.build_preset("cat"), page
        assert any("lone surrogate" in e and "example was not changed" in e for e in errors(at)), page


def test_a_hostile_name_in_a_valid_link_is_plain_text_everywhere():
    ids = ["[d](http://evil.example/d)", "<img src=x onerror=alert(1)>", "doc#D001", "![i](http://evil.example/j.png)"]
    ex = model.Example((model.Query(HOSTILE_NAME[:100], tuple(model.Item(d, d, g) for d, g in zip(ids, [1, 0, 2, 1], strict=True))),
                        model.Query("second " + HOSTILE_NAME[:40], (model.Item("x", HOSTILE_NAME[:90], 1),))),
                       k=3, mode="graded")
    at = new_app(ex=codec.encode(ex))
    at.run()
    assert not at.exception and example(at) == ex
    for page in PAGES:
        at.switch_page(page)
        at.run()
        assert not at.exception, (page, [e.value for e in at.exception])
        sources = [m.value for m in (*at.markdown, *at.caption, *at.error, *at.warning, *at.info, *at.subheader)]
        sources += [t.label for t in at.tabs] + [m.label for m in at.metric]
        assert not any(live_markdown(v) for v in sources), (page, [v for v in sources if live_markdown(v)])
    at.switch_page("app_pages/many_queries.py")
    at.run()
    labels = [t.label for t in at.tabs]
    assert shown(labels[0]).startswith("1. [Fix it here](http") and labels[0].endswith("…")


def test_a_tampered_permalink_keeps_the_current_example(app):
    app.selectbox(key=drawn(app, keys.preset("playground"))).set_value("dcg").run()
    app.query_params["ex"] = "1.not-a-real-link"
    app.run()
    assert not app.exception
    assert example(app) == presets.build_preset("dcg")
    assert any("damaged" in e for e in errors(app))
