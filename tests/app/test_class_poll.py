"""A class poll's life cycle: the teacher opens it on the current example, students
answer from their own sessions with the code, the teacher sees the answers and reveals."""

import json
import os

import pytest

from ranklab_ui.core.poll_store import SQLitePolls
from tests.app.conftest import charts, new_app

PAGE = "app_pages/class_poll.py"


@pytest.fixture(autouse=True)
def poll_file(tmp_path, monkeypatch):
    monkeypatch.setenv("RANKLAB_POLL_DB", str(tmp_path / "polls.sqlite3"))


def markdown(at) -> str:
    """The page's Markdown as read (the escaper's backslashes and zero-width spaces taken out)."""
    return "\n".join(m.value for m in at.markdown).replace("\\", "").replace("\u200b", "")


def page_text(at) -> str:
    """Every text the page shows (Markdown, titles, notices, captions, labels)."""
    parts = [markdown(at)]
    for kind in ("title", "caption", "success", "info", "warning", "error", "text"):
        parts += [str(e.value) for e in at.get(kind)]
    parts += [w.label for w in [*at.number_input, *at.text_input, *at.button]]
    return "\n".join(parts)


def open_poll(focus: str = "AP"):
    teacher = new_app()
    teacher.run()
    teacher.switch_page(PAGE).run()
    teacher.segmented_control(key="class_poll.focus").set_value(focus).run()
    # the cat in the box at k = 2: AP@2 = (1/2) / 4 relevant = 0.125
    assert "What is AP@2 of this ranking?" in markdown(teacher)
    assert "0.125" not in page_text(teacher)   # projected, and seen by a student without the code
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
    assert "0.125" not in page_text(student)
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
    assert any(s.value == "The answer: 0.125 — 2 of 3 within 0.05 (the dashed line)." for s in teacher.success)
    # the chart's title fits the poll's narrow column: the dashed line is explained above it
    shown = json.dumps(charts(teacher)[-1][0])
    assert "the class's answers" in shown and "right one" not in shown
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


def test_the_projected_screen_has_no_join_box_and_shows_the_ranking():
    teacher, _ = open_poll()
    assert not [t for t in teacher.text_input if t.key == "class_poll.code"]
    # the ranking's tiles: the cat in the box's labels, over the answers' histogram
    specs = [json.dumps(spec) for spec, _data in charts(teacher)]
    assert len(specs) == 2 and "the class's answers" in specs[1]
    assert "cat in a box" in str(charts(teacher)[0][1].to_dict()) or "cat" in specs[0]


@pytest.mark.parametrize("typed", [1e11, -5.0, 1.5, None])
def test_a_value_outside_zero_to_one_is_refused_and_not_stored(typed):
    _, code = open_poll()
    student = student_page(code)
    student.number_input(key="poll.guess").set_value(typed).run()
    student.button(key="poll.send").click().run()
    assert not student.exception and not student.success
    assert "from 0 to 1" in student.error[0].value
    assert SQLitePolls(os.environ["RANKLAB_POLL_DB"]).votes(code) == []


def test_the_link_uses_the_configured_public_address(monkeypatch):
    monkeypatch.setenv("RANKLAB_PUBLIC_URL", "http://192.168.1.20:8080")
    teacher, code = open_poll()
    assert [t.value for t in teacher.text] == [f"http://192.168.1.20:8080/class_poll?poll={code}"]
    assert not teacher.warning


def _corrupt(path):
    path.write_bytes(b"no database here " * 100)


def _folder(path):
    path.mkdir()


def _old_schema_unreadable(path):
    import sqlite3
    with sqlite3.connect(path) as db:  # a table of the same name that is no poll table at all
        db.execute("CREATE TABLE polls (x)")
        db.execute("CREATE VIEW votes AS SELECT 1")


@pytest.mark.parametrize("spoil", [_corrupt, _folder, _old_schema_unreadable])
def test_a_broken_poll_file_gets_a_message_and_no_traceback(tmp_path, monkeypatch, spoil):
    path = tmp_path / "broken" / "polls.sqlite3"
    path.parent.mkdir()
    spoil(path)
    monkeypatch.setenv("RANKLAB_POLL_DB", str(path))
    teacher = new_app()
    teacher.run()
    teacher.switch_page(PAGE).run()
    teacher.button(key="class_poll.open").click().run()
    assert not teacher.exception
    shown = teacher.error[0].value.replace("\\", "").replace("\u200b", "")
    assert str(path) in shown and "RANKLAB_POLL_DB" in shown
    student = student_page("K7QX2M")
    assert student.error[0].value.startswith("The poll cannot be reached right now")
    assert str(path) not in page_text(student)


def test_the_teacher_sees_refused_answers_and_clears_the_poll():
    from ranklab_ui.core.poll_store import PER_CLIENT, PollLimited

    teacher, code = open_poll()
    polls = SQLitePolls(os.environ["RANKLAB_POLL_DB"])
    refused = 0
    for i in range(PER_CLIENT + 3):  # a script from one address: a new session each time
        try:
            polls.vote(code, f"script-session-{i:04d}", 0.9, client="203.0.113.9")
        except PollLimited:
            refused += 1
    assert refused > 0 and polls.refused(code) == refused
    teacher.run()
    shown = markdown(teacher)
    assert any("answers were refused: too many from one network address" in w.value for w in teacher.warning)
    assert f"**{len(polls.votes(code))}** answers so far" in shown
    teacher.button(key="poll.reset").click().run()
    assert polls.votes(code) == [] and polls.refused(code) == 0
    assert "**0** answers so far" in markdown(teacher)
    answer(code, 0.125)             # the class answers again
    assert len(polls.votes(code)) == 1


def test_users_never_see_a_stack_trace():
    """Streamlit shows an uncaught exception's trace to every user unless told otherwise; the
    app's own messages say what went wrong, and the server's log keeps the trace."""
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml").read_text())
    assert config["client"]["showErrorDetails"] == "none"


def test_the_teacher_types_the_address_students_open(monkeypatch):
    monkeypatch.delenv("RANKLAB_PUBLIC_URL", raising=False)
    teacher, code = open_poll()
    assert [t.value for t in teacher.text][0].endswith(f"/class_poll?poll={code}")
    teacher.text_input(key="poll.public_url").set_value("ftp://nope").run()
    assert any(e.value.startswith("An address looks like http://192.168.1.20:8501") for e in teacher.error)
    teacher.text_input(key="poll.public_url").set_value("192.168.1.20:8501").run()
    assert [t.value for t in teacher.text] == [f"http://192.168.1.20:8501/class_poll?poll={code}"]
    assert not any("opens only on this computer" in w.value for w in teacher.warning)
