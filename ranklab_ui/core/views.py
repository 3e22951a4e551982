"""Presentation helpers without Streamlit: tables, counts and text built from explanations.

Nothing here computes a metric; it re-arranges what :mod:`metrics` returned.

>>> import metrics
>>> e = metrics.explain("P@2", ["1", "2", "3"], {"2": 1})
>>> list(step_frame(e.columns, labels={"1": "🐱", "2": "🐱📦"}, k=2).columns)[:4]
['rank', 'at k', 'doc', 'label']
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from metrics.display import escape_markdown
from metrics.explain import join_terms, num

from .i18n import N_, _

__all__ = ["step_frame", "confusion_counts", "worked_solution", "mean_latex", "markdown_table",
           "item_rows", "falls", "curve", "rr_curve", "escape_markdown", "with_gaps_shown",
           "has_prose", "text_table"]


# friendly headers for the explanation columns
HEADERS = {
    "rank": N_("rank"), "doc": N_("doc"), "grade": N_("grade"), "relevant": N_("relevant"), "hits": N_("hits"),
    "precision": "P@i", "recall": "R@i", "f1": "F1@i", "first_relevant": N_("first relevant"),
    "reciprocal": N_("1/rank"), "contribution": N_("adds"), "running_sum": N_("running sum"),
    "ap_at_i": "AP@i", "gain": N_("gain"), "discount": N_("discount"), "cg": "CG@i", "dcg": "DCG@i",
    "ideal_grade": N_("ideal grade"), "ideal_gain": N_("ideal gain"), "idcg": "IDCG@i", "ndcg": "nDCG@i",
    "interpolated": N_("interpolated P"), "judged": N_("judged"), "nonrel_above": N_("non-rel above"),
}


def step_frame(columns: Mapping[str, Sequence], *, labels: Mapping[str, str], k: int) -> pd.DataFrame:
    """An explanation's per-rank columns as a table, with each doc's label after its id.

    Floats are rounded to 4 decimals, integer columns with gaps (unjudged grades, ranks past
    the ideal list) stay integers. The headers are in the session's language (the rank's is
    ``_("rank")``, which :func:`ranklab_ui.render.step_table` uses to highlight row k).

    >>> step_frame({"rank": [1, 2], "doc": ["a", "b"], "ideal grade": [3, None]}, labels={}, k=1)["ideal grade"].tolist()
    [3, <NA>]
    """
    data = {}
    for col, values in columns.items():
        if col == "doc":
            data[_("doc")] = list(values)
            data[_("label")] = [labels.get(str(d), "") for d in values]
            continue
        values = list(values)
        present = [v for v in values if v is not None]
        if present and all(isinstance(v, float) for v in present):
            values = [None if v is None else round(v, 4) for v in values]
        elif present and len(present) < len(values) and all(
                isinstance(v, int) and not isinstance(v, bool) for v in present):
            values = pd.array(values, dtype="Int64")  # grades with gaps stay integers, gaps blank
        data[_(HEADERS[col]) if col in HEADERS else col] = values
    frame = pd.DataFrame(data)
    rank = _("rank")
    if rank in frame:
        frame.insert(1, _("at k"), ["◀ k" if r == k else "" for r in frame[rank]])
    return frame


def with_gaps_shown(frame: pd.DataFrame, mark: str = "—") -> tuple[pd.DataFrame, list[str]]:
    """A copy of a step table for display in which the numeric columns with gaps (an ideal
    grade past the ideal list, an unjudged grade) are text, ``mark`` in the gaps, floats to 4
    decimals; and the names of those columns (to right-align them). Streamlit draws a missing
    number as a grey "None", which reads like a value.

    >>> shown, cols = with_gaps_shown(pd.DataFrame({"g": pd.array([3, None], dtype="Int64"), "x": [0.5, None]}))
    >>> shown.to_dict("list"), cols
    ({'g': ['3', '—'], 'x': ['0.5000', '—']}, ['g', 'x'])
    """
    shown, gaps = frame.copy(), []
    for col in frame.columns:
        values = frame[col]
        if (not values.isna().any() or values.isna().all() or not pd.api.types.is_numeric_dtype(values)
                or pd.api.types.is_bool_dtype(values)):   # ticks stay ticks
            continue
        shown[col] = [mark if pd.isna(v) else num(v, fixed=isinstance(v, float)) for v in values]
        gaps.append(col)
    return shown, gaps


def has_prose(frame: pd.DataFrame) -> bool:
    """Whether a table holds prose: a text cell of words or a formula (more than one word), or a
    text wider than 20 columns (a CJK character takes two), which a canvas table cuts at its
    column's edge instead of wrapping it.

    >>> has_prose(pd.DataFrame({"doc": ["a", "b#1"], "P@i": [0.5, 1.0]}))
    False
    >>> has_prose(pd.DataFrame({"note": ["", "the ideal is taken from the run"]}))
    True
    >>> has_prose(pd.DataFrame({"value": ["= sum / count"]}))
    True
    >>> has_prose(pd.DataFrame({"note": ["理想值来自全部已判断文档"]}))  # no spaces: 24 columns wide
    True
    """
    def prose(v) -> bool:
        return isinstance(v, str) and (len(v.split()) > 1 or sum(
            2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in v) > 20)

    return any(prose(v) for col in frame.columns if not pd.api.types.is_numeric_dtype(frame[col]) for v in frame[col])


def text_table(frame: pd.DataFrame, formats: Mapping[str, str] | None = None) -> tuple[pd.DataFrame, list[str]]:
    """A table as text cells for a table whose cells are Markdown (``st.table``): text and headers
    made inert (:func:`escape_markdown`), numbers as Ranklab shows them (or ``formats[column]``,
    a printf format such as ``"%.4f"``), ticks as ✓/✗, gaps as "—"; and the names of the number
    columns (to right-align them).

    >>> shown, numbers = text_table(pd.DataFrame({"<b>id</b>": ["[x](u)", "b"], "p": [0.123456, None],
    ...                                           "ok": [True, False]}), {"p": "%.2f"})
    >>> print(shown.columns[0], shown.iloc[0, 0])
    \\<b\\>id\\<\\/b\\> \\[x\\]\\(u\\)
    >>> shown["p"].tolist(), shown["ok"].tolist(), numbers
    (['0.12', '—'], ['✓', '✗'], ['p'])
    """
    formats = formats or {}

    def cell(v, fmt: str | None) -> str:
        if v is None or v is pd.NA or (isinstance(v, float | np.floating) and v != v):
            return "—"
        if isinstance(v, bool | np.bool_):
            return "✓" if v else "✗"
        if isinstance(v, int | float | np.integer | np.floating):
            return fmt % v if fmt else num(v.item() if isinstance(v, np.generic) else v)
        return escape_markdown(v)

    numbers = [str(c) for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c])
               and not pd.api.types.is_bool_dtype(frame[c])]
    shown = pd.DataFrame({escape_markdown(c): [cell(v, formats.get(str(c))) for v in frame[c]] for c in frame.columns},
                         index=range(len(frame)))
    return shown, [escape_markdown(c) for c in numbers]


def confusion_counts(summary: Mapping[str, object], population: int) -> dict[str, int]:
    """TP, FP, FN, TN at k from a P/R explanation's summary and the number of documents known.

    ``population`` is every document of the example (ranked or in the tray), as the Pinecone notebook
    counts its eight images.

    >>> confusion_counts({"hits": 1, "retrieved": 2, "R": 4}, 8)  # the Pinecone notebook at k = 2
    {'TP': 1, 'FP': 1, 'FN': 3, 'TN': 3}
    """
    tp = int(summary["hits"])
    fp = int(summary["retrieved"]) - tp
    fn = int(summary["R"]) - tp
    return {"TP": tp, "FP": fp, "FN": fn, "TN": max(population - tp - fp - fn, 0)}


def markdown_table(frame: pd.DataFrame) -> str:
    """A DataFrame as a Markdown table: text cells plain text (:func:`escape_markdown`),
    numbers as they are, gaps empty.

    >>> frame = pd.DataFrame({"label": ["<b>x|y</b>", "ok"], "g": pd.array([None, 2], dtype="Int64"), "P@i": [0.5, 1.0],
    ...                       "relevant": [True, False]})
    >>> print(markdown_table(frame))
    | label | g | P@i | relevant |
    |---|---|---|---|
    | \\<b\\>x\\|y\\<\\/b\\> |  | 0.5 | ✓ |
    | ok | 2 | 1.0 | ✗ |
    """
    def cell(v) -> str:
        if v is None or v is pd.NA or (isinstance(v, float) and v != v):
            return ""
        if isinstance(v, bool | np.bool_):   # ticks, as the page shows them (not Python's True/False)
            return "✓" if v else "✗"
        return escape_markdown(v) if isinstance(v, str) else str(v)   # user text; numbers as they are

    head = "| " + " | ".join(str(c) for c in frame.columns) + " |"   # our own headers
    rule = "|" + "---|" * len(frame.columns)
    rows = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *rows])


def worked_solution(explanation, *, labels: Mapping[str, str], k: int, title: str) -> str:
    """The worked solution of one measure as Markdown: definition, steps, formula, value.

    >>> import metrics
    >>> md = worked_solution(metrics.explain("R@2", ["a", "b"], {"b": 1}), labels={}, k=2, title="Recall")
    >>> md.splitlines()[0], "= 1" in md
    ('# Recall: R@2 = 1', True)
    """
    frame = step_frame(explanation.columns, labels=labels, k=k)
    lines = [f"# {title}: {explanation}", "", _("Definition:"), "", f"$$ {explanation.definition} $$", "",
             _("Step by step:"), "", markdown_table(frame), "", _("With the numbers:"), "",
             f"$$ {explanation.formula} $$", ""]
    if explanation.summary:
        facts = ", ".join(f"{key} = {value}" for key, value in explanation.summary.items()
                          if isinstance(value, int | float))
        lines += [_("Summary: {facts}").format(facts=facts), ""]
    return "\n".join(lines)


def mean_latex(name: str, values: Sequence[float], mean: float) -> str:
    r"""The average written out, e.g. ``MRR = \frac{1}{3}(0.5 + 1 + 0.2) = 0.5667``.

    >>> mean_latex("MRR", [0.5, 1.0, 0.2], 0.5667)
    '\\mathrm{MRR} = \\frac{1}{3}\\left(0.5 + 1 + 0.2\\right) = 0.5667'
    """

    terms = join_terms([num(v) for v in values])
    return rf"\mathrm{{{name}}} = \frac{{1}}{{{len(values)}}}\left({terms}\right) = {num(mean)}"


def item_rows(items) -> list[dict]:
    """Rows (rank, label, grade) of a query's ranked items for :func:`ranklab_ui.core.charts.ranking_strip`."""
    return [{"rank": i, "label": it.label, "grade": it.grade} for i, it in enumerate(items, start=1)]


def curve(explanation, column: str) -> list[float]:
    """A running column of a full-depth explanation as a curve over k = 1..n.

    ``explain("P@n").columns["precision"]`` holds P@i for every rank i, so one trace gives
    the whole curve (the same numbers as ``metrics.scores_over_k``, without n traces).
    Columns that hold running values: precision, recall, f1 (P family), ap_at_i (AP),
    cg, dcg, idcg, ndcg (DCG family).

    >>> import metrics
    >>> curve(metrics.explain("R@4", ["a", "b", "c", "d"], {"b": 1, "d": 1}), "recall")
    [0.0, 0.5, 0.5, 1.0]
    """
    return [0.0 if v is None else float(v) for v in explanation.columns[column]]


def rr_curve(explanation) -> list[float]:
    """RR@k over k = 1..n from one RR explanation without a cutoff: 0 above the first
    relevant rank, 1/rank from there on (``metrics.scores_over_k("RR", ...)`` without n traces).

    >>> import metrics
    >>> rr_curve(metrics.explain("RR", ["a", "b", "c", "d"], {"c": 1}))
    [0.0, 0.0, 0.3333333333333333, 0.3333333333333333]
    """
    first = explanation.summary.get("first_relevant_rank")
    n = len(explanation.columns["rank"])
    return [float(explanation.value) if first and k >= first else 0.0 for k in range(1, n + 1)]


def falls(values: Sequence[float]) -> list[int]:
    """The k (1-based) at which a series is lower than at k − 1.

    >>> falls([0.0, 0.39, 0.38, 0.46])  # the Pinecone notebook's nDCG falls at k = 3
    [3]
    """
    return [i + 1 for i in range(1, len(values)) if values[i] < values[i - 1] - 1e-12]
