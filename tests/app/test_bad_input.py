"""Hostile and broken input: a clear inline message, no exception, the previous example kept,
and no HTML, link or image rendered from user text."""

import pytest

from ui import state

from .conftest import PAGES, charts, edit, editor_key, errors, example, new_app

HOSTILE = "<img src=x onerror=alert(1)> [click](http://evil.example) ![i](http://evil.example/i.png) **bold**"


def all_pages_run(at):
    for page in PAGES:
        at.switch_page(page)
        at.run()
        assert not at.exception, (page, at.exception)


def test_hostile_label_is_kept_as_plain_text(app):
    edit(app, edited_rows={0: {"label": HOSTILE}})
    assert not app.exception and not errors(app)
    assert example(app).query.ranking[0].label == HOSTILE
    for page in PAGES:
        app.switch_page(page)
        app.run()
        assert not app.exception
        # user text never reaches Markdown unescaped (labels live in tables and charts only)
        for md in app.markdown:
            assert "<img" not in md.value and "](http" not in md.value, (page, md.value)
    strips = [data for spec, data in charts(app) if data is not None and "label" in data]
    assert any(HOSTILE in list(d["label"]) for d in strips)   # a chart datum, drawn as text


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
    edit(app, edited_rows={0: {"label": "x" * 10_000}})
    assert not app.exception
    assert any("10,000 characters is too long" in e for e in errors(app))
    assert example(app).query.ranking[0].label == "🐱 cat"


@pytest.mark.parametrize("grade", [
    # what a person types into the grade cell (a text cell: the browser no longer bends it)
    "-1", "11", "1e3", "2.5", "100", "0x10", "1_0", "\u0663", "high", "1 2",
    # what other clients could send
    -1, 1e12, 2.5, float("inf"), 10**400,
])
def test_bad_grades_are_refused_and_the_previous_value_stays(app, grade):
    before = example(app)
    edit(app, edited_rows={2: {"grade": grade}})
    assert not app.exception
    # the message names the row and the allowed values
    assert any("position 3" in e and "0 to 10, or ? for unjudged" in e for e in errors(app)), errors(app)
    assert example(app) == before
    # the grid starts again from the example: the cell shows the previous grade (0), not the typed one
    grid = app.session_state[editor_key(app)] if editor_key(app) in app.session_state else None
    assert not (grid or {}).get("edited_rows")


def test_a_text_grade_that_is_a_number_is_accepted(app):
    edit(app, edited_rows={0: {"grade": " 2 "}})
    assert not errors(app)
    assert example(app).query.ranking[0].grade == 2


@pytest.mark.parametrize("typed", ["?", "", " ? ", None])
def test_an_empty_or_question_mark_grade_is_unjudged(app, typed):
    # cat in the box: relevant at 2, 4, 5, 7; rank 2 unjudged leaves 3 relevant of 3 judged:
    # P@2 = 0 / 2 (an unjudged document is not relevant, as in trec_eval) and R@8 = 3 / 3
    edit(app, edited_rows={1: {"grade": typed}})
    assert not errors(app)
    ex = example(app)
    assert ex.query.ranking[1].grade is None
    ranking, judgments = ex.query.inputs(ex.mode)
    assert "2" not in judgments
    assert any("Precision@2 = **0**" in str(link.proto.label) for link in app.get("page_link"))
def test_ten_thousand_rows_are_refused(app):
    before = example(app)
    edit(app, added_rows=[{"label": f"r{i}", "grade": 0} for i in range(10_000)])
    assert not app.exception
    assert any("10,000 rows added" in e and "at most 1,000 items" in e for e in errors(app))
    assert example(app) == before


def test_an_empty_list_is_explained_on_every_page(app):
    edit(app, deleted_rows=list(range(8)))
    assert not app.exception and not errors(app)
    assert example(app).query.ranking == ()
    for page in PAGES:
        app.switch_page(page)
        app.run()
        assert not app.exception, page
        if page != "app_pages/many_queries.py":
            assert any("ranking is empty" in i.value for i in app.info), page


def test_k_beyond_the_list_uses_the_whole_list():
    ex = state.build_preset("cat")
    from dataclasses import replace

    at = new_app(ex=state.encode(replace(ex, k=50)))
    at.run()
    assert not at.exception
    assert any("k = 50 is beyond the 8 ranked items; using k = 8" in c.value for c in at.caption)
    all_pages_run(at)


@pytest.mark.parametrize("link", ["1.garbage", "9.eNqrVg", "1." + "A" * 5000, "", "1.eNqLjgUAARUAuQ"])
def test_a_tampered_permalink_keeps_the_default_example(link):
    at = new_app(ex=link)
    at.run()
    assert not at.exception
    assert example(at) == state.build_preset("cat")
    if link:
        assert any("example was not changed" in e for e in errors(at))


def test_a_tampered_permalink_keeps_the_current_example(app):
    app.selectbox(key="playground.preset").set_value("dcg").run()
    app.query_params["ex"] = "1.not-a-real-link"
    app.run()
    assert not app.exception
    assert example(app) == state.build_preset("dcg")
    assert any("damaged" in e for e in errors(app))
