"""Vectorised evaluation of many queries at once, for files of millions of lines.

:func:`evaluate_batch` returns the same :class:`metrics.Evaluation` as
:func:`metrics.evaluate`, but it never builds a Python object per run line, so it does not
call the per-query kernels of ``metrics/ranking``. It shares their formulas instead: the
gain and discount (:mod:`metrics.ranking.dcg`), P@k and F1, AP's denominator, the bpref term,
the recall levels and trec_eval's hits-needed rule, and the "0 when the denominator is 0"
division, each written once there and applied here to arrays with one entry per query or per
judged row. What is left here is bookkeeping: ranks, counts and sums within each query.
The plan:

1. Keep the run rows of evaluated queries; check whether they already come grouped by
   query with scores descending (what every TREC run writer produces) — otherwise sort
   them once with ``np.lexsort`` on (query, -score).
2. Find the judged rows by a hash join on (query, document) (:mod:`metrics.io.keys`).
   Every measure here depends only on the ranks of *judged* documents and on the number
   retrieved, so only judged rows get a rank; where a judged row's score ties with others,
   the tie is broken by document id descending (trec_eval), comparing those strings only.
3. Each measure is a few segment operations (``np.bincount`` with weights, cumulative
   counts within a query) over the judged rows and the judgments. Every measure family has
   one (:data:`BATCH_FAMILIES`; a test checks that none is missing).

Because the work per query is independent, a run too large for memory can be evaluated
in chunks of whole queries (see :func:`evaluate_chunks`) and the per-query values merged.

One module per part: :mod:`.segments` (the :class:`Batch` every formula takes, and the
helpers over per-query segments, shared with :mod:`metrics.teaching.diagnose`),
:mod:`.prepare` (steps 1 and 2, :func:`prepare_batch`), :mod:`.kernels` (step 3,
:data:`BATCH_FAMILIES`) and :mod:`.evaluate` (the entry points); every name is imported
from here.

Examples
--------
>>> qrels = {"q1": {"a": 1, "c": 1}, "q2": {"x": 2}}
>>> run = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}, "q2": {"y": 1.0, "x": 1.0}}
>>> e = evaluate_batch(qrels, run, "P@2 RR")
>>> e.per_query["q1"]["P@2"], e.per_query["q2"]["RR"]  # y and x tie: y ranks first
(0.5, 0.5)
>>> round(e.aggregate["P@2"], 4)  # (1/2 + 1/2) / 2
0.5
"""

from .evaluate import (
    evaluate_arrow,
    evaluate_batch,
    evaluate_chunks,
    evaluate_groups,
    evaluate_part,
    evaluate_prefs,
    evaluate_prepared,
    evaluate_stream,
    measure_columns,
    merge_parts,
    prefs_orders,
    relstring_char,
    relstrings,
)
from .kernels import BATCH_FAMILIES
from .prepare import prepare_batch
from .segments import Batch

__all__ = ["evaluate_batch", "evaluate_chunks", "evaluate_groups", "evaluate_prepared", "evaluate_stream",
           "evaluate_part", "evaluate_arrow", "merge_parts", "measure_columns", "BATCH_FAMILIES", "Batch",
           "prepare_batch", "relstrings", "evaluate_prefs", "prefs_orders", "relstring_char"]
