"""Rendering helpers for the Reader (QA) page: plain-text-safe markdown, tables, presets.

Nothing here computes a metric: it turns :mod:`metrics.qa` results into pandas frames
and markdown strings, and the page's text boxes and table into the inputs of
``metrics.qa``. User text only ever reaches the screen inside a dataframe (plain text)
or escaped by :func:`escape_markdown`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from metrics.qa import PER_QUESTION, AnswerExplanation, ReaderEvaluation

from ..core.i18n import N_, _, ngettext
from ..core.views import escape_markdown

__all__ = ["count", "UNIT_WORDS", "KEYS", "SEPARATOR", "PRESETS", "TABLE_PRESETS", "escape_markdown", "parse_lines",
           "overlap_markdown", "steps_frame", "gold_frame", "metrics_frame",
           "per_question_frame", "single_question_frame", "table_to_questions", "questions_frame", "shorten", "table_height", "table_key",
           "LIMITS", "ReaderLimits", "editor_problem", "text_problem", "work_problem"]

# every session key the page uses ("reader.<name>")
KEYS = {
    "preset": "reader.preset", "gold": "reader.gold", "predictions": "reader.predictions",
    "unit": "reader.unit", "explain_rank": "reader.explain_rank", "table_preset": "reader.table_preset",
    "table_data": "reader.table_data", "table": "reader.table", "k": "reader.k",
    "table_unit": "reader.table_unit", "table_kept": "reader.table_kept",
    "table_version": "reader.table_version",
}
SEPARATOR = "|"  # several answers in one table cell
TABLE_COLUMNS = ("question", "gold answers", "predictions", "retrieved")


@dataclass(frozen=True)
class ReaderLimits:
    """What the Reader page accepts; anything beyond gets a clear message and is not applied.

    The bounds keep a rerun of the page short: Streamlit's table grows slow to edit long
    before 2,000 rows, and every answer comparison is computed again on each rerun.
    """

    rows: int = 200               # questions in the table
    cell_chars: int = 2_000       # characters in one table cell
    text_chars: int = 20_000      # characters in one text box
    answers: int = 100            # lines (answers) in one text box
    comparisons: int = 200_000    # (predicted, gold) answer pairs scored per rerun


LIMITS = ReaderLimits()
MAX_UNITS_SHOWN = 200

# one question: (gold answers, predicted answers best first, unit)
PRESETS: dict[str, tuple[list[str], list[str], str]] = {
    N_("Denver Broncos (SQuAD's example)"): (["Denver Broncos"], ["Broncos", "The Denver Broncos!"],
                                         "token"),
    N_("Several gold answers"): (["Paris", "the city of Paris", "Paris, France"],
                             ["city of Paris", "London"], "token"),
    N_("Unanswerable question"): ([], ["1931", "no answer"], "token"),
    N_("Word order: F1 ignores it, EM does not"): (["Denver Broncos"], ["Broncos Denver"], "token"),
    N_("Characters: an anagram scores F1 = 1"): (["act"], ["cat"], "char"),
    N_("Markup is not removed, only punctuation"): (["The Beatles"], ["<b>The Beatles</b>",
                                                                 "**the beatles**"], "token"),
}

# many questions: rows of (id, gold answers, predictions, retrieved)
TABLE_PRESETS: dict[str, list[tuple[str, str, str, bool]]] = {
    N_("Five questions: top-k, unanswerable, a failed retrieval"): [
        ("q1", "Denver Broncos", "Broncos | Denver Broncos | Carolina", True),
        ("q2", "Paris | the city of Paris", "London | city of Paris", True),
        ("q3", "", "Paris | no answer", True),
        ("q4", "1998", "1998", False),
        ("q5", "", "", True),
    ],
    N_("Every answer right at rank 1"): [
        ("a", "Marie Curie", "Marie Curie", True),
        ("b", "", "no answer", True),
        ("c", "1903 | in 1903", "in 1903", True),
    ],
}


def shorten(text: str | None, limit: int = 60) -> str:
    """Text for a label: at most ``limit`` characters, ``(no answer)`` for None/empty.

    >>> shorten("x" * 70, 10), shorten(None), shorten("")
    ('xxxxxxxxx…', '(no answer)', '(empty: no answer)')
    """
    if text is None:
        return "(no answer)"
    if text.strip() == "":
        return "(empty: no answer)"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_lines(text: str | None) -> list[str]:
    """One answer per non-blank line, stripped.

    >>> parse_lines("Paris\\n\\n  the city of Paris  \\n")
    ['Paris', 'the city of Paris']
    """
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


UNIT_WORDS = {"token": "token", "char": "character"}


def count(n: int, unit: str) -> str:
    """``"1 token"``, ``"3 characters"``.

    >>> count(1, "token"), count(3, "char")
    ('1 token', '3 characters')
    """
    if unit == "char":
        return ngettext("{n} character", "{n} characters", n).format(n=n)
    return ngettext("{n} token", "{n} tokens", n).format(n=n)


def _unit_label(u: str, unit: str) -> str:
    return "␣" if unit == "char" and u == " " else u


def overlap_markdown(units, common, *, unit: str, colour: str) -> str:
    """Markdown for a row of units, the shared ones on a green background.

    ``colour`` is the colour of the units that are not shared (``"red"`` for the prediction:
    they cost precision; ``"orange"`` for the gold answer: they cost recall).

    >>> overlap_markdown(["denver", "broncos"], ["broncos"], unit="token", colour="orange")
    ':orange[denver] :green-background[:green[**broncos**]]'
    """
    left = Counter(common)
    parts = []
    units = list(units)
    for u in units[:MAX_UNITS_SHOWN]:
        label = escape_markdown(_unit_label(u, unit))
        if left[u] > 0:
            left[u] -= 1
            parts.append(f":green-background[:green[**{label}**]]")
        else:
            parts.append(f":{colour}[{label}]")
    if len(units) > MAX_UNITS_SHOWN:
        parts.append(f"… ({len(units) - MAX_UNITS_SHOWN} more)")
    return " ".join(parts) if parts else "*(nothing left after normalisation)*"


def steps_frame(e: AnswerExplanation) -> pd.DataFrame:
    """Normalisation stages (rows) of the prediction and of each gold answer (columns)."""
    cols: dict[str, list[str]] = {}
    stages = [s for s, _text in (e.prediction_steps or (e.gold_steps[0] if e.gold_steps else ()))]
    if not stages:
        from metrics.qa import NORMALIZATION_STAGES
        stages = list(NORMALIZATION_STAGES)
    cols[_("stage")] = [_(STAGES.get(s, s)) for s in stages]
    cols[_("prediction")] = ([t for _stage, t in e.prediction_steps] if e.prediction_steps
                             else [_("(no answer)")] + [""] * (len(stages) - 1))
    for i, steps in enumerate(e.gold_steps):
        cols[_("gold {n}").format(n=i + 1)] = [t for _stage, t in steps]
    return pd.DataFrame(cols)


def gold_frame(e: AnswerExplanation) -> pd.DataFrame:
    """One row per (non-empty) gold answer: its normalised form, common units, P, R, F1, EM."""
    c = e.columns
    if not c or not c.get("gold"):
        return pd.DataFrame()
    sep = " " if e.unit == "token" else ""
    return pd.DataFrame({
        _("best"): ["✓" if i == e.best else "" for i in c["gold_index"]],
        _("gold answer"): c["gold"], _("normalised"): c["normalized"],
        _("common"): [sep.join(_unit_label(u, e.unit) for u in x) for x in c["common"]],
        _("common count"): c["n_common"], _("prediction count"): c["n_prediction"],
        _("gold count"): c["n_gold"], _("precision"): c["precision"], _("recall"): c["recall"],
        "F1": c["f1"], "EM": c["em"],
    })


LABELS = {"accuracy": N_("accuracy (correct reading)"), "em": N_("exact match"), "f1": "F1"}  # shown with _()
# the normalisation stages of metrics.qa, as the step table names them
STAGES = {"original": N_("original"), "lowercase": N_("lowercase"), "remove punctuation": N_("remove punctuation"),
          "remove articles": N_("remove articles"), "collapse whitespace": N_("collapse whitespace")}
SCORES = (N_("all questions"), N_("answerable only (_has_answer)"))   # the score columns' headers


def score_columns() -> dict:
    """Each score column's display (4 decimals), by its header in the session's language."""
    import streamlit as st

    from metrics.qa import PER_QUESTION

    names = [_(SCORES[0]), _(SCORES[1]), "top-1", "top-k", *PER_QUESTION]
    return {name: st.column_config.NumberColumn(format="%.4f") for name in names}


def _ratio(ev: ReaderEvaluation, name: str) -> str:
    from metrics.explain import num

    return f"{num(ev.totals[name])} / {ev.denominator(name)}"


def metrics_frame(ev: ReaderEvaluation) -> pd.DataFrame:
    """The twelve metrics as a 6 × 2 table: rows metric × top1/topk, columns all / answerable."""
    rows = []
    for kind in ("accuracy", "em", "f1"):
        for depth in ("top1", "topk"):
            name = f"reader_{depth}_{kind}"
            has = f"{name}_has_answer"
            rows.append({_("metric"): name, _("what"): f"{_(LABELS[kind])}, {depth.replace('top', 'top-')}",
                         _(SCORES[0]): ev.metrics[name], _("= sum / count"): _ratio(ev, name),
                         _(SCORES[1]): ev.metrics[has],
                         _("= sum / count") + " ": _ratio(ev, has)})
    return pd.DataFrame(rows)


def single_question_frame(row: dict) -> pd.DataFrame:
    """The six scores of one question as rows accuracy / EM / F1 and columns top-1 / top-k.

    >>> single_question_frame({"top1_accuracy": 1.0, "topk_accuracy": 1.0, "top1_em": 0.0,
    ...                        "topk_em": 1.0, "top1_f1": 0.5, "topk_f1": 1.0})["top-1"].tolist()
    [1.0, 0.0, 0.5]
    """
    return pd.DataFrame([{_("metric"): _(LABELS[kind]), "top-1": row[f"top1_{kind}"],
                          "top-k": row[f"topk_{kind}"]} for kind in ("accuracy", "em", "f1")])


def per_question_frame(ev: ReaderEvaluation) -> pd.DataFrame:
    """One row per question: answerable, retrieved and the six per-question scores."""
    rows = []
    for qid, r in ev.per_question.items():
        rows.append({_("question"): qid, _("answerable"): r["answerable"], _("retrieved"): r["retrieved"],
                     **{n: r[n] for n in PER_QUESTION}})
    return pd.DataFrame(rows)


def questions_frame(rows) -> pd.DataFrame:
    """The editable table from ``(id, gold, predictions, retrieved)`` rows."""
    return pd.DataFrame([{"question": q, "gold answers": g, "predictions": p, "retrieved": r}
                         for q, g, p, r in rows],
                        columns=list(TABLE_COLUMNS))


def table_key(session_state) -> str:
    """The table editor's widget key, ``"reader.table.v<version>"``: a new version starts
    the editor afresh (a preset loaded, edits refused), with no edits to replay.

    >>> table_key({}), table_key({"reader.table_version": 2})
    ('reader.table.v0', 'reader.table.v2')
    """
    return f"{KEYS['table']}.v{session_state.get(KEYS['table_version'], 0)}"


def table_height(n_rows: int, *, extra: int = 0, limit: int = 700) -> int:
    """Pixels for a dataframe showing ``n_rows`` rows (+ ``extra`` empty ones) without scrolling.

    >>> table_height(5), table_height(100)
    (213, 700)
    """
    return min(35 * (n_rows + extra + 1) + 3, limit)


def _cell(value) -> str:
    if value is None:
        return ""
    try:
        if pd.isna(value):
            return ""
    except (TypeError, ValueError):
        pass
    return str(value)


def _split(text: str) -> list[str]:
    return [a.strip() for a in text.split(SEPARATOR) if a.strip()]


def table_to_questions(df: pd.DataFrame):
    """Gold answers, predictions and retrieved flags from the edited table.

    Returns ``(gold, predictions, retrieved, problems)``: answers are split on ``|`` and
    stripped; an empty question id becomes ``row N``; ``problems`` lists messages about
    rows that were left out (a duplicate id).

    >>> df = questions_frame([("q1", "Paris | the city", "city | Paris", True),
    ...                       ("", "", "no answer", False)])
    >>> gold, preds, retrieved, problems = table_to_questions(df)
    >>> gold, preds, retrieved, problems
    ({'q1': ['Paris', 'the city'], 'row 2': []}, {'q1': ['city', 'Paris'], 'row 2': ['no answer']}, {'q1': True, 'row 2': False}, [])
    """
    gold: dict[str, list[str]] = {}
    preds: dict[str, list[str]] = {}
    retrieved: dict[str, bool] = {}
    problems: list[str] = []
    first_row: dict[str, int] = {}
    for i, row in enumerate(df.to_dict("records"), start=1):
        qid = _cell(row.get("question")).strip() or f"row {i}"
        if qid in first_row:
            problems.append(f"Row {i}: question id {qid!r} is already used by row "
                            f"{first_row[qid]}; this row is left out.")
            continue
        first_row[qid] = i
        gold[qid] = _split(_cell(row.get("gold answers")))
        preds[qid] = _split(_cell(row.get("predictions")))
        flag = row.get("retrieved")
        retrieved[qid] = bool(flag) if _cell(flag) != "" else True
    return gold, preds, retrieved, problems


def text_problem(text: str, what: str, *, limits: ReaderLimits = LIMITS) -> str | None:
    """Why a text box's content is refused (too long, too many answers), or None.

    >>> text_problem("a\\nb", "Gold answers") is None
    True
    >>> text_problem("x" * 20_001, "Gold answers")
    'Gold answers: 20,001 characters is too many (at most 20,000). Shorten the text to see the metrics.'
    """
    if len(text) > limits.text_chars:
        return (f"{what}: {len(text):,} characters is too many (at most {limits.text_chars:,}). "
                "Shorten the text to see the metrics.")
    n = len(parse_lines(text))
    if n > limits.answers:
        return (f"{what}: {n:,} answers is too many (at most {limits.answers:,}, one per line). "
                "Remove some to see the metrics.")
    return None


def work_problem(n_pairs: int, *, limits: ReaderLimits = LIMITS) -> str | None:
    """Why the metrics are not computed: too many (predicted, gold) answer pairs, or None.

    >>> work_problem(10) is None, work_problem(200_001)[:40]
    (True, '200,001 comparisons of a predicted with ')
    """
    if n_pairs > limits.comparisons:
        return (f"{n_pairs:,} comparisons of a predicted with a gold answer is too many (at most "
                f"{limits.comparisons:,}): give fewer answers per question or a smaller k.")
    return None


def _row_index(value, size: int) -> bool:
    try:
        i = int(value)
    except (TypeError, ValueError, OverflowError):
        return False
    return 0 <= i < size and str(i) == str(value).strip()


def editor_problem(delta, n_rows: int, *, limits: ReaderLimits = LIMITS) -> str | None:
    """Why a data editor's pending edits must be refused before Streamlit applies them, or None.

    ``delta`` is the editor's widget state (``edited_rows``, ``added_rows``,
    ``deleted_rows``), which comes from the browser: too many rows (Streamlit adds rows one
    by one, which takes minutes for thousands), a cell too long, a row or a column that
    does not exist, a value that is not text, a number or a tick.

    >>> editor_problem({"added_rows": [{}] * 3, "deleted_rows": [0]}, 199) is None  # 199 - 1 + 3
    False
    >>> editor_problem({"added_rows": [{}] * 2, "deleted_rows": [0]}, 199) is None
    True
    """
    if not isinstance(delta, Mapping):
        return None
    edited = delta.get("edited_rows") or {}
    added = delta.get("added_rows") or []
    deleted = delta.get("deleted_rows") or []
    if not isinstance(edited, Mapping) or not isinstance(added, list) or not isinstance(deleted, list):
        return "The table's edits could not be read; your previous table is kept."
    n_deleted = len({str(d) for d in deleted})
    total = n_rows - n_deleted + len(added)
    if total > limits.rows:
        return (f"{len(added):,} rows added: the table holds at most {limits.rows:,} questions "
                f"(it would have {total:,}). Your previous table is kept.")
    if not all(_row_index(d, n_rows) for d in deleted) or \
            not all(_row_index(i, n_rows + len(added)) for i in edited):
        return "The table's edits name rows that do not exist; your previous table is kept."
    rows = [*edited.values(), *added]
    if not all(isinstance(row, Mapping) and set(row) <= set(TABLE_COLUMNS)
               and all(v is None or isinstance(v, str | bool | int | float) for v in row.values())
               for row in rows):
        return "The table's edits could not be read; your previous table is kept."
    longest = max((len(v) for row in rows for v in row.values() if isinstance(v, str)), default=0)
    if longest > limits.cell_chars:
        return (f"A cell of {longest:,} characters is too long (at most {limits.cell_chars:,}). "
                "Your previous table is kept.")
    return None
