"""Lesson options in the link: a link with them opens them selected and computes with them;
a bad value gives the default and a message; the Copy link carries them."""

from __future__ import annotations

import math

from tests.app.conftest import errors, new_app, submit
from tests.app.test_teach_pages import open_page


def open_lesson(page: str, preset: str, **params):
    """``page`` opened with ``preset`` as the example and ``params`` in the address."""
    return open_page(page, preset, params)


def metric(at, label: str) -> float:
    return float({m.label: m.value for m in at.metric}[label])


def copied_link(at) -> dict[str, list[str]]:
    """The query of the link the Copy link button copies: the page's own address, which
    ranklab_ui.session.state and ranklab_ui.session.options keep equal to the permalink (the button reads it when clicked)."""
    assert at.get("iframe"), "no Copy link button on the page"
    params = {key: at.query_params[key] for key in at.query_params}
    return {key: value if isinstance(value, list) else [value] for key, value in params.items()}


def unescaped(texts: list[str]) -> list[str]:
    return [t.replace("\\", "") for t in texts]


def log2(x: float) -> float:
    return math.log(x, 2)


def test_dcg_lesson_opens_with_the_links_gain():
    # white cat, graded, k = 8: grades 0, 4, 1, 3, 4, 1, 3, 2; gain 2^g - 1 = 0, 15, 1, 7, 15, 1, 7, 3
    at = open_lesson("lesson_dcg", "white-cat", dcg="exp-log2")
    assert at.radio(key="lesson_dcg.dcg").value == "exp-log2"
    dcg = 15 / log2(3) + 1 / 2 + 7 / log2(5) + 15 / log2(6) + 1 / log2(7) + 7 / 3 + 3 / log2(9)
    idcg = 15 + 15 / log2(3) + 7 / 2 + 7 / log2(5) + 3 / log2(6) + 1 / log2(7) + 1 / 3
    assert metric(at, "CG@8") == 49  # 0 + 15 + 1 + 7 + 15 + 1 + 7 + 3
    assert metric(at, "DCG@8") == round(dcg, 4)
    assert metric(at, "nDCG(dcg='exp-log2')@8") == round(dcg / idcg, 4)
    assert at.query_params["dcg"] == ["exp-log2"] or at.query_params["dcg"] == "exp-log2"
    assert copied_link(at)["dcg"] == ["exp-log2"]


def test_dcg_lesson_opens_with_the_links_ideal_ordering():
    # textbook DCG, k = 6: grades 3, 2, 3, 0, 1, 2; not retrieved 3 and 2
    at = open_lesson("lesson_dcg", "dcg", ideal="ranking")
    assert at.radio(key="lesson_dcg.ideal").value == "ranking"
    assert at.radio(key="lesson_dcg.dcg").value == "log2"
    dcg = 3 + 2 / log2(3) + 3 / 2 + 0 + 1 / log2(6) + 2 / log2(7)
    ideal_from_the_list = 3 + 3 / log2(3) + 2 / 2 + 2 / log2(5) + 1 / log2(6) + 0  # 3, 3, 2, 2, 1, 0
    assert metric(at, "IDCG@6") == round(ideal_from_the_list, 4)
    assert metric(at, "nDCG(ideal='ranking')@6") == round(dcg / ideal_from_the_list, 4)
    assert copied_link(at)["ideal"] == ["ranking"] and "dcg" not in copied_link(at)


def test_a_switch_changed_on_the_page_goes_into_the_link():
    at = open_lesson("lesson_dcg", "white-cat")
    assert "dcg" not in copied_link(at)  # the default stays out of the link
    at.radio(key="lesson_dcg.dcg").set_value("jarvelin").run()
    assert not at.exception
    assert copied_link(at)["dcg"] == ["jarvelin"]
    assert "ex" in copied_link(at)


def test_ap_lesson_opens_with_the_links_denominator():
    # cat in the box, k = 2: relevant at rank 2 only in the top 2, P@2 = 1/2; R = 4
    at = open_lesson("lesson_average_precision", "cat", denominator="min(k,R)")
    assert at.radio(key="lesson_ap.denominator").value == "min(k,R)"
    assert metric(at, "AP(denominator='min(k,R)')@2 (divided by 2)") == 0.25  # (1/2) / min(2, 4)
    assert copied_link(at)["denominator"] == ["min(k,R)"]
    at.radio(key="lesson_ap.denominator").set_value("retrieved").run()
    assert metric(at, "AP(denominator='retrieved')@2 (divided by 1)") == 0.5  # (1/2) / 1
    at.radio(key="lesson_ap.denominator").set_value("R").run()
    assert metric(at, "AP@2 (divided by R = 4)") == 0.125  # (1/2) / 4
    assert "denominator" not in copied_link(at)


def test_bad_option_values_give_the_default_and_an_escaped_message():
    at = open_lesson("lesson_dcg", "white-cat", dcg="<b>**x**</b>", ideal="ranking")
    assert at.radio(key="lesson_dcg.dcg").value == "log2"
    assert at.radio(key="lesson_dcg.ideal").value == "ranking"  # the good one is kept
    (message,) = [e for e in errors(at) if "dcg" in e]
    assert "\\*\\*x\\*\\*" in message and "\\<b\\>" in message  # shown as text, not bold or HTML
    assert "the default (log2) is used" in message.replace("\\", "")
    assert "dcg" not in at.query_params


def test_check_my_calculation_opens_with_the_links_choices():
    at = open_lesson("check_calculation", "cat", measure="AP", detail="final")
    assert at.selectbox(key="check_calculation.measure").value == "AP"
    at.text_input[0].set_value("0.5429")  # (1/2 + 2/4 + 3/5 + 4/7) / 4 = 0.54286
    submit(at).click().run()
    assert "Every number you typed is right." in " ".join(unescaped([s.value for s in at.success]))
    assert copied_link(at)["measure"] == ["AP"]


def test_check_my_calculation_opens_the_links_exercise():
    at = open_lesson("check_calculation", "cat", work="exercise", level="2", seed="12", detail="steps")
    assert at.radio(key="check_calculation.source").value == "A generated exercise"
    assert at.selectbox(key="check_calculation.level").value == 2
    assert at.number_input(key="check_calculation.seed").value == 12
    assert at.radio(key="check_calculation.detail").value == "Every step"
    assert len(at.text_input) > 1  # one box per step


def test_check_my_calculation_refuses_a_bad_seed():
    at = open_lesson("check_calculation", "cat", work="exercise", seed="-3")
    assert at.number_input(key="check_calculation.seed").value == 1
    assert any("seed='-3'" in e and "from 0 to" in e for e in unescaped(errors(at)))


def test_practice_says_when_the_links_seed_is_bad():
    at = new_app(seed="twelve")
    at.run()
    at.switch_page("app_pages/practice.py")
    at.run()
    assert not at.exception
    assert any("seed='twelve'" in e and "it is ignored" in e for e in unescaped(errors(at)))
