"""trec_eval's judgment-group measures: ``map_avgjg``, ``P_avgjg_k``, ``Rprec_mult_avgjg_m``.

With judgments from several groups (users; trec_eval's ``qrels_jg`` format, read by
:func:`metrics.io.trec_jg.read_qrels_jg`), the measure is computed against each group's
judgments and averaged over the groups that judged the query. On one set of judgments —
all that a query's mapping can hold — it equals the plain measure, whose kernel it uses.

>>> import metrics
>>> metrics.score("AP_avgjg", ["a", "b"], {"b": 1}) == metrics.score("AP", ["a", "b"], {"b": 1})
True
"""

from __future__ import annotations

from ..measures import parse
from . import average_precision, precision_recall, set_counts
from ._query import Explanation, Query

BASE = {"AP_avgjg": ("AP", average_precision), "P_avgjg": ("P", precision_recall),
        "RprecMult_avgjg": ("RprecMult", set_counts)}


def base_measure(m):
    """The plain measure a judgment-group measure averages (``AP_avgjg`` -> ``AP``)."""
    return parse(BASE[m.name][0] + str(m)[len(m.name):])  # the same parameters and cutoff


def trace(m, q: Query) -> Explanation:
    e = BASE[m.name][1].trace(base_measure(m), q)
    note = r" \quad (\text{one judgment group: the plain measure})"
    return Explanation(str(m), e.value, e.columns, e.formula + note, e.definition, dict(e.summary), e.ideal)
