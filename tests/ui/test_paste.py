"""ranklab_ui.core.paste: the pasted-list reader. Hand-made cases, limits, and a fuzz test."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ranklab_ui.core import paste
from ranklab_ui.core.validation import LIMITS
from tests.strength import scaled


def ids(rows):
    return [r.id for r in rows]


def test_one_id_per_line_keeps_ids_exactly():
    text = "coffee.pdf#2\nA/B/c\n中文文档\nوثيقة\n🐱📦\n#7\n"
    p = paste.parse(text)
    assert p.format == "list"
    assert ids(p.ranking) == ["coffee.pdf#2", "A/B/c", "中文文档", "وثيقة", "🐱📦", "#7"]
    assert all(r.grade is None and r.label is None for r in p.ranking)
    assert p.problems == ()


def test_tab_separated_grades_and_labels():
    p = paste.parse("d1\t3\tcat in a box\nd2\t0\nd3\t\tno grade given\r\n\nd4\t2.0")
    assert [(r.id, r.grade, r.label) for r in p.ranking] == [
        ("d1", 3, "cat in a box"), ("d2", 0, None), ("d3", None, "no grade given"), ("d4", 2, None)]


def test_every_bad_line_is_named():
    p = paste.parse("a\t1\nb\tlots\nc\t11\na\t2\nd\t-1\n\x01e\n" + "f" * (LIMITS.id_chars + 1))
    assert ids(p.ranking) == ["a"]
    assert p.problems == (
        "line 2: grade 'lots' is not a whole number",
        f"line 3: grade 11 is out of range (0 to {LIMITS.grade_max})",
        "line 4: id 'a' appears twice (first on line 1)",
        f"line 5: grade -1 is out of range (0 to {LIMITS.grade_max})",
        "line 6: id '?e' has a character that is not printable (a tab, a line break …)",
        f"line 7: id {'f' * 30 + '…'!r} is longer than {LIMITS.id_chars} characters",
    )


def test_csv_with_a_header():
    text = 'docid,label,relevance\n"report, final.pdf",Final report,2\nmy doc 7,"a ""quoted"" label",0\nx,y\n'
    p = paste.parse(text)
    assert p.format == "csv"
    assert [(r.id, r.grade, r.label) for r in p.ranking] == [
        ("report, final.pdf", 2, "Final report"), ("my doc 7", 0, 'a "quoted" label')]
    assert p.problems == ("line 4: expected 3 fields (docid,label,relevance), found 2",)


def test_tsv_header_and_id_column_names():
    p = paste.parse("Doc\tGrade\n#1\t1\n#2\t0\n")
    assert p.format == "csv" and [(r.id, r.grade) for r in p.ranking] == [("#1", 1), ("#2", 0)]
    assert ids(paste.parse("id,grade\na,1").ranking) == ["a"]


def test_a_broken_csv_quote_is_reported_not_raised():
    p = paste.parse('id,grade\na,1\n"b,2\n')
    assert ids(p.ranking) == ["a"]
    assert p.problems and p.problems[0].startswith("line 3: not valid CSV")


def test_trec_run_and_qrels_of_one_query():
    text = """# run, then qrels
q7 Q0 d1 1 2.5 bm25
q7 Q0 d2 2 7.0 bm25
q7 Q0 d3 3 2.5 bm25
q7 Q0 d4 4 -1 bm25
q7 0 d3 2
q7 0 d9 3
q7 0 d8 0
q8 Q0 d5 1 9 bm25
q7 Q0 d6 x 1e400 bm25
"""
    p = paste.parse(text)
    assert p.format == "trec" and p.query == "q7"
    # score descending; d1 and d3 tie at 2.5: the larger id, d3, first (trec_eval)
    assert [(r.id, r.grade) for r in p.ranking] == [("d2", None), ("d3", 2), ("d1", None), ("d4", None)]
    assert [(r.id, r.grade) for r in p.tray] == [("d9", 3)]  # d8 is judged not relevant: not in the tray
    assert p.problems == ("line 9: query 'q8' is not 'q7': paste the lines of one query",
                          "line 10: score '1e400' is not a finite number")


def test_qrels_without_a_run_cannot_be_read():
    with pytest.raises(paste.PasteError, match="no run line"):
        paste.parse("q1 0 d1 1\nq1 0 d2 0\n")


@pytest.mark.parametrize("text, words", [
    ("", "nothing to read"), ("  \n\t\n", "nothing to read"), ("id,grade\n", "a header but no rows"),
    ("a\t-\nb\tx", "line 1: grade '-' is not a whole number; line 2"),
    ("x" * (paste.MAX_CHARS + 1), f"at most {paste.MAX_CHARS:,}"),
    ("a\n" * (paste.MAX_LINES + 1), f"at most {paste.MAX_LINES:,} can be read"),
])
def test_nothing_readable_is_a_paste_error(text, words):
    with pytest.raises(paste.PasteError) as err:
        paste.parse(text)
    assert words in str(err.value)


def test_at_most_the_list_limit_and_twenty_problems_named():
    p = paste.parse("\n".join(f"d{i}" for i in range(LIMITS.items + 30)))
    assert len(p.ranking) == LIMITS.items
    assert len(p.problems) == paste.MAX_PROBLEMS + 1
    assert p.problems[0] == f"line {LIMITS.items + 1}: a list holds at most {LIMITS.items:,} items"
    assert p.problems[-1] == "… and 10 more lines that cannot be read"


@pytest.mark.perf
@pytest.mark.parametrize("text", [
    '"' * paste.MAX_CHARS,                                    # one endless quote
    "id,grade\n" + '"' * (paste.MAX_CHARS - 20),
    "q Q0 d 1 1 t\n" * (paste.MAX_CHARS // 13),
    ("a\t" * 50 + "\n") * (paste.MAX_CHARS // 102),
    "9" * paste.MAX_CHARS,
    "d\t" + "9" * (paste.MAX_CHARS - 2),                      # a huge grade: no int() of it
])
def test_the_largest_texts_are_quick(text):
    start = time.perf_counter()
    try:
        paste.parse(text)
    except paste.PasteError:
        pass
    assert time.perf_counter() - start < 2.0


TRICKY = st.sampled_from(["\t", ",", '"', "\n", "\r", " ", "#", "Q0", "0", "1", "-1", "2.5", "nan", "id", "doc",
                          "grade", "label", "q1", "\x00", "\u2028", "\ufeff", "é", "🐱", "٣", "1e999", "\\"])


@settings(derandomize=True, max_examples=scaled(600), deadline=timedelta(seconds=1))
@given(st.lists(st.one_of(TRICKY, st.text(max_size=8)), max_size=60).map("".join))
@example("id,grade\n\"a\nb\",1")
@example("q1 Q0 a 1 1 t\nq1 0 a 99")
def test_fuzz_only_paste_errors_and_a_sound_result(text):
    try:
        p = paste.parse(text)
    except paste.PasteError:
        return
    assert p.ranking and len(p.ranking) <= LIMITS.items
    assert len(set(ids(p.ranking))) == len(p.ranking)
    for r in (*p.ranking, *p.tray):
        assert r.id == r.id.strip() and r.id.isprintable() and 0 < len(r.id) <= LIMITS.id_chars
        assert r.grade is None or 0 <= r.grade <= LIMITS.grade_max
        assert r.label is None or (r.label.isprintable() and len(r.label) <= LIMITS.label_chars)
    assert all(isinstance(line, str) for line in p.problems)


class Upload:
    """What st.file_uploader returns, as far as the paste box uses it."""

    def __init__(self, data: bytes) -> None:
        self.data, self.size = data, len(data)

    def getvalue(self) -> bytes:
        return self.data


def test_an_uploaded_file_is_utf8_text_of_bounded_size():
    from ranklab_ui.widgets.paste_box import _read_upload

    assert paste.parse(_read_upload(Upload("\ufeffid,grade\nmy doc,1\n".encode()))).ranking[0].id == "my doc"
    with pytest.raises(paste.PasteError, match="not UTF-8 text \\(byte 3"):
        _read_upload(Upload(b"ab\xff\xfe"))
    with pytest.raises(paste.PasteError, match="at most"):
        _read_upload(Upload(b"a\n" * (2 * paste.MAX_CHARS + 1)))
