"""Rich display (metrics.display): the HTML and Markdown Jupyter shows, checked by parsing it.

Values are computed by hand in the comments; ids and labels are hostile on purpose.
"""

import random
from html.parser import HTMLParser

import pytest

import metrics
from metrics.display import escape_markdown

HOSTILE = ["<script>alert(1)</script>", "a&b", "\"quoted\" 'single'", "#frag", "a/b/c", "مرحبا بالعالم",
           "\u202eevil\u202c", "$\\frac{1}{0}$", "<img src=x onerror=alert(1)>", "|pipe|", "**bold**"]


class Page(HTMLParser):
    """Tags seen and the text of each table cell, row by row."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags, self.rows, self.headers, self._cell, self.classes = [], [], [], None, []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.classes.append(dict(attrs).get("class", ""))
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            text = "".join(self._cell)
            (self.rows[-1] if tag == "td" else self.headers).append(text)
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def body_rows(page: Page) -> list[list[str]]:
    return [r for r in page.rows if r]


def test_explanation_html_escapes_every_id_and_keeps_it_as_data():
    ranking = HOSTILE
    judged = {HOSTILE[1]: 1, HOSTILE[5]: 2}
    e = metrics.explain("P@5", ranking, judged)
    text = e._repr_html_()
    page = Page(text)
    assert "script" not in page.tags and "img" not in page.tags
    assert [r[1] for r in body_rows(page)] == HOSTILE[:5]  # the doc column, exactly as typed
    # tables are never typeset: an id holding $...$ stays text in JupyterLab
    assert any("tex2jax_ignore" in c and "mathjax_ignore" in c for c in page.classes)


def test_explanation_html_shows_value_formula_and_step_values():
    # relevant at ranks 2 and 4: precision at i = 0, 1/2, 1/3, 2/4
    e = metrics.explain("P@4", ["a", "b", "c", "d"], {"b": 1, "d": 1, "x": 1})
    text = e._repr_html_()
    assert "<strong>P@4</strong> = 0.5" in text
    assert r"\frac{2}{4}" in text  # the formula with the numbers, as math
    page = Page(text)
    cols = page.headers
    rows = body_rows(page)
    precision = [r[cols.index("precision")] for r in rows]
    recall = [r[cols.index("recall")] for r in rows]
    assert precision == ["0", "0.5", "0.3333", "0.5"]
    assert recall == ["0", "0.3333", "0.3333", "0.6667"]  # R = 3: b, d and x


def test_ndcg_html_has_the_ideal_table():
    # ideal grades 3, 2, 1: IDCG@3 = 3 + 2/log2(3) + 1/2 = 4.7619
    e = metrics.explain("nDCG@3", ["a", "b", "c"], {"a": 1, "c": 2, "x": 3})
    page = Page(e._repr_html_())
    assert "ideal ordering" in e._repr_html_()
    ideal_rows = [r for r in body_rows(page) if r[1] == "x"]
    assert ideal_rows and ideal_rows[0][2] == "3"
    assert "4.7619" in e._repr_html_()


def test_markdown_escapes_ids_and_keeps_tables_intact():
    e = metrics.explain("P@3", HOSTILE[:3], {HOSTILE[0]: 1})
    text = e._repr_markdown_()
    assert "<script>" not in text
    table = [line for line in text.splitlines() if line.startswith("| ")]
    # every row has as many cells as the header: no id broke the table with a pipe
    widths = {len(line.replace("\\|", "").split("|")) for line in table}
    assert len(widths) == 1
    assert escape_markdown(HOSTILE[0]) in text


def test_latex_is_the_substituted_formula():
    e = metrics.explain("RR", ["a", "b"], {"b": 1})
    assert e._repr_latex_() == f"$${e.formula}$$"
    assert "0.5" in e._repr_latex_()  # 1 / 2


def test_plain_repr_unchanged():
    e = metrics.explain("P@1", ["a"], {"a": 1})
    assert repr(e).startswith("Explanation(measure='P@1', value=1.0")
    assert repr(metrics.parse("P@5")) == "Measure('P@5')"
    assert str(e) == "P@1 = 1"


def test_evaluation_html_table_values_and_escaped_query_ids():
    # q "<q1>": first relevant at rank 2, RR = 1/2; q "a&b": at rank 1, RR = 1; mean 0.75
    qrels = {"<q1>": {"x": 1}, "a&b": {"y": 1}}
    run = {"<q1>": ["w", "x"], "a&b": ["y"]}
    ev = metrics.evaluate(qrels, run, "RR P@2")
    page = Page(ev._repr_html_())
    assert page.headers == ["query", "RR", "P@2"]
    assert body_rows(page) == [["<q1>", "0.5", "0.5"], ["a&b", "1", "0.5"], ["all", "0.75", "0.5"]]
    assert "&lt;q1&gt;" in ev._repr_html_()
    assert "\\<q1\\>" in ev._repr_markdown_()


def test_measure_display_names_parameters_and_defaults():
    m = metrics.parse("nDCG(dcg='exp-log2')@10")
    page = Page(m._repr_html_())
    rows = {r[0]: r[1:] for r in body_rows(page)}
    assert rows["dcg"] == ["'exp-log2'", "'log2'"]  # chosen, then the default it replaces
    assert rows["ideal"] == ["'qrels'", ""]          # the default: nothing to say
    assert "ndcg_cut_10" not in m._repr_html_()  # exp-log2 is not trec_eval's nDCG
    assert "<code>ndcg_cut_10</code>" in metrics.parse("nDCG@10")._repr_html_()


@pytest.mark.parametrize("seed", range(3))
def test_fuzzed_ids_round_trip_through_html(seed):
    rnd = random.Random(seed)
    alphabet = "<>&\"'#/ $|*_\\`\u202e\u200fابس한中\t" + "abc"
    ids = list(dict.fromkeys("".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 12)))
                             for _ in range(30)))
    ids = [d for d in ids if d.strip()]
    judged = {d: rnd.randint(0, 3) for d in ids if rnd.random() < 0.5}
    for measure in ("AP", "nDCG@10", "RR"):
        e = metrics.explain(measure, ids, judged)
        page = Page(e._repr_html_())
        assert "script" not in page.tags
        docs = [r[1] for r in body_rows(page)][: len(e.columns["doc"])]
        assert docs == [str(d) for d in e.columns["doc"]]
