"""Kernels, one module per family; each exposes ``trace(measure, query) -> Explanation``."""

from . import (
    average_precision,
    dcg,
    diversity,
    gain_walk,
    inferred,
    interpolation,
    judgment_groups,
    precision_recall,
    preferences,
    reciprocal_rank,
    rprec_bpref,
    set_counts,
    trec_eval_10,
    user_models,
)
from ._query import Query, ratio

KERNELS = {
    "P": precision_recall, "R": precision_recall, "F1": precision_recall, "Success": precision_recall,
    "NumRet": precision_recall, "NumRel": precision_recall, "NumRelRet": precision_recall,
    "NumQ": precision_recall,
    "RR": reciprocal_rank, "AP": average_precision,
    "CG": dcg, "DCG": dcg, "IDCG": dcg, "nDCG": dcg,
    "Rprec": rprec_bpref, "Bpref": rprec_bpref,
    "IPrec": interpolation, "11pt": interpolation,
    "GMAP": inferred, "YAAP": inferred, "GMBpref": inferred, "infAP": inferred,
    "G": gain_walk, "binG": gain_walk, "Rndcg": gain_walk, "nDCG_rel": gain_walk,
    "SetAP": set_counts, "RelP": set_counts, "Utility": set_counts, "NumNonRelJudgedRet": set_counts,
    "RprecMult": set_counts,
    "AP_avgjg": judgment_groups, "P_avgjg": judgment_groups, "RprecMult_avgjg": judgment_groups,
    "RBP": user_models, "ERR": user_models, "INST": user_models, "Judged": user_models,
    "alpha_nDCG": diversity,
    "TrecRBP": trec_eval_10, "TrecRBPResid": trec_eval_10, "Unj": trec_eval_10,
    **dict.fromkeys(preferences.PREF_FAMILIES, preferences),
}

# the measures each tie-aware rule is defined for (the others need ties broken)
_ORDER_FREE = {"NumRet", "NumRel", "NumQ", "IDCG"}
TIE_RULES = {
    "average": frozenset({"P", "R", "NumRelRet", "CG", "DCG", "nDCG", "AP", "RR", "RBP", "Judged"} | _ORDER_FREE),
    "threshold": frozenset({"AP"} | _ORDER_FREE),
}


def trace(m, q: Query):
    """The measure's explanation on a prepared query, refusing a tie rule it has no definition for."""
    if q.tie_rule is not None and m.name not in TIE_RULES[q.tie_rule]:
        names = ", ".join(sorted(TIE_RULES[q.tie_rule]))
        raise ValueError(f"measure {str(m)!r}: ties={q.tie_rule!r} is defined for {names}; "
                         "break ties instead (ties='docid-desc', trec_eval's rule)")
    return KERNELS[m.name].trace(m, q)


__all__ = ["KERNELS", "TIE_RULES", "Query", "ratio", "trace"]
