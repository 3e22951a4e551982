"""What the pages draw that is not a widget, by what it is:

- ``text``: user text made inert for Markdown (:func:`plain`), messages, formulas, headers;
- ``charts``: charts with their downloads, descriptions and tables of numbers;
- ``tables``: read-only tables, step tables;
- ``downloads``: worked solutions and notebooks;
- ``links``: the permalink and its copy button.

User text (labels, query names) is always shown as plain text: in tables and charts it is
data, and in Markdown it goes through :func:`plain` first. Nothing here uses
``unsafe_allow_html``; the one frame (:func:`copy_link`) holds our own markup and texts.
Nothing here changes the example: a chart hands a point clicked to its caller (``on_pick``).
"""

from .charts import DATA_TABLES, altair_chart, chart, describe, picked_k, sidebar_settings, strip
from .downloads import download_solution, exercise_notebook_buttons, notebook_button
from .links import copy_link, permalink
from .tables import WHOLE_ROWS, frame_of, step_table, table
from .text import empty_notice, formula, lesson_header, messages, notes, plain

__all__ = ["plain", "messages", "notes", "formula", "lesson_header", "empty_notice",
           "chart", "altair_chart", "strip", "describe", "sidebar_settings", "picked_k", "DATA_TABLES",
           "table", "step_table", "frame_of", "WHOLE_ROWS",
           "download_solution", "notebook_button", "exercise_notebook_buttons",
           "permalink", "copy_link"]
