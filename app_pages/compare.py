"""Compare two systems: per-query deltas, paired t-test and randomization test, which metric prefers which."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import streamlit as st

from metrics import io as metrics_io
from metrics.teaching import compare
from ui import lessons, render, state, teach_view, teaching_charts
from ui.files import file_source, read_dict, upload_source
from ui.i18n import N_, _, ngettext, shown
from ui.views import escape_markdown

PAGE = "compare"
SOURCES = [N_("The sample collection: BM25 vs. TF"), N_("Upload qrels and two runs"),
           N_("The example's queries vs. a variant"), N_("Type system B's order"),
           N_("Two rankings where nDCG and AP disagree")]
VARIANT_NAMES = {"reverse": N_("reverse"), "shuffle": N_("shuffle"), "swap top two": N_("swap top two"),
                 "move first relevant down": N_("move first relevant down")}
GENERATED = 4
MAX_IDS = 1000
MAX_UPLOAD_MB = 20
COLLECTION = Path(__file__).resolve().parents[1] / "assets" / "collection"


def _sample(kind: str, name: str) -> dict:
    """One file of the bundled collection as nested dicts, read at the app's size limit."""
    return read_dict(kind, file_source(COLLECTION / name), max_bytes=metrics_io.APP_MAX_BYTES)


def _files():
    names = ("qrels", _("run A"), _("run B"))
    ups = [st.file_uploader(_("{name} (TREC, two-column list, JSONL or CSV)").format(name=n), key=f"{PAGE}.upload.{i}")
           for i, n in enumerate(names)]
    if not all(ups):
        st.info(_("Upload the judgments (qrels) and the two runs to compare them."))
        return None
    loaded = []
    for kind, name, up in zip(("qrels", "run", "run"), names, ups, strict=True):
        if up.size > MAX_UPLOAD_MB * 2**20:
            st.error(_("{name}: {size} MB is too large (at most {most} MB).").format(
                name=name, size=f"{up.size / 2**20:.1f}", most=MAX_UPLOAD_MB))
            return None
        try:
            loaded.append(read_dict(kind, upload_source(up), max_bytes=metrics_io.APP_MAX_BYTES))
        except (ValueError, OSError) as err:
            text = str(err)[:500]
            st.error(escape_markdown(f"{name}: {text}" if up.name in text else f"{name} ({up.name[:60]}): {text}"))
            return None
    return loaded


def _example_runs():
    """The example's queries as (qrels, run A, k), keyed by their ids (q1, q2…: names may repeat),
    with a caption saying which name each id stands for."""
    ex = state.get_example()
    qrels, run_a = ex.qrels_run()
    st.caption(_("Queries:") + " " + "; ".join(f"{qid} = “{render.plain(name, 40)}”" for qid, name in ex.query_names().items()))
    return qrels, run_a, state.effective_k(ex)


def _systems():
    """(qrels, run A, run B, k, description) from the chosen source, or None after an error."""
    source = st.radio(_("Systems"), SOURCES, format_func=shown(_), key=f"{PAGE}.source")
    if source == SOURCES[0]:
        try:
            qrels = _sample("qrels", "qrels.txt")
            run_a = _sample("run", "run_bm25.txt")
            run_b = _sample("run", "run_tf.txt")
        except (OSError, ValueError) as err:
            st.error(escape_markdown(_("The sample collection could not be read: {error}").format(error=err)))
            return None
        return qrels, run_a, run_b, 10, _("A = BM25, B = TF (assets/collection)")
    if source == SOURCES[1]:
        got = _files()
        if got is None:
            return None
        qrels, run_a, run_b = got
        return qrels, run_a, run_b, 10, _("A = run A, B = run B (uploaded)")
    if source == SOURCES[2]:
        lessons.example_controls(PAGE)
        qrels, run_a, k = _example_runs()
        if len(qrels) == 1:
            st.info(_("The current example has one query, so there is nothing to test across queries."))
            if st.button(_("Use seed 004's three queries"), key=f"{PAGE}.load_three"):
                state.load_preset("three-queries")
                st.rerun()
        c1, c2 = st.columns(2)
        how = c1.selectbox(_("System B is system A with…"), compare.VARIANTS, index=3, key=f"{PAGE}.variant",
                           format_func=shown(lambda v: _(VARIANT_NAMES.get(v, v))))
        seed = int(c2.number_input(_("Shuffle seed"), 0, 2**31 - 1, 0, key=f"{PAGE}.shuffle_seed",
                                   disabled=how != "shuffle"))
        run_b = compare.variant_run(run_a, qrels, how, seed=seed)
        return qrels, run_a, run_b, k, _("A = the example's rankings; B = {variant}").format(
            variant=_(VARIANT_NAMES.get(how, how)))
    if source == SOURCES[3]:
        lessons.example_controls(PAGE)
        cq = lessons.current()
        default = " ".join(reversed(cq.ranking))
        text = st.text_area(_("System B's ranking: document ids, best first (A is the current query's ranking)"),
                            default, max_chars=20_000, key=f"{PAGE}.b_text")
        ids = [t for t in re.split(r"[\s,]+", text.strip()) if t]
        if not ids:
            st.error(_("Type at least one document id for system B."))
            return None
        if len(ids) > MAX_IDS:
            st.error(_("{n} ids is too many (at most {most}).").format(n=f"{len(ids):,}", most=MAX_IDS))
            return None
        if len(set(ids)) != len(ids):
            dup = next(d for d in ids if ids.count(d) > 1)
            st.error(escape_markdown(_("Document {doc} appears twice in system B's ranking; each document can be "
                                       "ranked once.").format(doc=repr(dup[:40]))))
            return None
        unknown = [d for d in ids if d not in cq.judgments]
        if unknown:
            st.caption(escape_markdown(f"{len(unknown)} id(s) are not judged and count as not relevant: "
                                        + ", ".join(repr(d[:20]) for d in unknown[:5])))
        q = cq.name
        return {q: cq.judgments}, {q: cq.ranking}, {q: ids}, cq.k, _("A = the current query; B = the typed order")
    seed = int(st.number_input(_("Generator seed"), 0, 2**31 - 1, 0, key=f"{PAGE}.gen_seed"))
    d = compare.disagreeing_rankings(seed)
    st.caption(_("Same judged documents, two orders: look at the rankings below and guess which system each "
                 "measure prefers before reading the table."))
    graded = _("{doc} (grade {grade})")
    st.dataframe(pd.DataFrame({_("rank"): range(1, len(d.ranking_a) + 1),
                               _("system A"): [graded.format(doc=x, grade=d.judgments[x]) for x in d.ranking_a],
                               _("system B"): [graded.format(doc=x, grade=d.judgments[x]) for x in d.ranking_b]}),
                 hide_index=True, width="content")
    q = "generated query"
    return {q: d.judgments}, {q: d.ranking_a}, {q: d.ranking_b}, None, _("generated pair")


def _summary(c) -> pd.DataFrame:
    rows = []
    for m, r in c.results.items():
        t, rnd = r.t_test, r.randomization
        rows.append({_("measure"): m, _("mean A"): teach_view.fmt(r.mean_a), _("mean B"): teach_view.fmt(r.mean_b),
                     "B − A": f"{r.delta:+.4f}", _("prefers"): {"A": "A", "B": "B", "tie": _("neither")}[r.preferred],
                     _("t-test p"): teach_view.fmt(t.p_value) if t.n >= 2 else _("— (1 query)"),
                     _("randomization p"): teach_view.fmt(rnd.p_value),
                     "Cohen's d": teach_view.fmt(t.cohen_d, 2) if t.n >= 2 else "—",
                     _("queries A / B / tie"): f"{len(r.a_better)} / {len(r.b_better)} / "
                                               f"{len(r.deltas) - len(r.a_better) - len(r.b_better)}"})
    return pd.DataFrame(rows)


def _which(c) -> pd.DataFrame:
    rows = [{_("measure"): m, _("A better on"): ", ".join(r.a_better) or "—", _("B better on"): ", ".join(r.b_better) or "—"}
            for m, r in c.results.items()]
    return pd.DataFrame(rows)


def main() -> None:
    st.title(_("Compare two systems"))
    st.markdown(_("Is system B better than system A? Per query, on average, and is the difference more than "
                  "chance? Different measures can give different answers."))
    render.messages()
    got = _systems()
    if got is None:
        return
    qrels, run_a, run_b, k, what = got
    default = f"P@{k} RR AP nDCG@{k}" if k else "nDCG AP P@3 RR"
    source = SOURCES.index(st.session_state.get(f"{PAGE}.source", SOURCES[0]))
    ms = lessons.measures_box(_("Measures"), default, key=f"{PAGE}.measures.{source}.{k}")
    try:
        c = compare.compare(qrels, run_a, run_b, ms, rounds=10_000, seed=0)
    except ValueError as err:
        st.error(escape_markdown(_("Cannot compare these systems: {error}").format(error=err)))
        return
    st.caption(ngettext("{what}; {n} query.", "{what}; {n} queries.", len(c.queries)).format(what=what, n=len(c.queries)))
    for w in c.warnings:
        st.warning(escape_markdown(w))
    if not c.queries:
        st.error(_("No judged query to compare: the qrels are empty."))
        return
    st.dataframe(_summary(c), hide_index=True, width="stretch")
    with st.expander(_("Which queries each measure prefers")):
        st.dataframe(_which(c), hide_index=True, width="stretch")
    if c.disagree:
        st.warning(_("The measures disagree: some prefer A, others B. Which one is right depends on what your "
                     "users need — graded relevance near the top (nDCG) or every relevant document found (AP)."))
    if len(c.queries) < 2 and source != GENERATED:
        st.info(_("With one query there is no test: the t-test needs at least two queries, and the "
                  "randomization p-value of a single difference is 1."))
    st.caption(_("A p-value below 0.05 is the usual bar for “more than chance”; with few queries it is rarely "
                 "reached. p-values are two-sided. Randomization: every sign pattern of the per-query differences "
                 "when there are at most 13 queries, else 10,000 seeded draws. Cohen's d = mean difference / its "
                 "standard deviation across queries."))
    measure = st.selectbox(_("Per-query differences for"), ms, key=f"{PAGE}.chart_measure")
    st.markdown(_("**{measure}: B − A for each query** (left of 0: A is better; right: B)").format(
        measure=escape_markdown(measure)))
    chart = teaching_charts.delta_bars(c, measure)
    st.altair_chart(chart, width="stretch")


main()
