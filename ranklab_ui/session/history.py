"""Undo and redo of the shared example, per session, :data:`DEPTH` steps deep.

What is undoable: every change of the example's **content** — a grid edit (grade, label, a
row added or deleted), a move (buttons or drag, into or out of the tray), a preset, the
relevance mode, a query added, removed or renamed, a permalink opened in the session.
What is not: the cutoff ``k`` and which query is shown. They are settings of the view, not
of the example: a change of only those is not a step, and undo/redo leave them as they are
(the query shown moves to the query that undo changed, when there is exactly one).

:func:`record` listens to :func:`ranklab_ui.session.state.on_change`: it gets the example before and after
each change; a new change clears the redo list. The browser's Back is untouched: it reloads
an older ``?ex=`` link, which is recorded like any other change.

>>> from ranklab_ui.core.presets import build_preset
>>> h = History()
>>> cat, white = build_preset("cat"), build_preset("white-cat")
>>> h.record(cat, white)
>>> back = h.undo(white)          # the cat's lists and mode, white cat's k = 8 kept
>>> back.queries == cat.queries, back.k, h.can_undo, h.can_redo
(True, 8, False, True)
>>> h.redo(back) == white
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import streamlit as st

from . import state

__all__ = ["DEPTH", "History", "record", "undo", "redo", "can_undo", "can_redo"]

DEPTH = 50          # steps kept; the oldest is dropped beyond


def _content(example):
    return example.queries, example.mode


@dataclass
class History:
    """Two stacks of earlier and later examples (newest last)."""

    done: list = field(default_factory=list)
    undone: list = field(default_factory=list)
    replaying: bool = False

    @property
    def can_undo(self) -> bool:
        return bool(self.done)

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    def record(self, before, after) -> None:
        """Note a change ``before`` → ``after``; a change of ``k`` or the query shown only is no step."""
        if self.replaying or before is None or _content(before) == _content(after):
            return
        self.done.append(before)
        del self.done[:-DEPTH]
        self.undone.clear()

    def undo(self, now):
        """The example to go back to from ``now`` (None when there is none)."""
        return self._step(now, self.done, self.undone)

    def redo(self, now):
        """The example to go forward to from ``now`` (None when there is none)."""
        return self._step(now, self.undone, self.done)

    @staticmethod
    def _step(now, source: list, target: list):
        if not source:
            return None
        then = source.pop()
        target.append(now)
        del target[:-DEPTH]
        return _keep_view(then, now)


def _keep_view(then, now):
    """``then``'s content with ``now``'s k; the query shown is the one that differs, if one does."""
    current = min(now.current, len(then.queries) - 1)
    if len(then.queries) == len(now.queries):
        changed = [i for i, (a, b) in enumerate(zip(then.queries, now.queries, strict=True)) if a != b]
        if len(changed) == 1:
            current = changed[0]
    return replace(then, k=now.k, current=current)


# --------------------------------------------------------------------------- the session

def _history() -> History:
    ss = st.session_state
    h = ss.get(state.KEYS["history"])
    if not isinstance(h, History):
        h = ss[state.KEYS["history"]] = History()
    return h


def record(before, after) -> None:
    """Every applied change of the example, as :func:`ranklab_ui.session.state.on_change` reports it."""
    _history().record(before, after)


state.on_change(record)


def _go(forward: bool) -> None:
    h = _history()
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
    """Go back one change of the example (nothing when there is none). A grid's edit not yet
    applied is applied first by the caller (:func:`ranklab_ui.widgets.controls.undo_buttons`): it is a step too."""
    _go(False)


def redo() -> None:
    """Go forward again one undone change (nothing when there is none)."""
    _go(True)



def can_undo() -> bool:
    return _history().can_undo


def can_redo() -> bool:
    return _history().can_redo
