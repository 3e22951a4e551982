"""The drag list: the ranking and the tray as tiles to drag (a Streamlit component)."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from ..core import editing
from ..core.charts import GRADE_COLORS, UNJUDGED_FILL, grade_text_color
from ..core.i18n import _
from ..session import state

__all__ = ["DRAG_MOST", "drag_order", "apply_drops"]


DRAG_MOST = 20  # items (ranked and in the tray) up to which the list can be dragged


def _drag_css(ranking, tray, *, across: bool = False) -> str:
    """Compact tiles in the grade colours of the charts (our CSS: user text is never in it);
    ``across``: larger tiles side by side, for a projector."""
    rules = [".sortable-component{padding:0}.sortable-container{margin:0 0 6px;padding:0}"
             ".sortable-container-header{font-size:14px;color:#555;padding:2px 0}"
             ".sortable-item{font-size:14px;padding:2px 10px;margin:2px 0;text-align:left;border:1px solid #ced4da;"
             "background:#f8f9fa;color:#111}"]
    if across:
        # a long label ends in an ellipsis inside its tile; rank and grade come first, so they stay
        rules.append(".sortable-container-body{flex-wrap:wrap}.sortable-item{font-size:18px;padding:6px 10px;"
                     "margin:2px 3px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:13em}")
    for nth, items in ((1, ranking), (2, tray)):
        for n, item in enumerate(items, start=1):
            grade = max(0, min(int(item.grade or 0), len(GRADE_COLORS) - 1))
            colour = UNJUDGED_FILL if item.grade is None else "#ffffff" if grade == 0 else GRADE_COLORS[grade]
            rules.append(f".sortable-container:nth-of-type({nth}) .sortable-item:nth-child({n})"
                         f"{{background:{colour};color:{grade_text_color(grade) if grade else '#111'}}}")
    return "".join(rules)


def drag_order(page: str, index: int | None = None, *, across: bool = False, extra_css: str = "") -> None:
    """The ranking and the tray as tiles to drag: reorder the ranking, or drag an item
    between the ranking and the tray. Offered up to :data:`DRAG_MOST` items; the buttons of
    :func:`item_actions` work at any length. ``across``: tiles side by side, rank and grade
    first and the label after, cut with an ellipsis (the presenter view), instead of one under
    the other. ``extra_css``: more of the caller's own rules for the tiles (never user text)."""
    from streamlit_sortables import sort_items

    ex = state.get_example()
    i = ex.current if index is None else index
    q = ex.queries[i]
    if not 0 < len(q.ranking) + len(q.tray) <= DRAG_MOST:
        if q.ranking or q.tray:
            st.caption(_("Dragging is offered for lists of up to {most} items; use the buttons below.").format(most=DRAG_MOST))
        return

    def tile(where: str, n: int, item) -> str:  # unique (it carries the position); shown as plain text
        if across:
            return f"{where}{n} · {editing.grade_text(item.grade)} · {item.label[:40] or item.id[:40]}"
        return f"{where}{n} · {item.label[:40] or item.id} · " + _("grade {grade}").format(grade=editing.grade_text(item.grade))

    ranked = [tile("#", n, item) for n, item in enumerate(q.ranking, start=1)]
    missed = [tile(_("tray") + " ", n, item) for n, item in enumerate(q.tray, start=1)]
    lookup = dict(zip(ranked + missed, q.ranking + q.tray, strict=True))
    # a new list (an edit, a move) makes a new component, which starts from the list as it is now.
    # The key holds the ids, not only the texts: two tiles can read the same ("cat in a box",
    # grade 1), and swapping them leaves every text as it was. It holds the example's version
    # too, which every change but a grid's own edit bumps: undo brings back an earlier list,
    # and that list's old component still held the drop undone. Either way an old component's
    # reply, read against the list of now, made the change again (without end, for the swap).
    version = st.session_state.get(state.KEYS["version"], 0)
    digest = editing.digest((version, [item.id for item in q.ranking], [item.id for item in q.tray], ranked, missed))
    key = f"{page}.drag.{i}.{digest}"
    with st.container(key=f"{page}-drag-{i}-{digest}"):  # a keyed block: the browser remounts the component
        result = sort_items([{"header": _("ranking, best first"), "items": ranked},
                             {"header": _("relevant but not retrieved"), "items": missed}],
                            multi_containers=True, direction="horizontal" if across else "vertical",
                            custom_style=_drag_css(q.ranking, q.tray, across=across) + extra_css, key=key)
    st.session_state.setdefault(state.KEYS["drags"], {})[(page, i)] = (key, lookup, (q.ranking, q.tray))
    dropped = editing.dropped(result, lookup)
    if dropped is not None and dropped != (q.ranking, q.tray):
        # the reply arrives while the page is drawn (the editors above already show the old
        # order): apply it and draw the page again
        if state.set_current_query(replace(q, ranking=dropped[0], tray=dropped[1]), index=i):
            st.rerun()


def apply_drops() -> None:
    """Apply a tile dropped in a drag list that the example does not have yet (see
    :func:`ranklab_ui.widgets.editors.apply_pending_edits`, which calls this first)."""
    ss = st.session_state
    for (_page, i), (key, lookup, lists) in list((ss.get(state.KEYS["drags"]) or {}).items()):
        ex = ss.get(state.KEYS["example"])
        if ex is None or i >= len(ex.queries) or (ex.queries[i].ranking, ex.queries[i].tray) != lists:
            continue   # the list changed since it was drawn: a reply of it is for an older list
        dropped = editing.dropped(ss.get(key), lookup)
        if dropped is not None and dropped != lists:
            state.set_current_query(replace(ex.queries[i], ranking=dropped[0], tray=dropped[1]), index=i)
