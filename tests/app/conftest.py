"""AppTest helpers: run the app from this worktree and reach into the shared example."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGES = ["app_pages/playground.py", "app_pages/many_queries.py", "app_pages/lesson_precision_recall.py",
         "app_pages/lesson_reciprocal_rank.py", "app_pages/lesson_average_precision.py", "app_pages/lesson_dcg.py",
         "app_pages/lesson_pr_curve.py", "app_pages/lesson_users.py", "app_pages/lesson_unjudged.py"]


def new_app(**query_params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in query_params.items():
        at.query_params[key] = value
    return at


@pytest.fixture
def app() -> AppTest:
    at = new_app()
    at.run()
    assert not at.exception
    return at


def example(at: AppTest):
    return at.session_state["state.example"]


def editor_key(at: AppTest, page: str = "playground", name: str = "ranking", index: int = 0) -> str:
    """The data editor's current widget key (it carries the example's version, or the version a
    list kept when a change left it as it was)."""
    kept = at.session_state["state.kept"] if "state.kept" in at.session_state else {}
    return f"{page}.{name}.{index}.v{kept.get((index, name), at.session_state['state.version'])}"


def edit(at: AppTest, edited_rows=None, added_rows=None, deleted_rows=None, **where) -> AppTest:
    """Drive the data editor as the browser would: through its session_state entry."""
    at.session_state[editor_key(at, **where)] = {
        "edited_rows": edited_rows or {}, "added_rows": added_rows or [], "deleted_rows": deleted_rows or []}
    return at.run()


def metrics_shown(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def links_shown(at: AppTest) -> dict[str, str]:
    """The Playground's summary links: 'Precision@2 = **0.5**' -> {'Precision@2': '0.5'}."""
    out = {}
    for link in at.get("page_link"):
        name, _, value = link.proto.label.partition(" = ")
        out[name] = value.strip("*")
    return out


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def charts(at: AppTest) -> list[tuple[dict, object]]:
    """(spec, top-level data as a DataFrame or None) of every Altair chart on the page."""
    import json

    from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df

    out = []
    for el in at.get("vega_lite_chart"):
        if el.proto.data.data:
            data = convert_arrow_bytes_to_pandas_df(el.proto.data.data)
        elif el.proto.datasets:  # layers with their own data: the first dataset
            data = convert_arrow_bytes_to_pandas_df(el.proto.datasets[0].data.data)
        else:
            data = None
        out.append((json.loads(el.proto.spec), data))
    return out


def tables(at: AppTest, *, numbers: bool = False) -> list:
    """Every read-only table on the page in page order, as a DataFrame of what a reader sees: a
    canvas table (st.dataframe) as it is, an HTML one (st.table, text escaped for Markdown, every
    cell text) with the escapes taken off again and, with ``numbers``, its columns of numbers as
    numbers (ranklab_ui.render.table chooses which one a table is)."""
    import re

    import pandas as pd

    def walk(node):
        for child in getattr(node, "children", {}).values():
            if child.type in ("dataframe", "table"):
                yield child
            else:
                yield from walk(child)

    out = []
    for el in walk(at.main):
        frame = el.value
        if el.type == "table":
            plain = lambda v: re.sub(r"\\(.)", r"\1", str(v)).replace("\u200b", "")  # noqa: E731
            frame = frame.map(plain).rename(columns=plain)
            for col in frame.columns if numbers else ():  # a column of numbers (gaps shown as "—") as numbers again
                values = pd.to_numeric(frame[col].replace("—", None), errors="coerce")
                if values.notna().sum() == (frame[col] != "—").sum() > 0:
                    frame[col] = values
        out.append(frame)
    return out


@pytest.fixture(autouse=True)
def no_paint_pause(monkeypatch):
    """AppTest has no browser to paint: the pause after a page's values (ranklab_ui.tuning.values_shown) is off."""
    monkeypatch.setenv("RANKLAB_PAINT_PAUSE", "0")


def submit(at: AppTest):
    """The page's form button ("Check my numbers" ...): not ``at.button[0]``, which is the
    example's "↺ restore the preset", drawn (disabled) before any edit so nothing moves."""
    return next(b for b in at.button if b.proto.form_id)
