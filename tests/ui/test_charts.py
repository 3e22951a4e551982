"""ranklab_ui.core.charts: every builder produces a spec that validates against the Vega-Lite schema
(the app skips validation at run time), uses the one grade colour scale, and integer k axes."""

import metrics
from ranklab_ui.core import charts, presets, views


def _inputs(name="white-cat"):
    ex = presets.build_preset(name)
    q = ex.query
    return q, *q.inputs("graded")


def test_every_builder_validates_on_a_real_example():
    q, ranking, judgments = _inputs()
    n = len(ranking)
    p = metrics.explain(f"P@{n}", ranking, judgments)
    nd = metrics.explain(f"nDCG@{n}", ranking, judgments)
    ap = metrics.explain(f"AP@{n}", ranking, judgments)
    eleven = metrics.explain("11pt", ranking, judgments)
    built = [
        charts.ranking_strip(views.item_rows(q.ranking), 3),
        charts.metric_over_k({"P": views.curve(p, "precision")}, 3),
        charts.confusion_matrix(1, 2, 3, 4, 3),
        charts.pr_curve(eleven.columns["recall"], eleven.columns["precision"], eleven.columns["interpolated"],
                        eleven.summary["levels"], eleven.summary["iprec"]),
        charts.per_query_bars([{"query": "q1", "measure": "AP", "value": ap.value}], {"AP": ap.value}),
        charts.gain_bars(nd.columns, title="actual", max_grade=4, k=3),
        charts.gain_bars(nd.ideal, title="ideal", max_grade=4, k=3),
        charts.precision_at_ranks(ap.columns, k=3, max_grade=4),
    ]
    for chart in built:
        assert chart.to_dict()  # validates against the schema


def test_grades_have_one_colour_everywhere():
    q, ranking, judgments = _inputs()
    nd = metrics.explain(f"nDCG@{len(ranking)}", ranking, judgments)
    for chart in (charts.ranking_strip(views.item_rows(q.ranking), 3),
                  charts.gain_bars(nd.columns, title="t", max_grade=4, k=3)):
        text = str(chart.to_dict())
        assert str(charts.GRADE_COLORS[:5]) in text


def test_k_axis_is_an_integer_axis():
    spec = charts.metric_over_k({"R": [0.0, 0.5, 1.0]}, 2).to_dict()
    axis = spec["layer"][0]["encoding"]["x"]["axis"]
    assert axis["format"] == "d" and axis["tickMinStep"] == 1 and axis["values"] == [1, 2, 3]


def test_long_lists_get_whole_number_ticks_and_share_one_template():
    def without_data(plot):
        spec = plot.spec()
        spec.pop("datasets")
        return spec

    a, b = charts.metric_over_k({"R": [0.5] * 100}, 7), charts.metric_over_k({"R": [0.25] * 101}, 7)
    assert without_data(a) == without_data(b)       # one more row: only the data change
    axis = a.to_dict()["layer"][0]["encoding"]["x"]["axis"]
    assert axis["format"] == "d" and axis["tickMinStep"] == 1 and "values" not in axis
    assert len(b.spec()["datasets"]["points"]) == 101


def test_a_spec_is_a_fresh_copy_of_its_cached_template():
    plot = charts.gain_bars({"rank": [1], "grade": [2], "gain": [3.0], "contribution": [3.0]},
                            title="t", max_grade=2, k=1)
    first = plot.spec()
    first["layer"][0]["mark"]["color"] = "#000000"
    first["layer"][0]["transform"] = []
    again = plot.spec()
    assert again["layer"][0]["mark"]["color"] == "#9ca3af" and again["layer"][0]["transform"]


def test_k_is_data_so_a_new_k_keeps_the_spec():
    # the browser builds a chart again when its spec changes, and only swaps the data when
    # the data change: k lives in the one-row dataset "cut", so the spec is the same for every k
    cols = {"rank": [1, 2], "precision": [1.0, 0.5], "relevant": [True, False], "grade": [3, 0]}
    at_1, at_2 = (charts.precision_at_ranks(cols, k=k, max_grade=3).to_dict() for k in (1, 2))
    assert {n: v for n, v in at_1.items() if n != "datasets"} == {n: v for n, v in at_2.items() if n != "datasets"}
    spec = at_2
    assert spec["datasets"][charts.CUT] == [{"one": "1", charts.K: 2, "text": "k = 2"}]
    assert spec["datasets"]["ranks"] == [{"rank": 1, "precision": 1.0, "relevant": True, "grade": 3},
                                         {"rank": 2, "precision": 0.5, "relevant": False, "grade": 0}]


def test_exports_draw_the_chart_with_its_data():
    from ranklab_ui.render import charts as drawn

    plot = charts.confusion_matrix(1, 1, 3, 3, 2)   # the Pinecone notebook at k = 2
    png = drawn._png(plot)()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000
    svg = drawn._svg(plot)()
    assert svg.lstrip().startswith("<svg") and "TP = 1" in svg and "FN = 3" in svg
    strip = drawn._svg(charts.ranking_strip([{"rank": 1, "label": "<b>cat</b>", "grade": 2}], k=1))()
    assert "&lt;b&gt;cat&lt;/b&gt;" in svg + strip and "<b>" not in strip   # a label is text, escaped
