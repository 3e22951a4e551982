"""Notebook downloads fuzzed: seeded hostile ids, labels and query names round-trip as data
through the .ipynb file, and never reach a Markdown cell."""

from __future__ import annotations

from dataclasses import replace

import nbformat

from ranklab_ui.core import notebook
from ranklab_ui.core.model import Example, Item, Query
from tests.notebook.test_generator import SEED, example_cell, valid_hostile_examples
from tests.strength import scaled


def test_hostile_examples_round_trip_as_data():
    for example in valid_hostile_examples(scaled(300), SEED):
        view = notebook.page_view("playground", example, title="T", text="")
        nb = nbformat.reads(notebook.write(view).decode("utf-8"), as_version=4)  # the file, read back
        namespace: dict = {}
        exec(compile(example_cell(nb), "cell", "exec"), namespace)  # noqa: S102 - the cell we wrote
        assert namespace["example"] == example
        # no id, label or name reaches a Markdown cell: the same page on other data has the same Markdown
        plain = Example(tuple(Query("q", tuple(Item(f"d{i}", "L", 0) for i, _ in enumerate(q.ranking)))
                              for q in example.queries), k=example.k, mode=example.mode, current=example.current)
        other = nbformat.reads(notebook.write(replace(view, example=plain)).decode("utf-8"), as_version=4)
        assert [c.source for c in nb.cells if c.cell_type == "markdown"] == \
               [c.source for c in other.cells if c.cell_type == "markdown"]
