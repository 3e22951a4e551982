"""Conventions explorer: values by hand (the reference tools compared (docs/measures-and-conventions.md)), snippets executed in their
libraries."""

from __future__ import annotations

import contextlib
import io
import math
import os

import pytest

from metrics.conventions import PRESETS
from metrics.teaching.explorer import explore, snippets

pytest.importorskip("pytrec_eval")
pytest.importorskip("sklearn")

AP_RUN = ["a", "n", "b", "x", "y"]  # R = 4, run rel, non, rel, x, y (the reference tools compared (docs/measures-and-conventions.md))
AP_QRELS = {"a": 1, "b": 1, "c": 1, "d": 1, "n": 0}
NDCG_RUN = ["c", "b", "a", "e"]  # qrels a3 b2 c1, run c b a e (the reference tools compared (docs/measures-and-conventions.md))
NDCG_QRELS = {"a": 3, "b": 2, "c": 1}


def cells(measure, run, qrels):
    return explore(measure, run, qrels).rows[0].cells


def test_ap_under_every_preset():
    c = cells("AP@3", AP_RUN, AP_QRELS)
    assert round(c["trec_eval"].value, 4) == 0.4167  # (1 + 2/3) / 4
    assert round(c["sklearn"].value, 4) == 0.8333  # (1 + 2/3) / 2 relevant retrieved
    assert round(c["recommenders"].value, 4) == 0.5556  # (1 + 2/3) / min(3, 4)
    assert c["pinecone"].value == c["trec_eval"].value and not c["pinecone"].differs
    assert c["sklearn"].moved_by == ("denominator='retrieved'",)
    assert c["recommenders"].moved_by == ("denominator='min(k,R)'",)
    assert c["trec_eval"].moved_by == () and c["trec_eval"].measure == "AP@3"
    # the AutoRAG study notes' reading: every relevant document its own group; a group's precision counts only its own
    # ids: group a found at rank 1 (1/1), group b at rank 3 (1/3), c and d never (0)
    assert c["autorag"].value == pytest.approx((1 + 1 / 3 + 0 + 0) / 4)


def test_ndcg_under_every_preset():
    c = cells("nDCG", NDCG_RUN, NDCG_QRELS)
    dcg = 1 + 2 / math.log2(3) + 3 / 2
    idcg = 3 + 2 / math.log2(3) + 1 / 2
    assert c["trec_eval"].value == pytest.approx(dcg / idcg)
    assert round(c["exp-gain"].value, 4) == 0.6806
    assert round(c["course-lab"].value, 4) == 0.8689
    assert c["course-lab"].moved_by == ("dcg='jarvelin'",)
    # every judged document was retrieved: the ideal from the list is the same ideal
    assert c["sklearn"].value == pytest.approx(c["trec_eval"].value)
    assert c["sklearn"].moved_by == () and not c["sklearn"].differs


def test_piaf_renames_recall_to_success():
    c = cells("R@2", ["x", "a", "y"], {"a": 1, "b": 1})
    assert c["trec_eval"].value == 0.5 and c["piaf"].value == 1.0
    assert c["piaf"].measure == "Success@2" and c["piaf"].moved_by == ("R → Success",)


def test_grouped_cell_undefined_for_other_families():
    c = cells("Bpref", ["a"], {"a": 1})
    assert c["autorag"].value is None and "not defined" in c["autorag"].note


def test_table_has_one_value_per_preset():
    x = explore("P@2 AP", AP_RUN, AP_QRELS)
    rows = x.table()
    assert [r["measure"] for r in rows] == ["P@2", "AP"]
    assert set(rows[0]) == {"measure", *PRESETS}


def run_snippet(code: str) -> float:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        exec(compile(code, "<snippet>", "exec"), {})
    return float(out.getvalue().strip().splitlines()[-1])


EXAMPLES = [
    (AP_RUN, AP_QRELS),
    (NDCG_RUN, NDCG_QRELS),
    ([str(i) for i in range(1, 9)], dict(zip([str(i) for i in range(1, 9)], [0, 4, 1, 3, 4, 1, 3, 2], strict=True))),
    (["d1", "d2", "d3", "d4", "d5", "d6"], {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1, "d6": 2, "x": 3, "y": 2}),
    (["b", "x", "a", "z"], {"a": 3, "b": 1, "z": -1, "q": 2}),
]
MEASURES = "P@3 R@3 RR AP AP@3 nDCG nDCG@3 DCG@3 Success@1 Rprec P(rel=2)@3"
FAST = ("pytrec_eval", "sklearn", "ir_measures", "ranklab")


@pytest.mark.parametrize("run, qrels", EXAMPLES)
def test_snippets_reproduce_every_cell(run, qrels):
    x = explore(MEASURES, run, qrels)
    executed = set()
    for row in x.rows:
        for preset, cell in row.cells.items():
            if cell.value is None or PRESETS[preset].grouped:
                continue
            for s in snippets(cell.measure, run, qrels):
                if s.library not in FAST:
                    continue
                got = run_snippet(s.code)
                assert got == pytest.approx(cell.value, abs=1e-9), (preset, cell.measure, s.library, s.code)
                executed.add(s.library)
    assert {"pytrec_eval", "sklearn", "ir_measures", "ranklab"} <= executed


@pytest.mark.skipif(not os.environ.get("RANKLAB_RANX"), reason="ranx compiles with numba (~45 s); set RANKLAB_RANX=1")
def test_ranx_snippets():
    pytest.importorskip("ranx")
    run, qrels = EXAMPLES[3]
    for measure in ("nDCG@3", "nDCG(dcg='exp-log2')@3", "AP", "RR", "P@3"):
        for s in snippets(measure, run, qrels):
            if s.library == "ranx":
                import metrics
                assert run_snippet(s.code) == pytest.approx(metrics.score(measure, run, qrels), abs=1e-9)


def test_snippet_libraries_follow_the_conventions():
    def libs(m):
        return [s.library for s in snippets(m, NDCG_RUN, NDCG_QRELS)]
    assert libs("nDCG@3") == ["pytrec_eval", "ranx", "ir_measures", "ranklab"]
    assert libs("nDCG(ideal='ranking')@3") == ["sklearn", "ranklab"]
    assert libs("nDCG(dcg='jarvelin')") == ["ranklab"]
    assert libs("AP(denominator='retrieved')") == ["sklearn", "ranklab"]
    assert libs("AP(denominator='min(k,R)')@3") == ["ranklab"]


def test_hostile_doc_ids_make_valid_code():
    run = ["'); import os #", "<b>x</b>", "a\nb"]
    qrels = {"'); import os #": 1, "a\nb": 2}
    for s in snippets("nDCG", run, qrels):
        compile(s.code, "<snippet>", "exec")  # a valid program, ids as literals
        if s.library in ("pytrec_eval", "ranklab"):
            assert run_snippet(s.code) == pytest.approx(explore("nDCG", run, qrels).rows[0].cells["trec_eval"].value)


def test_explicit_groups_for_autorag():
    # the AutoRAG study notes: groups [[test-1, test-2], [test-3]]; retrieved test-1, Prod-1, test-2, Prod-2: recall 1/2
    run = ["test-1", "Prod-1", "test-2", "Prod-2"]
    judged = {"test-1": 1, "test-2": 1, "test-3": 1}
    c = explore("R", run, judged, groups=[["test-1", "test-2"], ["test-3"]]).rows[0].cells
    assert c["autorag"].value == 0.5
    assert c["trec_eval"].value == pytest.approx(2 / 3)  # two of the three relevant ids
