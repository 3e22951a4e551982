"""The conventions explorer: one example under every preset of :mod:`metrics.conventions`.

For each measure and each preset, :func:`explore` gives the measure as that preset
writes it, its value, and the parameters that move the value away from trec_eval's.
:func:`snippets` gives short, runnable code that reproduces a cell's number in the
libraries that implement that convention (pytrec_eval, scikit-learn, ranx, ir_measures)
and in Ranklab itself.

The AutoRAG study notes' preset has grouped ground truth; here every relevant document is its own group
(the judgments carry no groups), and :mod:`metrics.grouped` computes the value.

Examples
--------
The example of docs/measures-and-conventions.md (the reference tools question by question):
qrels a3 b1, run b x. trec_eval's ideal ordering holds a and b
(IDCG = 3 + 1/log2 3 = 3.6309, nDCG = 1 / 3.6309 = 0.2754); scikit-learn's holds only the
retrieved b (IDCG = 1, nDCG = 1).

>>> x = explore("nDCG", ["b", "x"], {"a": 3, "b": 1})
>>> cells = x.rows[0].cells
>>> round(cells["trec_eval"].value, 4), cells["sklearn"].value, cells["sklearn"].moved_by
(0.2754, 1.0, ("ideal='ranking'",))
>>> cells["exp-gain"].moved_by  # 2^3 - 1 = 7 for a, 1 for b: 1 / (7 + 1/log2 3) = 0.1315
("dcg='exp-log2'",)
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import core, grouped
from .._i18n import _
from ..conventions import PRESETS
from ..measures import Measure, parse, parse_many
from ..ranking.dcg import gain

__all__ = ["Cell", "Row", "Exploration", "Snippet", "explore", "snippets", "LIBRARIES"]

LIBRARIES = ("pytrec_eval", "sklearn", "ranx", "ir_measures", "ranklab")
BASE = "trec_eval"
GROUPED = {"P": "precision", "R": "recall", "F1": "f1", "RR": "mrr", "AP": "map", "nDCG": "ndcg"}


@dataclass(frozen=True)
class Cell:
    """One preset's version of one measure: ``measure`` (its notation, or a description for
    grouped ground truth), ``value`` (None when the preset does not define it), the
    parameters that move the value away from trec_eval's (``moved_by``), and whether the
    value differs from trec_eval's (``differs``)."""

    preset: str
    measure: str
    value: float | None
    moved_by: tuple[str, ...]
    differs: bool
    note: str = ""


@dataclass(frozen=True)
class Row:
    measure: str
    cells: dict[str, Cell]


@dataclass(frozen=True)
class Exploration:
    presets: tuple[str, ...]
    rows: tuple[Row, ...]

    def table(self) -> list[dict]:
        """One dict per measure: ``measure`` and one value (or None) per preset."""
        return [{"measure": r.measure, **{p: r.cells[p].value for p in self.presets}} for r in self.rows]


def _param_text(key, value) -> str:
    return f"{key}={value!r}"


def _moved_by(base: Measure, applied: Measure, base_value: float, docs, judgments) -> tuple[str, ...]:
    """The parameters of ``applied`` that, changed alone from ``base``, change the value."""
    if applied.name != base.name:
        return (f"{base.name} → {applied.name}",)
    out = []
    for key, value in applied.params:
        if base[key] == value:
            continue
        alone = base.with_params(**{key: value})
        if abs(core.score(alone, docs, judgments) - base_value) > 1e-12:
            out.append(_param_text(key, value))
    return tuple(out)


def explore(measures, ranking, judgments, *, groups=None) -> Exploration:
    """Every measure under every preset.

    Parameters
    ----------
    measures : str or list
        ``"P@5 AP nDCG@5"`` or a list; each as trec_eval computes it by default.
    ranking, judgments
        As for :func:`metrics.explain`.
    groups : list of lists of ids, optional
        The AutoRAG study notes' grouped ground truth for its preset; by default every relevant
        document is its own group.
    """
    ms = parse_many(measures)
    q = core.prepare(ranking, judgments)
    docs, judged = q.docs, q.judgments
    own_groups = not groups
    if own_groups:
        groups = [[d] for d, g in judged.items() if g >= 1]
    rows = []
    for m in ms:
        base_value = core.score(m, docs, judged)
        cells = {}
        for name, preset in PRESETS.items():
            if preset.grouped:
                cells[name] = _grouped_cell(name, m, docs, groups, base_value, own_groups)
                continue
            applied = preset.apply(m)
            value = core.score(applied, docs, judged)
            moved = _moved_by(m, applied, base_value, docs, judged)
            cells[name] = Cell(name, str(applied), value, moved, abs(value - base_value) > 1e-12)
        rows.append(Row(str(m), cells))
    return Exploration(tuple(PRESETS), tuple(rows))


def _grouped_cell(name, m: Measure, docs, groups, base_value, own_groups: bool) -> Cell:
    fn = GROUPED.get(m.name)
    if fn is None or any(k != "rel" for k, _ in m.params):
        return Cell(name, "—", None, (), False, _("{measure} is not defined for grouped ground truth").format(measure=m))
    value = getattr(grouped, fn)(docs, groups, k=m.cutoff)
    label = f"grouped.{fn}" + ("" if m.cutoff is None else f"(k={m.cutoff})")
    differs = abs(value - base_value) > 1e-12
    note = (_("each relevant document is its own group") if own_groups
            else _("grouped ground truth: any id of a group satisfies it"))
    if m.name == "P" and m.cutoff is not None and len(docs) < m.cutoff:
        note += "; " + _("divides by the documents retrieved, not by k")
    return Cell(name, label, value, (_("grouped ground truth"),) if differs else (), differs, note)


# --------------------------------------------------------------------------- snippets

@dataclass(frozen=True)
class Snippet:
    library: str
    code: str


def _literal(mapping_or_list) -> str:
    return repr(mapping_or_list)


def _run_scores(docs) -> dict:
    n = len(docs)
    return {d: float(n - i) for i, d in enumerate(docs)}


def _pytrec_eval(m: Measure, docs, judged) -> str | None:
    name = m.trec_name
    if name is None or m.name in ("NumQ",):
        return None
    rel = m["rel"] if "rel" in m.family.params and m["rel"] is not None else 1
    level = f", relevance_level={rel}" if rel != 1 else ""
    return (
        "import pytrec_eval\n\n"
        f"qrels = {{'q1': {_literal(judged)}}}\n"
        "# decreasing scores keep the ranking's order\n"
        f"run = {{'q1': {_literal(_run_scores(docs))}}}\n"
        f"evaluator = pytrec_eval.RelevanceEvaluator(qrels, {{{name!r}}}{level})\n"
        f"print(evaluator.evaluate(run)['q1'][{name!r}])\n"
    )


def _sklearn(m: Measure, docs, judged) -> str | None:
    k = m.cutoff
    top = docs if k is None else docs[:k]
    if m.name in ("nDCG", "DCG"):
        if (m.name == "nDCG" and m["ideal"] != "ranking") or m["dcg"] == "jarvelin" or len(docs) < 2:
            return None
        rel, exp = m["rel"], m["dcg"] == "exp-log2"

        def gain_of(d):
            g = judged.get(d, 0)
            if g <= 0 or (rel is not None and g < rel):
                return 0
            return int(gain(g, m["dcg"]))

        y_true = [gain_of(d) for d in docs]
        fn = "ndcg_score" if m.name == "nDCG" else "dcg_score"
        what = "gains 2^grade - 1" if exp else "grades"
        return (
            f"from sklearn.metrics import {fn}\n\n"
            f"y_true = [{_literal(y_true)}]  # {what} of the ranked documents, rank 1 first\n"
            f"y_score = [{_literal(list(range(len(docs), 0, -1)))}]  # decreasing scores keep that order\n"
            f"print({fn}(y_true, y_score{'' if k is None else f', k={k}'}))\n"
        )
    if m.name == "AP" and m["denominator"] == "retrieved":
        y_true = [int(judged.get(d, 0) >= m["rel"]) for d in top]
        if not any(y_true):
            return None  # sklearn warns and returns 0 when nothing relevant was retrieved
        cut = "" if k is None else f"  # the top {k} only"
        return (
            "from sklearn.metrics import average_precision_score\n\n"
            f"y_true = {_literal(y_true)}  # 1 = relevant, rank 1 first{cut}\n"
            f"y_score = {_literal(list(range(len(top), 0, -1)))}  # decreasing scores keep that order\n"
            "print(average_precision_score(y_true, y_score))\n"
        )
    return None


_RANX = {"P": "precision", "R": "recall", "RR": "mrr", "AP": "map", "Success": "hit_rate",
         "Rprec": "r-precision", "Bpref": "bpref"}


def _ranx(m: Measure, docs, judged) -> str | None:
    extra = {k: v for k, v in m.params if k != "rel"}
    if m.name == "nDCG":
        if m["ideal"] != "qrels" or m["dcg"] == "jarvelin":
            return None
        name = "ndcg_burges" if m["dcg"] == "exp-log2" else "ndcg"
        rel = m["rel"]
    elif m.name in _RANX and not extra:
        name, rel = _RANX[m.name], m["rel"]
        if m.name == "Bpref" and any(g < 0 for g in judged.values()):
            return None  # ranx counts grade -1 as judged non-relevant
    else:
        return None
    if m.name == "Success" and m.cutoff is None:
        return None
    if m.name == "P" and m.cutoff is None:
        return None
    text = name + ("" if m.cutoff is None else f"@{m.cutoff}") + ("" if rel in (None, 1) else f"-l{rel}")
    return (
        "from ranx import Qrels, Run, evaluate\n\n"
        f"qrels = Qrels({{'q1': {_literal(judged)}}})\n"
        "# decreasing scores keep the ranking's order\n"
        f"run = Run({{'q1': {_literal(_run_scores(docs))}}})\n"
        f"print(evaluate(qrels, run, {text!r}))\n"
    )


_IR_MEASURES = ("P", "R", "RR", "AP", "nDCG", "Success", "Rprec", "Bpref")


def _ir_measures(m: Measure, docs, judged) -> str | None:
    if m.name not in _IR_MEASURES:
        return None
    if m.name in ("P", "R", "Success") and m.cutoff is None:
        return None
    if any(k not in ("rel", "dcg") for k, _ in m.params):
        return None
    if m.name == "nDCG":
        if m["rel"] is not None or m["dcg"] == "jarvelin":
            return None
        if m["dcg"] == "exp-log2":  # ir_measures routes dcg='exp-log2' to a perl script; gains do the same
            gains = {g: (int(gain(g, "exp-log2")) if g > 0 else 0) for g in sorted(set(judged.values()))}
            cut = "" if m.cutoff is None else f"@{m.cutoff}"
            return (
                "import ir_measures\n\n"
                f"qrels = {{'q1': {_literal(judged)}}}\n"
                "# decreasing scores keep the ranking's order\n"
                f"run = {{'q1': {_literal(_run_scores(docs))}}}\n"
                f"measure = ir_measures.nDCG(gains={_literal(gains)}){cut}  # gain 2^grade - 1\n"
                "print(ir_measures.calc_aggregate([measure], qrels, run)[measure])\n"
            )
    text = str(m)
    return (
        "import ir_measures\n\n"
        f"qrels = {{'q1': {_literal(judged)}}}\n"
        "# decreasing scores keep the ranking's order\n"
        f"run = {{'q1': {_literal(_run_scores(docs))}}}\n"
        f"measure = ir_measures.parse_measure({text!r})\n"
        "print(ir_measures.calc_aggregate([measure], qrels, run)[measure])\n"
    )


def _ranklab(m: Measure, docs, judged) -> str:
    return (
        "import metrics\n\n"
        f"ranking = {_literal(list(docs))}\n"
        f"judgments = {_literal(judged)}\n"
        f"print(metrics.score({str(m)!r}, ranking, judgments))\n"
    )


def snippets(measure, ranking, judgments) -> list[Snippet]:
    """Code that reproduces ``measure`` (any convention) in each library that implements it.

    Ranklab's own line always comes last; a library that lacks the convention is left out.

    >>> [s.library for s in snippets("nDCG(ideal='ranking')@3", ["b", "a"], {"a": 2})]
    ['sklearn', 'ranklab']
    >>> [s.library for s in snippets("AP", ["b", "a"], {"a": 2})]
    ['pytrec_eval', 'ranx', 'ir_measures', 'ranklab']
    >>> print(snippets("P@2", ["b", "a"], {"a": 1})[0].code)
    import pytrec_eval
    <BLANKLINE>
    qrels = {'q1': {'a': 1}}
    # decreasing scores keep the ranking's order
    run = {'q1': {'b': 2.0, 'a': 1.0}}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {'P_2'})
    print(evaluator.evaluate(run)['q1']['P_2'])
    <BLANKLINE>
    """
    m = parse(measure)
    q = core.prepare(ranking, judgments)
    docs, judged = q.docs, q.judgments
    out = []
    for library, fn in (("pytrec_eval", _pytrec_eval), ("sklearn", _sklearn), ("ranx", _ranx),
                        ("ir_measures", _ir_measures)):
        code = fn(m, docs, judged)
        if code is not None:
            out.append(Snippet(library, code))
    out.append(Snippet("ranklab", _ranklab(m, docs, judged)))
    return out
