"""ranklab_ui.session.state: the example model, presets and the permalink codec (no Streamlit session needed)."""

import base64
import json
import zlib
from dataclasses import replace

import pytest

import metrics
from ranklab_ui.core import codec, model, presets, validation
from ranklab_ui.core.model import Example, Item, Query
from ranklab_ui.core.validation import ExampleError


@pytest.mark.parametrize("name", list(presets.PRESETS))
def test_every_preset_round_trips_through_the_permalink(name):
    ex = presets.build_preset(name)
    assert validation.validate(ex) == ex
    assert codec.decode(codec.encode(ex)) == ex


def test_cat_preset_gives_the_seed_recall_and_precision():
    ex = presets.build_preset("cat")
    ranking, judgments = ex.query.inputs(ex.mode)
    # the Pinecone notebook: relevant at ranks 2, 4, 5, 7 of 8
    assert metrics.scores_over_k("R", ranking, judgments) == [0, .25, .25, .5, .75, .75, 1, 1]
    p = [round(x, 2) for x in metrics.scores_over_k("P", ranking, judgments)]
    assert p == [0, .5, .33, .5, .6, .5, .57, .5]


def test_white_cat_preset_gives_the_seed_ndcg():
    ex = presets.build_preset("white-cat")
    ranking, judgments = ex.query.inputs(ex.mode)
    ndcg = [round(x, 2) for x in metrics.scores_over_k("nDCG", ranking, judgments)]
    assert ndcg == [0, .39, .38, .46, .58, .6, .67, .73]


def test_dcg_preset_uses_the_tray_for_the_ideal():
    ex = presets.build_preset("dcg")
    ranking, judgments = ex.query.inputs(ex.mode)
    assert round(metrics.score("nDCG@6", ranking, judgments), 3) == 0.785  # Wikipedia's DCG example (docs/sources.md)


def test_binary_mode_turns_positive_grades_into_one():
    q = Query("q", (Item("a", "A", 4), Item("b", "B", 0)), (Item("c", "C", 2),))
    assert q.inputs("binary") == (["a", "b"], {"a": 1, "b": 0, "c": 1})
    assert q.inputs("graded") == (["a", "b"], {"a": 4, "b": 0, "c": 2})


def _forge(payload) -> str:
    raw = json.dumps(payload).encode()
    return "1." + base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")


@pytest.mark.parametrize("text, words", [
    ("", "no example"),
    ("2.abc", "another version"),
    ("1.!!!!", "damaged"),
    ("1." + "A" * 40, "damaged"),
    (_forge([1, 2]), "not an object"),
    (_forge({"v": 1, "k": 3, "m": "x", "q": []}), "binary nor graded"),
    (_forge({"v": 1, "k": 3, "m": "b", "q": []}), "at least one query"),
    (_forge({"v": 1, "k": 0, "m": "b", "q": [{"n": "q", "r": []}]}), "k must be"),
    (_forge({"v": 1, "k": 2, "m": "g", "q": [{"n": "q", "r": [["a", "A", 1e9]]}]}), "not allowed"),
    (_forge({"v": 1, "k": 2, "m": "g", "q": [{"n": "q", "r": [["a", "A", -1]]}]}), "not allowed"),
    (_forge({"v": 1, "k": 2, "m": "g", "q": [{"n": "q", "r": [["a", "A", "x"]]}]}), "not allowed"),
    (_forge({"v": 1, "k": 2, "m": "g", "q": [{"n": "q", "r": [["a", "A", 1], ["a", "B", 0]]}]}),
     "appears twice"),
    (_forge({"v": 1, "k": 2, "m": "g", "q": [{"n": "q", "r": [["a", "x" * 10_000, 1]]}]}), "too long"),
    (_forge({"v": 1, "k": 2, "m": "g", "q": [{"n": "q", "r": [["a\tb", "A", 1]]}]}), "control character"),
    (_forge({"v": 1, "k": 2, "m": "g", "q": [{"n": "\ud800", "r": [["a", "A", 1]]}]}), "lone surrogate"),
    (_forge({"v": 1, "k": 2, "m": "g", "q": [{"n": "q", "r": [["a", "A\x1b[31m", 1]]}]}), "control character"),
    (_forge({"v": 1, "k": 2, "m": "g", "q": [{"n": "q", "r": [["a", "A", 10**400]]}]}), "401-digit number is not allowed"),
    (_forge({"v": 1, "k": 10**400, "m": "g", "q": [{"n": "q", "r": []}]}), "k must be"),
    (_forge({"v": 1, "k": 2, "m": "g", "q": [{"n": "q", "r": [["a", "A", "1e400"]]}]}), "not allowed: use a whole number"),
    (_forge({"v": 1, "k": 2, "m": "g", "q": [{"n": "q", "r": [], "g": [["a\x00"]]}]}), "control character"),
    (_forge({"v": True, "k": 2, "m": "g", "q": []}), "version"),
    (_forge({"v": 1, "k": 2, "m": ["g"], "q": []}), "binary nor graded"),
    (_forge({"v": 1, "k": 2, "m": "g", "q": [{"n": "q", "r": [[["a"], "A", 1]]}]}), r"expected \[id"),
    ("1." + base64.urlsafe_b64encode(zlib.compress(b'{"v":1,"q":' + b"[" * 100_000)).decode(), "damaged"),
    (_forge({"v": 1, "k": 2, "m": "g", "q": [{"n": "q", "r": [[[[[[[[[]]]]]]]]]}]}), "damaged"),
])
def test_tampered_permalinks_raise_a_clear_error(text, words):
    with pytest.raises(ExampleError, match=words):
        codec.decode(text)


@pytest.mark.parametrize("doc", ["doc#D001", "a/b c", "http://example.org/x?y=1#top", "文書-1", "🐱📦",
                                 " spaced ", "[x](http://evil.example)", "x" * validation.LIMITS.id_chars])
def test_any_printable_id_is_kept_exactly_and_round_trips(doc):
    ex = Example((Query("q", (Item(doc, "label", 1), Item("d2", "", 0)), (Item(doc[:-1] + "!", "", 2),)),), k=2,
                 mode="graded")
    assert validation.validate(ex) == ex
    assert codec.decode(codec.encode(ex)) == ex


def test_an_id_over_the_limit_is_refused():
    ex = Example((Query("q", (Item("x" * (validation.LIMITS.id_chars + 1), "", 1),)),))
    with pytest.raises(ExampleError, match="too long"):
        validation.validate(ex)


def test_decode_refuses_a_zip_bomb():
    bomb = "1." + base64.urlsafe_b64encode(zlib.compress(b"[" * 5_000_000)).decode()
    with pytest.raises(ExampleError, match="damaged"):
        codec.decode(bomb)


def test_validate_cleans_text_grades_and_reads_empty_as_unjudged():
    q = Query("q", (Item("a", " A ", "2"), Item("b", None, 0.0), Item("c", "C", "?"), Item("d", "D", float("nan"))))
    ex = validation.validate(Example((q,), k=1, mode="graded"))
    assert ex.query.ranking == (Item("a", "A", 2), Item("b", "", 0), Item("c", "C", None), Item("d", "D", None))


def test_effective_k_is_clipped_to_the_list():
    ex = presets.build_preset("cat")
    assert model.effective_k(replace(ex, k=50)) == 8
    empty = Example((Query("q"),), k=5)
    assert model.effective_k(empty) == 1


def test_new_rows_get_fresh_ids():
    rows = [{"id": "n1", "label": "x", "grade": 1}, {"label": "new", "grade": 2}, {"id": None}]
    items = model.items_from_rows(rows, reserved={"n2"}, prefix="n")
    assert [i.id for i in items] == ["n1", "n3", "n4"]


@pytest.mark.parametrize("name", list(presets.PRESETS))
@pytest.mark.parametrize("measure, column", [
    ("P", "precision"), ("R", "recall"), ("F1", "f1"), ("AP", "ap_at_i"),
    ("AP(denominator='retrieved')", "ap_at_i"), ("AP(denominator='min(k,R)')", "ap_at_i"),
    ("nDCG", "ndcg"), ("nDCG(dcg='exp-log2')", "ndcg"), ("nDCG(ideal='ranking')", "ndcg"),
    ("nDCG(dcg='jarvelin')", "ndcg"), ("DCG", "dcg"), ("IDCG", "idcg"),
])
def test_curves_from_one_trace_equal_scores_over_k(name, measure, column):
    from ranklab_ui.core import views

    ex = presets.build_preset(name)
    for mode in model.MODES:
        for q in ex.queries:
            ranking, judgments = q.inputs(mode)
            full = metrics.explain(f"{measure}@{len(ranking)}", ranking, judgments)
            assert views.curve(full, column) == pytest.approx(metrics.scores_over_k(measure, ranking, judgments))


@pytest.mark.parametrize("name", list(presets.PRESETS))
def test_the_rr_curve_from_one_trace_equals_scores_over_k(name):
    from ranklab_ui.core import views

    ex = presets.build_preset(name)
    for mode in model.MODES:
        for q in ex.queries:
            ranking, judgments = q.inputs(mode)
            curve = views.rr_curve(metrics.explain("RR", ranking, judgments))
            assert curve == pytest.approx(metrics.scores_over_k("RR", ranking, judgments))
    assert views.rr_curve(metrics.explain("RR", ["a", "b"], {"z": 1})) == [0.0, 0.0]   # no hit at all


def test_two_queries_of_one_name_both_count_in_map():
    ex = Example((Query("cat", (Item("a", "A", 1), Item("b", "B", 0))),
                  Query("cat", (Item("c", "C", 0), Item("d", "D", 1)), (Item("e", "E", 1),))))
    qrels, run = ex.qrels_run()
    assert list(qrels) == list(run) == ["q1", "q2"] and ex.query_names() == {"q1": "cat", "q2": "cat"}
    ev = metrics.evaluate(qrels, run, ["AP"])
    # AP q1 = 1/1 = 1; AP q2 = (1/2) / R = 2 -> 0.25; MAP = (1 + 0.25) / 2 = 0.625
    assert ev.per_query["q1"]["AP"] == 1 and ev.per_query["q2"]["AP"] == 0.25
    assert ev.aggregate["AP"] == pytest.approx(0.625)


def test_qrels_run_reads_grades_in_the_examples_mode():
    q = Query("q", (Item("a", "A", 3), Item("u", "U", None)), (Item("c", "C", 2),))
    assert Example((q,), mode="graded").qrels_run() == ({"q1": {"a": 3, "c": 2}}, {"q1": ["a", "u"]})
    assert Example((q,), mode="binary").qrels_run() == ({"q1": {"a": 1, "c": 1}}, {"q1": ["a", "u"]})
