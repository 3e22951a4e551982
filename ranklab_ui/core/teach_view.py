"""Small table helpers shared by the Teach pages (numbers, inputs, a ranking, widget keys).

The current query and the example controls are :mod:`ranklab_ui.parts.lessons`; messages are
:func:`ranklab_ui.render.messages`.

User text shown in Markdown goes through :func:`ranklab_ui.core.views.escape_markdown`, the one escaper.
"""

from __future__ import annotations

import hashlib

import pandas as pd

from metrics.explain import num

from .i18n import N_, _

__all__ = ["describe", "ranking_frame", "signature", "fmt"]


def fmt(x, digits: int = 4) -> str:
    """A value for a table: integers as integers, others with ``digits`` decimals, None as —.

    >>> fmt(0.5), fmt(2.0), fmt(None), fmt(1 / 3)
    ('0.5', '2', '—', '0.3333')
    """
    return num(x, digits, none="—", nan=_("not a number"))  # the one formatter, NaN spelled out


def describe(value, depth: int = 0) -> str:
    """A small input (list, dict, nested dict) as short plain text for people.

    >>> describe(["a", "b"]), describe({"a": 2, "b": 1}), describe({"q1": ["a", "b"]})
    ('a, b', 'a = 2, b = 1', 'q1: a, b')
    """
    if isinstance(value, dict):
        if value and all(isinstance(v, dict | list | tuple) for v in value.values()) and depth == 0:
            return "; ".join(f"{k}: {describe(v, depth + 1)}" for k, v in value.items())
        return ", ".join(f"{k} = {describe(v, depth + 1)}" for k, v in value.items()) or _("(none)")
    if isinstance(value, list | tuple):
        return ", ".join(describe(v, depth + 1) for v in value) or _("(empty)")
    return str(value)


def ranking_frame(ranking, judgments, labels: dict | None = None) -> pd.DataFrame:
    """The ranking as a table (rank, document, label, grade), then the judged relevant documents
    not retrieved (rank "—"); the label column is left out when no document has a label.

    >>> ranking_frame(["a", "b"], {"a": 1, "c": 2}).to_dict("list")
    {'rank': ['1', '2', '—'], 'document': ['a', 'b', 'c (not retrieved)'], 'grade': ['1', 'unjudged', '2']}
    """
    labels = labels or {}
    rows = [{"rank": str(i), "document": d, "label": labels.get(d, ""),
             "grade": _("unjudged") if d not in judgments else str(judgments[d])}
            for i, d in enumerate(ranking, 1)]
    seen = set(ranking)
    rows += [{"rank": "—", "document": _("{doc} (not retrieved)").format(doc=d), "label": labels.get(d, ""), "grade": str(g)}
             for d, g in judgments.items() if d not in seen and g > 0]
    frame = pd.DataFrame(rows, columns=["rank", "document", "label", "grade"])
    if not any(r["label"] for r in rows):
        frame = frame.drop(columns="label")
    headers = {"rank": N_("rank"), "document": N_("document"), "label": N_("label"), "grade": N_("grade")}
    return frame.rename(columns={c: _(headers[c]) for c in frame.columns})


def signature(*parts) -> str:
    """A short stable hash of the inputs, for widget keys that must reset when they change."""
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:10]
