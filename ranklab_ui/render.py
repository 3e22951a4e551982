"""Render explanations, tables and charts with Streamlit (the only ``ranklab_ui`` module besides
:mod:`ranklab_ui.widgets` that calls ``st.*``).

User text (labels, query names) is always shown as plain text: in tables and charts it is
data, and in Markdown it goes through :func:`plain` first. Nothing here uses
``unsafe_allow_html``; the one iframe (:func:`copy_link`) holds our own markup and the
permalink as an escaped JSON string.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import threading
from collections.abc import Callable, Mapping, Sequence

import pandas as pd
import streamlit as st

from .core import charts, codec, teaching_charts
from .core.charts import PICK
from .core.i18n import _, current_language
from .core.views import (
    escape_markdown,
    has_prose,
    step_frame,
    text_table,
    with_gaps_shown,
    worked_solution,
)
from .session import options, state

__all__ = ["plain", "messages", "notes", "chart", "strip", "table", "step_table", "formula", "lesson_header", "empty_notice",
           "download_solution", "copy_link", "permalink"]


def plain(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters and made inert for Markdown
    (:func:`ranklab_ui.core.views.escape_markdown`: no links, images, HTML or formatting).

    >>> plain("[click](http://x) <b>hi</b>", limit=12)
    '\\\\[click\\\\]\\\\(htt…'
    """
    text = str(text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return escape_markdown(text)


def messages() -> None:
    """Show the messages queued by :mod:`ranklab_ui.session.state` (bad edits, damaged permalinks). They quote
    user text (a query name, a label, an id), so they are shown as plain text."""
    state.get_example()  # reads the URL first, so a damaged permalink is reported on this run
    notes(state.take_messages())


def notes(pairs: Sequence[tuple[str, str]]) -> None:
    """Show ``(level, text)`` messages ("error" or "warning") as plain text: they quote user text."""
    for level, text in pairs:
        (st.error if level == "error" else st.warning)(escape_markdown(text), icon=":material/warning:")


def _selected(key: str, name: str, field: str) -> int | None:
    """The whole number >= 1 that chart ``key``'s selection ``name`` holds in ``field`` (its
    first point), else None: the event comes from the browser, so anything else (a missing
    part, text, a fraction, infinity, a bool) is ignored.

    A click on a point of the curve gives ``{"selection": {"pick": [{"k": 3}]}}``.
    """
    event = st.session_state.get(key)
    try:
        value = event["selection"][name][0][field]
    except (KeyError, IndexError, TypeError):
        return None
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) \
            and value >= 1 and value == int(value):
        return int(value)
    return None


def _pick_k(key: str, picks: str) -> Callable[[], None]:
    def callback() -> None:
        k = _selected(key, PICK, "k")
        # the next chart is a new one, without a selection: this one keeps its point selected,
        # and a click on that point again (k set elsewhere since) changed nothing and was lost
        st.session_state[picks] = st.session_state.get(picks, 0) + 1
        if k is not None and state.update(k=k):
            st.rerun()  # the whole page: the k slider (outside the chart's fragment) follows

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


def chart(builder: Callable[..., charts.Plot], *args, key: str, name: str, pick_k: bool = False,
          export: bool = True, **kwargs) -> None:
    """Show ``builder(*args, **kwargs)`` (a :mod:`ranklab_ui.core.charts` function) with PNG/SVG downloads.

    The chart's template spec is cached (:class:`ranklab_ui.core.charts.Plot`); only its data are new on
    each run. When ``pick_k``, clicking a point sets k for every page.
    """
    plot = builder(*args, **kwargs)
    spec = plot.wire_spec()
    spec.setdefault("description", describe(spec, name, export))
    if pick_k:
        picks = f"{key}.picks"   # the points picked so far: a new chart after each
        key = f"{key}.{st.session_state.get(picks, 0)}"
        on_select, mode = _pick_k(key, picks), PICK
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


# a read-only table of prose up to this many rows is shown whole, in HTML that wraps; a longer one
# stays on the canvas (it scrolls, sorts and searches), where a long text would be cut instead
WHOLE_ROWS = 30
_ROW_K = "background-color: #fff3bf; color: #111111; font-weight: 600"


def table(data, *, column_config: Mapping | None = None, key: str | None = None, height: int | None = None,
          whole: bool | None = None, decimals: int | None = None,
          row_k: Callable[[pd.Series], bool] | None = None) -> None:
    """A read-only table, every text of it readable whole at any width and on paper.

    A table of prose (:func:`ranklab_ui.core.views.has_prose`: notes, explanations, formulas) of up to
    :data:`WHOLE_ROWS` rows, or any with ``whole=True`` (a step table), is an HTML table whose
    cells wrap (``st.table``; each text made inert for Markdown, numbers right-aligned): a canvas
    table (``st.dataframe``) cuts a text at its column's edge and prints only what fits the page.
    Other tables stay on the canvas, with ``column_config``, ``key`` and ``height``; there a
    column of prose is given the widest column the canvas has. ``row_k(row)``: the rows to
    highlight (a step table's row k); ``decimals``: how many every float column shows.
    """
    frame = data if isinstance(data, pd.DataFrame) else pd.DataFrame(list(data))
    config = dict(column_config or {})
    if decimals is not None:
        for col in frame.columns:
            if pd.api.types.is_float_dtype(frame[col]):
                config.setdefault(col, st.column_config.NumberColumn(format=f"%.{decimals}f"))
    if whole if whole is not None else len(frame) <= WHOLE_ROWS and has_prose(frame):
        formats = {str(c): v["type_config"].get("format") for c, v in config.items()
                   if isinstance(v, Mapping) and isinstance(v.get("type_config"), Mapping)}
        marked = [] if row_k is None else [i for i, (_i, row) in enumerate(frame.iterrows()) if row_k(row)]
        _whole_table(frame, formats, marked)
        return
    for col in frame.columns:
        if not pd.api.types.is_numeric_dtype(frame[col]) and has_prose(frame[[col]]):
            config.setdefault(col, st.column_config.TextColumn(width="large"))
    st.dataframe(frame, hide_index=True, width="stretch", height=height or "auto", key=key, column_config=config)


def _whole_table(frame: pd.DataFrame, formats: Mapping[str, str], marked: Sequence[int]) -> None:
    """``frame`` as an HTML table (``st.table``) whose texts wrap, numbers right-aligned on one
    line, the rows ``marked`` highlighted. Every style is one rule per column or per row of the
    table (a class Streamlit gives each cell), not one per cell: the styler then computes no
    cell's style, which made it the costliest element of a lesson's run."""
    shown, numbers = text_table(frame, formats)
    # text wraps, at a space when it can and inside a long id when it must, a header at its
    # spaces; a number never (st.table keeps every cell on one line, which a scroller then
    # hides and paper cuts)
    text = [c for c in shown.columns if c not in numbers]
    # a column of longer texts keeps a readable width on a phone (the table scrolls instead
    # of stacking one word a line)
    wide = {c for c in text if shown[c].map(lambda v: len(v.split()) > 3 or len(v) > 24).any()}
    rules = [{"selector": "th", "props": "white-space: normal; overflow-wrap: break-word"}]
    for i, col in enumerate(shown.columns):
        props = ("text-align: right; white-space: nowrap" if col in numbers else
                 "white-space: normal; overflow-wrap: anywhere" + ("; min-width: 8em" if col in wide else ""))
        rules.append({"selector": f"td.col{i}", "props": props})
    rules += [{"selector": f"td.row{i}", "props": _ROW_K} for i in marked]
    st.table(shown.style.set_table_styles(rules), hide_index=True)


@st.cache_data(max_entries=512, show_spinner=False)
def _step_table_drawn(content: str, _frame: pd.DataFrame, _marked: tuple) -> None:
    """The step table of ``content`` (a digest of its columns, labels, k and language), drawn once per
    content for the whole server: a later run with the same content has Streamlit replay the
    table drawn, instead of styling it again (a k stepped back, a lesson opened again, a class
    on the same example). ``_frame`` and ``_marked`` follow from ``content``."""
    _whole_table(_frame, {col: "%.4f" for col in _frame.columns if pd.api.types.is_float_dtype(_frame[col])},
                 list(_marked))


def step_table(columns: Mapping[str, Sequence], *, k: int, labels: Mapping[str, str], key: str,
               name: str, caption: str = "") -> None:
    """The per-rank table of an explanation, row k highlighted, with a CSV download. Up to
    :data:`WHOLE_ROWS` ranks it is shown whole (:func:`table`): it is what a printed lesson shows."""
    frame = step_frame(columns, labels=labels, k=k)
    rank = _("rank")  # step_frame's headers are in the session's language
    if len(frame) <= WHOLE_ROWS:
        marked = tuple(i for i, r in enumerate(frame[rank]) if r == k) if rank in frame else ()
        # the content as one short text: Streamlit's cache hashes a nested tuple item by item
        content = repr((tuple((name, tuple(values)) for name, values in columns.items()), k,
                        tuple(sorted((str(d), str(t)) for d, t in labels.items())), current_language()))
        _step_table_drawn(hashlib.blake2b(content.encode("utf-8", "surrogatepass")).hexdigest(), frame, marked)
    else:  # long: on the canvas, which scrolls; the "at k" marker shows row k
        shown, gaps = with_gaps_shown(frame)
        st.dataframe(shown, hide_index=True, width="stretch", height=400, key=f"{key}.table",
                     column_config={col: st.column_config.TextColumn(alignment="right") for col in gaps})
    if caption:
        st.caption(caption)
    st.download_button(_("CSV of this table"), lambda: frame.to_csv(index=False), file_name=f"{name}.csv",
                       mime="text/csv", key=f"{key}.csv", on_click="ignore", icon=":material/download:")


def formula(explanation, *, substituted: bool = True) -> None:
    """The general formula, or the one with the numbers in it."""
    st.latex(explanation.formula if substituted else explanation.definition)


def download_solution(explanation, *, k: int, labels: Mapping[str, str], key: str, title: str) -> None:
    """The worked solution of one measure as a Markdown file."""
    st.download_button(_("Worked solution of {measure} (.md)").format(measure=explanation.measure),
                       lambda: worked_solution(explanation, labels=labels, k=k, title=title),
                       file_name=f"{key.replace('.', '_')}.md", mime="text/markdown",
                       key=f"{key}.md", on_click="ignore", icon=":material/download:")


def notebook_button(page: str, *, title: str = "", text: str = "") -> None:
    """The "Open as a notebook" button: the page's example, conventions, k, measures and charts as an
    ``.ipynb`` (:mod:`ranklab_ui.core.notebook`), with the lesson's ``title`` and ``text``. Called where the
    page's k and option widgets have their values for this run (in a fragment: in it)."""
    from .core import notebook  # lazily: nbformat loads on the first page that offers a notebook

    chosen = {name: st.session_state.get(f"{page}.{name}") for name in notebook.CONVENTIONS}
    patience = st.session_state.get(f"{page}.p")  # the users lesson's RBP p
    removed = st.session_state.get(f"{page}.removed")  # the unjudged lesson's share of judgments removed
    view = notebook.page_view(page, state.get_example(), title=title, text=text,
                              conventions={name: v for name, v in chosen.items() if isinstance(v, str)},
                              patience=patience if isinstance(patience, float) else 0.8,
                              removed=removed if isinstance(removed, float) else 0.0)
    st.download_button(_("Open as a notebook (.ipynb)"), lambda: notebook.write(view),
                       file_name=f"ranklab_{page}.ipynb", mime="application/x-ipynb+json",
                       key=f"{page}.notebook", on_click="ignore", icon=":material/code:",
                       help=_("A Jupyter notebook that rebuilds this page's example, measures and charts "
                              "with Ranklab's Python API"))


def exercise_notebook_buttons(page: str, seed: int, level: int) -> None:
    """Practice exercise ``seed`` at ``level`` as a notebook to work in, and the teacher's
    version with the answers filled in (:func:`ranklab_ui.core.notebook.exercise_notebook`)."""
    from .core import notebook  # lazily, as notebook_button

    code = current_language()  # the download runs after this run: keep its language
    with st.container(horizontal=True):
        for teacher, label in ((False, _("Exercise as a notebook (.ipynb)")),
                               (True, _("Teacher's version, answers filled in (.ipynb)"))):
            st.download_button(label, lambda t=teacher: notebook.write_exercise(seed, level, teacher=t, language_code=code),
                               file_name=f"ranklab_exercise_{seed}_level{level}{'_teacher' if teacher else ''}.ipynb",
                               mime="application/x-ipynb+json", key=f"{page}.notebook.{'teacher' if teacher else 'learner'}",
                               on_click="ignore", icon=":material/code:")


def lesson_header(title: str, plain_words: str) -> None:
    st.title(title)
    st.markdown(plain_words)


def empty_notice() -> None:
    st.info(_("The ranking is empty: add items on the Playground (or load a preset) to see this lesson."),
            icon=":material/info:")


def frame_of(rows: Sequence[Mapping]) -> pd.DataFrame:
    return pd.DataFrame(list(rows))


_COPY_BUTTON = """
<style>
  body {{ margin: 0; font-family: "Source Sans Pro", "Source Sans 3", sans-serif; }}
  button {{ font: inherit; font-size: 15px; padding: 6px 14px; border-radius: 8px; cursor: pointer;
           border: 1px solid rgba(49, 51, 63, 0.2); background: #ffffff; color: #31333f;
           /* one line, always: the frame is 42 px high, a second line was cut off */
           white-space: nowrap; max-width: 100%; overflow: hidden; text-overflow: ellipsis; }}
  button:hover {{ border-color: #ff4b4b; color: #ff4b4b; }}
  svg {{ width: 16px; height: 16px; vertical-align: -3px; margin-right: 6px; }}
</style>
<button id="copy" type="button" title="{tip}">{icon}<span id="text">{label}</span></button>
<script>
  const button = document.getElementById("copy");
  const text = document.getElementById("text");
  function done(ok) {{
    text.textContent = ok ? {copied} : {failed};
    setTimeout(() => {{ text.textContent = {again}; }}, 2500);
  }}
  // the page's own address is the permalink (ranklab_ui.session.state mirrors the example and the page's
  // options into it), read when clicked: this frame's text never changes, so the browser
  // does not load it again on every rerun
  const current = () => window.parent.location.href;
  function fallback(link) {{
    const area = document.createElement("textarea");
    area.value = link; document.body.appendChild(area); area.select();
    let ok = false;
    try {{ ok = document.execCommand("copy"); }} catch (e) {{ ok = false; }}
    area.remove(); done(ok);
  }}
  button.addEventListener("click", () => {{
    const link = current();
    if (navigator.clipboard && window.isSecureContext) {{
      navigator.clipboard.writeText(link).then(() => done(true), () => fallback(link));
    }} else {{ fallback(link); }}
  }});
</script>
"""


# a chain link drawn in the button's text colour (Material Symbols "link"): an emoji needs a
# font that a stock Linux lacks, and showed there as an empty box
_LINK_ICON = ('<svg viewBox="0 -960 960 960" aria-hidden="true" fill="currentColor"><path d="M440-280H280q-83 '
              '0-141.5-58.5T80-480q0-83 58.5-141.5T280-680h160v80H280q-50 0-85 35t-35 85q0 50 35 85t85 35h160v80ZM320'
              '-440v-80h320v80H320Zm200 160v-80h160q50 0 85-35t35-85q0-50-35-85t-85-35H520v-80h160q83 0 141.5 58.5T880'
              '-480q0 83-58.5 141.5T680-280H520Z"/></svg>')


def permalink(page: str | None = None) -> str | None:
    """This page's address with the current example in it (None when it is too large), and
    ``page``'s options (:mod:`ranklab_ui.session.options`) when they differ from the defaults."""
    state.get_example()  # mirrors the example into the URL: its code is kept, not encoded again
    code = st.session_state.get(state.KEYS["url"])
    return f"{st.context.url or ''}?{options.query_string(page, {codec.PARAM: code})}" if code else None


def copy_link(link: str | None, label: str | None = None) -> None:
    """A button that copies the page's address, which is ``link`` (:func:`permalink`: the
    example and the page's options), to the clipboard; a note instead when there is no link.

    The frame holds only our markup and ``label`` (never user text): it is the same on every
    run, so the browser keeps it instead of loading it again after each edit.
    """
    if not link:
        st.caption(_("This example is too large to fit in a link."))
        return
    label = _("Copy link") if label is None else label
    st.iframe(_COPY_BUTTON.format(  # our own texts: escaped for HTML, and as JSON strings in the script
        label=html.escape(label), tip=html.escape(_("a link that restores this exact example")),
        copied=_script_text("✓ " + _("Link copied")), failed=_script_text(_("Copy failed: use the address bar")),
        again=_script_text(label), icon=_LINK_ICON), height=42)


def _script_text(text: str) -> str:
    """``text`` as a JavaScript string literal that cannot end the script (``</`` escaped).

    >>> print(_script_text('a "b" </script>'))
    "a \\"b\\" <\\/script>"
    """
    return json.dumps(text, ensure_ascii=False).replace("</", "<\\/")
