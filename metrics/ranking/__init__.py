"""Kernels, one module per family; each exposes ``trace(measure, query) -> Explanation``."""

from . import (
    average_precision,
    dcg,
    diversity,
    interpolation,
    precision_recall,
    reciprocal_rank,
    rprec_bpref,
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
    "RBP": user_models, "ERR": user_models, "INST": user_models, "Judged": user_models,
    "alpha_nDCG": diversity,
}

__all__ = ["KERNELS", "Query", "ratio"]
