"""A notebook user builds the app's charts without Streamlit (README, "In a notebook")."""

import subprocess
import sys


def test_chart_builders_import_without_streamlit_and_give_altair_charts():
    code = (
        "import sys, altair as alt, metrics\n"
        "from ranklab_ui.core import charts, views, teaching_charts, compare_charts\n"
        "e = metrics.explain('P@4', list('abcd'), {'b': 1, 'd': 1})\n"
        "plot = charts.metric_over_k({'P': views.curve(e, 'precision')}, k=2)\n"
        "chart = plot.chart()\n"
        "assert isinstance(chart, alt.TopLevelMixin), type(chart)\n"
        "points = chart.to_dict()['datasets']['points']\n"
        "assert [p['value'] for p in points] == [0.0, 0.5, 1 / 3, 0.5], points\n"
        "assert plot._repr_mimebundle_()\n"
        "assert 'streamlit' not in sys.modules, 'a chart builder imported streamlit'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
