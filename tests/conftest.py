"""Fixtures shared by every test folder."""

from __future__ import annotations

import tempfile

import pytest


@pytest.fixture
def no_temporary_files(monkeypatch):
    """Every way of making a temporary file or folder fails (readers and pages read from memory)."""
    def refuse(*args, **kwargs):
        raise AssertionError("a temporary file was made")

    for name in ("TemporaryDirectory", "NamedTemporaryFile", "TemporaryFile", "SpooledTemporaryFile",
                 "mkstemp", "mkdtemp", "mktemp"):
        monkeypatch.setattr(tempfile, name, refuse)
