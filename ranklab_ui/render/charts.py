"""Charts: the templates of :mod:`ranklab_ui.core.charts` and :mod:`ranklab_ui.core.teaching_charts`
drawn with their downloads, their descriptions for screen readers and, on the sidebar's switch,
their numbers as tables. A chart reads what the browser sends back (a point of the curve
clicked) and hands it to its caller; it never changes the example itself."""

from __future__ import annotations

import hashlib
import json
import math
import threading
from collections.abc import Callable, Mapping, Sequence

import pandas as pd
import streamlit as st

from ..core import charts, teaching_charts
from ..core.charts import PICK
from ..core.i18n import _, current_language

__all__ = ["chart", "altair_chart", "strip", "describe", "sidebar_settings", "picked_k", "DATA_TABLES"]


def picked_k(key: str) -> int | None:
    """The k of the point of the curve clicked in chart ``key`` (its first point), else None:
    the event comes from the browser, so anything but a whole number >= 1 (a missing part, text,
    a fraction, infinity, a bool) is ignored. A click on a point of the curve gives
    ``{"selection": {"pick": [{"k": 3}]}}``."""
    event = st.session_state.get(key)
    try:
        value = event["selection"][PICK][0]["k"]
    except (KeyError, IndexError, TypeError):
        return None
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) \
            and value >= 1 and value == int(value):
        return int(value)
    return None


def _picked(key: str, picks: str, on_pick: Callable[[int], None]) -> Callable[[], None]:
    def callback() -> None:
        k = picked_k(key)
        # the next chart is a new one, without a selection: this one keeps its point selected,
        # and a click on that point again (k set elsewhere since) changed nothing and was lost
        st.session_state[picks] = st.session_state.get(picks, 0) + 1
        if k is not None:
            on_pick(k)

    return callback


def _export_spec(plot: charts.Plot) -> dict:
    spec = plot.to_dict(validate=False)
    if spec.get("width") == "container":
        spec["width"] = 900
    return spec


def _png(plot: charts.Plot) -> Callable[[], bytes]:
    def make() -> bytes:
        import vl_convert

        return vl_convert.vegalite_to_png(_export_spec(plot), scale=2)

    return make


def _svg(plot: charts.Plot) -> Callable[[], str]:
    def make() -> str:
        import vl_convert

        return vl_convert.vegalite_to_svg(_export_spec(plot))

    return make


def chart(builder: Callable[..., charts.Plot], *args, key: str, name: str,
          on_pick: Callable[[int], None] | None = None, export: bool = True, **kwargs) -> None:
    """Show ``builder(*args, **kwargs)`` (a :mod:`ranklab_ui.core.charts` function) with PNG/SVG downloads.

    The chart's template spec is cached (:class:`ranklab_ui.core.charts.Plot`); only its data are new on
    each run. ``on_pick(k)``: called with the k of a point of the curve clicked
    (:func:`ranklab_ui.widgets.set_k_from_chart` sets it for every page).
    """
    plot = builder(*args, **kwargs)
    spec = plot.wire_spec()
    spec.setdefault("description", describe(spec, name, export))
    if on_pick is not None:
        picks = f"{key}.picks"   # the points picked so far: a new chart after each
        key = f"{key}.{st.session_state.get(picks, 0)}"
        on_select, mode = _picked(key, picks, on_pick), PICK
    else:
        on_select, mode = "ignore", None
    st.vega_lite_chart(spec, key=key, width="stretch", on_select=on_select, selection_mode=mode)
    if export:
        row = st.container(horizontal=True, vertical_alignment="center")
        row.download_button(_("chart as PNG"), _png(plot), file_name=f"{name}.png", mime="image/png",
                            key=f"{key}.png", on_click="ignore", icon=":material/download:")
        row.download_button(_("SVG"), _svg(plot), file_name=f"{name}.svg", mime="image/svg+xml",
                            key=f"{key}.svg", on_click="ignore", icon=":material/download:")
        # the chart's numbers as a table, when the sidebar's switch asks for them (a table, or
        # a switch, on every chart would be drawn again on every rerun, and slow every lesson)
        if st.session_state.get(DATA_TABLES):
            for frame in plot.data.values():
                if len(frame):
                    st.dataframe(frame, hide_index=True, width="stretch", height=min(38 + 35 * len(frame), 300))


DATA_TABLES = "charts.data"  # session key of the sidebar switch that shows every chart's numbers


def altair_chart(builder: Callable[..., object], *args, key: str, title: str) -> None:
    """The chart ``builder(*args)`` of :mod:`ranklab_ui.core.teaching_charts`, described for
    screen readers as :func:`chart` does, its numbers shown as a table when the sidebar's switch
    asks for them.

    A :class:`ranklab_ui.core.charts.Plot` is its cached template and its data. An ``alt.Chart``
    costs tens of milliseconds to build and as many to turn into Vega-Lite: its spec is made once
    per content (the builder, its arguments, the title, the language) for the whole server and
    drawn from the copy kept (:func:`_altair_spec`)."""
    description = describe({"title": title}, key, True)
    if builder in PLOTS:
        plot = builder(*args)
        spec = plot.wire_spec()
        spec["description"] = description
        frames = list(plot.data.values())
    else:
        content = repr((builder.__module__, builder.__qualname__, args, key, title, current_language()))
        spec = _altair_spec(hashlib.blake2b(content.encode("utf-8", "surrogatepass")).hexdigest(), builder, args,
                            description)
        frames = None
    st.vega_lite_chart(spec, width="stretch", key=key)
    if st.session_state.get(DATA_TABLES):
        if frames is None:
            chart = builder(*args)
            frames = [layer.data for layer in getattr(chart, "layer", None) or [chart]]
        for frame in frames:
            if hasattr(frame, "columns") and len(frame) > 1:
                st.dataframe(frame, hide_index=True, width="stretch", height=min(38 + 35 * len(frame), 300))


# the teaching charts that are a template and data (charts.Plot), not an Altair chart
PLOTS = (teaching_charts.user_reach, teaching_charts.removal_lines)


_ALTAIR: dict[str, str] = {}   # content digest -> the chart's Vega-Lite spec as JSON
_ALTAIR_MOST = 512
_ALTAIR_LOCK = threading.Lock()
# the configuration Altair's default theme adds; Streamlit draws Altair charts without it
_ALTAIR_THEME = {"view": {"continuousWidth": 300, "continuousHeight": 300}}


def _altair_spec(content: str, builder: Callable[..., object], args: tuple, description: str) -> dict:
    """The Vega-Lite spec of ``builder(*args)`` with ``description``, as Streamlit would make it
    from the chart (without the default theme's view size), each dataset in Arrow bytes; a fresh
    copy each time."""
    text = _ALTAIR.get(content)
    if text is None:
        spec = builder(*args).properties(description=description).to_dict()
        if spec.get("config") == _ALTAIR_THEME:
            del spec["config"]
        text = json.dumps(spec)
        with _ALTAIR_LOCK:
            _ALTAIR[content] = text
            while len(_ALTAIR) > _ALTAIR_MOST:
                del _ALTAIR[next(iter(_ALTAIR))]
    spec = json.loads(text)
    spec["datasets"] = {name: charts.arrow_bytes(pd.DataFrame(rows)) for name, rows in spec.get("datasets", {}).items()}
    return spec


def sidebar_settings() -> None:
    """The app-wide switches in the sidebar: every chart's numbers as a table under it."""
    st.sidebar.toggle(_("Show each chart's numbers as a table"), key=DATA_TABLES,
                      help=_("for screen readers, and to copy the numbers a chart draws"))


def describe(spec: Mapping, name: str, with_table: bool) -> str:
    """A chart's description for screen readers: its title, and where its numbers are.

    >>> describe({"title": "nDCG at every k"}, "ndcg_over_k", True)
    "nDCG at every k. Its numbers: switch on 'Show each chart's numbers as a table' in the sidebar."
    >>> describe({}, "ranking", False)
    'ranking.'
    """
    title = spec.get("title")
    text = title.get("text") if isinstance(title, Mapping) else title
    text = str(text or name.replace("_", " "))
    return text + (_(". Its numbers: switch on 'Show each chart's numbers as a table' in the sidebar.")
                   if with_table else ".")


def strip(items: Sequence[Mapping], k: int, *, key: str) -> None:
    """The ranked list as coloured tiles (:func:`ranklab_ui.core.charts.ranking_strip`) to look
    at, no downloads: the ranking is edited in the ranking editor."""
    chart(charts.ranking_strip, list(items)[: charts.MAX_STRIP], k=k, key=key, export=False,
          name=_("the ranked list as tiles coloured by grade, faded past k"))
    st.caption(_("Rank above each tile, grade in it (? = not judged); faded tiles are past k, not counted."))
