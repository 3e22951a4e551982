"""The pages read uploads and pasted files from memory (ranklab_ui/widgets/files.py): no temporary file is
made, and a message names the file as the user named it."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import tables

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
QRELS = b"q1 0 a 1\nq1 0 b 1\n"
RUN = b"q1 Q0 a 1 2.0 t\nq1 Q0 x 2 1.0 t\n"   # a relevant at rank 1, x not judged, b not retrieved


def shown(text: str) -> str:
    """What a reader sees of escaped Markdown."""
    return re.sub(r"\\(.)", r"\1", text).replace("\u200b", "")


def open_page(page: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_evaluate_files_reads_uploads_in_memory(no_temporary_files):
    at = open_page("evaluate_files")
    at.radio(key="evaluate_files.source").set_value("Upload files").run()
    at.file_uploader(key="evaluate_files.qrels_upload").set_value(("my judgments.txt", QRELS, "text/plain"))
    at.file_uploader(key="evaluate_files.run_upload").set_value(
        ("run.txt.gz", gzip.compress(RUN), "application/gzip")).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    frame = at.dataframe[0].value
    got = dict(zip(frame["measure"], frame.iloc[:, 2], strict=True))
    # P@10 = 1/10; RR = 1/1; AP = (1/1) / R = 1/2 with R = 2 relevant
    assert got["P@10"] == pytest.approx(0.1) and got["RR"] == 1.0 and got["AP"] == pytest.approx(0.5)
    at.file_uploader(key="evaluate_files.qrels_upload").set_value(
        ("my judgments.txt", QRELS + b"q1 0 c yes\n", "text/plain")).run()
    assert not at.exception
    assert at.code[0].value == "my judgments.txt:3: grade 'yes' is not an integer"


def test_evaluate_files_reads_pasted_text_in_memory(no_temporary_files):
    at = open_page("evaluate_files")
    at.radio(key="evaluate_files.source").set_value("Paste text").run()
    at.text_area(key="evaluate_files.qrels_text").set_value(QRELS.decode())
    at.text_area(key="evaluate_files.run_text").set_value("q1 Q0 a 1 2.0 t\nq1 Q0 x 2 oops t\n").run()
    assert not at.exception
    assert at.code[0].value == "pasted run:2: score 'oops' is not a number"


def test_compare_reads_uploads_in_memory(no_temporary_files):
    at = open_page("compare")
    at.radio(key="compare.source").set_value("Upload qrels and two runs").run()
    at.file_uploader(key="compare.upload.0").set_value(("qrels.csv", b"qid,docid,grade\nq1,a,1\nq1,b,1\n",
                                                        "text/csv"))
    at.file_uploader(key="compare.upload.1").set_value(("a.txt", RUN, "text/plain"))
    at.file_uploader(key="compare.upload.2").set_value(("b.txt.gz", gzip.compress(b"q1 Q0 x 1 2.0 B\n"),
                                                        "application/gzip"))
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    table = tables(at)[0].set_index("measure")
    assert table.loc["RR", "mean A"] == "1" and table.loc["RR", "mean B"] == "0"  # a at rank 1; B finds none
    at.file_uploader(key="compare.upload.1").set_value(("a.txt", b"q1 Q0 a 1 nan A\n", "text/plain")).run()
    assert not at.exception
    assert shown(at.error[0].value) == "run A: a.txt:1: score 'nan' is not a finite number"
