"""Every worked number of the sources (docs/sources.md) and of the reference tools compared
question by question (docs/measures-and-conventions.md), computed by hand there."""

from __future__ import annotations

import pytest

import metrics
from metrics import grouped

CAT_RUN = [str(i) for i in range(1, 9)]
CATS = {"2": 1, "4": 1, "5": 1, "7": 1}  # the Pinecone notebook: cats in boxes at 2, 4, 5, 7
WHITE_CAT = dict(zip(CAT_RUN, [0, 4, 1, 3, 4, 1, 3, 2], strict=True))


# the Pinecone notebook, Recall@K and Precision@K for K = 1..8 (the notebook's hand calculations)
RECALL = [0.0, 0.25, 0.25, 0.5, 0.75, 0.75, 1.0, 1.0]
PRECISION = [0 / 1, 1 / 2, 1 / 3, 2 / 4, 3 / 5, 3 / 6, 4 / 7, 4 / 8]


@pytest.mark.parametrize("k", range(1, 9))
def test_pinecone_recall_and_precision_at_k(k):
    assert metrics.score(f"R@{k}", CAT_RUN, CATS) == pytest.approx(RECALL[k - 1])
    assert metrics.score(f"P@{k}", CAT_RUN, CATS) == pytest.approx(PRECISION[k - 1])
    assert round(metrics.score(f"P@{k}", CAT_RUN, CATS), 2) == [0, .5, .33, .5, .6, .5, .57, .5][k - 1]


def test_pinecone_confusion_matrix_at_2():
    # "predicts as positive the first 2 results": 1 TP, 1 FP, 3 FN, 3 TN
    e = metrics.explain("P@2", CAT_RUN, CATS)
    tp = e.summary["hits"]
    fp = 2 - tp
    fn = e.summary["R"] - tp
    tn = 8 - tp - fp - fn
    assert (tp, fp, fn, tn) == (1, 1, 3, 3)


PINECONE_QUERIES = {
    "cat in the box": dict.fromkeys(["2", "4", "5", "7"], 1),
    "white cat": dict.fromkeys(["1", "4", "5", "7"], 1),
    "dark cat": dict.fromkeys(["5", "8"], 1),
}


def test_pinecone_mrr():
    run = dict.fromkeys(PINECONE_QUERIES, CAT_RUN)
    e = metrics.evaluate(PINECONE_QUERIES, run, "RR")
    assert [e.per_query[q]["RR"] for q in PINECONE_QUERIES] == [1 / 2, 1 / 1, 1 / 5]
    assert round(e.aggregate["RR"], 4) == 0.5667  # (0.5 + 1 + 0.2) / 3
    assert round(e.aggregate["RR"], 2) == 0.57


def test_pinecone_average_precision_and_map():
    run = dict.fromkeys(PINECONE_QUERIES, CAT_RUN)
    e = metrics.evaluate(PINECONE_QUERIES, run, "AP@8")
    ap = [e.per_query[q]["AP@8"] for q in PINECONE_QUERIES]
    assert ap[0] == pytest.approx((1 / 2 + 2 / 4 + 3 / 5 + 4 / 7) / 4)
    assert ap[1] == pytest.approx((1 / 1 + 2 / 4 + 3 / 5 + 4 / 7) / 4)
    assert ap[2] == pytest.approx((1 / 5 + 2 / 8) / 2)
    assert [round(a, 4) for a in ap] == [0.5429, 0.6679, 0.225]
    assert round(e.aggregate["AP@8"], 4) == 0.4786
    # the prose rounds AP_3 to 0.22, the code prints 0.23: 0.225 rounds half-up to 0.23
    assert f"{ap[2]:.2f}" in ("0.22", "0.23") and round(ap[2] + 1e-12, 2) == 0.23


# the Pinecone notebook, graded labels [0, 4, 1, 3, 4, 1, 3, 2]: CG, DCG, IDCG, nDCG at K = 1..8
CG = [0, 4, 5, 8, 12, 13, 16, 18]
DCG = [0.0, 2.52, 3.02, 4.32, 5.86, 6.22, 7.22, 7.85]
IDCG = [4.0, 6.52, 8.02, 9.32, 10.09, 10.45, 10.78, 10.78]
NDCG = [0.0, 0.39, 0.38, 0.46, 0.58, 0.6, 0.67, 0.73]


@pytest.mark.parametrize("k", range(1, 9))
def test_pinecone_cg_dcg_idcg_ndcg(k):
    assert metrics.score(f"CG@{k}", CAT_RUN, WHITE_CAT) == CG[k - 1]
    assert round(metrics.score(f"DCG@{k}", CAT_RUN, WHITE_CAT), 2) == DCG[k - 1]
    assert round(metrics.score(f"IDCG@{k}", CAT_RUN, WHITE_CAT), 2) == IDCG[k - 1]
    assert round(metrics.score(f"nDCG@{k}", CAT_RUN, WHITE_CAT), 2) == NDCG[k - 1]


def test_pinecone_dcg_at_2_by_hand():
    # DCG@2 = 0/log2(2) + 4/log2(3) = 4 / 1.585 = 2.52 ; IDCG@2 = 4 + 4/1.585 = 6.52
    e = metrics.explain("nDCG@2", CAT_RUN, WHITE_CAT)
    assert e.columns["discount"] == pytest.approx([1.0, 1.5849625])
    assert round(e.summary["DCG"], 2) == 2.52 and round(e.summary["IDCG"], 2) == 6.52
    assert e.ideal["grade"] == [4, 4]


def test_pinecone_exp_gain_variant_equals_linear_for_binary_labels():
    # "When the relevance values are binary, both versions of the DCG@K formulae give the same result"
    for k in range(1, 9):
        assert metrics.score(f"DCG(dcg='exp-log2')@{k}", CAT_RUN, CATS) == metrics.score(f"DCG@{k}", CAT_RUN, CATS)
    # graded: DCG@2 with 2^rel - 1 = 0/1 + 15/log2(3) = 9.4639
    assert round(metrics.score("DCG(dcg='exp-log2')@2", CAT_RUN, WHITE_CAT), 4) == round(15 / 1.5849625007, 4)


def test_autorag_grouped_examples():
    ranking = ["test-1", "Prod-1", "test-2", "Prod-2"]
    groups = [["test-1", "test-2"], ["test-3"]]
    assert grouped.recall(ranking, groups) == 0.5
    assert grouped.precision(ranking, groups) == 0.5
    assert grouped.f1(ranking, groups) == 0.5
    assert grouped.map(ranking, groups) == pytest.approx(5 / 12)
    assert grouped.mrr(["ID-1", "ID-2", "ID-3", "ID-4"], [["ID-2"], ["ID-4"]]) == 0.375


def test_autorag_topk_sweep_recall_grows():
    ranking = ["x1", "a", "x2", "x3", "c"]
    groups = [["a", "b"], ["c"]]
    values = [grouped.recall(ranking, groups, k=k) for k in range(1, 6)]
    assert values == [0.0, 0.5, 0.5, 0.5, 1.0]


COURSE_LAB_QRELS = """1 0 d1 2
1 0 d2 1
1 0 d3 0
2 0 d4 1
"""
COURSE_LAB_RESULT = """1 d3
1 d1
1 d5
1 d2
2 d6
2 d4
"""


def _two_column(text):
    out = {}
    for line in text.splitlines():
        q, d = line.split()
        out.setdefault(q, []).append(d)
    return out


def _qrels(text):
    out = {}
    for line in text.splitlines():
        q, _, d, g = line.split()
        out.setdefault(q, {})[d] = int(g)
    return out


def test_course_lab_formulas_on_a_small_file():
    # Query 1: relevant d1 (2) at rank 2 and d2 (1) at rank 4. AP = (1/2 + 2/4) / 2 = 0.5,
    # RR = 1/2; J&K DCG = rel_1 + sum rel_i / log2 i = 0 + 2/1 + 0 + 1/2 = 2.5, IDCG = 2 + 1/1 = 3.
    # Query 2: d4 at rank 2: AP = 1/2, RR = 1/2, DCG = 0 + 1/1 = 1 = IDCG.
    e = metrics.evaluate(_qrels(COURSE_LAB_QRELS), _two_column(COURSE_LAB_RESULT),
                         "AP@100 RR nDCG(dcg='jarvelin')@100")
    assert e.per_query["1"]["AP@100"] == 0.5 and e.per_query["2"]["AP@100"] == 0.5
    assert e.aggregate["RR"] == 0.5
    assert e.per_query["1"]["nDCG(dcg='jarvelin')@100"] == pytest.approx(2.5 / 3)
    assert e.per_query["2"]["nDCG(dcg='jarvelin')@100"] == 1.0
    assert e.aggregate["nDCG(dcg='jarvelin')@100"] == pytest.approx((2.5 / 3 + 1) / 2)


def test_piaf_retriever_examples():
    # AP: relevant at ranks 2 and 4 with k = 5: 1/2 * (1/2 + 2/4) = 0.5
    assert metrics.score("AP@5", list("abcde"), {"b": 1, "d": 1}) == 0.5
    # MRR: first relevant at 1, 2 and 4: (1 + 1/2 + 1/4) / 3 = 0.5833
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"d": 1}}
    run = dict.fromkeys(qrels, list("abcd"))
    assert round(metrics.evaluate(qrels, run, "RR").aggregate["RR"], 2) == 0.58
    # "Recall" = share of queries with at least one relevant retrieved = Success@k
    qrels["q4"], run["q4"] = {"z": 1}, list("abcd")
    m = metrics.conventions.apply("piaf", "R@4")
    assert metrics.evaluate(qrels, run, [m]).aggregate["Success@4"] == 0.75


def test_reference_dcg_textbook_example():
    judged = {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1, "d6": 2, "x": 3, "y": 2}
    run = ["d1", "d2", "d3", "d4", "d5", "d6"]
    assert round(metrics.score("DCG@6", run, judged), 3) == 6.861
    assert round(metrics.score("IDCG@6", run, judged), 3) == 8.740
    assert round(metrics.score("nDCG@6", run, judged), 3) == 0.785
    assert round(metrics.score("IDCG(ideal='ranking')@6", run, judged), 3) == 7.141
    assert round(metrics.score("nDCG(ideal='ranking')@6", run, judged), 3) == 0.961


def test_reference_ap_denominators():
    # R = 4, run rel, non, rel, x, y: (1/1 + 2/3) = 1.6667
    judged = {"r1": 1, "n": 0, "r2": 1, "r3": 1, "r4": 1}
    run = ["r1", "n", "r2", "x", "y"]
    assert round(metrics.score("AP", run, judged), 4) == 0.4167
    assert round(metrics.score("AP(denominator='retrieved')", run, judged), 4) == 0.8333
    assert round(metrics.score("AP(denominator='min(k,R)')@3", run, judged), 4) == 0.5556


def test_reference_ndcg_conventions():
    judged = {"a": 3, "b": 2, "c": 1}
    run = ["c", "b", "a", "e"]
    assert round(metrics.score("nDCG", run, judged), 4) == 0.79
    assert round(metrics.score("nDCG(dcg='exp-log2')", run, judged), 4) == 0.6806
    assert round(metrics.score("nDCG(dcg='jarvelin')", run, judged), 4) == 0.8689
    assert round(metrics.score("nDCG", ["b", "x"], {"a": 3, "b": 1}), 4) == 0.2754
    assert metrics.score("nDCG(ideal='ranking')", ["b", "x"], {"a": 3, "b": 1}) == 1.0


def test_reference_small_facts():
    assert metrics.score("P@5", ["a", "b"], {"a": 1, "b": 1}) == 0.4  # divides by k
    assert metrics.score("RR@2", ["x", "y", "a"], {"a": 1}) == 0.0  # first hit below the cutoff
    assert metrics.score("RR", ["x", "y", "a"], {"a": 1}) == pytest.approx(1 / 3)
    assert metrics.score("R@5", ["a"], {"a": 0}) == 0.0  # no relevant documents
    # grade -1: pooled but unjudged, so bpref treats it like an unjudged document
    assert metrics.score("Bpref", ["u", "r"], {"u": -1, "r": 1, "n": 0}) == 1.0
    assert metrics.score("Bpref", ["u", "r"], {"u": 0, "r": 1, "n": 0}) == 0.0
