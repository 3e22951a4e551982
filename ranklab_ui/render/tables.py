"""Read-only tables: prose tables shown whole, step tables with row k highlighted and a CSV."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence

import pandas as pd
import streamlit as st

from ..core.i18n import _, current_language
from ..core.views import has_prose, step_frame, text_table, with_gaps_shown

__all__ = ["table", "step_table", "frame_of", "WHOLE_ROWS"]


# a read-only table of prose up to this many rows is shown whole, in HTML that wraps; a longer one
# stays on the canvas (it scrolls, sorts and searches), where a long text would be cut instead
WHOLE_ROWS = 30
_ROW_K = "background-color: #fff3bf; color: #111111; font-weight: 600"


def table(data, *, column_config: Mapping | None = None, key: str | None = None, height: int | None = None,
          whole: bool | None = None, decimals: int | None = None,
          row_k: Callable[[pd.Series], bool] | None = None) -> None:
    """A read-only table, every text of it readable whole at any width and on paper.

    A table of prose (:func:`ranklab_ui.core.views.has_prose`: notes, explanations, formulas) of up to
    :data:`WHOLE_ROWS` rows, or any with ``whole=True`` (a step table), is an HTML table whose
    cells wrap (``st.table``; each text made inert for Markdown, numbers right-aligned): a canvas
    table (``st.dataframe``) cuts a text at its column's edge and prints only what fits the page.
    Other tables stay on the canvas, with ``column_config``, ``key`` and ``height``; there a
    column of prose is given the widest column the canvas has. ``row_k(row)``: the rows to
    highlight (a step table's row k); ``decimals``: how many every float column shows.
    """
    frame = data if isinstance(data, pd.DataFrame) else pd.DataFrame(list(data))
    config = dict(column_config or {})
    if decimals is not None:
        for col in frame.columns:
            if pd.api.types.is_float_dtype(frame[col]):
                config.setdefault(col, st.column_config.NumberColumn(format=f"%.{decimals}f"))
    if whole if whole is not None else len(frame) <= WHOLE_ROWS and has_prose(frame):
        formats = {str(c): v["type_config"].get("format") for c, v in config.items()
                   if isinstance(v, Mapping) and isinstance(v.get("type_config"), Mapping)}
        marked = [] if row_k is None else [i for i, (_i, row) in enumerate(frame.iterrows()) if row_k(row)]
        _whole_table(frame, formats, marked)
        return
    for col in frame.columns:
        if not pd.api.types.is_numeric_dtype(frame[col]) and has_prose(frame[[col]]):
            config.setdefault(col, st.column_config.TextColumn(width="large"))
    st.dataframe(frame, hide_index=True, width="stretch", height=height or "auto", key=key, column_config=config)


def _whole_table(frame: pd.DataFrame, formats: Mapping[str, str], marked: Sequence[int]) -> None:
    """``frame`` as an HTML table (``st.table``) whose texts wrap, numbers right-aligned on one
    line, the rows ``marked`` highlighted. Every style is one rule per column or per row of the
    table (a class Streamlit gives each cell), not one per cell: the styler then computes no
    cell's style, which made it the costliest element of a lesson's run."""
    shown, numbers = text_table(frame, formats)
    # text wraps, at a space when it can and inside a long id when it must, a header at its
    # spaces; a number never (st.table keeps every cell on one line, which a scroller then
    # hides and paper cuts)
    text = [c for c in shown.columns if c not in numbers]
    # a column of longer texts keeps a readable width on a phone (the table scrolls instead
    # of stacking one word a line)
    wide = {c for c in text if shown[c].map(lambda v: len(v.split()) > 3 or len(v) > 24).any()}
    rules = [{"selector": "th", "props": "white-space: normal; overflow-wrap: break-word"}]
    for i, col in enumerate(shown.columns):
        props = ("text-align: right; white-space: nowrap" if col in numbers else
                 "white-space: normal; overflow-wrap: anywhere" + ("; min-width: 8em" if col in wide else ""))
        rules.append({"selector": f"td.col{i}", "props": props})
    rules += [{"selector": f"td.row{i}", "props": _ROW_K} for i in marked]
    st.table(shown.style.set_table_styles(rules), hide_index=True)


@st.cache_data(max_entries=512, show_spinner=False)
def _step_table_drawn(content: str, _frame: pd.DataFrame, _marked: tuple) -> None:
    """The step table of ``content`` (a digest of its columns, labels, k and language), drawn once per
    content for the whole server: a later run with the same content has Streamlit replay the
    table drawn, instead of styling it again (a k stepped back, a lesson opened again, a class
    on the same example). ``_frame`` and ``_marked`` follow from ``content``."""
    _whole_table(_frame, {col: "%.4f" for col in _frame.columns if pd.api.types.is_float_dtype(_frame[col])},
                 list(_marked))


def step_table(columns: Mapping[str, Sequence], *, k: int, labels: Mapping[str, str], key: str,
               name: str, caption: str = "") -> None:
    """The per-rank table of an explanation, row k highlighted, with a CSV download. Up to
    :data:`WHOLE_ROWS` ranks it is shown whole (:func:`table`): it is what a printed lesson shows."""
    frame = step_frame(columns, labels=labels, k=k)
    rank = _("rank")  # step_frame's headers are in the session's language
    if len(frame) <= WHOLE_ROWS:
        marked = tuple(i for i, r in enumerate(frame[rank]) if r == k) if rank in frame else ()
        # the content as one short text: Streamlit's cache hashes a nested tuple item by item
        content = repr((tuple((name, tuple(values)) for name, values in columns.items()), k,
                        tuple(sorted((str(d), str(t)) for d, t in labels.items())), current_language()))
        _step_table_drawn(hashlib.blake2b(content.encode("utf-8", "surrogatepass")).hexdigest(), frame, marked)
    else:  # long: on the canvas, which scrolls; the "at k" marker shows row k
        shown, gaps = with_gaps_shown(frame)
        st.dataframe(shown, hide_index=True, width="stretch", height=400, key=f"{key}.table",
                     column_config={col: st.column_config.TextColumn(alignment="right") for col in gaps})
    if caption:
        st.caption(caption)
    st.download_button(_("CSV of this table"), lambda: frame.to_csv(index=False), file_name=f"{name}.csv",
                       mime="text/csv", key=f"{key}.csv", on_click="ignore", icon=":material/download:")


def frame_of(rows: Sequence[Mapping]) -> pd.DataFrame:
    return pd.DataFrame(list(rows))
