"""Undo and redo through the ranking editor's buttons (ranklab_ui.session.history; the rule:
docs/editing.md). A step that changes only the editor's lists is taken in the browser and sent
with them, keeping the version; one that changes more (a preset, the mode, a query added) is
asked of the server, which makes a new version."""

from __future__ import annotations

import pytest

from ranklab_ui.core import presets
from ranklab_ui.session import history, keys
from tests.app.conftest import (
    drawn,
    editor_data,
    event,
    example,
    grade,
    k_slider,
    label,
    links_shown,
    move,
    new_app,
    redo,
    send,
    undo,
)


def recall_at_2(at) -> float:
    return float(links_shown(at)["Recall@2"])


def grades(at) -> list[int]:
    return [item.grade for item in example(at).query.ranking]


def counts(at, page: str = "playground", index: int = 0) -> tuple[int, int]:
    data = editor_data(at, page, index)
    return data["undo_count"], data["redo_count"]


def test_edit_edit_undo_undo_redo(app):
    # cat in the box, k = 2: relevant at ranks 2, 4, 5, 7 -> R@2 = 1/4
    assert recall_at_2(app) == 0.25
    assert counts(app) == (0, 0)                  # both buttons disabled
    grade(app, 1, 1)                              # rank 1 relevant too: 2 of R = 5
    assert recall_at_2(app) == 0.4
    grade(app, 3, 1)                              # and rank 3: 2 of R = 6
    assert recall_at_2(app) == pytest.approx(1 / 3, abs=5e-5)
    # the editor was sent the two steps back, newest first, to take them in the same frame
    assert [[row[2] for row in step[0][:3]] for step in editor_data(app)["undo"]] == [[1, 1, 0], [0, 1, 0]]
    undo(app)
    assert grades(app)[:3] == [1, 1, 0] and recall_at_2(app) == 0.4
    undo(app)
    assert grades(app)[:3] == [0, 1, 0] and recall_at_2(app) == 0.25
    assert counts(app) == (0, 2)
    redo(app)
    assert grades(app)[:3] == [1, 1, 0] and recall_at_2(app) == 0.4
    assert counts(app) == (1, 1)                  # the second edit can come back too
    assert editor_data(app)["version"] == 0       # every step foreseen: no new version
    assert not app.exception and not app.error


def test_a_new_change_clears_redo(app):
    grade(app, 1, 1)
    undo(app)
    assert counts(app) == (0, 1)
    move(app, 1, 2)                               # the cat and the cat in a box swap
    assert [i.id for i in example(app).query.ranking][:2] == ["2", "1"]
    assert counts(app) == (1, 0) and editor_data(app)["redo"] == []
    undo(app)
    assert [i.id for i in example(app).query.ranking][:2] == ["1", "2"]


def test_k_is_not_a_step_and_undo_keeps_it(app):
    grade(app, 1, 1)
    k_slider(app, "playground").set_value(5).run()
    undo(app)  # undoes the edit, not k
    assert grades(app)[0] == 0 and example(app).k == 5
    assert counts(app) == (0, 1)


def test_a_preset_and_the_mode_are_undone_by_the_server_with_a_new_version(app):
    app.selectbox(key=drawn(app, keys.preset("playground"))).set_value("dcg").run()
    app.segmented_control(key=drawn(app, keys.mode("playground"))).set_value("binary").run()
    assert example(app).mode == "binary" and example(app).query.name == "textbook DCG"
    version = editor_data(app)["version"]
    # neither step changes only the lists: the editor is not sent them and asks the server
    assert editor_data(app)["undo"] == [] and counts(app) == (2, 0)
    undo(app)
    assert example(app).mode == "graded" and example(app).query == presets.build_preset("dcg").query
    assert editor_data(app)["version"] == version + 1
    undo(app)
    assert example(app).query.name == "cat in the box"
    assert editor_data(app)["version"] == version + 2
    redo(app)
    assert example(app).query.name == "textbook DCG"


def test_an_edit_sent_with_an_undo_the_server_takes_is_refused(app):
    app.selectbox(key=drawn(app, keys.preset("playground"))).set_value("dcg").run()
    ask = event(app, "undo")                                     # the preset: the server's to undo
    rows = editor_data(app)["ranking"]
    edit_after = {**ask, "op": "set", "seq": ask["seq"] + 1, "ranking": rows[::-1], "tray": editor_data(app)["tray"]}
    send(app, ask, edit_after)
    cat = presets.build_preset("cat")
    # undone (k = 6 of the dcg preset kept: k is no step); the edit not applied to the cat's list
    assert (example(app).queries, example(app).mode, example(app).k) == (cat.queries, cat.mode, 6)
    assert editor_data(app)["notice"]["seq"] == ask["seq"] + 1


def test_undo_stops_after_fifty_steps():
    at = new_app()
    at.run()
    for n in range(1, 61):  # 60 label edits, each one step
        label(at, 1, f"step {n}")
    assert example(at).query.ranking[0].label == "step 60"
    undone = 0
    for _ in range(55):  # 55 tries; a disabled button cannot be clicked, in AppTest as in the browser
        if counts(at)[0] == 0:
            break
        undo(at)
        undone += 1
    assert not at.exception
    assert undone == history.DEPTH == 50
    assert example(at).query.ranking[0].label == f"step {60 - history.DEPTH}"  # 50 steps back: step 10
    assert counts(at) == (0, 50)
    redo(at)
    assert example(at).query.ranking[0].label == "step 11"


def test_many_queries_add_and_undo():
    at = new_app()
    at.run()
    at.switch_page("app_pages/many_queries.py").run()
    at.button(key="many.add").click().run()
    assert len(example(at).queries) == 2
    undo(at, page="many", index=0)              # the first query's editor: a step of more than its lists
    assert len(example(at).queries) == 1 and example(at).current == 0
    redo(at, page="many", index=0)
    assert len(example(at).queries) == 2
    assert not at.exception
