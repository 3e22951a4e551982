"""AppTest for the two user-model lessons: "What does the user do?" and "Unjudged documents".

Values checked by hand on the cat-in-the-box preset (eight results, relevant at ranks 2, 4, 5
and 7, k = 2).
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from .conftest import edit, example, new_app, tables
from .test_teach_pages import open_page

RBP_CAT = 0.2 * (0.8 + 0.8**3 + 0.8**4 + 0.8**6)  # (1 - p) * sum of p^(i-1) over ranks 2, 4, 5, 7


def open_lesson(page: str, preset: str = "cat") -> AppTest:
    return open_page(page, preset)


def shown(at: AppTest) -> dict[str, float]:
    return {m.label: float(m.value) for m in at.metric}


def test_users_lesson_shows_six_users():
    at = open_lesson("lesson_users")
    values = shown(at)
    assert values["P@2"] == pytest.approx(0.5)
    assert values["RR"] == pytest.approx(0.5)
    assert values["AP"] == pytest.approx((1 / 2 + 2 / 4 + 3 / 5 + 4 / 7) / 4, abs=1e-4)
    assert values["RBP"] == pytest.approx(RBP_CAT, abs=1e-4)
    assert set(values) == {"P@2", "RR", "AP", "nDCG@2", "RBP", "ERR(max_grade=1)@2"}
    # binary example: a relevant result satisfies ERR's user with chance (2^1 - 1)/2^1; first at rank 2
    assert values["ERR(max_grade=1)@2"] == pytest.approx(0.5 / 2, abs=1e-4)
    # step to rank 3: the RR user (stopped at rank 2) no longer reads; the RBP user with 0.8^2
    at.slider(key="lesson_users.step.8").set_value(3).run()
    assert not at.exception
    now = tables(at, numbers=True)[0].set_index("user")
    assert now.loc["RR", "reads rank 3"] == 0.0
    assert now.loc["RBP", "reads rank 3"] == pytest.approx(0.64)
    assert now.loc["P@2", "reads rank 3"] == 0.0
    # RBP's patience moves only RBP
    at.slider(key="lesson_users.p").set_value(0.5).run()
    assert shown(at)["RBP(p=0.5)"] == pytest.approx(0.5 * (0.5 + 0.5**3 + 0.5**4 + 0.5**6), abs=1e-4)
    at.selectbox(key="lesson_users.user").set_value("AP").run()
    table = tables(at, numbers=True)[-1]
    # AP's user: W_i = (1/R) * sum over relevant j >= i of 1/j; W_1 = (1/2 + 1/4 + 1/5 + 1/7) / 4
    assert table["W: attention"][0] == pytest.approx((1 / 2 + 1 / 4 + 1 / 5 + 1 / 7) / 4, abs=5e-5)  # 4 decimals shown


def test_users_lesson_walks_down_the_list(monkeypatch):
    at = open_lesson("lesson_users")
    at.button(key="lesson_users.play")  # exists; pressing it sleeps between ranks (not done here)
    assert any(s.key == "lesson_users.step.8" for s in at.slider)


def test_unjudged_lesson_moves_as_judgments_go():
    at = open_lesson("lesson_unjudged")
    values = shown(at)
    assert values["Judged@2"] == 1.0  # binary cat mode: every document is judged
    assert values["AP"] == pytest.approx(0.5429, abs=1e-4)
    assert values["RBP"] == pytest.approx(RBP_CAT, abs=1e-4)
    assert values["RBP(bound='upper')"] == pytest.approx(RBP_CAT + 0.8**8, abs=1e-4)  # only the tail is unknown
    at.select_slider(key="lesson_unjudged.removed").set_value(0.5).run()
    assert not at.exception
    after = shown(at)
    assert after["Judged@2"] <= 1.0 and after["RBP"] <= values["RBP"] + 1e-12
    assert after["RBP(bound='upper')"] >= values["RBP(bound='upper')"] - 1e-12
    assert "4 of 8 judgments left" in " ".join(t.value for t in at.text)


@pytest.mark.parametrize("keep", [1, 0])
def test_lessons_with_one_item_or_none(keep):
    at = new_app()
    at.run()
    def cut(ranking, tray):                      # Shift+Delete on every result after the first keep
        del ranking[keep:]

    edit(at, cut)                                # in the Playground's editor, as the browser would
    assert len(example(at).query.ranking) == keep
    for page in ("lesson_users", "lesson_unjudged"):
        at.switch_page(f"app_pages/{page}.py")
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        if keep:
            assert "RBP" in {m.label for m in at.metric}


def test_graded_example():
    at = open_lesson("lesson_unjudged", "dcg")
    at.select_slider(key="lesson_unjudged.removed").set_value(0.9).run()
    assert not at.exception
    at.switch_page("app_pages/lesson_users.py")
    at.run()
    assert not at.exception


def test_chart_numbers_as_tables():
    at = open_lesson("lesson_users")
    at.toggle(key="charts.data").set_value(True).run()
    table = next(d for d in tables(at, numbers=True) if "reach" in d.columns)
    rbp = table[(table["user"] == "RBP") & (table["rank"] == 3)]
    assert float(rbp["reach"].iloc[0]) == pytest.approx(0.8**2)
    at.switch_page("app_pages/lesson_unjudged.py").run()
    table = next(d for d in tables(at, numbers=True) if "removed" in d.columns)
    assert set(table["removed"]) == {i / 10 for i in range(10)}
