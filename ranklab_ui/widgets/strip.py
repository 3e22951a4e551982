"""The ranking strip: the ranked list as tiles in a chart, a click on one gives it the next grade."""

from __future__ import annotations

import functools
from dataclasses import replace

import streamlit as st

from ..core import editing, validation, views
from ..core.i18n import _
from ..render import strip
from ..session import state
from .editors import apply_pending_edits

__all__ = ["grade_strip", "cycle_grade"]


TILE_CLICKS = "{page}.tile_clicks"  # session key: tiles clicked so far (a fresh strip after each)
TILES_DONE = "{page}.tiles_done"    # session key: the last (strip key, rank) clicks applied


def grade_strip(page: str, index: int, query, k: int, mode: str) -> None:
    """Query ``index``'s ranked list as tiles (:func:`ranklab_ui.render.strip`); a click on a tile gives
    its result the next grade (:func:`cycle_grade`), and a caption under the strip says so.

    The strip's key changes after each click, so that it starts without a selection and a
    second click on the same tile counts again."""
    key = f"{page}.strip.{st.session_state.get(TILE_CLICKS.format(page=page), 0)}"
    strip(views.item_rows(query.ranking), k, key=key, on_tile=functools.partial(_tile_clicked, page, index, key))
    st.caption(_("Click a tile to switch it between relevant and not relevant.") if mode == "binary"
               else _("Click a tile to give it the next grade (after the highest, 0 again)."))


def _tile_clicked(page: str, i: int, key: str, rank: int) -> None:
    """A click on the tile at ``rank`` of the strip ``key``, applied once.

    The browser's next request, sent before it had the new strip, carries the old strip's
    selection again; taken as a click, it gave the tile a second grade (a click lost, seen
    as two). A click on another tile of an old strip is a new one and counts."""
    done = st.session_state.setdefault(TILES_DONE.format(page=page), [])
    if (key, rank) in done:
        return
    done.append((key, rank))
    del done[:-20]
    cycle_grade(page, i, rank)


def cycle_grade(page: str, i: int, rank: int) -> None:
    """A click on the tile at ``rank`` of query ``i``: that item's :func:`next_grade`, where the
    top grade is the query's highest (at least 3). The whole page follows (the grids included)."""
    apply_pending_edits()
    ex = state.get_example()
    if not 0 <= i < len(ex.queries) or not 1 <= rank <= len(ex.queries[i].ranking):
        return  # a click on a list that changed since it was drawn
    q = ex.queries[i]
    top = min(max([3] + [it.grade for it in q.ranking + q.tray if it.grade is not None]), validation.LIMITS.grade_max)
    ranking = list(q.ranking)
    ranking[rank - 1] = replace(ranking[rank - 1], grade=editing.next_grade(ranking[rank - 1].grade, ex.mode, top))
    clicks = TILE_CLICKS.format(page=page)
    st.session_state[clicks] = st.session_state.get(clicks, 0) + 1
    if state.set_current_query(replace(q, ranking=tuple(ranking)), index=i):
        st.rerun()  # the whole page (the strip sits in a fragment): the grid shows the new grade

