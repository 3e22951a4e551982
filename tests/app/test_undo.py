"""Undo and redo on the Playground and Many queries (ranklab_ui.session.history)."""

from __future__ import annotations

import pytest

from ranklab_ui.session import history
from tests.app.conftest import edit, example, links_shown, new_app


def recall_at_2(at) -> float:
    return float(links_shown(at)["Recall@2"])


def grades(at) -> list[int]:
    return [item.grade for item in example(at).query.ranking]


def undo(at):
    return at.button(key="playground.undo").click().run()


def redo(at):
    return at.button(key="playground.redo").click().run()


def test_edit_edit_undo_undo_redo(app):
    # cat in the box, k = 2: relevant at ranks 2, 4, 5, 7 -> R@2 = 1/4
    assert recall_at_2(app) == 0.25
    assert app.button(key="playground.undo").disabled and app.button(key="playground.redo").disabled
    edit(app, edited_rows={0: {"grade": 1}})          # rank 1 relevant too: 2 of R = 5
    assert recall_at_2(app) == 0.4
    edit(app, edited_rows={0: {"grade": 1}, 2: {"grade": 1}})  # and rank 3: 2 of R = 6
    assert recall_at_2(app) == pytest.approx(1 / 3, abs=5e-5)
    undo(app)
    assert grades(app)[:3] == [1, 1, 0] and recall_at_2(app) == 0.4
    undo(app)
    assert grades(app)[:3] == [0, 1, 0] and recall_at_2(app) == 0.25
    assert app.button(key="playground.undo").disabled
    redo(app)
    assert grades(app)[:3] == [1, 1, 0] and recall_at_2(app) == 0.4
    assert not app.button(key="playground.redo").disabled  # the second edit can come back too
    assert not app.exception


def test_a_new_change_clears_redo(app):
    edit(app, edited_rows={0: {"grade": 1}})
    undo(app)
    assert not app.button(key="playground.redo").disabled
    app.button(key="playground.pick.0.down").click().run()  # rank 1 ↓: the cat and the cat in a box swap
    assert [i.id for i in example(app).query.ranking][:2] == ["2", "1"]
    assert app.button(key="playground.redo").disabled
    undo(app)
    assert [i.id for i in example(app).query.ranking][:2] == ["1", "2"]


def test_k_is_not_a_step_and_undo_keeps_it(app):
    edit(app, edited_rows={0: {"grade": 1}})
    app.slider(key="playground.k").set_value(5).run()
    undo(app)  # undoes the edit, not k
    assert grades(app)[0] == 0 and example(app).k == 5
    assert app.button(key="playground.undo").disabled


def test_a_preset_and_the_mode_are_undoable(app):
    app.selectbox(key="playground.preset").set_value("dcg").run()
    app.segmented_control(key="playground.mode").set_value("binary").run()
    assert example(app).mode == "binary" and example(app).query.name == "textbook DCG"
    undo(app)
    assert example(app).mode == "graded"
    undo(app)
    assert example(app).query.name == "cat in the box"


def test_undo_stops_after_fifty_steps():
    at = new_app()
    at.run()
    for n in range(1, 61):  # 60 label edits, each one step
        edit(at, edited_rows={0: {"label": f"step {n}"}})
    assert example(at).query.ranking[0].label == "step 60"
    undone = 0
    for _ in range(55):  # 55 tries; a disabled button cannot be clicked, in AppTest as in the browser
        if at.button(key="playground.undo").disabled:
            break
        undo(at)
        undone += 1
    assert not at.exception
    assert undone == history.DEPTH == 50
    assert example(at).query.ranking[0].label == f"step {60 - history.DEPTH}"  # 50 steps back: step 10
    assert at.button(key="playground.undo").disabled
    redo(at)
    assert example(at).query.ranking[0].label == "step 11"


def test_many_queries_add_and_undo():
    at = new_app()
    at.run()
    at.switch_page("app_pages/many_queries.py").run()
    at.button(key="many.add").click().run()
    assert len(example(at).queries) == 2
    at.button(key="many.undo").click().run()
    assert len(example(at).queries) == 1 and example(at).current == 0
    at.button(key="many.redo").click().run()
    assert len(example(at).queries) == 2
    assert not at.exception
