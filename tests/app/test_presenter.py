"""The presenter view (?view=present): the measures of the current example in focus
order, k and moves from buttons that carry keyboard shortcuts, the lesson's measure in focus."""

from ranklab_ui.core.model import Example, Query
from tests.app.conftest import example, new_app

# seed 004's cat in the box, relevant at ranks 2, 4, 5, 7 (R = 4); default k = 2
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
    assert not at.title                            # no page title, no editors: one screen
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


def test_pick_and_move_an_item_to_the_top():
    at = presenting()
    for _ in range(3):  # pick rank 4 (relevant)
        at.button(key="presenter.next").click().run()
    at.button(key="presenter.top").click().run()
    assert [item.id for item in example(at).query.ranking][:2] == ["4", "1"]
    # now relevant at 1, 3, 5, 7: P@2 = 1/2, RR = 1, AP@2 = (1/1)/4
    assert shown(at)["RR@2"] == "1" and shown(at)["AP@2"] == "0.25"
    at.button(key="presenter.down").click().run()
    assert [item.id for item in example(at).query.ranking][:2] == ["1", "4"]


def test_the_shortcuts_are_on_the_buttons():
    at = presenting()
    keys = {b.key: b.proto.shortcut for b in at.button if b.key and b.key.startswith("presenter.")}
    assert keys["presenter.k-"] == "left" or keys["presenter.k-"].lower() == "left"
    assert {k: v.lower() for k, v in keys.items() if k != "presenter.off"} == {
        "presenter.k-": "left", "presenter.k+": "right", "presenter.prev": "up", "presenter.next": "down",
        "presenter.up": "shift+up", "presenter.down": "shift+down", "presenter.top": "t",
        # the grade keys: each digit gives the picked item that grade ("?" is listened for in the page)
        **{f"presenter.grade.{g}": str(g) for g in range(10)}, "presenter.grade.unjudged": ""}


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
