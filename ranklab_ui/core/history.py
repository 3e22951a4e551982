"""Undo and redo of an example, :data:`DEPTH` steps deep, without Streamlit.

What is undoable: every change of the example's **content** — an edit in the ranking editor
(grade, label, order, the tray, a result added or removed), a preset, a paste, the relevance
mode, a query added, removed or renamed, a permalink opened in the session. What is not: the
cutoff ``k`` and which query is shown. They are settings of the view, not of the example: a
change of only those is not a step, and undo/redo leave them as they are (the query shown
moves to the query that undo changed, when there is exactly one).

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

__all__ = ["DEPTH", "History"]

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
