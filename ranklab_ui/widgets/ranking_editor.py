"""The ranking editor: one query's ranked list and its tray, as one component.

The component (``ranklab/ranking_editor``: its JavaScript and CSS, Streamlit's components v2)
shows each result with its rank, its grade (a digit, ``?`` unjudged), its label and id, where k
cuts the list, and the tray. It is edited by keyboard, pointer and touch, applies each edit in
the browser at once, and sends it with the version it was made on and a sequence number. This
module hands it the example and takes its events through the one rule of
:mod:`ranklab_ui.core.snapshots` (``docs/editing.md``).
"""

from __future__ import annotations

import functools
import threading

import streamlit as st

from ..core import snapshots, validation
from ..core.i18n import _
from ..render import messages
from ..session import history, keys, state

__all__ = ["ranking_editor", "texts"]


@functools.cache
def _component():
    """The component, declared on its first use: its files are found through the manifest that
    Streamlit's runtime reads when it starts (``ranklab/pyproject.toml``), so a declaration when
    the module is imported outside a run (a doctest, a script) finds no files and fails. A
    runtime that starts later (each AppTest has its own) gets the declaration from Streamlit
    when the component is mounted."""
    return st.components.v2.component("ranklab.ranking_editor", js="editor.js", css="editor.css")


def texts() -> dict[str, str]:
    """What the component shows and says, in the session's language."""
    return {
        "ranking": _("Ranking, best first"),
        "tray": _("Relevant but not retrieved (the tray)"),
        "undo": _("↶ Undo"),
        "redo": _("↷ Redo"),
        "undo_help": _("undo the last change of the example (Ctrl+Z; k is not undone)"),
        "redo_help": _("redo the change just undone (Ctrl+Shift+Z)"),
        "add": _("+ add a result"),
        "keys": _("Keys: ↑ ↓ move the focus · 0–9 grade · ? unjudged · Space next grade · Alt+↑ ↓ move · "
                  "Home / End to the top / bottom · Delete to the tray and back · Enter edit the label"),
        "said": _("rank {rank}, grade {grade}, {label}"),
        "said_tray": _("not retrieved, grade {grade}, {label}"),
        "id": _("id"),
        "cut": _("k = {k}: the top k end here"),
        "removed": _("removed: {label}"),
        "undone": _("undone"),
        "redone": _("redone"),
        "nothing_undo": _("nothing to undo"),
        "nothing_redo": _("nothing to redo"),
        "waiting": _("Wait a moment: the server is taking the undo or redo; an edit now would be made on the "
                     "list it replaces."),
        "grade_limit": _("A grade is a whole number from 0 to {most}, or ? for unjudged."),
        "too_many": _("A list holds at most {most} items."),
        "gone": _("Not moved: the lists were replaced while you dragged this result, and it is not in them."),
        "label_of": _("label of {id}"),
        "no_label": _("(no label)"),
        "empty_ranking": _("The ranking is empty: drag a result here from the tray, or add one."),
        "empty_tray": _("Nothing here: drag a result here, or press Delete on one, to take it out of the ranking."),
        "close": _("close"),
    }


def _seen(key: str) -> tuple[int, dict | None]:
    """The last sequence number the server processed for editor ``key``, and its last refusal."""
    return (st.session_state.get(state.KEYS["edits"]) or {}).get(key, (0, None))


_applying = threading.local()   # an editor's events are being applied in this run's thread


def _received(key: str, index: int) -> None:
    """The editor ``key`` of query ``index`` sent events: apply them (:func:`snapshots.receive`),
    each once (called again from inside, through :func:`ranklab_ui.session.state.get_example`,
    it does nothing)."""
    if getattr(_applying, "key", None) is not None:
        return
    _applying.key = key
    try:
        _apply(key, index)
    finally:
        _applying.key = None


def _apply(key: str, index: int) -> None:
    ss = st.session_state
    processed, notice = _seen(key)
    events, refused = snapshots.read_events(ss.get(key), processed)
    if not events and not refused:
        return
    example = state.get_example()
    version = ss.get(state.KEYS["version"], 0)
    if index >= len(example.queries):
        refused += [snapshots.Refusal(e["seq"], _(snapshots.STALE).format(what=_(snapshots.OTHER_CHANGE)))
                    for e in events]
        events = []
    out = snapshots.receive(example, index, events, version=version, processed=processed, history=history.history())
    out.processed = max([out.processed] + [r.seq for r in refused])
    refused = sorted(refused + out.refused, key=lambda r: r.seq)
    if refused:
        notice = {"seq": refused[-1].seq, "text": refused[-1].reason}
        for r in refused:
            state.say("error", r.reason)
    ss.setdefault(state.KEYS["edits"], {})[key] = (out.processed, notice)
    if out.example is not example:
        state.take_edit(out.example, version=out.version)
    if out.version != version:
        # the server took an undo or redo that changes more than these lists (the mode, a
        # preset): the widgets outside the editor's fragment show the example too
        ss[state.KEYS["redraw"]] = True


def _pending() -> None:
    """Apply the events of every editor of the session that no callback has taken yet.

    Streamlit calls the callbacks of one run's widgets in its own order, a component's after
    the others': a preset picked, the mode switched or a list pasted just after an edit (both
    reaching a busy server before its next run) came first, and the edit, made on the lists
    before them, was refused, or recorded after them. :func:`ranklab_ui.session.state.get_example`
    and ``set_example`` call this first, so that every change starts from the edits made before
    it; the events that come after a change reach a later run, on lists it replaced, and are
    refused (docs/editing.md)."""
    for key in list(st.session_state.get(state.KEYS["edits"]) or {}):
        _received(key, int(key.rsplit(".", 1)[1]))


state.before_change(_pending)


def _on_events(key: str, index: int) -> None:
    """The component's callback: its events applied; the whole page drawn again when an undo
    or redo the server took changed more than the lists (this callback's run is the editor's
    fragment only)."""
    _received(key, index)
    if st.session_state.pop(state.KEYS["redraw"], False):
        st.rerun()


def ranking_editor(page: str, index: int | None = None, *, layout: str = "rows", height: int = 440) -> None:
    """The editor of query ``index``'s lists (the current query by default). ``layout``:
    ``"rows"`` (a list beside the tray) or ``"across"`` (tiles side by side, for a projector);
    ``height``: the most pixels the ranking takes before it scrolls."""
    if st.session_state.pop(state.KEYS["redraw"], False):
        st.rerun()   # an undo or redo taken while another widget's callback ran: see _on_events
    ex = state.get_example()
    i = ex.current if index is None else index
    q = ex.queries[i]
    key = keys.editor(page, i)
    processed, notice = _seen(key)
    st.session_state.setdefault(state.KEYS["edits"], {}).setdefault(key, (0, None))   # known to _pending
    h = history.history()
    data = {
        "id": key,   # the editor keeps its state when Streamlit draws it anew (editor.js says why)
        "version": st.session_state.get(state.KEYS["version"], 0),
        "processed": processed,
        "ranking": snapshots.item_rows(q.ranking),
        "tray": snapshots.item_rows(q.tray),
        "undo": snapshots.foreseen(ex, h.done, i),
        "redo": snapshots.foreseen(ex, h.undone, i),
        "undo_count": len(h.done),
        "redo_count": len(h.undone),
        "depth": history.DEPTH,
        "k": ex.k,
        "mode": ex.mode,
        "grade_max": validation.LIMITS.grade_max,
        "label_chars": validation.LIMITS.label_chars,
        "most": validation.LIMITS.items,
        "layout": layout,
        "height": height,
        "notice": notice,
        "texts": texts(),
    }
    _component()(key=key, data=data, default={"events": []},
                 on_events_change=functools.partial(_on_events, key, i))
    messages()
