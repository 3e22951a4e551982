"""A class poll's life cycle (issue 12): the teacher opens it on the current example, students
answer from their own sessions with the code, the teacher sees the answers and reveals."""

import os

import pytest

from tests.app.conftest import new_app
from ui.poll_store import SQLitePolls

PAGE = "app_pages/class_poll.py"


@pytest.fixture(autouse=True)
def poll_file(tmp_path, monkeypatch):
    monkeypatch.setenv("RANKLAB_POLL_DB", str(tmp_path / "polls.sqlite3"))


def markdown(at) -> str:
    """The page's Markdown as read (the escaper's backslashes and zero-width spaces taken out)."""
    return "\n".join(m.value for m in at.markdown).replace("\\", "").replace("\u200b", "")


def open_poll(focus: str = "AP"):
    teacher = new_app()
    teacher.run()
    teacher.switch_page(PAGE).run()
    teacher.segmented_control(key="class_poll.focus").set_value(focus).run()
    # the cat in the box at k = 2: AP@2 = (1/2) / 4 relevant = 0.125
    assert "What is AP@2 of this ranking?" in markdown(teacher)
    teacher.button(key="class_poll.open").click().run()
    assert not teacher.exception
    code = teacher.session_state["poll.owned"][0]
    assert f"Code: `{code}`" in markdown(teacher)
    assert teacher.get("image")  # the QR code
    return teacher, code


def student_page(code: str):
    """A student's session on the poll's link (its path is the Class poll page)."""
    student = new_app(poll=code)
    student.run()
    student.switch_page(PAGE).run()
    assert not student.exception
    return student


def answer(code: str, value: float):
    student = student_page(code)
    assert "What is AP@2 of this ranking?" in markdown(student)
    student.number_input(key="poll.guess").set_value(value).run()
    student.button(key="poll.send").click().run()
    assert not student.exception
    return student


def test_open_answer_watch_and_reveal():
    teacher, code = open_poll()
    first = answer(code, 0.125)
    assert any("Sent: 0.125" in s.value for s in first.success)
    answer(code, 0.5)
    answer(code.lower(), 0.1)          # a code typed in lower case works too
    teacher.run()
    assert "**3** answers so far" in markdown(teacher)
    teacher.button(key="poll.reveal").click().run()
    teacher.run()
    assert any(s.value == "The answer: 0.125 — 2 of 3 within 0.05." for s in teacher.success)
    late = student_page(code)
    assert any(s.value == "The answer is 0.125." for s in late.success)
    assert not late.number_input                # closed: no more answers


def test_a_second_answer_replaces_the_first():
    teacher, code = open_poll()
    student = answer(code, 0.9)
    student.number_input(key="poll.guess").set_value(0.2).run()
    student.button(key="poll.send").click().run()
    teacher.run()
    assert "**1** answer so far" in markdown(teacher)


def test_a_wrong_or_hostile_code_says_so():
    for code in ("NOPE22", "<script>", "", "x" * 5000):
        student = student_page(code)
        assert student.error[0].value.startswith("No open poll has this code")


def test_a_student_can_type_the_code():
    _, code = open_poll()
    student = new_app()
    student.run()
    student.switch_page(PAGE).run()
    student.text_input(key="class_poll.code").set_value(f" {code.lower()} ").run()
    student.button(key="class_poll.join").click().run()
    assert "What is AP@2 of this ranking?" in markdown(student)


def test_a_code_typed_wrong_says_what_a_code_looks_like():
    student = new_app()
    student.run()
    student.switch_page(PAGE).run()
    student.text_input(key="class_poll.code").set_value("O0I1").run()
    student.button(key="class_poll.join").click().run()
    assert student.error[0].value == "A poll code is six letters and digits, as your teacher shows it."
    assert "poll" not in student.query_params


def test_only_the_teachers_session_can_reveal():
    teacher, code = open_poll()
    student = answer(code, 0.3)
    assert not [b for b in student.button if b.key == "poll.reveal"]
    assert not SQLitePolls(os.environ["RANKLAB_POLL_DB"]).reveal(code, "a guessed token")
