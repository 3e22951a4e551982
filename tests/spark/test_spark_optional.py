"""pyspark and Java are optional: without them the Spark tests skip (or fail under
RANKLAB_REQUIRE_SPARK=1) and the CLI says what to install. These tests need neither."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from metrics.cli import main

from .conftest import need_spark


def test_missing_pyspark_skips_or_fails_when_required(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    monkeypatch.delenv("RANKLAB_REQUIRE_SPARK", raising=False)
    with pytest.raises(pytest.skip.Exception, match="pyspark is not installed"):
        need_spark()
    monkeypatch.setenv("RANKLAB_REQUIRE_SPARK", "1")
    with pytest.raises(pytest.fail.Exception, match="RANKLAB_REQUIRE_SPARK=1 forbids skipping"):
        need_spark()


def test_missing_java_is_named(monkeypatch):
    import shutil

    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object())
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.delenv("RANKLAB_REQUIRE_SPARK", raising=False)
    with pytest.raises(pytest.skip.Exception, match="openjdk-17-jre-headless"):
        need_spark()


def test_the_cli_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    folder = Path(__file__).resolve().parents[2] / "assets" / "collection"
    code = main(["evaluate", "--engine", "spark", str(folder / "qrels.txt"), str(folder / "run_bm25.txt")])
    assert code == 2
    assert capsys.readouterr().err == ("ranklab: error: --engine spark needs pyspark: "
                                       "pip install 'ranklab[spark]' (and Java 17)\n")
