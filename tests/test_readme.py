"""The README's Python tour runs and says what it claims."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_quick_start_is_the_two_make_commands():
    text = README.read_text()
    assert "make run" in text and "make test" in text


def test_readme_python_tour_runs_and_its_comments_hold():
    block = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    namespace: dict = {}
    exec(compile(block, "README.md", "exec"), namespace)  # noqa: S102 - our own README
    m = namespace["metrics"]
    ranking, cats, white_cat = namespace["ranking"], namespace["cats"], namespace["white_cat"]
    assert m.score("P@5", ranking, cats) == pytest.approx(3 / 5)
    assert round(m.score("AP", ranking, cats), 4) == 0.5429
    assert namespace["e"].steps[1]["precision"] == 0.5
    assert round(m.score("nDCG@5", ranking, white_cat), 2) == 0.58
    assert m.score("RR", {"a": 0.9, "b": 0.9, "c": 0.1}, {"a": 1}) == 0.5
