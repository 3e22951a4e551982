"""The presenter view (?view=present): the measures of the current example in focus order, k
from buttons that carry keyboard shortcuts, the ranking editor as tiles across the screen (its
keys grade and move), the lesson's measure in focus."""

from ranklab_ui.core.model import Example, Query
from tests.app.conftest import editor_data, example, grade, move, new_app

# the Pinecone notebook's cat in the box, relevant at ranks 2, 4, 5, 7 (R = 4); default k = 2
# P@2 = 1/2, R@2 = 1/4, RR@2 = 1/2, AP@2 = (1/2)/4 = 0.125
CAT_AT_2 = {"Precision@2": "0.5", "Recall@2": "0.25", "RR@2": "0.5", "AP@2": "0.125"}


def shown(at) -> dict[str, str]:
    return {m.label.replace(" — in focus", ""): m.value for m in at.metric}


def focused(at) -> str:
    return next(m.label for m in at.metric if m.label.endswith("in focus"))


def presenting(**params):
    at = new_app(view="present", **params)
    at.run()
    assert not at.exception
    return at


def test_the_playground_opens_in_the_presenter_view_from_the_link():
    at = presenting()
    values = shown(at)
    assert {name: values[name] for name in CAT_AT_2} == CAT_AT_2
    # nDCG@2 of the binary cat: (1/log2 3) / (1 + 1/log2 3) = 0.6309 / 1.6309
    assert values["nDCG@2"] == "0.3869"
    assert focused(at) == "nDCG@2 — in focus"      # no lesson seen yet
    assert not at.title                            # no page title, no tables: one screen
    assert not at.get("arrow_data_frame") and not at.get("data_editor")


def test_the_button_enters_and_leaves_and_the_link_keeps_it():
    at = new_app()
    at.run()
    at.button(key="presenter.on").click().run()
    assert at.query_params["view"] == ["present"] or at.query_params["view"] == "present"
    assert focused(at)
    at.button(key="presenter.off").click().run()
    assert "view" not in at.query_params
    assert [t.value for t in at.title] == ["Playground"]


def test_k_buttons_change_k_within_the_ranking():
    at = presenting()
    at.button(key="presenter.k+").click().run()
    assert example(at).k == 3 and shown(at)["Precision@3"] == "0.3333"   # 1 of 3
    while not at.button(key="presenter.k+").disabled:
        at.button(key="presenter.k+").click().run()
    assert example(at).k == 8                      # stops at the end of the ranking
    while not at.button(key="presenter.k-").disabled:
        at.button(key="presenter.k-").click().run()
    assert example(at).k == 1


def test_the_editor_is_across_and_its_moves_and_grades_change_the_measures():
    at = presenting()
    assert editor_data(at)["layout"] == "across" and editor_data(at)["k"] == 2
    move(at, 4, 1)                               # rank 4 (relevant) to the top (Home on its tile)
    assert [item.id for item in example(at).query.ranking][:2] == ["4", "1"]
    # now relevant at 1, 3, 5, 7: P@2 = 1/2, RR = 1, AP@2 = (1/1)/4
    assert shown(at)["RR@2"] == "1" and shown(at)["AP@2"] == "0.25"
    move(at, 1, 2)                               # Alt+↓
    assert [item.id for item in example(at).query.ranking][:2] == ["1", "4"]
    grade(at, 1, 1)                              # 1 on the first tile: relevant at 1, 2: P@2 = 2/2
    assert shown(at)["Precision@2"] == "1" and not at.error


def test_the_shortcuts_are_on_the_buttons():
    at = presenting()
    keys = {b.key: b.proto.shortcut.lower() for b in at.button if b.key and b.key.startswith("presenter.")}
    # only k's buttons are left; grading and moving are the editor's keys on a tile
    assert {k: v for k, v in keys.items() if k != "presenter.off"} == {"presenter.k-": "left", "presenter.k+": "right"}


def test_the_lesson_on_screen_puts_its_measure_in_focus():
    at = new_app()
    at.run()
    at.switch_page("app_pages/lesson_average_precision.py").run()
    at.button(key="presenter.on").click().run()
    assert focused(at) == "AP@2 — in focus"
    assert at.metric[0].label == "AP@2 — in focus"   # first, and framed


def test_a_focus_in_the_link_wins_and_a_bad_one_is_ignored():
    assert focused(presenting(focus="RR")) == "RR@2 — in focus"
    assert focused(presenting(focus="<b>x</b>")) == "nDCG@2 — in focus"


def test_an_empty_ranking_says_so():
    at = presenting()
    at.session_state["state.example"] = Example((Query("nothing yet"),), k=1)
    at.run()
    assert not at.exception and not at.metric
    assert any("The ranking is empty" in i.value for i in at.info)
    assert at.button(key="presenter.off")          # the way out is still there
