"""The editing logic under the widgets, without Streamlit: how an item list shows in a grid
and reads back from one, what a click on a tile and a move button do to a list.

>>> move(("a", "b", "c"), ("x",), "r", 2, "top")
(('c', 'a', 'b'), ('x',), ('r', 0))
>>> move(("a", "b"), ("x",), "t", 0, "move")      # back into the ranking, at its end
(('a', 'b', 'x'), (), ('r', 2))
>>> move(("a", "b"), (), "r", 0, "up") is None     # the first cannot go up
True
"""

from __future__ import annotations

import hashlib

import pandas as pd

from . import model, validation
from .i18n import N_

__all__ = ["GRADE_HELP", "frame", "grade_text", "records", "rows_with", "has_edits", "digest", "next_grade", "move", "dropped"]

GRADE_HELP = N_("0 = not relevant; 1 to {grade_max} = relevant, higher is better; "
                "{unjudged} (or empty) = unjudged: nobody judged it, like trec_eval's −1")


def frame(items, *, ranked: bool) -> pd.DataFrame:
    rows = model.item_rows(items)
    frame = pd.DataFrame(rows, columns=["id", "label", "grade"])
    # text, not a number column: the browser's number editor bent what was typed (−1 became 1,
    # 1e3 became 3, 11 became 1) before the server could refuse it; text reaches
    # ranklab_ui.core.validation exactly as typed, which reads it strictly and says what is wrong
    frame["grade"] = pd.array([grade_text(row["grade"]) for row in rows], dtype="string")
    if ranked:
        frame.insert(0, "rank", pd.array(range(1, len(rows) + 1), dtype="Int64"))
    return frame



def grade_text(grade: int | None) -> str:
    """A grade as shown: its number, or ``?`` when unjudged."""
    return validation.UNJUDGED if grade is None else str(grade)



def records(frame: pd.DataFrame) -> list[dict]:
    out = []
    for row in frame.to_dict("records"):
        clean = {}
        for col in ("id", "label", "grade"):
            v = row.get(col)
            clean[col] = None if v is pd.NA else v
        out.append(clean)
    return out



def rows_with(delta: dict, base_items, ranked: bool) -> list[dict] | None:
    """The rows a grid shows: its base with the edits of its widget state ``delta`` applied
    (as the browser sent them); None when the delta does not fit the base."""
    rows = records(frame(base_items, ranked=ranked))
    for n, change in (delta.get("edited_rows") or {}).items():
        if not (isinstance(change, dict) and str(n).isdigit() and int(n) < len(rows)):
            return None
        rows[int(n)].update((col, value) for col, value in change.items() if col in ("label", "grade"))
    gone = {int(n) for n in delta.get("deleted_rows") or () if str(n).isdigit()}
    rows = [row for n, row in enumerate(rows) if n not in gone]
    for added in delta.get("added_rows") or ():
        if not isinstance(added, dict):
            return None
        rows.append({"id": None, "label": added.get("label"), "grade": added.get("grade")})
    return rows



def has_edits(delta) -> bool:
    """Whether a data editor's widget state holds edits (changed, added or deleted rows)."""
    return isinstance(delta, dict) and any(delta.get(part) for part in ("edited_rows", "added_rows", "deleted_rows"))



def digest(value) -> str:
    """A short fingerprint of a widget's contents, for keys that must change with them."""
    return hashlib.sha1(repr(value).encode()).hexdigest()[:12]



def next_grade(grade: int | None, mode: str, top: int) -> int:
    """The grade a click on an item's tile gives it: binary, 0 ↔ 1; graded, one more, and
    after ``top`` back to 0; an unjudged item (``None``) becomes 0.

    >>> [next_grade(g, "graded", 3) for g in (0, 1, 2, 3, None)]
    [1, 2, 3, 0, 0]
    >>> [next_grade(g, "binary", 3) for g in (0, 1, 2, None)]
    [1, 0, 0, 0]
    """
    if grade is None:
        return 0
    if mode == "binary":
        return 0 if grade >= 1 else 1
    return grade + 1 if grade < top else 0



def move(ranking: tuple, tray: tuple, where: str, n: int, action: str):
    """The ranking, the tray and the pick after ``action`` on the item at ``(where, n)``
    (``where``: ``"r"`` the ranking, ``"t"`` the tray): ``up``, ``down``, ``top`` (in the
    ranking), ``move`` (to the tray, or back to the end of the ranking) or ``remove`` (the
    pick is then None). None when it changes nothing."""
    lists = {"r": list(ranking), "t": list(tray)}
    here, there = lists[where], lists["t" if where == "r" else "r"]
    to = {"up": n - 1, "down": n + 1, "top": 0}.get(action) if where == "r" else None
    if not 0 <= n < len(here):
        return None
    if to is not None and 0 <= to < len(here) and to != n:
        here.insert(to, here.pop(n))
        pick = ("r", to)
    elif action == "move":
        there.append(here.pop(n))
        pick = ("t" if where == "r" else "r", len(there) - 1)
    elif action == "remove":
        here.pop(n)
        pick = None
    else:
        return None
    return tuple(lists["r"]), tuple(lists["t"]), pick


def dropped(reply, lookup: dict) -> tuple[tuple, tuple] | None:
    """The ranking and the tray a drag list's reply holds (``[{"items": texts}, {"items":
    texts}]``, the tiles' texts in their new order), as the items ``lookup`` maps each text to.
    None for no reply, one of an older list, or anything else the browser sent: every tile
    must be there exactly once.

    >>> dropped([{"items": ["#2", "#1"]}, {"items": []}], {"#1": "a", "#2": "b"})
    (('b', 'a'), ())
    >>> dropped([{"items": ["#1", "#1"]}, {"items": []}], {"#1": "a", "#2": "b"}) is None
    True
    """
    try:
        texts = [list(reply[n]["items"]) for n in (0, 1)]
        ranking, tray = (tuple(lookup[text] for text in part) for part in texts)
    except (KeyError, IndexError, TypeError):
        return None
    every = texts[0] + texts[1]
    return (ranking, tray) if len(every) == len(set(every)) == len(lookup) else None
