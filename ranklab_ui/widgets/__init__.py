"""Widgets bound to the shared example (:mod:`ranklab_ui.session.state`), by what they are:

- ``controls``: k, the relevance mode, the presets, the query, undo and redo, the move buttons;
- ``editors``: the ranking's and the tray's grids, and what keeps their edits;
- ``drag``: the drag list;
- ``strip``: the ranking strip, a click on a tile gives the next grade.

Each widget has a page-prefixed key (``"<page>.<name>"``) and writes its changes back into
the example through a callback, so every page sees the same example. What they compute
without Streamlit is in :mod:`ranklab_ui.core.editing`. The pages use the names below.
"""

from .controls import (
    example_bar,
    item_actions,
    k_slider,
    mode_switch,
    move_item,
    preset_note,
    preset_picker,
    query_picker,
    query_title,
    undo_buttons,
)
from .drag import DRAG_MOST, drag_order
from .editors import (
    apply_pending_edits,
    editors_idle,
    edits_first,
    grade_help,
    ranking_editor,
    tray_editor,
)
from .strip import cycle_grade, grade_strip

__all__ = ["k_slider", "mode_switch", "preset_picker", "preset_note", "query_picker", "example_bar", "undo_buttons",
           "item_actions", "move_item", "query_title", "DRAG_MOST", "drag_order", "apply_pending_edits", "edits_first",
           "editors_idle", "grade_help", "ranking_editor", "tray_editor", "cycle_grade", "grade_strip"]
