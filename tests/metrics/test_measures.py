"""The measure grammar: canonical strings, aliases, errors with suggestions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import metrics
from metrics import parse, parse_many
from metrics.measures import NAMES, known_names

CANONICAL = [
    "P@5", "P(rel=2)@5", "P", "R@100", "F1@10", "Success@1", "RR", "RR@10", "AP", "AP@100",
    "AP(denominator='retrieved')", "AP(denominator='min(k,R)',rel=2)@10", "CG@10", "DCG@10",
    "IDCG@10", "nDCG", "nDCG@10", "nDCG(dcg='exp-log2')@10", "nDCG(dcg='jarvelin')@100",
    "nDCG(dcg='exp-log2',ideal='ranking')", "nDCG(rel=2)@5", "Rprec", "Bpref", "IPrec@0.5",
    "IPrec@0.0", "IPrec@1.0", "11pt", "NumRet", "NumRel", "NumRelRet", "NumQ",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_strings_round_trip(text):
    m = parse(text)
    assert str(m) == text
    assert parse(str(m)) == m


@pytest.mark.parametrize("alias, canonical", [
    ("P_5", "P@5"), ("recall_100", "R@100"), ("map", "AP"), ("map_cut_100", "AP@100"),
    ("recip_rank", "RR"), ("ndcg", "nDCG"), ("ndcg_cut_10", "nDCG@10"), ("Rprec", "Rprec"),
    ("bpref", "Bpref"), ("success_5", "Success@5"), ("iprec_at_recall_0.50", "IPrec@0.5"),
    ("num_ret", "NumRet"), ("num_rel", "NumRel"), ("num_rel_ret", "NumRelRet"), ("num_q", "NumQ"),
    ("11pt_avg", "11pt"), ("set_P", "P"), ("set_recall", "R"), ("set_F", "F1"),
    ("precision@5", "P@5"), ("mrr@10", "RR@10"), ("ndcg_burges@10", "nDCG(dcg='exp-log2')@10"),
    ("hit_rate@5", "Success@5"), ("r-precision", "Rprec"), ("NDCG@10", "nDCG@10"),
    ("P(rel=1)@5", "P@5"), ("nDCG(dcg=\"exp-log2\")@3", "nDCG(dcg='exp-log2')@3"),
    ("  AP @ 10 ", "AP@10"), ("P( rel = 2 )@5", "P(rel=2)@5"),
])
def test_aliases(alias, canonical):
    assert str(parse(alias)) == canonical


@pytest.mark.parametrize("m, trec", [
    ("P@5", "P_5"), ("R@100", "recall_100"), ("AP", "map"), ("AP@100", "map_cut_100"), ("RR", "recip_rank"),
    ("nDCG", "ndcg"), ("nDCG@10", "ndcg_cut_10"), ("Success@5", "success_5"), ("IPrec@0.5", "iprec_at_recall_0.50"),
    ("NumRelRet", "num_rel_ret"), ("P(rel=2)@5", "P_5"), ("RR@10", None), ("nDCG(dcg='exp-log2')", None),
])
def test_trec_names(m, trec):
    assert parse(m).trec_name == trec


@pytest.mark.parametrize("bad, suggestion", [
    ("nDGC@10", "nDCG@10"), ("precison@5", "precision@5"), ("mapp", "map"), ("ndcg_cut10", "ndcg_cut_10"),
    ("recip_rnk", "recip_rank"), ("iprec_at_recall", "iprec_at_recall_0.50"), ("Bpr@f", "Bpref"),
    ("iprec_at_recal_5", "iprec_at_recall_0.50"), ("ndcg_burge@5", "ndcg_burges@5"),
])
def test_unknown_measures_suggest_the_closest(bad, suggestion):
    with pytest.raises(metrics.UnknownMeasureError) as err:
        parse(bad)
    assert err.value.suggestion == suggestion
    assert repr(bad) in str(err.value) and suggestion in str(err.value)


@pytest.mark.parametrize("bad, words", [
    ("P@0", "positive integer"), ("P@-1", "positive integer"), ("P@2.5", "positive integer"),
    ("Rprec@5", "takes no cutoff"), ("IPrec", "recall level"), ("IPrec@1.5", "between 0 and 1"),
    ("P(rel=0)@5", "rel must be an integer >= 1"), ("P(rel='x')@5", "rel must be"),
    ("nDCG(dcg='log10')", "dcg must be one of"), ("AP(ideal='ranking')", "has no parameter 'ideal'"),
    ("P(rel=2,rel=3)@5", "given twice"), ("P(rel=2@5", "expected"), ("", "empty"),
    ("P@5; import os", "unexpected"), ("x" * 300, "too long"), ("P@5@6", "unexpected"),
])
def test_malformed_measures_name_the_problem(bad, words):
    with pytest.raises(ValueError) as err:
        parse(bad)
    assert words in str(err.value)


def test_parse_rejects_non_strings():
    with pytest.raises(TypeError, match="measure must be a string"):
        parse(5)


def test_parse_many_splits_on_spaces_and_commas_but_not_inside_parentheses():
    got = [str(m) for m in parse_many("P@5, nDCG(dcg='exp-log2',ideal='ranking')@10  map_cut_10")]
    assert got == ["P@5", "nDCG(dcg='exp-log2',ideal='ranking')@10", "AP@10"]
    with pytest.raises(ValueError, match="no measure"):
        parse_many("  ")


def test_parameters_and_copies():
    m = parse("AP(denominator='retrieved')@3")
    assert m["denominator"] == "retrieved" and m["rel"] == 1
    assert str(m.with_cutoff(None)) == "AP(denominator='retrieved')"
    assert str(m.with_params(denominator="R")) == "AP@3"
    assert str(metrics.conventions.apply("exp-gain", "nDCG@5")) == "nDCG(dcg='exp-log2')@5"
    assert str(metrics.conventions.apply("exp-gain", "P@5")) == "P@5"  # P has no gain
    with pytest.raises(ValueError, match="convention must be one of"):
        metrics.conventions.get("nope")


def test_every_example_name_parses_to_its_family():
    for name in NAMES:
        for example in name.examples:
            assert parse(example).name == name.family, example
    assert len(known_names()) == len(set(known_names()))


_SPELLINGS = st.sampled_from([n.text for n in NAMES] + known_names())
_NOISE = st.text(alphabet="abcdPRGpr_@().'=-, 0123456789", max_size=6)


@given(_SPELLINGS, _NOISE, st.integers(0, 30), st.sampled_from(["insert", "delete", "replace"]))
def test_every_suggestion_the_parser_makes_parses(spelling, noise, where, how):
    where = min(where, len(spelling))
    if how == "insert":
        text = spelling[:where] + noise + spelling[where:]
    elif how == "delete":
        text = spelling[:where] + spelling[where + 1:] + noise
    else:
        text = spelling[:where] + noise + spelling[where + 1:]
    try:
        parse(text)
    except metrics.UnknownMeasureError as err:
        if err.suggestion is not None:
            parse(err.suggestion)  # a suggestion is itself valid
    except ValueError:
        pass
