"""Undo and redo of the shared example, per session (the steps: :mod:`ranklab_ui.core.history`).

:func:`record` listens to :func:`ranklab_ui.session.state.on_change`: it gets the example before and after
each change; a new change clears the redo list. The browser's Back is untouched: it reloads
an older ``?ex=`` link, which is recorded like any other change. The ranking editor takes its
undo and redo through :mod:`ranklab_ui.core.snapshots`, which moves the same history.
"""

from __future__ import annotations

import streamlit as st

from ..core.history import DEPTH, History
from . import state

__all__ = ["DEPTH", "History", "history", "record", "undo", "redo", "can_undo", "can_redo"]


# --------------------------------------------------------------------------- the session

def history() -> History:
    """This session's history."""
    ss = st.session_state
    h = ss.get(state.KEYS["history"])
    if not isinstance(h, History):
        h = ss[state.KEYS["history"]] = History()
    return h


def record(before, after) -> None:
    """Every applied change of the example, as :func:`ranklab_ui.session.state.on_change` reports it."""
    history().record(before, after)


state.on_change(record)


def _go(forward: bool) -> None:
    h = history()
    now = state.get_example()
    then = h.redo(now) if forward else h.undo(now)
    if then is None:
        return
    h.replaying = True
    try:
        applied = state.set_example(then)
    finally:
        h.replaying = False
    if not applied:  # cannot happen with examples that were applied once; keep the stacks as they were
        (h.undone if forward else h.done).append(then)
        (h.done if forward else h.undone).pop()


def undo() -> None:
    """Go back one change of the example (nothing when there is none)."""
    _go(False)


def redo() -> None:
    """Go forward again one undone change (nothing when there is none)."""
    _go(True)


def can_undo() -> bool:
    return history().can_undo


def can_redo() -> bool:
    return history().can_redo
