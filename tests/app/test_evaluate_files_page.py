"""AppTest for app_pages/evaluate_files.py: the sample collection, pasted files, bad input, hostile text."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
import pytrec_eval
from streamlit.testing.v1 import AppTest

from ranklab_ui.core import codec, validation
from tests.metrics.io.test_io import simple_qrels_parse, simple_run_parse

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "app_pages" / "evaluate_files.py")
SAMPLE = ROOT / "assets" / "collection"
TREC = {"P@10": "P_10", "R@100": "recall_100", "RR": "recip_rank", "AP": "map", "nDCG@10": "ndcg_cut_10"}


def shown(text: str) -> str:
    """What a reader sees of escaped Markdown (``ranklab_ui.core.views.escape_markdown``)."""
    return re.sub(r"\\(.)", r"\1", text).replace("\u200b", "")


def run_page() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def means(run_file: str) -> dict[str, float]:
    """pytrec_eval's means on the sample files, parsed by the test's own reader."""
    qrels = simple_qrels_parse(SAMPLE / "qrels.txt")
    run = simple_run_parse(SAMPLE / run_file)
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {"P.10", "recall.100", "recip_rank", "map",
                                                       "ndcg_cut.10"}).evaluate(run)
    return {ours: sum(v[name] for v in per_query.values()) / len(per_query) for ours, name in TREC.items()}


def aggregate(at) -> dict[str, float]:
    frame = at.dataframe[0].value
    return dict(zip(frame["measure"], frame.iloc[:, 2], strict=True))


def test_sample_collection_matches_pytrec_eval():
    at = run_page()
    got = aggregate(at)
    for measure, value in means("run_bm25.txt").items():
        assert got[measure] == pytest.approx(value, abs=1e-12), measure
    assert len(at.dataframe[1].value) == 30  # one row per query
    assert at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")


def test_switching_to_the_baseline_run():
    at = run_page()
    at.selectbox(key="evaluate_files.sample_run").select("TF baseline (run_tf.txt)").run()
    assert not at.exception
    got = aggregate(at)
    for measure, value in means("run_tf.txt").items():
        assert got[measure] == pytest.approx(value, abs=1e-12), measure
    assert shown(at.subheader[0].value) == "run_tf.txt against qrels.txt"


def test_convention_preset_renames_the_measures():
    at = run_page()
    at.selectbox(key="evaluate_files.convention").select("sklearn").run()
    assert "nDCG(ideal='ranking')@10" in aggregate(at)


def paste(at, qrels: str, run: str) -> AppTest:
    at.radio(key="evaluate_files.source").set_value("Paste text").run()
    at.text_area(key="evaluate_files.qrels_text").set_value(qrels)
    at.text_area(key="evaluate_files.run_text").set_value(run).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_pasted_files_and_a_malformed_line_keeps_the_previous_results():
    at = paste(run_page(), "q1 0 a 1\nq1 0 b 0\nq2 0 c 2\n", "q1 Q0 b 1 2.0 x\nq1 Q0 a 2 1.0 x\nq2 Q0 c 1 1 x\n")
    got = aggregate(at)
    assert got["RR"] == pytest.approx((1 / 2 + 1) / 2)  # a at rank 2 for q1, c at rank 1 for q2
    assert got["P@10"] == pytest.approx((1 / 10 + 1 / 10) / 2)
    at.text_area(key="evaluate_files.run_text").set_value("q1 Q0 b 1 2.0 x\nq1 Q0 a 2 high x\n").run()
    assert not at.exception
    assert "pasted run:2: score 'high' is not a number" in at.code[0].value
    assert at.error[0].value == "These files could not be evaluated:"
    assert any("previous results" in c.value for c in at.caption)
    assert aggregate(at)["RR"] == pytest.approx(0.75)  # still the last good evaluation


def cli_error(capsys, *measures: str) -> str:
    """What ``ranklab evaluate -m ...`` prints on the sample collection for a bad measure."""
    from metrics.cli import EXIT_USAGE, main

    args = [a for m in measures for a in ("-m", m)]
    assert main(["evaluate", str(SAMPLE / "qrels.txt"), str(SAMPLE / "run_bm25.txt"), *args]) == EXIT_USAGE
    return capsys.readouterr().err.strip().removeprefix("ranklab: error: ")


def test_unknown_measure_is_shown_with_a_suggestion(capsys):
    at = run_page()
    at.text_input(key="evaluate_files.measures").set_value("nDGC@10").run()
    assert not at.exception
    # at the measure box, naming the measure, as `ranklab evaluate -m nDGC@10` does; the files are not blamed
    assert [shown(e.value) for e in at.error] == [cli_error(capsys, "nDGC@10")]
    assert not at.code
    assert "P@10" in aggregate(at)  # the previous results stay
    assert any("previous results" in c.value for c in at.caption)


def test_hostile_query_ids_render_as_plain_text():
    hostile = "**bold**<script>x</script>"
    at = paste(run_page(), f"{hostile} 0 a 1\nq9 0 b 1\n", f"{hostile} Q0 a 1 1 x\nq8 Q0 b 1 1 x\n")
    texts = [m.value for m in at.markdown] + [w.value for w in at.warning]
    assert not any("**bold**" in t and "\\*" not in t for t in texts)
    assert any("q9" in w.value for w in at.warning)  # judged but not in the run


def test_worst_query_links_to_its_ranking_in_the_playground():
    at = run_page()
    links = [m.value for m in at.markdown if "open in the playground" in m.value]
    assert len(links) == 10  # five worst, five best
    qid = shown(links[0].split(" — ")[0])
    example = codec.decode(re.search(r"\(\./\?ex=([^)]+)\)", links[0]).group(1))
    run = simple_run_parse(SAMPLE / "run_bm25.txt")[qid]
    qrels = simple_qrels_parse(SAMPLE / "qrels.txt")[qid]
    top = sorted(sorted(run, reverse=True), key=lambda d: -run[d])  # trec_eval order
    query = example.query
    assert query.name == qid
    assert [item.id for item in query.ranking] == top[:30]
    assert [item.grade for item in query.ranking] == [max(qrels.get(d, 0), 0) for d in top[:30]]
    missing = {d for d, g in qrels.items() if g > 0 and d not in top[:30]}
    assert {item.id for item in query.tray} == missing


# ids as real collections write them: '#', '/', addresses, non-Latin text
WILD_QRELS = ("101 0 doc#D001 1\n101 0 doc#D002 0\n101 0 http://x.org/a?b=1#c 2\n"
              "102 0 文書/3 1\n102 0 doc#D004 1\n")
WILD_RUN = ("101 Q0 doc#D001 1 0.9 t\n101 Q0 doc#D002 2 0.8 t\n101 Q0 http://x.org/a?b=1#c 3 0.7 t\n"
            "102 Q0 doc#D004 1 0.9 t\n102 Q0 文書/3 2 0.5 t\n")


def test_ids_with_hash_slash_and_other_scripts_are_evaluated():
    at = paste(run_page(), WILD_QRELS, WILD_RUN)
    assert not at.error, [e.value for e in at.error] + [c.value for c in at.code]
    got = aggregate(at)
    # 101: relevant at ranks 1 and 3 → RR 1, AP (1/1 + 2/3) / 2; 102: relevant at 1 and 2 → RR 1, AP 1
    assert got["RR"] == pytest.approx(1.0)
    assert got["AP"] == pytest.approx(((1 + 2 / 3) / 2 + 1) / 2)
    links = [m.value for m in at.markdown if "open in the playground" in m.value]
    assert links
    for line in links:
        qid = shown(line.split(" — ")[0])
        example = codec.decode(re.search(r"\(\./\?ex=([^)]+)\)", line).group(1))
        assert example.query.name == qid
        ids = {item.id for item in (*example.query.ranking, *example.query.tray)}
        assert ids <= {"doc#D001", "doc#D002", "http://x.org/a?b=1#c", "文書/3", "doc#D004"}
        assert codec.decode(codec.encode(example)) == example   # the permalink round-trips them exactly


def test_an_unusable_id_costs_the_link_not_the_page(monkeypatch):
    from ranklab_ui.core import evaluation_view

    def refuse(*args, **kwargs):
        raise validation.ExampleError("id 'doc#D001' may only use letters, digits and _ . : -")

    monkeypatch.setattr(evaluation_view, "query_example", refuse)
    at = paste(run_page(), WILD_QRELS, WILD_RUN)
    assert not at.error and aggregate(at)["RR"] == pytest.approx(1.0)
    assert not [m for m in at.markdown if "open in the playground" in m.value]


def test_any_unexpected_error_is_a_message_not_a_traceback(monkeypatch):
    from ranklab_ui.core import evaluation_view

    def broken(*args, **kwargs):
        raise RuntimeError("something no one foresaw")

    monkeypatch.setattr(evaluation_view, "distribution_chart", broken)
    at = paste(run_page(), WILD_QRELS + "103 0 z 1\n", WILD_RUN)
    assert not at.exception
    assert any("Something went wrong" in e.value for e in at.error)
    assert any("RuntimeError: something no one foresaw" in c.value for c in at.code)


def upload(at, qrels: tuple[str, bytes], run: tuple[str, bytes]) -> AppTest:
    at.radio(key="evaluate_files.source").set_value("Upload files").run()
    at.file_uploader(key="evaluate_files.qrels_upload").set_value((*qrels, "application/octet-stream"))
    at.file_uploader(key="evaluate_files.run_upload").set_value((*run, "application/octet-stream")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_an_uploaded_file_with_a_hostile_name_is_named_as_plain_text():
    name = "[Fix it here](http://evil.example/x) <img src=x onerror=alert(1)>.txt"
    at = upload(run_page(), (name, WILD_QRELS.encode()), ("run.txt.gz", gzip.compress(WILD_RUN.encode())))
    assert not at.error
    heading = at.subheader[0].value
    assert shown(heading) == f"run.txt.gz against {name}"
    assert not re.search(r"(?<!\\)\]\(|(?<!\\)<img", heading), heading
    assert aggregate(at)["RR"] == pytest.approx(1.0)


def test_a_gzip_bomb_is_refused_and_a_file_near_the_cap_is_read(monkeypatch):
    import metrics.io

    limit = 200_000
    monkeypatch.setattr(metrics.io, "APP_MAX_BYTES", limit)
    lines = [f"q{i % 50} Q0 d{i} {i} {1 / (i + 1):.6f} t\n" for i in range(5_000)]
    near = "".join(lines)
    while len(near.encode()) > limit - 100:   # just under the cap, once decompressed
        lines.pop()
        near = "".join(lines)
    qrels = ("qrels.txt", "".join(f"q{i} 0 d{i} 1\n" for i in range(50)).encode())
    at = upload(run_page(), qrels, ("run.txt.gz", gzip.compress(near.encode())))
    assert not at.error, [c.value for c in at.code]
    assert len(at.dataframe[1].value) == 50
    bomb = gzip.compress(near.encode() + b" " * (limit * 50))   # a small file that expands 50-fold past the cap
    assert len(bomb) < limit
    at.file_uploader(key="evaluate_files.run_upload").set_value(("bomb.txt.gz", bomb, "application/gzip")).run()
    assert not at.exception
    assert at.error and at.error[0].value == "These files could not be evaluated:"
    message = at.code[0].value
    assert "bomb.txt.gz" in message and "/tmp" not in message, message
    assert any("previous results" in c.value for c in at.caption)


def test_the_session_keeps_only_small_results():
    import pickle

    at = run_page()
    last = at.session_state["evaluate_files.last"]
    assert set(last) == {"result", "measures", "links", "tag", "notes", "trec", "names", "key"}
    assert len(pickle.dumps(last)) < 200_000   # numbers and links, not the 30-query collection's tables


def test_a_large_run_is_read_in_blocks_with_the_same_numbers(monkeypatch):
    monkeypatch.setattr("ranklab_ui.widgets.files.STREAM_BYTES", 0)  # every run counts as large
    from metrics.io.stream import RunStream

    monkeypatch.setattr("metrics.io.stream.RunStream.__init__.__kwdefaults__",
                        {**RunStream.__init__.__kwdefaults__, "block_size": 500})

    def whole(*args, **kwargs):
        raise AssertionError("the run was read whole")

    monkeypatch.setattr("metrics.batch.evaluate_batch", whole)
    at = run_page()
    got = aggregate(at)
    for m, v in means("run_bm25.txt").items():
        assert got[m] == pytest.approx(v, abs=1e-9), m
    assert not at.get("progress")  # the bar is gone once the run is read
    assert any("Worst queries" in md.value for md in at.markdown)


def test_an_interleaved_large_run_is_read_whole(monkeypatch):
    monkeypatch.setattr("ranklab_ui.widgets.files.STREAM_BYTES", 0)
    at = paste(run_page(), "a 0 d1 1\nb 0 d2 1\n", "a Q0 d1 1 2 t\nb Q0 d2 1 2 t\na Q0 d3 2 1 t\n")
    assert not at.error
    assert aggregate(at)["RR"] == pytest.approx(1.0)


def test_trec_eval_parameter_lists_are_read_as_the_command_line_reads_them():
    at = run_page()
    at.text_input(key="evaluate_files.measures").set_value("ndcg_cut.5,10 P.5").run()
    assert not at.exception and not at.error
    qrels = simple_qrels_parse(SAMPLE / "qrels.txt")
    run = simple_run_parse(SAMPLE / "run_bm25.txt")
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.5,10", "P.5"}).evaluate(run)
    got = aggregate(at)
    assert list(got) == ["nDCG@5", "nDCG@10", "P@5"]
    for ours, theirs in (("nDCG@5", "ndcg_cut_5"), ("nDCG@10", "ndcg_cut_10"), ("P@5", "P_5")):
        assert got[ours] == pytest.approx(sum(v[theirs] for v in per_query.values()) / len(per_query), abs=1e-12)


@pytest.mark.parametrize("measure", ["P.5,x", "utility.1,-1,0", "ndcg_cut.0", "nDCG(k=@10"])
def test_a_bad_trec_eval_parameter_is_named_at_the_box_as_on_the_command_line(capsys, measure):
    at = run_page()
    at.text_input(key="evaluate_files.measures").set_value(f"map {measure}").run()
    assert not at.exception
    assert [shown(e.value) for e in at.error] == [cli_error(capsys, "map", measure)]
    assert not at.code   # nothing said against the files


def test_an_empty_measure_box_asks_for_a_measure():
    at = run_page()
    at.text_input(key="evaluate_files.measures").set_value("  ").run()
    assert not at.exception
    assert len(at.error) == 1 and "no measure given" in at.error[0].value
    at.text_input(key="evaluate_files.measures").set_value("runid").run()
    assert len(at.error) == 1 and "runid and relstring are printed" in at.error[0].value


def test_a_run_pasted_as_qrels_is_one_message_with_a_hint():
    run = (SAMPLE / "run_bm25.txt").read_text()
    at = paste(run_page(), run, (SAMPLE / "qrels.txt").read_text())
    lines = len(run.splitlines())
    assert at.code[0].value == (f"{lines} malformed lines, the first at pasted qrels:1: expected 4 columns "
                                "(qid iter docid grade), found 6")
    assert [shown(w.value) for w in at.warning] == [
        "pasted qrels: this looks like a run file (6 columns: qid Q0 docid rank score tag); did you swap qrels and run?"]


def test_a_malformed_qrels_file_that_is_no_run_gets_no_hint():
    at = paste(run_page(), "q1 0 a 1\nq1 0 b\nq1 0 c\n", "q1 Q0 a 1 1 x\n")
    assert at.code[0].value == "2 malformed lines, the first at pasted qrels:2: expected 4 columns (qid iter docid grade), found 3"
    assert not at.warning
