"""Charts and helpers for the "Evaluate files" page (no Streamlit calls here).

``distribution_chart`` turns per-query values into an Altair histogram; ``query_example``
turns one query of a run into the playground's example, so a page can link to it;
``grouped_problems`` and ``looks_like`` say what is wrong with a file that cannot be read.
"""

from __future__ import annotations

import altair as alt
import numpy as np

from metrics.io import FileFormatError, Qrels, Run
from metrics.io.keys import take

from .i18n import _, ngettext
from .model import Example, Item, Query
from .validation import LIMITS, printable, validate

__all__ = ["distribution_chart", "per_query_rows", "extremes", "query_example", "playground_ids", "grouped_problems",
           "looks_like", "PLAYGROUND_ITEMS"]

PLAYGROUND_ITEMS = 30  # documents of a ranking shown in the playground


def per_query_rows(per_query: dict[str, dict[str, float]], measures: list[str]) -> list[dict]:
    """One row per query: ``{"query": qid, measure: value, ...}``.

    >>> per_query_rows({"q1": {"P@5": 0.4}}, ["P@5"])
    [{'query': 'q1', 'P@5': 0.4}]
    """
    return [{"query": qid, **{m: values[m] for m in measures}} for qid, values in per_query.items()]


def extremes(per_query: dict[str, dict[str, float]], measure: str, n: int = 5) -> tuple[list, list]:
    """The ``n`` worst and ``n`` best queries on a measure, as (qid, value) pairs.

    Ties are broken by query id, so the lists are stable.

    >>> pq = {"a": {"AP": 0.5}, "b": {"AP": 0.1}, "c": {"AP": 0.9}}
    >>> extremes(pq, "AP", 1)
    ([('b', 0.1)], [('c', 0.9)])
    """
    pairs = sorted(((qid, values[measure]) for qid, values in per_query.items()), key=lambda p: (p[1], p[0]))
    best = sorted(pairs, key=lambda p: (-p[1], p[0]))
    return pairs[:n], best[:n]


def distribution_chart(per_query: dict[str, dict[str, float]], measure: str, *, bins: int = 20) -> alt.Chart:
    """A histogram of one measure over the queries (how many queries got each value).

    >>> spec = distribution_chart({"q1": {"AP": 0.5}, "q2": {"AP": 0.25}}, "AP").to_dict()
    >>> spec["mark"]["type"], len(spec["data"]["values"])
    ('bar', 2)
    """
    data = [{"query": qid, "value": values[measure]} for qid, values in per_query.items()]
    unit = all(0.0 <= row["value"] <= 1.0 for row in data)
    binning = alt.Bin(extent=[0, 1], step=1 / bins) if unit else alt.Bin(maxbins=bins)
    return (
        alt.Chart(alt.Data(values=data))
        .mark_bar()
        .encode(
            x=alt.X("value:Q", bin=binning, title=measure),
            y=alt.Y("count():Q", title=_("queries")),
            tooltip=[alt.Tooltip("count():Q", title=_("queries"))],
        )
        .properties(height=220, title=ngettext("{measure} over {n} query", "{measure} over {n} queries",
                                                  len(data)).format(measure=measure, n=len(data)))
    )


def query_example(qrels: Qrels, run: Run, qid: str, *, items: int = PLAYGROUND_ITEMS) -> Example:
    """One query of a run as the playground's example: its top ``items`` documents in trec_eval
    order, with their grades, and the judged relevant documents it did not retrieve."""
    judged: dict[str, int] = {}
    if qid in qrels.queries:
        rows = np.flatnonzero(qrels.query == qrels.queries.index(qid))
        judged = dict(zip(take(qrels.doc, rows).to_pylist(), qrels.grade[rows].tolist(), strict=True))
    ranking: list[str] = []
    if qid in run.queries:
        rows = np.flatnonzero(run.query == run.queries.index(qid))
        docs = take(run.doc, rows).to_pylist()
        scores = run.score[rows].tolist()
        by_doc = sorted(zip(docs, scores, strict=True), key=lambda p: p[0].encode(), reverse=True)
        ranking = [d for d, _ in sorted(by_doc, key=lambda p: -p[1])][:items]
    limit = LIMITS
    shown = set(ranking)
    tray = [d for d, g in judged.items() if g > 0 and d not in shown][:items]
    ids = playground_ids([*ranking, *tray])

    def item(doc: str) -> Item:
        # a document in no qrels line, or judged −1, is unjudged in the playground too
        grade = judged.get(doc)
        grade = None if grade is None or grade < 0 else min(grade, limit.grade_max)
        return Item(ids[doc], printable(doc)[: limit.label_chars], grade)
    name = printable(qid).strip()[: limit.name_chars] or "query"
    query = Query(name, tuple(item(d) for d in ranking), tuple(item(d) for d in tray))
    return validate(Example((query,), k=min(10, max(1, len(ranking))), mode="graded"))


def playground_ids(docs: list[str]) -> dict[str, str]:
    """Each document id of a file → its id in the playground: the id itself whenever the
    example accepts it (any printable text up to ``LIMITS.id_chars``), otherwise a printable,
    shortened stand-in made unique with ``~n``; the label keeps the original text.

    >>> playground_ids(["doc#D001", "a\\tb", "x" * 300, "x" * 301])["a\\tb"]
    'a\ufffdb'
    >>> [len(v) for v in playground_ids(["x" * 300, "x" * 301]).values()]
    [200, 200]
    """
    limit = LIMITS.id_chars
    out: dict[str, str] = {}
    used = set()
    for doc in docs:
        safe = printable(doc)
        if safe.strip() == "":
            safe = "(blank id)"
        if safe == doc and len(doc) <= limit and doc not in used:
            out[doc] = doc
            used.add(doc)
    for doc in docs:
        if doc in out:
            continue
        base = printable(doc) if printable(doc).strip() else "(blank id)"
        candidate, n = base[:limit], 1
        while candidate in used:
            n += 1
            suffix = f"~{n}"
            candidate = base[: limit - len(suffix)] + suffix
        out[doc] = candidate
        used.add(candidate)
    return out


def grouped_problems(err: FileFormatError) -> str:
    """A file's malformed lines, one line per kind of problem (the first line that has it, and
    how many of the lines listed share it), not one line per line of the file.

    >>> err = FileFormatError("run.txt", [(1, "expected 4 columns, found 6"), (2, "expected 4 columns, found 6")], 861)
    >>> print(grouped_problems(err))
    861 malformed lines, the first at run.txt:1: expected 4 columns, found 6
    >>> err = FileFormatError("run.txt", [(2, "score 'x' is not a number"), (5, "expected 6 columns, found 2"),
    ...                                   (9, "expected 6 columns, found 2")])
    >>> print(grouped_problems(err))
    run.txt:2: score 'x' is not a number
    run.txt:5: expected 6 columns, found 2 (and 1 more line like it)
    """
    groups: dict[str, list] = {}
    for line, reason in err.problems:
        groups.setdefault(reason, []).append(line)
    where = [f"{err.source}:{lines[0]}" if lines[0] is not None else err.source for lines in groups.values()]
    if len(groups) == 1 and err.total > 1:
        (reason,) = groups
        return f"{err.total:,} malformed lines, the first at {where[0]}: {reason}"
    out = []
    for (reason, lines), at in zip(groups.items(), where, strict=True):
        more = len(lines) - 1
        out.append(f"{at}: {reason}" + (f" (and {more} more line{'s' if more > 1 else ''} like it)" if more else ""))
    if err.total > len(err.problems):
        out.append(f"{err.source}: {err.total:,} malformed lines in all")
    return "\n".join(out)


SNIFF_BYTES = 64 * 1024  # the start of a file read to tell a run from qrels


def looks_like(data: bytes) -> str | None:
    """``"run"`` when a text file's first lines are TREC run lines (``qid Q0 docid rank score
    tag``), ``"qrels"`` when they are qrels lines (``qid iter docid grade``), else None (any other
    format, compressed bytes, a mix).

    >>> looks_like(b"q1 Q0 d1 1 2.5 bm25\\nq1 Q0 d2 2 1 bm25\\n"), looks_like(b"# qrels\\nq1 0 d1 2\\n")
    ('run', 'qrels')
    >>> looks_like(b"qid,docid,grade\\nq1,d1,2\\n") is None
    True
    """
    text = data[:SNIFF_BYTES].decode("utf-8", "replace")
    lines = text.splitlines()
    if len(data) > SNIFF_BYTES:
        lines = lines[:-1]   # cut in the middle
    rows = [line.split() for line in lines if line.strip() and not line.lstrip().startswith("#")][:20]
    if not rows:
        return None
    if all(len(r) == 6 and _integer(r[3]) and _number(r[4]) for r in rows):
        return "run"
    if all(len(r) == 4 and _integer(r[3]) for r in rows):
        return "qrels"
    return None


def _integer(text: str) -> bool:
    return text.lstrip("-").isdigit()


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
