"""Headless Chromium: upload the sample collection through the file widgets of "Evaluate files"."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import ST, shot, upload, wait_ready
from .pages import Playground

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser
TIMEOUT = 60_000  # a cold server on a busy machine


def open_upload_form(server, page):
    """The Evaluate files page with its two file inputs (qrels, run) shown."""
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(server + "/evaluate_files")
    page.get_by_text("Upload files").click(timeout=TIMEOUT)
    page.get_by_text("Up to 200 MB per file").wait_for(timeout=TIMEOUT)
    return page.locator("input[type=file]")


def test_upload_the_sample_files(server, page):
    inputs = open_upload_form(server, page)
    upload(page, inputs, str(ROOT / "assets/collection/qrels.txt"), str(ROOT / "assets/collection/run_tf.txt"))
    page.get_by_text("run_tf.txt against qrels.txt").wait_for(timeout=TIMEOUT)
    page.get_by_text("Best queries").wait_for(timeout=TIMEOUT)
    shot(page, "evaluate_files")
    run_lines = len((ROOT / "assets/collection/run_tf.txt").read_text().splitlines())
    judgments = len((ROOT / "assets/collection/qrels.txt").read_text().splitlines())
    status = f"Read {run_lines} run lines and {judgments} judgments; evaluated 30 queries"
    assert page.get_by_text(status).count() == 1


# ids as real collections write them
WILD_QRELS = "101 0 doc#D001 1\n101 0 doc#D002 0\n101 0 http://x.org/a?b=1#c 2\n102 0 文書/3 1\n102 0 doc#D004 1\n"
WILD_RUN = ("101 Q0 doc#D001 1 0.9 t\n101 Q0 doc#D002 2 0.8 t\n101 Q0 http://x.org/a?b=1#c 3 0.7 t\n"
            "102 Q0 doc#D004 1 0.9 t\n102 Q0 文書/3 2 0.5 t\n")


def open_paste_boxes(server, page):
    """Evaluate files with its two paste boxes open (qrels, then the run)."""
    page.goto(server + "/evaluate_files")
    page.get_by_text("Paste text").click(timeout=TIMEOUT)
    areas = page.locator("textarea")
    areas.nth(0).wait_for(timeout=TIMEOUT)
    return areas


def paste(areas, qrels: str, run: str) -> None:
    areas.nth(0).fill(qrels)
    areas.nth(1).fill(run)
    areas.nth(1).press("Control+Enter")   # the box applies its text as a person ends typing


def test_pasted_ids_with_hash_are_evaluated(server, page):
    page.set_viewport_size({"width": 1400, "height": 1000})
    paste(open_paste_boxes(server, page), WILD_QRELS, WILD_RUN)
    page.get_by_text("pasted run against pasted qrels").wait_for(timeout=TIMEOUT)
    page.get_by_text("Best queries").wait_for(timeout=TIMEOUT)
    shot(page, "evaluate_files_hash_ids")
    assert page.locator(ST.EXCEPTION).count() == 0
    assert page.get_by_text("could not be evaluated").count() == 0
    assert page.get_by_text("Read 5 run lines and 5 judgments; evaluated 2 queries").count() == 1
    # the grids are canvases; the worst and best queries are text: P@10 = 2 / 10 for both queries
    assert page.get_by_text("0.2000").count() >= 2
    links = page.get_by_role("link", name="open in the playground")
    assert links.count() >= 2
    href = links.first.get_attribute("href")
    assert href.startswith("./?ex=1.")


def test_uploaded_ids_with_hash_are_evaluated_and_open_in_the_playground(server, page):
    inputs = open_upload_form(server, page)
    upload(page, inputs, [{"name": "qrels.txt", "mimeType": "text/plain", "buffer": WILD_QRELS.encode()}],
           [{"name": "run.txt", "mimeType": "text/plain", "buffer": WILD_RUN.encode()}])
    page.get_by_text("run.txt against qrels.txt").wait_for(timeout=TIMEOUT)
    page.get_by_text("Best queries").wait_for(timeout=TIMEOUT)
    assert page.locator(ST.EXCEPTION).count() == 0
    assert page.get_by_text("Read 5 run lines and 5 judgments; evaluated 2 queries").count() == 1
    # the worst query on P@10 is 101 or 102 with 0.2000 (2 relevant in the top 10)
    assert page.get_by_text("0.2000").count() >= 1
    # its playground link (Markdown links open a new tab: follow it here) opens with the ids as they are
    href = page.get_by_role("link", name="open in the playground").first.get_attribute("href")
    assert href.startswith("./?ex=1.")
    page.goto(f"{server}/{href[2:]}")
    page.get_by_role("heading", name="Playground").wait_for(timeout=TIMEOUT)
    play = Playground(page)
    play.wait_drawn()
    assert play.exceptions() == 0
    assert page.locator(ST.ALERT).count() == 0
    shot(page, "evaluate_files_hash_ids_playground")
    # the worst query on P@10 (a tie at 0.2: 101 comes first) in the editor: its ids, as they are
    rows = play.ranking()
    assert (rows[0].rank, rows[0].id, rows[0].grade) == (1, "doc#D001", 1)
    assert (rows[2].rank, rows[2].id, rows[2].grade) == (3, "http://x.org/a?b=1#c", 2)


def measure_box(page):
    """The column that holds the Measures box (its messages are drawn in it)."""
    return page.locator(ST.COLUMN, has=page.get_by_role("textbox", name="Measures")).last


def set_measures(page, text: str) -> None:
    box = page.get_by_role("textbox", name="Measures")
    box.wait_for(timeout=TIMEOUT)
    box.fill(text)
    box.press("Enter")


def test_a_bad_measure_is_reported_at_the_measure_box_not_against_the_files(server, page):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server + "/evaluate_files")
    page.get_by_text("Best queries").wait_for(timeout=TIMEOUT)   # the sample collection, evaluated
    set_measures(page, "P@10 ndcg_kut_10")
    column = measure_box(page)
    column.locator(ST.ALERT).wait_for(timeout=TIMEOUT)
    shot(page, "evaluate_files_bad_measure")
    message = column.locator(ST.ALERT).inner_text()
    assert "ndcg_kut_10" in message and "did you mean 'ndcg_cut_10'" in message
    assert page.get_by_text("could not be evaluated").count() == 0
    assert page.locator(ST.EXCEPTION).count() == 0


def test_trec_eval_cutoff_lists_are_accepted_as_on_the_command_line(server, page):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server + "/evaluate_files")
    page.get_by_text("Best queries").wait_for(timeout=TIMEOUT)
    set_measures(page, "ndcg_cut.5,10")
    # one of the two measures trec_eval's list names, shown where the extremes are
    page.get_by_text("Worst queries on nDCG@5").wait_for(timeout=TIMEOUT)
    assert page.locator(ST.ALERT).count() == 0
    assert page.get_by_text("could not be evaluated").count() == 0


def test_a_run_given_as_qrels_is_one_message_with_a_hint(server, page):
    inputs = open_upload_form(server, page)
    run_file = ROOT / "assets/collection/run_bm25.txt"
    upload(page, inputs, str(run_file), str(ROOT / "assets/collection/qrels.txt"))
    page.get_by_text("did you swap qrels and run?").first.wait_for(timeout=TIMEOUT)
    lines = len(run_file.read_text().splitlines())   # every line of the run has 6 columns, not 4
    # the lines are a code block, drawn by a script the browser may still be fetching as the hint shows
    page.get_by_text(f"{lines} malformed lines").wait_for(timeout=TIMEOUT)
    wait_ready(page)
    shot(page, "evaluate_files_swapped")
    text = page.locator(ST.MAIN).inner_text()
    assert "run_bm25.txt:1" in text
    assert "run_bm25.txt:2:" not in text   # one grouped message, not one line per line
    assert "this looks like a run file (6 columns: qid Q0 docid rank score tag)" in text


def test_qrels_given_as_the_run_get_the_hint_too(server, page):
    inputs = open_upload_form(server, page)
    qrels_file = ROOT / "assets/collection/qrels.txt"
    upload(page, inputs, [{"name": "judgments.txt", "mimeType": "text/plain", "buffer": qrels_file.read_bytes()}],
           str(qrels_file))
    page.get_by_text("did you swap qrels and run?").first.wait_for(timeout=TIMEOUT)
    lines = len(qrels_file.read_text().splitlines())   # every line of the qrels has 4 columns, not 6
    page.get_by_text(f"{lines} malformed lines").wait_for(timeout=TIMEOUT)   # see the test above
    wait_ready(page)
    text = page.locator(ST.MAIN).inner_text()
    assert "Showing the previous results." in text   # the sample run's, kept while the files are wrong
    assert "qrels.txt:1" in text and "qrels.txt:2:" not in text
    assert "this looks like a qrels file (4 columns: qid iter docid grade)" in text


# q3 is judged but absent from the run: trec_eval 9.0.8's -c counts it as 0 and prints no line for it
ABSENT_QRELS = "q1 0 a 1\nq1 0 b 0\nq1 0 c 2\nq2 0 d 1\nq2 0 e 1\nq3 0 f 1\nq3 0 g 2\n"
ABSENT_RUN = "q1 Q0 b 1 2.0 mine\nq1 Q0 a 2 1.5 mine\nq1 Q0 z 3 1.0 mine\nq2 Q0 e 1 3 mine\nq2 Q0 y 2 2 mine\n"


@pytest.mark.parametrize("measures", ["map P_5 P_10 num_q num_rel num_ret gm_map",
                                      "map P.5,10 num_q num_rel utility.1,-1,0,0 set_F.0.5 runid"])
def test_the_trec_eval_download_is_what_the_command_line_prints(server, page, tmp_path, measures):
    import subprocess
    import sys

    page.set_viewport_size({"width": 1280, "height": 800})
    areas = open_paste_boxes(server, page)
    # the options first, then the files: the one evaluation there is is the one downloaded
    set_measures(page, measures)
    page.get_by_text("Count judged queries missing from the run as 0").click()
    page.get_by_role("checkbox", name="Count judged queries missing from the run as 0 (trec_eval -c)").wait_for(
        state="attached", timeout=TIMEOUT)
    wait_ready(page)
    paste(areas, ABSENT_QRELS, ABSENT_RUN)
    page.get_by_text("pasted run against pasted qrels").wait_for(timeout=TIMEOUT)
    page.get_by_text("Read 5 run lines and 7 judgments; evaluated 3 queries").wait_for(timeout=TIMEOUT)
    shot(page, "evaluate_files_complete")
    (tmp_path / "qrels.txt").write_text(ABSENT_QRELS)
    (tmp_path / "run.txt").write_text(ABSENT_RUN)
    args = [a for m in measures.split() for a in ("-m", m)]
    for button, fmt in (("Download trec_eval text", "trec"), ("Download JSON", "json"), ("Download CSV", "csv")):
        with page.expect_download(timeout=TIMEOUT) as download:
            page.get_by_text(button).click()
        got = Path(download.value.path()).read_text()
        cli = subprocess.run([sys.executable, "-m", "metrics", "evaluate", str(tmp_path / "qrels.txt"),
                              str(tmp_path / "run.txt"), "-q", "-c", "--format", fmt, *args],
                             capture_output=True, text=True, cwd=ROOT)
        assert cli.returncode == 0, cli.stderr
        assert got == cli.stdout, button
        if fmt == "trec":
            assert "\tq3\t" not in got   # never scored under 9.0.8's -c
    # and the page says so, as the command line does on stderr
    page.get_by_text("1 query judged but absent from the run scored 0 (-c): q3").wait_for(timeout=TIMEOUT)
