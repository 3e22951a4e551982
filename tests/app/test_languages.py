"""Every page in every language: no exception, the language's own words on the
page, the language kept per session, and any unknown ?lang= is English."""

import random
import string
from pathlib import Path

import pytest

from ranklab_ui.core import i18n
from ranklab_ui.session import keys
from ranklab_ui.widgets.language import WIDGET

from .conftest import drawn, editor_data, grade, new_app, said, submit

ROOT = Path(__file__).resolve().parents[2]
ALL_PAGES = sorted(f"app_pages/{p.name}" for p in (ROOT / "app_pages").glob("*.py"))

# a few texts per language, as each page shows them (page title; the picker's label)
KNOWN = {
    "en": {"app_pages/playground.py": "Playground", "app_pages/lesson_precision_recall.py": "Precision, recall and F1 at k",
           "app_pages/practice.py": "Practice", "picker": "Language"},
    "fr": {"app_pages/playground.py": "Bac à sable", "app_pages/lesson_precision_recall.py": "Précision, rappel et F1 à k",
           "app_pages/practice.py": "S'entraîner", "picker": "Langue"},
    "ko": {"app_pages/playground.py": "플레이그라운드", "app_pages/lesson_precision_recall.py": "k에서의 정밀도, 재현율, F1",
           "app_pages/practice.py": "연습", "picker": "언어"},
    "zh": {"app_pages/playground.py": "练习场", "app_pages/lesson_precision_recall.py": "k 处的精确率、召回率和 F1",
           "app_pages/practice.py": "练习", "picker": "语言"},
}


def _texts(at) -> str:
    """Everything Markdown-like the page drew, as one string."""
    parts = [el.value for kind in ("title", "subheader", "markdown", "caption", "info", "warning", "error", "success")
             for el in at.get(kind)]
    return "\n".join(str(p) for p in parts)


@pytest.mark.slow
@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_every_page_runs_in_every_language(lang):
    at = new_app(lang=lang)
    at.run()
    assert not at.exception, at.exception
    assert at.session_state[i18n.KEY] == lang
    assert at.sidebar.selectbox(key=WIDGET).label == KNOWN[lang]["picker"]
    for page in ALL_PAGES:
        at.switch_page(page)
        at.run()
        assert not at.exception, (lang, page, at.exception)
        assert not at.error, (lang, page, [e.value for e in at.error])
        if page in KNOWN[lang]:
            assert [t.value for t in at.title][:1] == [KNOWN[lang][page]], (lang, page)


def test_a_lesson_explains_in_the_language():
    """The Pinecone notebook's cat at k = 2 (TP 1, FP 1, FN 3, TN 3 of 8), told in French, the numbers as in English."""
    at = new_app(lang="fr")
    at.run()
    at.switch_page("app_pages/lesson_precision_recall.py")
    at.run()
    text = _texts(at)
    assert "Sur les **8** documents connus, le top 2 contient **TP = 1** pertinents" in text
    assert "**FN = 3**" in text and "**TN = 3**" in text
    assert {m.label for m in at.metric} >= {"P@2", "R@2", "F1@2"}   # measure notation is not translated
    assert {m.value for m in at.metric if m.label == "P@2"} == {"0.5000"}   # decimal point kept


# the editor's undo button and a refused grade (rank 1 of the cat given 11), in each language
EDITOR = {
    "fr": ("↶ Annuler", "Non appliqué : requête 1 'cat in the box', classement, position 1 : la note 11 n'est pas "
                       "permise : utilisez un nombre entier de 0 à 10, ou ? pour non jugé"),
    "ko": ("↶ 실행 취소", "적용되지 않음: 질의 1 'cat in the box', 순위 목록, 위치 1: 등급 11은(는) 허용되지 않습니다: "
                        "0~10의 정수를 쓰거나, 미판정이면 ?를 쓰세요"),
    "zh": ("↶ 撤销", "未应用：查询 1 'cat in the box'，排序，位置 1：等级 11 不允许：请使用 0 到 10 的整数，未判断请用 ?"),
}


@pytest.mark.parametrize("lang", list(EDITOR))
def test_the_editor_speaks_the_language(lang):
    at = new_app(lang=lang)
    at.run()
    undo, refused = EDITOR[lang]
    assert editor_data(at)["texts"]["undo"] == undo
    grade(at, 1, 11)
    assert said(at) == [refused]
    assert editor_data(at)["notice"]["text"] == refused


def test_check_feedback_in_korean():
    """Check my calculation marks a rounded-too-early AP in Korean: the cat's AP is
    (1/2 + 2/4 + 3/5 + 4/7) / 4 = 0.5429; 0.5425 comes from rounding 4/7 to 0.57."""
    at = new_app(lang="ko")
    at.run()
    at.switch_page("app_pages/check_calculation.py")
    at.run()
    at.selectbox(key="check_calculation.measure").set_value("AP").run()
    at.text_input[0].set_value("0.5425")
    submit(at).click().run()
    assert not at.exception
    errors = "".join(e.value for e in at.error).replace("\\", "")   # shown as escaped plain text
    assert "0.5429" not in errors   # a hint first: the step and the mistake, not the value
    assert "첫 번째 틀린 단계: AP의 값 — 입력 0.5425" in errors
    at.button(key="check_calculation.reveal").click().run()
    errors = "".join(e.value for e in at.error).replace("\\", "")
    assert "첫 번째 틀린 단계: AP의 값 — 입력 0.5425, 올바른 값 0.5429." in errors
    assert "너무 이른 반올림" in "".join(w.value for w in at.warning)   # the mistake's title, in Korean   # the mistake's title, in Korean


def test_two_sessions_keep_their_own_language():
    french, korean = new_app(lang="fr"), new_app(lang="ko")
    french.run()
    korean.run()
    french.run()
    assert [t.value for t in french.title] == ["Bac à sable"]
    assert [t.value for t in korean.title] == ["플레이그라운드"]
    korean.sidebar.selectbox(key=WIDGET).set_value("zh").run()
    french.run()
    assert [t.value for t in korean.title] == ["练习场"]
    assert [t.value for t in french.title] == ["Bac à sable"]


def test_the_picker_changes_the_language_and_keeps_the_example():
    at = new_app()
    at.run()
    at.selectbox(key=drawn(at, keys.preset("playground"))).set_value("white-cat").run()
    before = at.session_state["state.example"]
    at.sidebar.selectbox(key=WIDGET).set_value("zh").run()
    assert not at.exception
    assert [t.value for t in at.title] == ["练习场"]
    assert at.session_state["state.example"] == before
    assert at.query_params["lang"] == "zh"   # the link opens in Chinese
    at.sidebar.selectbox(key=WIDGET).set_value("en").run()
    assert [t.value for t in at.title] == ["Playground"] and "lang" not in at.query_params


def test_unknown_lang_values_are_english_fuzz():
    rng = random.Random(1414)
    hostile = ["", "xx", "fr-FR", "ZH", "ko\x00", "<script>alert(1)</script>", "../en", "e" * 5000, "🙂"]
    hostile += ["".join(rng.choice(string.printable) for _ in range(rng.randint(1, 20))) for _ in range(6)]
    for value in hostile:
        at = new_app(lang=value)
        at.run()
        assert not at.exception, (value, at.exception)
        expected = i18n.normalise(value) or "en"   # "ZH" is Chinese; anything unknown is English
        assert at.session_state[i18n.KEY] == expected, value
        assert [t.value for t in at.title] == [KNOWN[expected]["app_pages/playground.py"]], value
        assert at.query_params.get("lang") == (None if expected == "en" else expected), value   # cleaned
