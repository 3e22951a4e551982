"""Altair chart builders. Each returns a :class:`Plot` and never calls ``st.*``.

A plot is a *template* and its *data*. The template is an Altair chart over named datasets,
built from the few things that shape it (the number of ranks, the measures shown, the
highest grade, a title); its Vega-Lite spec is built and cached once per shape. The data
are small DataFrames filled in on every call. Building an Altair chart costs tens of
milliseconds, filling in data well under one, so editing a grade never rebuilds a chart.
k is a Vega-Lite parameter of the template, so a new k changes one value.

Every chart that shows relevance uses :func:`grade_scale`, so a grade has one colour on
every page. Axes over k are integer axes.

>>> spec = metric_over_k({"P": [0.0, 0.5]}, k=2).to_dict()
>>> spec["params"][0]["name"], spec["datasets"]["points"][1]
('pick', {'k': 2, 'measure': 'P', 'value': 0.5})
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

import altair as alt
import pandas as pd

from .i18n import _, current_language

__all__ = [
    "GRADE_COLORS", "SERIES_COLORS", "grade_scale", "grade_text_color", "Plot", "ranking_strip",
    "metric_over_k", "confusion_matrix", "pr_curve", "per_query_bars", "gain_bars",
    "precision_at_ranks", "poll_answers", "PICK", "K", "arrow_bytes",
]

# grade 0 is grey (not relevant); then cyan to deep plum as the grade grows, the lightness
# falling evenly (OKLCH ramp, L 0.88 -> 0.20), so that neighbouring grades stay apart for
# readers with protanopia or deuteranopia too, and every tile's text meets WCAG AA
# (tests/ui/test_palette.py computes both)
GRADE_COLORS = ["#a3a3a3", "#4feeff", "#47cfff", "#50aefc", "#5c8ee9", "#656dd1",
                "#694db3", "#672d8f", "#600369", "#540041", "#43001a"]
# measures (not grades): a categorical palette that never looks like a grade
SERIES_COLORS = ["#e8590c", "#7048e8", "#2b8a3e", "#c2255c", "#495057", "#b08900"]
PICK = "pick"   # the name of the click-to-set-k selection
K = "kcut"      # the field holding k, looked up from the one-row dataset CUT
CUT = "cut"     # k lives in data, not in the spec: a new k keeps the spec, so the browser
                # updates the chart's data instead of building the chart again
FONT = 15       # base font size: readable on a projector
MAX_STRIP = 40  # ranks shown in a ranking strip
FADED = 0.3           # opacity of a tile past k
FADED_INK = "#333333"  # its label's colour
# the strip is a white card in both themes: its tiles' fills, the faded tints (drawn over white)
# and their labels keep the contrast tests/ui/test_palette.py computes, on a dark page too
STRIP_BACKGROUND = "#ffffff"
STRIP_TEXT = "#31333f"  # its axis and legend texts (the light theme's text colour)
UNJUDGED_FILL = "#ffe8a3"  # an unjudged item's tile, pale yellow: not judged yet (its label starts with "?")


class Plot:
    """A chart: ``template(*shape)`` (an Altair chart over named data) plus those data.

    ``data`` maps each dataset name the template uses to a DataFrame; ``k`` is the value of
    the template's k parameter (None for charts without one).
    """

    __slots__ = ("template", "shape", "data", "k")

    def __init__(self, template: Callable[..., alt.TopLevelMixin], shape: tuple,
                 data: Mapping[str, pd.DataFrame], k: int | None = None) -> None:
        self.template, self.shape, self.data, self.k = template, shape, dict(data), k

    def spec(self) -> dict:
        """The Vega-Lite spec with the datasets as DataFrames (``st.vega_lite_chart`` sends
        them as Arrow). A fresh dict: the cached template is never shared."""
        spec = json.loads(_template_json(self.template, self.shape, current_language()))
        data = dict(self.data)
        if self.k is not None:
            k = int(self.k)
            data[CUT] = pd.DataFrame({"one": ["1"], K: [k], "text": [f"k = {k}"]})
        spec["datasets"] = {**data, **spec.get("datasets", {})}
        return spec

    def wire_spec(self) -> dict:
        """:meth:`spec` with every dataset as Arrow IPC bytes, as ``st.vega_lite_chart`` sends
        them: each dataset is converted once per content for the whole process
        (:func:`arrow_bytes`), not on every run that draws it again."""
        spec = json.loads(_template_json(self.template, self.shape, current_language()))
        data = {name: arrow_bytes(rows) for name, rows in self.data.items()}
        if self.k is not None:
            data[CUT] = _cut_bytes(int(self.k))
        spec["datasets"] = {**data, **spec.get("datasets", {})}
        return spec

    def to_dict(self, validate: bool = True) -> dict:
        """The spec as plain JSON (datasets as records), validated against the Vega-Lite
        schema unless ``validate`` is false. For exports and tests."""
        spec = self.spec()
        spec["datasets"] = {name: rows.to_dict("records") if isinstance(rows, pd.DataFrame) else rows
                            for name, rows in spec["datasets"].items()}
        if validate:
            from altair.utils.schemapi import validate_jsonschema
            from altair.vegalite.v6.schema.core import load_schema

            validate_jsonschema(spec, load_schema())
        return spec

    def chart(self) -> alt.TopLevelMixin:
        """The plot as an Altair chart (its data inlined), for a notebook or ``.save()``.

        >>> chart = metric_over_k({"P": [0.0, 0.5]}, k=2).chart()
        >>> type(chart).__name__, chart.to_dict()["datasets"]["points"][1]["value"]
        ('LayerChart', 0.5)
        """
        spec = self.to_dict(validate=False)
        for key, kind in (("layer", alt.LayerChart), ("hconcat", alt.HConcatChart),
                          ("vconcat", alt.VConcatChart), ("concat", alt.ConcatChart), ("facet", alt.FacetChart)):
            if key in spec:
                return kind.from_dict(spec)
        return alt.Chart.from_dict(spec)

    def _repr_mimebundle_(self, include=None, exclude=None):
        """Jupyter shows a plot as the chart it is (Altair's renderer)."""
        return self.chart()._repr_mimebundle_(include=include, exclude=exclude)


@lru_cache(maxsize=256)
def _template_json(template: Callable[..., alt.TopLevelMixin], shape: tuple, language: str) -> str:
    # validated in the tests (Plot.to_dict), not on every build; one per language: the
    # templates' titles and axes are translated (ranklab_ui.core.i18n) when they are built
    del language  # a cache key only: the template reads the session's language itself
    return json.dumps(template(*shape).to_dict(validate=False))


def arrow_bytes(frame: pd.DataFrame) -> bytes:
    """``frame`` as Arrow IPC stream bytes, as Streamlit converts a chart's dataset (its
    default index kept as metadata only); the same content is converted once per process.

    >>> import pyarrow as pa
    >>> data = arrow_bytes(pd.DataFrame({"k": [1, 2], "value": [0.5, 1.0]}))
    >>> pa.ipc.open_stream(data).read_all().to_pydict()
    {'k': [1, 2], 'value': [0.5, 1.0]}
    >>> arrow_bytes(pd.DataFrame({"k": [1, 2], "value": [0.5, 1.0]})) is data
    True
    """
    content = (tuple(map(str, frame.columns)), tuple(str(t) for t in frame.dtypes),
               tuple(tuple(frame[c].tolist()) for c in frame.columns))
    try:
        return _arrow_bytes(content, frame)
    except TypeError:   # a value that cannot be a cache key: converted as it is
        return _convert(frame)


@lru_cache(maxsize=1024)
def _cut_bytes(k: int) -> bytes:
    """The one-row dataset :data:`CUT` for ``k``, as :meth:`Plot.spec` makes it, in Arrow bytes."""
    return _convert(pd.DataFrame({"one": ["1"], K: [k], "text": [f"k = {k}"]}))


_ARROW: dict = {}
_ARROW_MOST = 2048   # datasets kept; the oldest go first
_ARROW_LOCK = threading.Lock()   # every session's run shares them


def _arrow_bytes(content: tuple, frame: pd.DataFrame) -> bytes:
    data = _ARROW.get(content)
    if data is None:
        data = _convert(frame)
        with _ARROW_LOCK:
            _ARROW[content] = data
            while len(_ARROW) > _ARROW_MOST:
                del _ARROW[next(iter(_ARROW))]
    return data


def _convert(frame: pd.DataFrame) -> bytes:
    import pyarrow as pa

    table = pa.Table.from_pandas(frame)
    sink = pa.BufferOutputStream()
    with pa.RecordBatchStreamWriter(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


def _per_rank(columns: Mapping[str, Sequence], *names: str) -> Sequence:
    """The ``rank`` column of an explanation's table, once ``names`` are checked to hold one value per rank."""
    ranks = columns["rank"]
    for name in names:
        if len(columns[name]) != len(ranks):
            raise ValueError(f"column {name!r}: {len(columns[name])} values for {len(ranks)} ranks")
    return ranks


def _named(name: str) -> alt.NamedData:
    return alt.NamedData(name=name)


def grade_scale(max_grade: int = 4) -> alt.Scale:
    """The colour scale of grades 0..max_grade (at least 0..1), the same on every chart.

    >>> grade_scale(2).to_dict()["range"]
    ['#a3a3a3', '#4feeff', '#47cfff']
    """
    top = _top_grade(max_grade)
    return alt.Scale(domain=list(range(top + 1)), range=GRADE_COLORS[: top + 1])


def _top_grade(max_grade) -> int:
    return max(1, min(int(max_grade), len(GRADE_COLORS) - 1))


def grade_text_color(grade: int) -> str:
    """Black text on light tiles (grades 0 to 4), white on dark ones.

    >>> grade_text_color(0), grade_text_color(4), grade_text_color(5)
    ('#111111', '#111111', '#ffffff')
    """
    return "#111111" if grade <= 4 else "#ffffff"


def _with_k(chart):
    """``chart`` whose rows carry the current k as ``datum.kcut`` (looked up from CUT)."""
    return chart.transform_calculate(one="1").transform_lookup(
        lookup="one", from_=alt.LookupData(data=_named(CUT), key="one", fields=[K]))


TITLE_LINE = 34  # characters: a longer chart title takes two lines (it passed a phone's right edge)


def title_lines(title: str, most: int = TITLE_LINE) -> str | list[str]:
    """``title``, or its two halves split at the space nearest the middle when it is longer
    than ``most`` characters (Vega draws a list as lines).

    >>> title_lines("nDCG at every k")
    'nDCG at every k'
    >>> title_lines("RR@k à chaque k : une seule marche au premier succès")
    ['RR@k à chaque k : une seule', 'marche au premier succès']
    """
    if len(title) <= most or " " not in title:
        return title
    middle = len(title) // 2
    cut = min((i for i, c in enumerate(title) if c == " "), key=lambda i: abs(i - middle))
    return [title[:cut], title[cut + 1:]]


def _base(chart, height: int = 300):
    """Common size and fonts. Streamlit fits the whole chart (title and axes included) in
    ``height`` pixels, so heights here are totals. A long title takes two lines."""
    title = getattr(chart, "title", alt.Undefined)
    if isinstance(title, str) and len(title) > TITLE_LINE:
        chart = chart.properties(title=alt.TitleParams(text=title_lines(title)))
    return chart.properties(height=height, width="container").configure_axis(
        labelFontSize=FONT - 1, titleFontSize=FONT, grid=True, gridOpacity=0.4,
    ).configure_legend(labelFontSize=FONT - 1, titleFontSize=FONT).configure_title(
        fontSize=FONT + 2, anchor="start",
    ).configure_view(strokeWidth=0)


SHORT = 20      # up to this many ranks, a k axis has a tick at every integer


def _k_shape(n: int) -> int:
    """What of n shapes a chart over k: n itself up to :data:`SHORT` ranks (a tick per k),
    then only whether points must shrink. Longer lists share one template, so adding a
    row to a long list only changes the data.

    >>> [_k_shape(n) for n in (1, 20, 21, 50, 51, 1000)]
    [1, 20, 50, 50, 51, 51]
    """
    return n if n <= SHORT else (50 if n <= 50 else 51)


def _k_axis(n: int, title: str | None = None) -> alt.Axis:
    """An integer axis: every k for short lists, otherwise whole-number ticks Vega picks."""
    title = _("k (cutoff)") if title is None else title
    if n <= SHORT:
        return alt.Axis(title=title, format="d", tickMinStep=1, values=list(range(1, n + 1)))
    return alt.Axis(title=title, format="d", tickMinStep=1)


def ranking_strip(items: Sequence[Mapping], k: int, *, title: str = "") -> Plot:
    """The ranked list as tiles coloured by grade (the top k bright, the rest faded).

    ``items``: dicts with ``rank``, ``label``, ``grade`` (best first). Only the first
    :data:`MAX_STRIP` ranks are drawn. Each tile shows its rank above it and its grade in it
    (``?`` when unjudged), so the colour is never the only cue; its label follows the grade
    where the tile is wide enough (not on a phone).

    >>> spec = ranking_strip([{"rank": 1, "label": "cat", "grade": 0}], k=1).to_dict()
    >>> spec["layer"][0]["mark"]["type"], spec["datasets"]["ranks"]
    ('rect', [{'rank': 1, 'label': 'cat', 'grade': 0, 'ink': '#111111', 'mark': '0'}])
    """
    shown = list(items)[:MAX_STRIP]
    grades = [None if i["grade"] is None else int(i["grade"]) for i in shown]
    # an unjudged item (grade None) is a pale yellow tile marked "?"
    data = pd.DataFrame({"rank": [int(i["rank"]) for i in shown], "label": [str(i["label"]) for i in shown],
                         "grade": pd.array(grades, dtype="object"),
                         "ink": [grade_text_color(g or 0) for g in grades],
                         "mark": ["?" if g is None else str(g) for g in grades]},
                        columns=["rank", "label", "grade", "ink", "mark"])
    top = max([g for g in grades if g is not None] + [1])
    return Plot(_strip_template, (len(shown), _top_grade(top), title), {"ranks": data}, k=k)


WITH_LABEL = 72  # px: a tile at least this wide shows its label after its grade


def _strip_template(n: int, top: int, title: str):
    base = _with_k(alt.Chart(_named("ranks"))).encode(
        x=alt.X("rank:O", title=None, axis=alt.Axis(labelAngle=0, orient="top", ticks=False, domain=False,
                                                   labelExpr="'#' + datum.label", labelColor=STRIP_TEXT)),
    )
    tiles = base.mark_rect(cornerRadius=6, stroke="#ffffff", strokeWidth=3).encode(
        color=alt.condition("datum.grade === null", alt.value(UNJUDGED_FILL),
                            alt.Color("grade:O", scale=grade_scale(top),
                                      # a narrow block beside the tiles (a wide one took half a phone's width)
                                      legend=alt.Legend(title=_("grade"), orient="right", direction="vertical",
                                                        columns=(top + 2) // 2,  # two rows, as the strip is short
                                                        symbolSize=60, labelFontSize=FONT - 3,
                                                        labelColor=STRIP_TEXT, titleColor=STRIP_TEXT,
                                                        rowPadding=1, columnPadding=4))),
        opacity=alt.condition(f"datum.rank <= datum.{K}", alt.value(1.0), alt.value(FADED)),
        tooltip=[alt.Tooltip("rank:O"), alt.Tooltip("label:N"), alt.Tooltip("grade:O")],
    )
    # the grade always, then the label where the tile (``width`` is the chart's own) is wide
    # enough; cut to the tile's width as drawn, so texts never overlap
    per_tile = f"(width / {max(n, 1)})"
    text = base.transform_calculate(
        shown=f"{per_tile} >= {WITH_LABEL} ? datum.mark + ' · ' + datum.label : datum.mark",
    ).mark_text(fontSize=FONT, limit=alt.ExprRef(expr=f"max(1, {per_tile} - 8)"),
                baseline="middle").encode(
        # past k the tile fades to a light tint, so its text turns dark grey (readable: WCAG AA)
        text="shown:N", color=alt.condition(f"datum.rank <= datum.{K}", alt.Color("ink:N", scale=None),
                                            alt.value(FADED_INK)),
    )
    chart = alt.layer(tiles, text)
    if title:
        chart = chart.properties(title=title)
    return _base(chart, height=130 if title else 100).properties(background=STRIP_BACKGROUND)


def metric_over_k(series: Mapping[str, Sequence[float]], k: int, *, title: str = "",
                  y_title: str | None = None, selectable: bool = True, domain_one: bool = True,
                  height: int = 330) -> Plot:
    """One line per measure over k = 1..n, a rule at the current k, click a point to pick k.

    >>> spec = metric_over_k({"R": [0.0, 0.25, 0.25]}, k=2, selectable=False).to_dict()
    >>> spec["layer"][0]["encoding"]["x"]["axis"]["format"]
    'd'
    """
    names = tuple(series)
    n = max((len(v) for v in series.values()), default=1)
    data = pd.DataFrame({
        "k": [i for values in series.values() for i in range(1, len(values) + 1)],
        "measure": [name for name, values in series.items() for _ in values],
        "value": [float(v) for values in series.values() for v in values],
    }, columns=["k", "measure", "value"])
    y_title = _("value") if y_title is None else y_title
    return Plot(_over_k_template, (_k_shape(n), names, title, y_title, selectable, domain_one, height),
                {"points": data}, k=k)


def _over_k_template(n: int, names: tuple, title: str, y_title: str, selectable: bool, domain_one: bool,
                     height: int):
    # n: see _k_shape; past SHORT ranks the x domain comes from the data (k = 1..n)
    color = alt.Color("measure:N", scale=alt.Scale(domain=list(names), range=SERIES_COLORS[: len(names)]),
                      legend=alt.Legend(title=None, orient="top") if len(names) > 1 else None)
    y = alt.Y("value:Q", title=y_title, scale=alt.Scale(domain=[0, 1]) if domain_one else alt.Scale(zero=True))
    x = alt.X("k:Q", axis=_k_axis(n), scale=alt.Scale(domain=[1, max(n, 2)], nice=False) if n <= SHORT
              else alt.Scale(zero=False, nice=False))
    base = alt.Chart(_named("points")).encode(x=x, y=y, color=color)
    line = base.mark_line(strokeWidth=3, interpolate="linear")
    points = base.mark_point(filled=True, size=90 if n <= 50 else 20).encode(
        tooltip=[alt.Tooltip("measure:N"), alt.Tooltip("k:Q"), alt.Tooltip("value:Q", format=".4f")],
    )
    if selectable:
        pick = alt.selection_point(name=PICK, fields=["k"], on="click", nearest=True, clear=False)
        points = points.add_params(pick)
    one = alt.Chart(_named(CUT))
    rule = one.mark_rule(color="#111111", strokeDash=[6, 4], strokeWidth=2).encode(x=f"{K}:Q")
    label = one.mark_text(
        align="left", dx=6, dy=-6, fontSize=FONT, fontWeight="bold", baseline="top",
    ).encode(x=f"{K}:Q", y=alt.value(0), text="text:N")
    chart = alt.layer(line, points, rule, label).properties(title=title or _("over k"))
    return _base(chart, height=height)


def confusion_matrix(tp: int, fp: int, fn: int, tn: int, k: int) -> Plot:
    """The 2×2 table at k as the Pinecone notebook draws it: actual condition across, prediction down.

    >>> spec = confusion_matrix(1, 1, 3, 3, 2).to_dict()
    >>> cells = spec["datasets"][spec["data"]["name"]]
    >>> [(c["cell"], c["count"]) for c in cells]
    [('TP', 1), ('FP', 1), ('FN', 3), ('TN', 3)]
    """
    counts = {"TP": tp, "FP": fp, "FN": fn, "TN": tn}
    data = pd.DataFrame({
        "actual": [_("relevant"), _("not relevant"), _("relevant"), _("not relevant")],
        "predicted": [_("in top {k}").format(k=k)] * 2 + [_("not in top {k}").format(k=k)] * 2,
        "cell": list(counts), "count": [int(c) for c in counts.values()], "good": [True, False, False, True],
        "text": [f"{cell} = {int(c)}" for cell, c in counts.items()],
    })
    return Plot(_confusion_template, (int(k),), {"cells": data})


def _confusion_template(k: int):
    order_x = [_("relevant"), _("not relevant")]
    order_y = [_("in top {k}").format(k=k), _("not in top {k}").format(k=k)]
    base = alt.Chart(_named("cells")).encode(
        x=alt.X("actual:N", sort=order_x, title=_("actual condition"), axis=alt.Axis(labelAngle=0, orient="top")),
        y=alt.Y("predicted:N", sort=order_y, title=_("predicted (the cutoff)")),
    )
    rect = base.mark_rect(stroke="#ffffff", strokeWidth=4).encode(
        color=alt.Color("good:N", scale=alt.Scale(domain=[True, False], range=["#c3f0ca", "#ffd6d6"]),
                        legend=None),
    )
    text = base.mark_text(fontSize=FONT + 7, fontWeight="bold").encode(text="text:N")
    return _base(alt.layer(rect, text).properties(title=_("confusion matrix at k = {k}").format(k=k)), height=280)


def pr_curve(recall: Sequence[float], precision: Sequence[float], interpolated: Sequence[float],
             levels: Sequence[float], iprec: Sequence[float], k: int | None = None) -> Plot:
    """Precision against recall: the raw points, the interpolated staircase, the 11 levels.

    >>> spec = pr_curve([0.5, 1.0], [1.0, 0.5], [1.0, 0.5], [0.0, 1.0], [1.0, 0.5]).to_dict()
    >>> len(spec["layer"]), spec["datasets"]["interpolated"][1]
    (3, {'rank': 2, 'recall': 1.0, 'precision': 0.5, 'curve': 'interpolated'})
    """
    def frame(ys: Sequence[float], name: str) -> pd.DataFrame:
        if len(ys) != len(recall):
            raise ValueError(f"{name}: {len(ys)} values for {len(recall)} recall values")
        return pd.DataFrame({"rank": range(1, len(recall) + 1), "recall": [float(r) for r in recall],
                             "precision": [float(p) for p in ys], "curve": name})

    if len(levels) != len(iprec):
        raise ValueError(f"{len(levels)} recall levels for {len(iprec)} precision values")
    eleven = pd.DataFrame({"recall": [float(r) for r in levels], "precision": [float(p) for p in iprec],
                           "curve": _("11 recall levels")})
    data = {"raw": frame(precision, _("raw P@i")), "interpolated": frame(interpolated, _("interpolated")),
            "eleven": eleven}
    return Plot(_pr_template, (k,), data)


def _pr_template(k: int | None):
    names = [_("raw P@i"), _("interpolated"), _("11 recall levels")]
    color = alt.Color("curve:N", scale=alt.Scale(domain=names, range=SERIES_COLORS[:3]),
                      legend=alt.Legend(title=None, orient="top", columns=2))  # three in a row passed a phone's edge
    x = alt.X("recall:Q", scale=alt.Scale(domain=[0, 1]), title=_("recall"))
    y = alt.Y("precision:Q", scale=alt.Scale(domain=[0, 1]), title=_("precision"))
    raw_line = alt.Chart(_named("raw")).mark_line(point=alt.OverlayMarkDef(size=80), strokeDash=[4, 3]).encode(
        x=x, y=y, color=color, order="rank:Q",
        tooltip=[alt.Tooltip("rank:Q"), alt.Tooltip("recall:Q", format=".3f"), alt.Tooltip("precision:Q", format=".3f")],
    )
    interp_line = alt.Chart(_named("interpolated")).mark_line(strokeWidth=3, interpolate="step-before").encode(
        x=x, y=y, color=color, order="rank:Q",
    )
    dots = alt.Chart(_named("eleven")).mark_point(shape="diamond", size=140, filled=True).encode(
        x=x, y=y, color=color,
        tooltip=[alt.Tooltip("recall:Q", title=_("recall level")), alt.Tooltip("precision:Q", format=".4f")],
    )
    title = (_("precision–recall curve (ranks 1..{k})").format(k=k) if k else _("precision–recall curve"))
    return _base(alt.layer(raw_line, interp_line, dots).properties(title=title), height=380)


def per_query_bars(rows: Sequence[Mapping], means: Mapping[str, float]) -> Plot:
    """Bars per query and measure (``rows``: query, measure, value), a dashed rule at each mean.

    >>> rows = [{"query": "q1", "measure": "RR", "value": 0.5}]
    >>> per_query_bars(rows, {"RR": 0.5}).to_dict()["layer"][0]["mark"]["type"]
    'bar'
    """
    bars = pd.DataFrame({"query": [str(r["query"]) for r in rows], "measure": [str(r["measure"]) for r in rows],
                         "value": [float(r["value"]) for r in rows]}, columns=["query", "measure", "value"])
    mean_rows = pd.DataFrame({"measure": [str(m) for m in means], "value": [float(v) for v in means.values()]},
                             columns=["measure", "value"])
    order = tuple(dict.fromkeys(bars["query"]))
    return Plot(_bars_template, (tuple(str(m) for m in means), order), {"bars": bars, "means": mean_rows})


def _bars_template(names: tuple, order: tuple):
    color = alt.Color("measure:N", scale=alt.Scale(domain=list(names), range=SERIES_COLORS[: len(names)]),
                      legend=alt.Legend(title=None, orient="top"))
    bars = alt.Chart(_named("bars")).mark_bar().encode(
        x=alt.X("query:N", sort=list(order), title=None, axis=alt.Axis(labelAngle=0, labelLimit=160)),
        xOffset=alt.XOffset("measure:N", sort=list(names)),
        y=alt.Y("value:Q", scale=alt.Scale(domain=[0, 1]), title=_("value")),
        color=color,
        tooltip=[alt.Tooltip("query:N"), alt.Tooltip("measure:N"), alt.Tooltip("value:Q", format=".4f")],
    )
    rules = alt.Chart(_named("means")).mark_rule(strokeDash=[8, 4], strokeWidth=2).encode(
        y="value:Q", color=color,
        tooltip=[alt.Tooltip("measure:N", title=_("mean of")), alt.Tooltip("value:Q", format=".4f")],
    )
    return _base(alt.layer(bars, rules).properties(title=_("per query (bars) and the mean (dashed)")), height=340)


def gain_bars(columns: Mapping[str, Sequence], *, title: str, max_grade: int, k: int,
              value: str = "contribution") -> Plot:
    """Per rank: the gain (pale bar) and what it adds after the discount (solid bar).

    ``columns`` is an explanation's table (rank, grade, gain, ``value``), actual or ideal.

    >>> cols = {"rank": [1, 2], "grade": [3, 0], "gain": [3.0, 0.0], "contribution": [3.0, 0.0]}
    >>> spec = gain_bars(cols, title="t", max_grade=3, k=2).to_dict()
    >>> len(spec["layer"]), spec["datasets"]["gains"][0]
    (2, {'rank': 1, 'grade': 3, 'gain': 3.0, 'added': 3.0})
    """
    ranks = _per_rank(columns, "grade", "gain", value)
    data = pd.DataFrame({"rank": [int(r) for r in ranks], "grade": [int(g or 0) for g in columns["grade"]],
                         "gain": [float(g) for g in columns["gain"]], "added": [float(c) for c in columns[value]]},
                        columns=["rank", "grade", "gain", "added"])
    return Plot(_gain_template, (_top_grade(max_grade), title), {"gains": data}, k=k)


def _gain_template(top: int, title: str):
    base = _with_k(alt.Chart(_named("gains"))).encode(x=alt.X("rank:O", title=_("rank"), axis=alt.Axis(labelAngle=0)))
    gain = base.mark_bar(opacity=0.3, color="#9ca3af").encode(
        y=alt.Y("gain:Q", title=_("gain ÷ discount (pale: gain)")))
    added = base.mark_bar(width={"band": 0.55}).encode(
        y="added:Q",
        color=alt.Color("grade:O", scale=grade_scale(top), legend=alt.Legend(title=_("grade"), orient="right")),
        opacity=alt.condition(f"datum.rank <= datum.{K}", alt.value(1.0), alt.value(FADED)),
        tooltip=[alt.Tooltip("rank:O"), alt.Tooltip("grade:O"), alt.Tooltip("gain:Q", format=".3f"),
                 alt.Tooltip("added:Q", format=".3f", title=_("gain ÷ discount"))],
    )
    chart = alt.layer(gain, added)
    return _base(chart.properties(title=title) if title else chart, height=300)


def precision_at_ranks(columns: Mapping[str, Sequence], *, k: int, max_grade: int = 1) -> Plot:
    """Bars of P@i at every rank i; ranks holding a relevant document in the grade colour.

    AP sums the coloured bars (and divides by its denominator).

    >>> cols = {"rank": [1, 2], "precision": [0.0, 0.5], "relevant": [False, True], "grade": [0, 1]}
    >>> spec = precision_at_ranks(cols, k=2).to_dict()
    >>> spec["layer"][0]["mark"]["type"], spec["datasets"]["ranks"][1]
    ('bar', {'rank': 2, 'precision': 0.5, 'relevant': True, 'grade': 1})
    """
    ranks = _per_rank(columns, "precision", "relevant", "grade")
    relevant = [bool(r) for r in columns["relevant"]]
    data = pd.DataFrame({"rank": [int(r) for r in ranks], "precision": [float(p) for p in columns["precision"]],
                         "relevant": relevant,
                         "grade": [int(g or 0) if rel else 0 for g, rel in zip(columns["grade"], relevant, strict=True)]},
                        columns=["rank", "precision", "relevant", "grade"])
    return Plot(_precision_template, (_top_grade(max_grade),), {"ranks": data}, k=k)


def _precision_template(top: int):
    base = _with_k(alt.Chart(_named("ranks"))).encode(x=alt.X("rank:O", title=_("rank i"), axis=alt.Axis(labelAngle=0)))
    bars = base.mark_bar().encode(
        y=alt.Y("precision:Q", scale=alt.Scale(domain=[0, 1]), title="P@i"),
        color=alt.Color("grade:O", scale=grade_scale(top), legend=alt.Legend(title=_("grade"), orient="right")),
        opacity=alt.condition(f"datum.relevant && datum.rank <= datum.{K}", alt.value(1.0), alt.value(0.3)),
        tooltip=[alt.Tooltip("rank:O"), alt.Tooltip("precision:Q", format=".4f"), alt.Tooltip("relevant:N")],
    )
    text = base.transform_filter("datum.relevant").mark_text(dy=-10, fontSize=FONT - 1).encode(
        y="precision:Q", text=alt.Text("precision:Q", format=".2f"))
    return _base(alt.layer(bars, text).properties(title=_("P@i at each rank i")),
                 height=320)


def poll_answers(values: Sequence[float], *, answer: float | None = None, lo: float = 0.0,
                 hi: float = 1.0, bins: int = 20) -> Plot:
    """A class poll's numeric answers as a histogram of ``bins`` equal bins over [lo, hi]
    (answers outside are counted in the end bins), and, once revealed, the answer as a rule.

    >>> spec = poll_answers([0.1, 0.12, 0.9], answer=0.5, bins=10).to_dict()
    >>> [(b["start"], b["count"]) for b in spec["datasets"]["bins"] if b["count"]]
    [(0.1, 2), (0.9, 1)]
    >>> spec["datasets"]["answer"]
    [{'answer': 0.5}]
    """
    width = (hi - lo) / bins
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, max(0, math.floor((float(v) - lo) / width + 1e-9)))] += 1
    data = pd.DataFrame({"start": [round(lo + i * width, 10) for i in range(bins)],
                         "end": [round(lo + (i + 1) * width, 10) for i in range(bins)], "count": counts},
                        columns=["start", "end", "count"])
    shown = pd.DataFrame({"answer": [] if answer is None else [float(answer)]}, columns=["answer"], dtype=float)
    return Plot(_poll_template, (lo, hi, answer is not None), {"bins": data, "answer": shown})


def _poll_template(lo: float, hi: float, revealed: bool):
    x = alt.X("start:Q", bin="binned", scale=alt.Scale(domain=[lo, hi]), title=_("answer"))
    bars = alt.Chart(_named("bins")).mark_bar(color=SERIES_COLORS[1]).encode(
        x=x, x2="end:Q", y=alt.Y("count:Q", title=_("students"), axis=alt.Axis(tickMinStep=1, format="d")),
        tooltip=[alt.Tooltip("start:Q", title=_("from")), alt.Tooltip("end:Q", title=_("to")), alt.Tooltip("count:Q")],
    )
    layers = [bars]
    if revealed:
        layers.append(alt.Chart(_named("answer")).mark_rule(color="#111111", strokeWidth=3, strokeDash=[6, 4])
                      .encode(x="answer:Q"))
    # a short title: the poll's column is narrow on a projector; the page says what the dashed line is
    return _base(alt.layer(*layers).properties(
        title=_("the class's answers"), description=_("histogram of the answers sent to the poll")), height=260)
