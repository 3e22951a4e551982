"""AppTest helpers: run the app from this worktree and reach into the shared example."""

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ranklab_ui.session import keys

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


# --------------------------------------------------------------------------- the ranking editor
#
# AppTest has no element class for a components-v2 component: the editor is in its tree as an
# UnknownElement of type "bidi_component", whose proto holds the data the page gave it (JSON). A
# value set through at.session_state reaches the widget but runs none of its callbacks, so it is
# not what a browser does. What a browser does when the editor calls setStateValue("events", ...)
# is send the next run's request with every widget's value and the component's new state as
# JSON; send() builds that same request and runs it (AppTest's own run() does the same for the
# widgets it knows, through the two private names used below).

EDITOR = "bidi_component"


def drawn(at: AppTest, key: str) -> str:
    """The key an example control (``keys.k``, ``keys.query``, ``keys.mode``, ``keys.preset``)
    is drawn under now: a range or a value the server sets draws it anew, under a new key
    (``ranklab_ui.widgets.controls.drawn_as``)."""
    return keys.current(at.session_state, key)


def k_slider(at: AppTest, page: str = "playground"):
    """The page's k slider as drawn now."""
    return at.slider(key=drawn(at, keys.k(page)))


def editor_key(page: str = "playground", index: int = 0) -> str:
    return keys.editor(page, index)


def editor_element(at: AppTest, page: str = "playground", index: int = 0):
    key = editor_key(page, index)
    found = [el for el in at.get(EDITOR) if el.key == key]
    assert len(found) == 1, f"{len(found)} ranking editors {key!r} on the page"
    return found[0]


def editor_data(at: AppTest, page: str = "playground", index: int = 0) -> dict:
    """What the ranking editor was given by the last run (its ``data``), as its JavaScript reads it:
    version, processed, ranking, tray, undo/redo steps, counts, k, mode, notice, texts..."""
    return json.loads(editor_element(at, page, index).proto.json)


def send(at: AppTest, *events, page: str = "playground", index: int = 0) -> AppTest:
    """The request the browser sends when the editor's state becomes ``{"events": events}``."""
    return send_value(at, {"events": list(events)}, page=page, index=index)


def send_value(at: AppTest, value, *, page: str = "playground", index: int = 0) -> AppTest:
    """The request a browser sends with ``value`` (anything JSON holds) as the editor's state."""
    element = editor_element(at, page, index)
    request = at._tree.get_widget_states()
    widget = request.widgets.add()
    widget.id = element.proto.id
    widget.json_value = json.dumps(value)
    return at._run(request)


def event(at: AppTest, op: str = "set", *, page: str = "playground", index: int = 0, **lists) -> dict:
    """The next event the editor makes, as its JavaScript makes it: on the version it shows, with
    the sequence number after the last one the server processed, and the lists given."""
    data = editor_data(at, page, index)
    return {"seq": data["processed"] + 1, "base": data["version"], "op": op, **lists}


def edit(at: AppTest, change, *, page: str = "playground", index: int = 0) -> AppTest:
    """One edit made in the editor: ``change(ranking, tray)`` edits the lists it shows (lists of
    ``[id, label, grade]``) in place, and the whole lists go to the server in one event."""
    data = editor_data(at, page, index)
    ranking, tray = data["ranking"], data["tray"]
    change(ranking, tray)
    return send(at, event(at, page=page, index=index, ranking=ranking, tray=tray), page=page, index=index)


def grade(at: AppTest, rank: int, value, *, tray: bool = False, **where) -> AppTest:
    """Give the result at ``rank`` (1 = the first; of the tray with ``tray``) grade ``value``."""
    def change(ranking, in_tray):
        (in_tray if tray else ranking)[rank - 1][2] = value
    return edit(at, change, **where)


def label(at: AppTest, rank: int, text, **where) -> AppTest:
    def change(ranking, tray):
        ranking[rank - 1][1] = text
    return edit(at, change, **where)


def move(at: AppTest, rank: int, to: int, **where) -> AppTest:
    """Move the result at ``rank`` to rank ``to`` of the ranking (Alt+arrows, Home, End, a drag)."""
    def change(ranking, tray):
        ranking.insert(to - 1, ranking.pop(rank - 1))
    return edit(at, change, **where)


def to_tray(at: AppTest, rank: int, **where) -> AppTest:
    """Send the result at ``rank`` to the end of the tray (Delete)."""
    def change(ranking, tray):
        tray.append(ranking.pop(rank - 1))
    return edit(at, change, **where)


def step(at: AppTest, op: str, **where) -> AppTest:
    """Undo or redo in the editor (its button, Ctrl+Z, Ctrl+Shift+Z): a step it was sent is taken
    in the browser and sent with its lists; one it was not (a change of more than these lists)
    is asked of the server. With nothing to undo the button is disabled: this fails."""
    data = editor_data(at, **where)
    steps, count = data[op], data[f"{op}_count"]
    assert count > 0, f"nothing to {op}: the button is disabled"
    lists = {"ranking": steps[0][0], "tray": steps[0][1]} if steps else {}
    return send(at, event(at, op, **where, **lists), **where)


def undo(at: AppTest, **where) -> AppTest:
    return step(at, "undo", **where)


def redo(at: AppTest, **where) -> AppTest:
    return step(at, "redo", **where)


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


def said(at: AppTest) -> list[str]:
    """The error messages as a reader sees them: Markdown's escapes and zero-width spaces taken off
    (messages quote user text, so ranklab_ui.render shows them escaped)."""
    return [re.sub(r"\\(.)", r"\1", e.value).replace("\u200b", "") for e in at.error]


def charts(at: AppTest) -> list[tuple[dict, object]]:
    """(spec, top-level data as a DataFrame or None) of every Altair chart on the page."""
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


def submit(at: AppTest):
    """The page's form button ("Check my numbers" ...): not ``at.button[0]``, which is the
    example's "↺ restore the preset", drawn (disabled) before any edit so nothing moves."""
    return next(b for b in at.button if b.proto.form_id)
