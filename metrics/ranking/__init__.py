"""Kernels, one module per family; each exposes ``trace(measure, query) -> Explanation``."""

from . import (
               average_precision,
               dcg,
               gain_walk,
               inferred,
               interpolation,
    judgment_groups,
               precision_recall,
               reciprocal_rank,
               rprec_bpref,
               set_counts,
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
}

__all__ = ["KERNELS", "Query", "ratio"]
