"""The Diagnose page's helpers: its inputs as (qrels, run), and its tables (no Streamlit here)."""

from __future__ import annotations

from metrics.teaching.diagnose import Diagnosis

__all__ = ["change_rows", "query_rows"]


def change_rows(d: Diagnosis) -> list[dict]:
    """One row per convention changed from trec_eval's defaults.

    >>> from metrics.teaching.diagnose import diagnose, Theirs, number
    >>> d = diagnose({"q": {"a": 1, "b": 1}}, {"q": ["a", "x"]}, "AP", theirs=Theirs(aggregate=number("1")))
    >>> row = change_rows(d)[0]
    >>> row["convention"], row["value"], row["why it moves the value"][:40]
    ('AP denominator', 'retrieved', 'AP divides the sum of precisions by R, e')
    """
    return [{"convention": c.convention.title, "value": c.option.value, "what it means": c.option.label,
             "why it moves the value": c.explanation} for c in d.changes]


def query_rows(d: Diagnosis, *, every: bool = False) -> list[dict]:
    """The per-query table: Ranklab's default value, theirs (or the tool's), the value under the
    conventions found, the residual and the conventions that moved it. Only the queries that
    differ unless ``every``.

    >>> from metrics.teaching.diagnose import diagnose
    >>> query_rows(diagnose({"q1": {"a": 1}}, {"q1": ["q1", "a"]}, "RR", tool="BEIR"))
    [{'query': 'q1', 'Ranklab (trec_eval)': 0.5, 'BEIR': 1.0, 'moved by': 'identical=ignored'}]
    """
    rows = d.rows if every else [r for r in d.rows if r.ours != r.found or r.matches is False]
    out = []
    for r in rows:
        if d.theirs is None:
            out.append({"query": r.qid, "Ranklab (trec_eval)": r.ours, d.tool or "": r.found,
                        "moved by": ", ".join(r.moved_by)})
        elif not d.theirs.per_query:  # only their aggregate: no per-query columns of theirs
            out.append({"query": r.qid, "Ranklab (trec_eval)": r.ours, "with the conventions": r.found,
                        "moved by": ", ".join(r.moved_by)})
        else:
            out.append({"query": r.qid, "Ranklab (trec_eval)": r.ours,
                        "theirs": r.theirs.text if r.theirs else None, "with the conventions": r.found,
                        "residual": r.residual, "matches": r.matches, "moved by": ", ".join(r.moved_by)})
    return out
