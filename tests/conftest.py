"""Fixtures shared by every test folder."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

import tests.strength  # noqa: F401 - loads the Hypothesis profile of this tier before any test module

TESTS = Path(__file__).resolve().parent
# Markers that follow from where a test lives or what it is, so that no file has to remember
# them: the fast tier (`make test`) deselects the browser, Spark, nginx and timing tests.
FOLDER_MARKS = {"browser": "browser", "spark": "spark"}
FILE_MARKS = {"test_serve.py": "serving"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = Path(item.path)
        if not path.is_relative_to(TESTS):
            continue
        parts = path.relative_to(TESTS).parts
        if parts[0] in FOLDER_MARKS:
            item.add_marker(FOLDER_MARKS[parts[0]])
        if path.name in FILE_MARKS:
            item.add_marker(FILE_MARKS[path.name])
        if "fuzz" in path.name:
            item.add_marker("fuzz")


@pytest.fixture
def no_temporary_files(monkeypatch):
    """Every way of making a temporary file or folder fails (readers and pages read from memory)."""
    def refuse(*args, **kwargs):
        raise AssertionError("a temporary file was made")

    for name in ("TemporaryDirectory", "NamedTemporaryFile", "TemporaryFile", "SpooledTemporaryFile",
                 "mkstemp", "mkdtemp", "mktemp"):
        monkeypatch.setattr(tempfile, name, refuse)
