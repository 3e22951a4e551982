"""AppTest for app_pages/diagnose.py: the sample collection against pytrec_eval's numbers, a tool's
name, the Playground's example, bad input kept and named, hostile text."""

from __future__ import annotations

import re
from pathlib import Path

import pytrec_eval
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP, tables
from tests.metrics.io.test_io import simple_qrels_parse, simple_run_parse

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "app_pages" / "diagnose.py")
SAMPLE = ROOT / "assets" / "collection"


def shown(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text).replace("\u200b", "")


def run_page() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def exponential_ndcg_text() -> str:
    """pytrec_eval's nDCG@10 on the sample with grades replaced by 2^grade - 1 (the exponential
    gain), printed as trec_eval -q prints it (4 decimals)."""
    qrels = simple_qrels_parse(SAMPLE / "qrels.txt")
    run = simple_run_parse(SAMPLE / "run_bm25.txt")
    remapped = {q: {d: 2 ** g - 1 for d, g in docs.items()} for q, docs in qrels.items()}
    res = pytrec_eval.RelevanceEvaluator(remapped, {"ndcg_cut_10"}).evaluate(run)
    return "".join(f"ndcg_cut_10\t{q}\t{v['ndcg_cut_10']:.4f}\n" for q, v in res.items())


def test_sample_collection_against_pytrec_eval_exponential_gain():
    at = run_page()
    at.text_area(key="diagnose.theirs_text").set_value(exponential_ndcg_text()).run()
    assert not at.exception and not at.error
    assert "Reproduced with gain" in shown(at.success[0].value)
    changes = tables(at)[0]
    assert list(changes["value"]) == ["exponential"]
    rows = tables(at)[-1]
    assert len(rows) == 30 and set(rows["moved by"]) == {"gain=exponential"}
    assert all(rows["matches"])


def test_a_tool_name_shows_its_conventions():
    at = run_page()
    at.radio(key="diagnose.theirs").set_value("Only the tool's name").run()
    at.selectbox(key="diagnose.tool").set_value("sklearn").run()
    assert not at.exception
    assert "ideal ordering of the retrieved documents only" in shown(at.info[0].value)
    # tie-aware averaging (sklearn's ndcg_score) is one of metrics' conventions: applied, not noted as missing
    assert not any("not available" in shown(c.value) for c in at.caption)


def test_the_playground_example_and_one_value():
    # the default example is the Pinecone notebook's cat in the box: first relevant document at rank 2, RR = 1/2
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("app_pages/diagnose.py")
    at.run()
    at.radio(key="diagnose.data").set_value("The Playground's example").run()
    at.text_input(key="diagnose.measure").set_value("RR").run()
    at.text_area(key="diagnose.theirs_text").set_value("0.5").run()
    assert not at.exception and not at.error
    assert "already reproduce" in shown(at.success[0].value)
    at.text_area(key="diagnose.theirs_text").set_value("1.0").run()
    assert "No set of conventions" in shown(at.warning[0].value) or "Reproduced" in shown(at.success[0].value)


def test_bad_input_is_named_and_the_previous_diagnosis_kept():
    at = run_page()
    at.radio(key="diagnose.data").set_value("Paste or upload qrels and a run").run()
    at.text_area(key="diagnose.qrels_text").set_value("q1 0 a 1\nq1 0 b 0\n")
    at.text_area(key="diagnose.run_text").set_value("q1 Q0 b 1 2.0 t\nq1 Q0 a 2 1.0 t\n")
    at.text_input(key="diagnose.measure").set_value("RR")
    at.text_area(key="diagnose.theirs_text").set_value("q1,0.5\n").run()
    assert not at.error
    assert "already reproduce" in shown(at.success[0].value)  # a at rank 2: RR = 1/2
    at.text_area(key="diagnose.run_text").set_value("q1 Q0 b 1 2.0 t\nq1 Q0 a 2 zz t\n").run()
    assert not at.exception
    assert "pasted run:2:" in at.code[0].value
    assert any("previous diagnosis" in c.value for c in at.caption)
    at.text_area(key="diagnose.run_text").set_value("q1 Q0 b 1 2.0 t\nq1 Q0 a 2 1.0 t\n")
    at.text_area(key="diagnose.theirs_text").set_value("q1 0.5\nq1 0.25\n").run()
    assert "their numbers:2: query 'q1' given twice" in at.code[0].value
    at.text_input(key="diagnose.measure").set_value("nDGC@10").run()
    assert "did you mean 'nDCG@10'" in at.code[0].value


def test_hostile_ids_stay_plain_text():
    hostile = "**b**[x](http://evil.example)<img/src=x>"
    at = run_page()
    at.radio(key="diagnose.data").set_value("Paste or upload qrels and a run").run()
    at.text_area(key="diagnose.qrels_text").set_value(f"{hostile} 0 a 1\n")
    at.text_area(key="diagnose.run_text").set_value(f"{hostile} Q0 x 1 2.0 t\n{hostile} Q0 a 2 1.0 t\n")
    at.text_input(key="diagnose.measure").set_value("RR")
    at.text_area(key="diagnose.theirs_text").set_value(f"{hostile},0.3\n").run()
    assert not at.exception and not at.error
    assert list(tables(at)[-1]["query"]) == [hostile]
    for element in [*at.markdown, *at.caption, *at.warning]:
        assert "](http" not in element.value


def test_their_numbers_uploaded_as_json():
    # pytrec_eval's per-query AP with relevance level 2, uploaded as its own JSON
    qrels = simple_qrels_parse(SAMPLE / "qrels.txt")
    run = simple_run_parse(SAMPLE / "run_bm25.txt")
    res = pytrec_eval.RelevanceEvaluator(qrels, {"map"}, relevance_level=2).evaluate(run)
    import json

    at = run_page()
    at.text_input(key="diagnose.measure").set_value("map").run()
    at.radio(key="diagnose.theirs").set_value("Upload their numbers").run()
    at.file_uploader(key="diagnose.theirs_upload").set_value(
        ("pytrec.json", json.dumps(res).encode(), "application/json")).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert "Reproduced with relevance level" in shown(at.success[0].value)
    assert list(tables(at)[0]["value"]) == ["2"]
    at.file_uploader(key="diagnose.theirs_upload").set_value(
        ("pytrec.json", b'{"101": {"map": "x"}}', "application/json")).run()
    assert "pytrec.json:1: query '101': expected a number" in at.code[0].value
    assert "Reproduced with relevance level" in shown(at.success[0].value)  # the previous diagnosis kept


def test_a_paste_longer_than_a_box_takes_is_named_and_kept():
    at = run_page()
    at.radio(key="diagnose.data").set_value("Paste or upload qrels and a run").run()
    line = "q1 Q0 d1 1 2.0 t\n"
    text = line * (200_000 // len(line) + 1)   # one line more than 200,000 characters hold
    at.text_area(key="diagnose.qrels_text").set_value("q1 0 d1 1\n")
    at.text_area(key="diagnose.run_text").set_value(text)
    at.text_area(key="diagnose.theirs_text").set_value("0.5").run()
    assert not at.exception
    assert [shown(e.value) for e in at.error] == [
        f"This text has {len(text):,} characters: a box takes up to 200,000. Upload it as a file instead; "
        "the text is kept."]
    assert at.text_area(key="diagnose.run_text").value == text
    at.text_area(key="diagnose.run_text").set_value(text[: -len(line)]).run()   # 200,000 or fewer: read
    assert not at.error
    assert at.metric[0].label == "Ranklab (trec_eval)"   # diagnosed


def test_every_paste_box_has_an_apply_button():
    at = run_page()
    at.radio(key="diagnose.data").set_value("Paste or upload qrels and a run").run()
    assert [b.label for b in at.button] == ["Apply the pasted text"] * 3
    at.button(key="diagnose.theirs_text.apply").click().run()
    assert not at.exception
