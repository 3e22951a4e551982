"""What a page shows, written as a Jupyter notebook (``.ipynb``, with nbformat). No Streamlit.

A :class:`PageView` holds what the page shows: the example (every query, its ranking, grades,
labels, unjudged items and tray), the conventions chosen on the page, k, the page's measures
and charts, and the lesson's text in the page's language. :func:`build` turns it into a
notebook that rebuilds it with Ranklab's Python API: one cell installs Ranklab where the
kernel lacks it; one cell is the example; then, for each measure, one cell computes it,
prints its value and shows its explanation, and the page's charts follow.

Ids, labels and query names are data: they enter code cells only as Python literals written
by :func:`repr` (:func:`literal`), never formatted into code, and never enter Markdown cells.

>>> from ranklab_ui.core.presets import build_preset
>>> view = page_view("lesson_pr", build_preset("cat"), title="P", text="")
>>> view.measures
('P@2', 'R@2', 'F1@2')
>>> nb = build(view)
>>> nb.cells[1].cell_type, "pip" in nb.cells[1].source
('code', True)
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Mapping
from dataclasses import dataclass, field

import metrics
from metrics.teaching.users import users

from .i18n import _, current_language, language
from .model import Example, Item, Query, effective_k
from .views import escape_markdown

__all__ = ["PageView", "PAGES", "page_view", "build", "write", "literal", "example_source",
           "ranklab_version", "CONVENTIONS", "exercise_notebook", "write_exercise"]

CONVENTIONS = ("dcg", "ideal", "denominator")  # the measure parameters a page may choose
DEFAULT_TIES = "docid-desc"


@dataclass(frozen=True)
class Page:
    """What one page computes: its measures (``{k}`` for the cutoff) and its charts."""

    measures: tuple[str, ...]
    charts: tuple[str, ...] = ()


PAGES: Mapping[str, Page] = {
    "playground": Page(("P@{k}", "R@{k}", "F1@{k}", "Success@{k}", "RR@{k}", "AP@{k}", "DCG@{k}",
                        "nDCG@{k}", "Rprec", "11pt"), ("over_k_p_r_ndcg",)),
    "lesson_pr": Page(("P@{k}", "R@{k}", "F1@{k}"), ("confusion", "over_k_p_r_f1")),
    "lesson_rr": Page(("RR", "RR@{k}"), ("per_query", "over_k_rr")),
    "lesson_ap": Page(("AP@{k}",), ("precision_at_ranks", "per_query")),
    "lesson_dcg": Page(("CG@{k}", "DCG@{k}", "IDCG@{k}", "nDCG@{k}"), ("gain_bars", "over_k_ndcg")),
    "lesson_prc": Page(("11pt", "Rprec"), ("pr_curve",)),
    # metrics.teaching.users.REMOVAL_MEASURES but "AP (condensed)" (the -J list: no measure string)
    "lesson_unjudged": Page(("P@{k}", "AP", "Bpref", "nDCG@{k}", "Judged@{k}", "RBP", "RBP(bound='upper')")),
    "lesson_users": Page(()),  # the six users' measures (metrics.teaching.users), at the page's p
}


@dataclass(frozen=True)
class PageView:
    """What a page shows, as :func:`build` needs it (see the module's docstring)."""

    page: str
    example: Example
    k: int
    measures: tuple[str, ...]
    charts: tuple[str, ...] = ()
    conventions: Mapping[str, str] = field(default_factory=dict)
    ties: str = DEFAULT_TIES
    title: str = ""
    text: str = ""
    language: str = "en"
    removed: float = 0.0  # the unjudged lesson: share of the query's judgments removed


def page_view(page: str, example: Example, *, conventions: Mapping[str, str] | None = None,
              title: str = "", text: str = "", language: str | None = None, patience: float = 0.8,
              removed: float = 0.0) -> PageView:
    """The :class:`PageView` of ``page`` on ``example``, with the page's chosen ``conventions``
    (``dcg``, ``ideal``, ``denominator``: each applied to the measures that take it), for the
    users lesson RBP's ``patience`` p, and for the unjudged lesson the share of judgments
    ``removed`` (:func:`metrics.teaching.users.kept_judgments`).

    >>> from ranklab_ui.core.presets import build_preset
    >>> page_view("lesson_dcg", build_preset("cat"), conventions={"dcg": "exp-log2"}).measures
    ("CG(dcg='exp-log2')@2", "DCG(dcg='exp-log2')@2", "IDCG(dcg='exp-log2')@2", "nDCG(dcg='exp-log2')@2")
    """
    spec = PAGES[page]
    chosen = {key: value for key, value in (conventions or {}).items() if key in CONVENTIONS}
    k = effective_k(example)
    templates = spec.measures
    if page == "lesson_users" and example.query.ranking:
        ranking, judgments = example.query.inputs(example.mode)
        templates = tuple(u.measure for u in users(ranking, judgments, k, p=patience))
    measures = tuple(dict.fromkeys(str(metrics.parse(m.format(k=k)).with_params(**chosen)) for m in templates))
    return PageView(page, example, k, measures, spec.charts, chosen, DEFAULT_TIES, title, text,
                    language or current_language(), float(removed) if page == "lesson_unjudged" else 0.0)


def ranklab_version() -> str:
    """The installed Ranklab's version (``pyproject.toml``'s), or ``"unknown"`` from a checkout."""
    try:
        return importlib.metadata.version("ranklab")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


# --------------------------------------------------------------------------- literals

def literal(value) -> str:
    """Python source for ``value`` (None, bool, int, float, str, and tuples, lists and dicts
    of them): :func:`repr` for every scalar, so any text, however hostile, is a string literal.

    >>> literal({"a\\"b": [1, None, "</script>"]})
    '{\\'a"b\\': [1, None, \\'</script>\\']}'
    >>> eval(literal(("x\\n#", 2.5)))
    ('x\\n#', 2.5)
    """
    if value is None or isinstance(value, bool | int | float | str):
        return repr(value)
    if isinstance(value, tuple):
        inner = ", ".join(literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"literal: cannot write a {type(value).__name__} as a literal")


def _item(item: Item) -> str:
    return f"Item({literal(item.id)}, {literal(item.label)}, {literal(item.grade)})"


def _items(items: tuple[Item, ...], indent: str) -> str:
    if not items:
        return "()"
    return "(\n" + "".join(f"{indent}    {_item(i)},\n" for i in items) + f"{indent})"


def _query(q: Query) -> str:
    pad = " " * 8
    groups = "None" if q.groups is None else literal(tuple(tuple(g) for g in q.groups))
    return (f"    Query(\n{pad}name={literal(q.name)},\n{pad}ranking={_items(q.ranking, pad)},\n"
            f"{pad}tray={_items(q.tray, pad)},\n{pad}groups={groups},\n    ),\n")


def example_source(example: Example) -> str:
    """Python source that rebuilds ``example`` as ``example`` (ranklab_ui.core.model's classes).

    >>> ex = Example((Query("q", (Item("a'", "<b>", None),)),), k=3, mode="graded")
    >>> namespace = {"Example": Example, "Query": Query, "Item": Item}
    >>> exec(example_source(ex), namespace)
    >>> namespace["example"] == ex
    True
    """
    queries = "".join(_query(q) for q in example.queries)
    return (f"example = Example(\n    queries=(\n{queries}    ),\n    k={literal(example.k)},\n"
            f"    mode={literal(example.mode)},\n    current={literal(example.current)},\n)\n")


# --------------------------------------------------------------------------- charts

# Each chart's code; the names it reads (ranking, judgments, k, ties, LANGUAGE, the example's
# qrels and run) are set by the cells before it. {title} is filled with a repr'd literal.
_CHART_CODE = {
    "over_k_p_r_ndcg": (
        "n = len(ranking)\n"
        "full_p = metrics.explain(f'P@{{n}}', ranking, judgments, ties=ties)\n"
        "full_ndcg = metrics.explain(f'nDCG@{{n}}', ranking, judgments, ties=ties)\n"
        "series = {{'P': views.curve(full_p, 'precision'), 'R': views.curve(full_p, 'recall'),\n"
        "          'nDCG': views.curve(full_ndcg, 'ndcg')}}\n"
        "with language(LANGUAGE):\n"
        "    chart = charts.metric_over_k(series, k=k, title={title}).chart()\n"
        "chart"),
    "over_k_p_r_f1": (
        "n = len(ranking)\n"
        "full = metrics.explain(f'P@{{n}}', ranking, judgments, ties=ties)\n"
        "series = {{'P': views.curve(full, 'precision'), 'R': views.curve(full, 'recall'),\n"
        "          'F1': views.curve(full, 'f1')}}\n"
        "with language(LANGUAGE):\n"
        "    chart = charts.metric_over_k(series, k=k, title={title}).chart()\n"
        "chart"),
    "over_k_rr": (
        "series = {{'RR@k': views.rr_curve(metrics.explain('RR', ranking, judgments, ties=ties))}}\n"
        "with language(LANGUAGE):\n"
        "    chart = charts.metric_over_k(series, k=k, title={title}).chart()\n"
        "chart"),
    "over_k_ndcg": (
        "n = len(ranking)\n"
        "full = metrics.explain(metrics.parse(NDCG).with_cutoff(n), ranking, judgments, ties=ties)\n"
        "with language(LANGUAGE):\n"
        "    chart = charts.metric_over_k({{'nDCG@k': views.curve(full, 'ndcg')}}, k=k, title={title}).chart()\n"
        "chart"),
    "gain_bars": (
        "n = len(ranking)\n"
        "full = metrics.explain(metrics.parse(NDCG).with_cutoff(n), ranking, judgments, ties=ties)\n"
        "with language(LANGUAGE):\n"
        "    chart = charts.gain_bars(full.columns, title={title}, max_grade=max(judgments.values(), default=1),\n"
        "                             k=k).chart()\n"
        "chart"),
    "confusion": (
        "p = metrics.explain(f'P@{{k}}', ranking, judgments, ties=ties)\n"
        "counts = views.confusion_counts(p.summary, len(set(ranking) | set(judgments)))\n"
        "print(counts)\n"
        "with language(LANGUAGE):\n"
        "    chart = charts.confusion_matrix(counts['TP'], counts['FP'], counts['FN'], counts['TN'], k).chart()\n"
        "chart"),
    "precision_at_ranks": (
        "full = metrics.explain(f'AP@{{len(ranking)}}', ranking, judgments, ties=ties)\n"
        "with language(LANGUAGE):\n"
        "    chart = charts.precision_at_ranks(full.columns, k=k,\n"
        "                                      max_grade=max(judgments.values(), default=1)).chart()\n"
        "chart"),
    "pr_curve": (
        "eleven = metrics.explain('11pt', ranking, judgments, ties=ties)\n"
        "c = eleven.columns\n"
        "with language(LANGUAGE):\n"
        "    chart = charts.pr_curve(c['recall'], c['precision'], c['interpolated'],\n"
        "                            eleven.summary.get('levels', []), eleven.summary.get('iprec', [])).chart()\n"
        "chart"),
    "per_query": (
        "names = example.query_names()\n"
        "evaluation = metrics.evaluate(qrels, run, MEASURES, ties=ties)\n"
        "rows = [{{'query': f'{{qid}}: {{names[qid][:30]}}', 'measure': m, 'value': evaluation.per_query[qid][m]}}\n"
        "        for qid in evaluation.per_query for m in evaluation.measures]\n"
        "with language(LANGUAGE):\n"
        "    chart = charts.per_query_bars(rows, evaluation.aggregate).chart()\n"
        "chart"),
}


def _chart_titles() -> dict[str, str]:
    return {
        "over_k_p_r_ndcg": _("Precision, recall and nDCG at every k"),
        "over_k_p_r_f1": _("P, R and F1 at every k"),
        "over_k_rr": _("RR@k at every k: a single step at the first hit"),
        "over_k_ndcg": _("nDCG at every k"),
        "gain_bars": "",
    }


# --------------------------------------------------------------------------- the notebook

def _code(source: str):
    from nbformat import v4
    return v4.new_code_cell(source.rstrip("\n"))


def _markdown(source: str):
    from nbformat import v4
    return v4.new_markdown_cell(source)


def install_source(version: str) -> str:
    """The first code cell: install Ranklab where the kernel lacks it (this version)."""
    target = "ranklab" if version == "unknown" else f"ranklab=={version}"
    return (f"# Made by Ranklab {version}. Installs it where this kernel lacks it.\n"
            "import importlib.util\nimport subprocess\nimport sys\n\n"
            "if importlib.util.find_spec('metrics') is None or importlib.util.find_spec('ranklab_ui') is None:\n"
            f"    subprocess.check_call([sys.executable, '-m', 'pip', 'install', {literal(target)}])\n")


def build(view: PageView):
    """The notebook of ``view`` (an ``nbformat`` NotebookNode; see the module's docstring)."""
    version = ranklab_version()
    with language(view.language):
        return _build(view, version)


def _build(view: PageView, version: str):
    import nbformat  # lazily: the app loads it only when a notebook is asked for
    ex = view.example
    cells = [_markdown("# " + (view.title or "Ranklab") + "\n\n"
                       + _("Made with Ranklab {version}. Run the cells from the top: each rebuilds what the "
                           "page shows with Ranklab's Python API.").format(version=version)),
             _code(install_source(version))]
    if view.text:
        cells.append(_markdown(view.text))
    cells.append(_markdown("## " + _("The example")))
    cells.append(_code("import metrics\nfrom ranklab_ui.core import charts, views\nfrom ranklab_ui.core.i18n import language\n"
                       "from ranklab_ui.core.model import Example, Item, Query\n\n"
                       "# Item(id, label, grade): grade None is unjudged; tray: judged but not retrieved\n"
                       + example_source(ex)))
    conventions = dict(view.conventions)
    cells.append(_code(
        f"k = {literal(view.k)}\nties = {literal(view.ties)}\nLANGUAGE = {literal(view.language)}\n"
        f"# the conventions chosen on the page (each measure below names those it takes)\n"
        f"conventions = {literal(conventions)}\n"
        f"MEASURES = {literal(list(view.measures))}\n"
        f"NDCG = {literal(str(metrics.parse('nDCG').with_params(**conventions)))}\n\n"
        "qrels, run = example.qrels_run()          # every query, keyed q1, q2, ...\n"
        "query_id = example.query_ids()[example.current]\n"
        "ranking, judgments = run[query_id], qrels[query_id]   # the query the page shows\n"
        "labels = example.query.labels()\n"
        + ("" if not view.removed else
           "# the page removed this share of the query's judgments, in its one fixed random order\n"
           "from metrics.teaching.users import kept_judgments\n\n"
           f"judgments = kept_judgments(judgments, {literal(view.removed)})\n")
        + "print(query_id, ranking, judgments)"))
    cells.append(_markdown("## " + _("The measures")))
    for measure in view.measures:
        cells.append(_markdown(f"### `{measure}`"))
        cells.append(_code(f"e = metrics.explain({literal(measure)}, ranking, judgments, ties=ties)\n"
                           "print(e.measure, '=', repr(e.value))\ne"))
    if len(ex.queries) > 1:
        cells.append(_markdown("## " + _("Every query of the example")))
        cells.append(_code("evaluation = metrics.evaluate(qrels, run, MEASURES, ties=ties)\n"
                           "for m in evaluation.measures:\n"
                           "    print('mean', m, '=', repr(evaluation.aggregate[m]))\nevaluation"))
    if view.charts and ex.query.ranking:
        cells.append(_markdown("## " + _("The page's charts")))
        titles = _chart_titles()
        for chart in view.charts:
            cells.append(_code(_CHART_CODE[chart].format(title=literal(titles.get(chart, "")))))
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["ranklab"] = {"version": version, "page": view.page, "language": view.language}
    return nb


def write(view: PageView) -> bytes:
    """The ``.ipynb`` file of ``view``, as bytes (UTF-8 JSON), validated by nbformat."""
    import nbformat

    nb = build(view)
    nbformat.validate(nb)
    return nbformat.writes(nb).encode("utf-8")


# --------------------------------------------------------------------------- exercises

def exercise_notebook(seed: int, level: int, *, teacher: bool = False, language_code: str | None = None):
    """Practice exercise ``seed`` at ``level`` as a notebook: per question an answer cell, a
    check cell (right or wrong and the likely mistake, never the value) and a reveal cell that
    shows the answer only when the learner sets ``reveal`` to True. ``teacher`` fills in every
    answer and reveals it.

    >>> nb = exercise_notebook(5, 2, teacher=True)
    >>> [c.source.splitlines()[0] for c in nb.cells if "answer_2 =" in c.source]
    ["answer_2 = '0.5423'  # a number, e.g. 0.5 or 1/2"]
    """
    from metrics.teaching import exercises

    exercise = exercises.generate(seed, level)  # checks seed and level
    version = ranklab_version()
    with language(language_code or current_language()):
        return _exercise_notebook(exercise, teacher, version, language_code or current_language())


def _exercise_notebook(exercise, teacher: bool, version: str, code: str):
    import nbformat

    from metrics.teaching import exercises
    from metrics.teaching.exercises import _answer_text

    level = _(exercises.LEVELS[exercise.level])
    intro = _("Work each answer out on paper, type it in the answer cell and run the check cell: it says "
              "right or wrong and names the likely mistake. The answer shows only when you set reveal to True.")
    cells = [_markdown("# " + _("Exercise {seed} ({level})").format(seed=exercise.seed, level=level) + "\n\n"
                       + (_("Teacher's version: the answers are filled in.") + "\n\n" if teacher else "")
                       + intro + "\n\n" + _("Made with Ranklab {version}.").format(version=version)),
             _code(install_source(version)),
             _code("from metrics.teaching import exercises\nfrom ranklab_ui.core.i18n import language\n\n"
                   f"LANGUAGE = {literal(code)}\n"
                   f"exercise = exercises.generate({literal(exercise.seed)}, level={literal(exercise.level)})\n"
                   "print('ranking (best first):', ', '.join(exercise.ranking))\n"
                   "print('judgments:', exercise.judgments)")]
    for i, question in enumerate(exercise.questions):
        n = i + 1
        cells.append(_markdown(f"**{n}.** {escape_markdown(question.prompt)}"))
        hint = (_("one of: {choices}").format(choices=", ".join(question.choices)) if question.kind == "predict"
                else _("a number, e.g. 0.5 or 1/2"))
        answer = literal(_answer_text(question) if question.kind == "compute" else question.answer) if teacher else "None"
        cells.append(_code(f"answer_{n} = {answer}  # {hint.replace(chr(10), ' ')}"))
        cells.append(_code(f"with language(LANGUAGE):\n    print(exercises.check_answer(exercise, {i}, answer_{n}).message)"))
        cells.append(_code(f"reveal_{n} = {teacher!r}  # True shows the answer\nif reveal_{n}:\n"
                           f"    with language(LANGUAGE):\n        print(exercises.answer_text(exercise.questions[{i}]))"))
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["ranklab"] = {"version": version, "exercise": exercise.seed, "level": exercise.level,
                              "teacher": teacher, "language": code}
    return nb


def write_exercise(seed: int, level: int, *, teacher: bool = False, language_code: str | None = None) -> bytes:
    """:func:`exercise_notebook` as an ``.ipynb`` file (bytes), validated by nbformat."""
    import nbformat

    nb = exercise_notebook(seed, level, teacher=teacher, language_code=language_code)
    nbformat.validate(nb)
    return nbformat.writes(nb).encode("utf-8")
