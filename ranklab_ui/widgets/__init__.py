"""Widgets bound to the shared example (:mod:`ranklab_ui.session.state`), by what they are:

- ``ranking_editor``: one query's ranked list and its tray, with undo and redo (a component);
- ``controls``: k, the relevance mode, the presets, the query;
- ``language``: the language picker.

Each widget has a page-prefixed key (``"<page>.<name>"``) and writes its changes back into
the example, so every page sees the same example. What they compute without Streamlit is in
:mod:`ranklab_ui.core` (the editor's rule: :mod:`ranklab_ui.core.snapshots`). The pages use the
names below.
"""

from .controls import (
    example_bar,
    k_slider,
    mode_switch,
    preset_note,
    preset_picker,
    query_picker,
    query_title,
    set_k_from_chart,
)
from .language import language_picker
from .ranking_editor import ranking_editor

__all__ = ["k_slider", "mode_switch", "preset_picker", "preset_note", "query_picker", "example_bar", "query_title",
           "ranking_editor", "language_picker", "set_k_from_chart"]
