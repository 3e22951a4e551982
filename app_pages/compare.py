"""Compare systems: two (per-query deltas, paired tests, which metric prefers which) or several (means
with bootstrap intervals, every pair tested and corrected, Tukey's HSD, guidance, fusion)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pandas as pd
import streamlit as st

from metrics import comparison, fusion, stats
from metrics import io as metrics_io
from metrics.teaching import compare
from ranklab_ui import render
from ranklab_ui.core import compare_charts, teach_view, teaching_charts
from ranklab_ui.core.i18n import N_, _, ngettext, shown
from ranklab_ui.core.views import escape_markdown
from ranklab_ui.parts import lessons
from ranklab_ui.session import state
from ranklab_ui.widgets.files import file_source, read_dict, read_upload

PAGE = "compare"
SOURCES = [N_("The sample collection: BM25 vs. TF"), N_("Upload qrels and two runs"),
           N_("The example's queries vs. a variant"), N_("Type system B's order"),
           N_("Two rankings where nDCG and AP disagree"),
           N_("Several systems: the sample collection"), N_("Several systems: upload qrels and runs")]
VARIANT_NAMES = {"reverse": N_("reverse"), "shuffle": N_("shuffle"), "swap top two": N_("swap top two"),
                 "move first relevant down": N_("move first relevant down")}
GENERATED = 4
MANY = (5, 6)
MAX_RUNS = 12
TEST_LABELS = {"t": N_("paired t-test"), "wilcoxon": N_("Wilcoxon signed-rank"),
               "randomization": N_("Fisher's randomization test"), "tukey": N_("Tukey's HSD (all systems)")}
CORRECTION_LABELS = {"bonferroni": N_("Bonferroni"), "holm": N_("Holm"), "bh": N_("Benjamini–Hochberg (FDR)"),
                     "none": N_("none")}
FUSION_LABELS = {"rrf": N_("reciprocal rank fusion (RRF)"), "combsum": N_("CombSUM"), "combmnz": N_("CombMNZ")}
NORM_LABELS = {"minmax": N_("min-max"), "zscore": N_("z-score")}
MAX_IDS = 1000
ALPHAS = (0.01, 0.05, 0.1)
CORRECTIONS = stats.CORRECTIONS + ("none",)
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
    try:
        return [read_upload(kind, up, label=name) for kind, name, up in zip(("qrels", "run", "run"), names, ups,
                                                                            strict=True)]
    except ValueError as err:
        st.error(escape_markdown(str(err)))
        return None


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
    if SOURCES.index(source) in MANY:
        return "many"
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
            if st.button(_("Use the Pinecone notebook's three queries"), key=f"{PAGE}.load_three"):
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
    render.table(pd.DataFrame({_("rank"): range(1, len(d.ranking_a) + 1),
                               _("system A"): [graded.format(doc=x, grade=d.judgments[x]) for x in d.ranking_a],
                               _("system B"): [graded.format(doc=x, grade=d.judgments[x]) for x in d.ranking_b]}))
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


# --------------------------------------------------------------------------- several systems

def _many_inputs(source: str):
    """(qrels, {name: run}) for several systems, or None after a message."""
    if SOURCES.index(source) == MANY[0]:
        try:
            return _sample("qrels", "qrels.txt"), {"BM25": _sample("run", "run_bm25.txt"),
                                                   "TF": _sample("run", "run_tf.txt")}
        except (OSError, ValueError) as err:
            st.error(escape_markdown(_("The sample collection could not be read: {error}").format(error=err)))
            return None
    up_q = st.file_uploader(_("qrels (TREC, JSONL or CSV)"), key=f"{PAGE}.many.qrels")
    ups = st.file_uploader(_("runs: two or more files (TREC, two-column list, JSONL or CSV)"),
                           accept_multiple_files=True, key=f"{PAGE}.many.runs")
    if not up_q or not ups or len(ups) < 2:
        st.info(_("Upload the judgments (qrels) and at least two runs to compare them."))
        return None
    if len(ups) > MAX_RUNS:
        st.error(_("{n} runs is too many (at most {max}).").format(n=len(ups), max=MAX_RUNS))
        return None
    try:
        loaded = [read_upload(kind, up) for kind, up in [("qrels", up_q)] + [("run", u) for u in ups]]
    except ValueError as err:
        st.error(escape_markdown(str(err)))
        return None
    runs = {}
    for up, run in zip(ups, loaded[1:], strict=True):
        name = Path(up.name).stem[:40] or "run"
        base, n = name, 2
        while name in runs:
            name, n = f"{base} ({n})", n + 1
        runs[name] = run
    return loaded[0], runs


def _fusion(runs: dict) -> dict:
    """The fusion section: optionally one more system, the runs fused."""
    with st.expander(_("Fuse the runs")):
        st.caption(_("Reciprocal rank fusion adds 1/(k + rank) over the runs, ranks from 1: each run adds at most "
                     "1/(k + 1) — 0.0164 with k = 60 — and a document at rank 100 adds 1/160 = 0.0063, so fused "
                     "scores are small and close together; a large k makes rank matter less than how many runs "
                     "retrieve the document. CombSUM adds each run's normalised scores; CombMNZ multiplies that "
                     "sum by the number of runs that retrieved the document."))
        on = st.checkbox(_("Add the fused run as one more system"), key=f"{PAGE}.fuse.on")
        c1, c2, c3 = st.columns(3)
        method = c1.selectbox(_("Method"), fusion.METHODS, format_func=shown(lambda m: _(FUSION_LABELS[m])),
                              key=f"{PAGE}.fuse.method")
        k = c2.number_input(_("k (RRF)"), 0.0, 10_000.0, 60.0, key=f"{PAGE}.fuse.k", disabled=method != "rrf")
        norm = c3.selectbox(_("Normalisation (CombSUM, CombMNZ)"), fusion.NORMS,
                            format_func=shown(lambda m: _(NORM_LABELS[m])), key=f"{PAGE}.fuse.norm",
                            disabled=method == "rrf")
        if not on:
            return runs
        try:
            fused = fusion.fuse(list(runs.values()), method=method, k=float(k), norm=norm)
        except (ValueError, TypeError) as err:
            st.error(escape_markdown(_("The runs could not be fused: {error}").format(error=err)))
            return runs
        out = io.StringIO()
        try:
            fusion.write_trec_run(out, fused, f"fused-{method}")
            st.download_button(_("Download the fused run (TREC format)"), out.getvalue(),
                               file_name=f"fused_{method}.txt", mime="text/plain", key=f"{PAGE}.fuse.download")
        except ValueError as err:  # an id with white space cannot be written as TREC
            st.caption(escape_markdown(str(err)))
        return {**runs, _("fused ({method})").format(method=method): fused}


def _percent(share: float) -> str:
    """0.95 as "95%", 0.975 as "97.5%"."""
    return f"{share * 100:g}%"


def _systems_table(r, confidence: float) -> pd.DataFrame:
    level = _percent(confidence)
    return pd.DataFrame([{_("system"): s.name, _("mean"): round(s.mean, 4),
                          _("{level} CI low").format(level=level): round(s.ci_low, 4),
                          _("{level} CI high").format(level=level): round(s.ci_high, 4)} for s in r.systems])


def _pairs_table(c, measure: str) -> pd.DataFrame:
    r = c.results[measure]
    corr = c.settings["correction"]
    rows = []
    for p in r.pairs:
        row = {_("pair"): f"{c.names[p.j]} − {c.names[p.i]}", _("delta"): round(p.delta, 4),
               _("delta 95% CI"): f"[{p.delta_ci[0]:.4f}, {p.delta_ci[1]:.4f}]",
               _("Cohen's d_z"): round(p.cohen_d, 2) if abs(p.cohen_d) < 1e9 else p.cohen_d,
               _("p t-test"): p.t_test.p_value, _("p Wilcoxon"): p.wilcoxon.p_value,
               _("p randomization"): p.randomization.p_value, _("p Tukey HSD"): p.tukey_p}
        if corr != "none":
            row[_("p ({test}, {correction})").format(test=c.settings["test"], correction=corr)] = (
                p.p(c.settings["test"], corr) if c.settings["test"] != "tukey" else p.tukey_p)
        row[_("significant")] = "✓" if c.significant(measure, p) else ""
        rows.append(row)
    return pd.DataFrame(rows)


def _many(source: str) -> None:
    got = _many_inputs(source)
    if got is None:
        return
    qrels, runs = got
    runs = _fusion(runs)
    ms = lessons.measures_box(_("Measures"), "AP nDCG@10", key=f"{PAGE}.many.measures")
    c1, c2, c3 = st.columns(3)
    test = c1.selectbox(_("Test that marks significance"), comparison.TESTS,
                        format_func=shown(lambda t: _(TEST_LABELS[t])), key=f"{PAGE}.many.test")
    correction = c2.selectbox(_("Correction for many comparisons"), CORRECTIONS,
                              index=CORRECTIONS.index(comparison.CORRECTION),
                              format_func=shown(lambda m: _(CORRECTION_LABELS[m])), key=f"{PAGE}.many.correction",
                              disabled=test == "tukey")
    alpha = c3.selectbox(_("Significance level α"), ALPHAS, index=ALPHAS.index(comparison.ALPHA),
                         key=f"{PAGE}.many.alpha")
    try:
        c = comparison.compare_systems(qrels, runs, ms, alpha=alpha, test=test, correction=correction)
    except (ValueError, TypeError) as err:
        st.error(escape_markdown(_("Cannot compare these systems: {error}").format(error=err)))
        return
    n = len(c.queries)
    st.caption(ngettext("{systems} systems on {n} judged topic (missing from a run: scored 0 there).",
                        "{systems} systems on {n} judged topics (missing from a run: scored 0 there).", n).format(
        systems=len(c.names), n=n))
    for w in c.warnings:  # metrics' English guidance, passed through the catalog like every shown text
        st.warning(escape_markdown(_(w)))
    if n == 0:
        st.error(_("No judged topic to compare: the qrels are empty."))
        return
    measure = st.selectbox(_("Measure"), c.measures, key=f"{PAGE}.many.measure")
    r = c.results[measure]
    settings = c.settings
    st.subheader(_("Means with {level} bootstrap intervals").format(level=_percent(settings["confidence"])))
    render.table(_systems_table(r, settings["confidence"]))
    st.altair_chart(compare_charts.means_with_ci(r), width="stretch")
    st.subheader(_("Every pair"))
    pairs = _pairs_table(c, measure)
    config = {col: st.column_config.NumberColumn(format="%.4f") for col in pairs.columns if col.startswith("p ")}
    config[_("pair")] = st.column_config.TextColumn(width="medium")
    render.table(pairs, column_config=config)
    rule = (_("Tukey's HSD over all systems") if test == "tukey" else
            _("{test}, {correction} over the pairs").format(test=_(TEST_LABELS[test]),
                                                           correction=_(CORRECTION_LABELS[correction])))
    st.caption(_("✓: significant at α = {alpha} by the {rule}. Intervals: percentile bootstrap of the topics, "
                 "{resamples} resamples, seed {seed}. Wilcoxon as SciPy (zeros dropped; exact without ties up to "
                 "{exact} topics). Randomization: every sign pattern up to {enumerated} topics, else {rounds} seeded "
                 "ones. d_z = mean delta / standard deviation of the deltas: about 0.2 is small, 0.5 medium, 0.8 "
                 "large.").format(
        alpha=alpha, rule=rule, resamples=f"{settings['resamples']:,}", seed=settings["seed"],
        exact=stats.WILCOXON_EXACT_MAX, enumerated=stats.enumerated_up_to(settings["rounds"]),
        rounds=f"{settings['rounds']:,}"))
    labels = [f"{c.names[p.j]} − {c.names[p.i]}" for p in r.pairs]
    pick = st.selectbox(_("Per-topic deltas of"), range(len(labels)), format_func=lambda i: labels[i],
                        key=f"{PAGE}.many.pair")
    pair = r.pairs[pick]
    st.altair_chart(compare_charts.sorted_deltas(c.queries, pair, c.names, measure), width="stretch")
    st.subheader(_("How many topics do I need?"))
    if n >= 2:
        need = comparison.topics_needed(pair.deltas, alpha=alpha)
        if need.needed:
            st.markdown(escape_markdown(_("Drawing topics like these, a paired t-test finds a delta of {delta} "
                                          "in {power} of experiments from about {needed} topics (you have {n}).").format(
                delta=f"{pair.delta:+.4f}", power=_percent(need.target), needed=need.needed, n=n)))
        else:
            st.markdown(escape_markdown(_("Even {top} topics like these would not find a delta of {delta} in "
                                          "{power} of experiments: it is too small for its spread.").format(
                top=need.sizes[-1], delta=f"{pair.delta:+.4f}", power=_percent(need.target))))
        st.altair_chart(compare_charts.power_curve(need), width="stretch")
        st.caption(_("Power: the share of simulated experiments (topics drawn with replacement from these, "
                     "{resamples} per size, seed {seed}) in which the paired t-test is significant at α; "
                     "dashed: {power}.").format(resamples=f"{comparison.POWER_RESAMPLES:,}", seed=stats.SEED,
                                                power=_percent(need.target)))
    st.subheader(_("Export"))
    tabs = st.tabs(["LaTeX", "JSON", "CSV"])
    for tab, (fmt, writer, ext) in zip(tabs, (("latex", comparison.write_latex, "tex"),
                                              ("json", comparison.write_json, "json"),
                                              ("csv", comparison.write_csv, "csv")), strict=True):
        out = io.StringIO()
        writer(out, c)
        with tab:
            if fmt == "latex":
                st.code(out.getvalue(), language="latex")
            st.download_button(_("Download {fmt}").format(fmt=fmt.upper()), out.getvalue(),
                               file_name=f"comparison.{ext}", key=f"{PAGE}.many.download.{fmt}")


def main() -> None:
    st.title(_("Compare systems"))
    st.markdown(_("Is system B better than system A — or, with several systems, which differences are more than "
                  "chance? Per query, on average, tested and corrected. Different measures can give different "
                  "answers."))
    render.messages()
    got = _systems()
    if got is None:
        return
    if got == "many":
        _many(st.session_state[f"{PAGE}.source"])
        return
    qrels, run_a, run_b, k, what = got
    default = f"P@{k} RR AP nDCG@{k}" if k else "nDCG AP P@3 RR"
    source = SOURCES.index(st.session_state.get(f"{PAGE}.source", SOURCES[0]))
    ms = lessons.measures_box(_("Measures"), default, key=f"{PAGE}.measures.{source}.{k}")
    try:
        c = compare.compare(qrels, run_a, run_b, ms, rounds=stats.ROUNDS, seed=stats.SEED)
    except ValueError as err:
        st.error(escape_markdown(_("Cannot compare these systems: {error}").format(error=err)))
        return
    st.caption(ngettext("{what}; {n} query.", "{what}; {n} queries.", len(c.queries)).format(what=what, n=len(c.queries)))
    for w in c.warnings:
        st.warning(escape_markdown(w))
    if not c.queries:
        st.error(_("No judged query to compare: the qrels are empty."))
        return
    render.table(_summary(c))
    with st.expander(_("Which queries each measure prefers")):
        render.table(_which(c))
    if c.disagree:
        st.warning(_("The measures disagree: some prefer A, others B. Which one is right depends on what your "
                     "users need — graded relevance near the top (nDCG) or every relevant document found (AP)."))
    if len(c.queries) < 2 and source != GENERATED:
        st.info(_("With one query there is no test: the t-test needs at least two queries, and the "
                  "randomization p-value of a single difference is 1."))
    st.caption(_("A p-value below {alpha} is the usual bar for “more than chance”; with few queries it is rarely "
                 "reached. p-values are two-sided. Randomization: every sign pattern of the per-query differences "
                 "when there are at most {enumerated} queries, else {rounds} seeded draws. Cohen's d = mean "
                 "difference / its standard deviation across queries.").format(
        alpha=comparison.ALPHA, enumerated=stats.enumerated_up_to(stats.ROUNDS), rounds=f"{stats.ROUNDS:,}"))
    measure = st.selectbox(_("Per-query differences for"), ms, key=f"{PAGE}.chart_measure")
    st.markdown(_("**{measure}: B − A for each query** (left of 0: A is better; right: B)").format(
        measure=escape_markdown(measure)))
    chart = teaching_charts.delta_bars(c, measure)
    st.altair_chart(chart, width="stretch")


main()
