"""Diagnose a discrepancy: which conventions make Ranklab print another tool's numbers."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

import metrics
import metrics.io
from metrics.io.theirs import read_theirs
from metrics.teaching import diagnose as dg
from ranklab_ui import render
from ranklab_ui.core import diagnose_view as view
from ranklab_ui.core.i18n import N_, _, ngettext, shown
from ranklab_ui.core.views import escape_markdown
from ranklab_ui.session import state
from ranklab_ui.widgets.files import Source, file_source, read, text_source, upload_source

PAGE = "diagnose"
COLLECTION = Path(__file__).resolve().parents[1] / "assets" / "collection"
DATA = (N_("The sample collection (BM25 run)"), N_("Paste or upload qrels and a run"), N_("The Playground's example"))
THEIRS = (N_("Paste their numbers"), N_("Upload their numbers"), N_("Only the tool's name"))
LAST = f"{PAGE}.last"  # the last good diagnosis, kept when new input is malformed
# characters a box takes: trec_eval -q's lines for thousands of queries, or a run of some
# thousands of lines. A pasted value travels to the server again with every click on the page,
# and a text area's own limit would drop a longer paste without a word, so the page checks
# the length itself and says so; larger inputs go through the file uploaders.
MAX_TEXT = 200_000


def _read(q: Source, r: Source):
    """Read the qrels and the run (duplicates kept: each way of resolving them is tried)."""
    return (read("qrels", q, max_bytes=metrics.io.APP_MAX_BYTES),
            metrics.io.read_run(r.data(), name=r.name, dedup=None, max_bytes=metrics.io.APP_MAX_BYTES),
            (q.key, r.key))


def pasted(where, label: str, key: str, placeholder: str) -> str:
    """A text area and its Apply button (a paste applies on the button too, not only on
    Ctrl+Enter or leaving the box); the text, or "" with a message when it is too long to paste."""
    text = where.text_area(label, key=key, height=150, placeholder=placeholder,
                           help=_("Up to {limit} characters; upload a larger file.").format(limit=f"{MAX_TEXT:,}"))
    where.button(_("Apply the pasted text"), key=f"{key}.apply")
    if len(text) > MAX_TEXT:
        where.error(_("This text has {n} characters: a box takes up to {limit}. Upload it as a file "
                      "instead; the text is kept.").format(n=f"{len(text):,}", limit=f"{MAX_TEXT:,}"))
        return ""
    return text


def data_inputs(choice: str):
    """The data widgets; returns a function reading (qrels, run, a key naming them), or None
    while something is missing. Reading comes after every widget is drawn, so a malformed file
    never hides the other inputs."""
    if choice == DATA[0]:
        q, r = file_source(COLLECTION / "qrels.txt"), file_source(COLLECTION / "run_bm25.txt")
        return lambda: _read(q, r)
    if choice == DATA[2]:
        example = state.get_example()
        qrels, run = example.qrels_run()
        st.caption(_("The Playground's queries, each ranked in its list order ({n}).").format(
            n=ngettext("{n} query", "{n} queries", len(qrels)).format(n=len(qrels))))
        return lambda: (qrels, run, ("example", repr((qrels, run))))
    left, right = st.columns(2)
    qrels_up = left.file_uploader(_("Qrels file"), key=f"{PAGE}.qrels_upload")
    run_up = right.file_uploader(_("Run file"), key=f"{PAGE}.run_upload")
    qrels_text = pasted(left, _("…or paste qrels: `qid iter docid grade`"), f"{PAGE}.qrels_text",
                        "q1 0 d1 2\nq1 0 d2 0")
    run_text = pasted(right, _("…or paste a run: `qid Q0 docid rank score tag` or `qid docid`"),
                      f"{PAGE}.run_text", "q1 Q0 d2 1 3.1 mine\nq1 Q0 d1 2 2.5 mine")
    q = upload_source(qrels_up) if qrels_up else (text_source(_("pasted qrels"), qrels_text)
                                                   if qrels_text.strip() else None)
    r = upload_source(run_up) if run_up else (text_source(_("pasted run"), run_text) if run_text.strip() else None)
    if q is None or r is None:
        return None
    return lambda: _read(q, r)


def their_inputs(choice: str):
    """The widgets of their numbers; returns a function of the measure reading (their numbers
    or None, a tool's name or None, a key), or None while nothing is given."""
    if choice == THEIRS[2]:
        tool = st.selectbox(_("Tool"), list(dg.TOOLS), key=f"{PAGE}.tool")
        return lambda measure: (None, tool, f"tool:{tool}")
    if choice == THEIRS[1]:
        up = st.file_uploader(_("Their numbers: trec_eval -q output, JSON or CSV"), key=f"{PAGE}.theirs_upload")
        if up is None:
            return None
        source = upload_source(up)
    else:
        text = pasted(st, _("Their numbers: one value, trec_eval's `measure qid value` lines, JSON {json} or "
                            "CSV `qid,value`").format(json="`{qid: value}`"), f"{PAGE}.theirs_text",
                      "ndcg_cut_10\tq1\t0.5613\nndcg_cut_10\tall\t0.4562")
        if not text.strip():
            return None
        source = text_source(_("their numbers"), text)
    return lambda measure: (read_theirs(source.data(), source.name, measure), None, source.key)


def show(d: dg.Diagnosis) -> None:
    verdict = escape_markdown(_(d.verdict))
    if d.theirs is None:
        st.info(verdict)
    elif d.matched:
        st.success(verdict)
    else:
        st.warning(verdict)
    a, b, c = st.columns(3)
    a.metric(_("Ranklab (trec_eval)"), metrics.num(d.baseline.aggregate, fixed=True))
    if d.theirs is not None and d.theirs.aggregate is not None:
        b.metric(_("Theirs"), d.theirs.aggregate.text)
    elif d.theirs is not None:  # per-query values only: their mean
        b.metric(_("Theirs (the mean of their values)"), metrics.num(d.theirs.mean, fixed=True))
    if d.theirs is not None:
        c.metric(_("With the conventions found"), metrics.num(d.found.aggregate, fixed=True))
    else:
        b.metric(d.tool or "", metrics.num(d.found.aggregate, fixed=True))
    if d.changes:
        st.markdown("**" + _("Conventions, changed from trec_eval's defaults") + "**")
        render.table(view.change_rows(d), key=f"{PAGE}.changes")
    for alt in d.alternatives[1:6]:
        st.caption(_("Also reproduces them: {sets}").format(sets=escape_markdown(", ".join(map(str, alt)))))
    every = st.checkbox(_("Show every query"), key=f"{PAGE}.every")
    rows = view.query_rows(d, every=every)
    if rows:
        st.markdown("**" + ngettext("{n} query", "{n} queries", len(rows)).format(n=len(rows)) + "**")
        numbers = {name: st.column_config.NumberColumn(format="%.4f")
                   for name in rows[0] if name not in ("query", "theirs", "matches", "moved by", "residual")}
        render.table(rows, height=min(400, 40 + 35 * len(rows)), key=f"{PAGE}.rows",
                     column_config=numbers)
    elif d.theirs is not None and d.theirs.per_query:
        st.caption(_("Every query matches."))
    if d.theirs is not None:
        st.caption(ngettext("Searched {n} convention set.", "Searched {n} convention sets.",
                            d.evaluations).format(n=d.evaluations)
                   + " " + _("A value matches within the precision it was printed with."))
    for note in d.notes:
        st.caption(escape_markdown(_(note)))


def page() -> None:
    st.title(_("Diagnose a discrepancy"))
    st.write(_("Two tools, one metric, two numbers? Give the judgments, the run and the numbers the other tool "
               "printed (or just its name). Ranklab searches the conventions — tie order, float32 scores, gain, "
               "ideal list, AP denominator, duplicates, identical ids, missing queries, relevance level, cutoff, "
               "flattened queries — for the set that reproduces them, and names per query what moved the value."))
    data_choice = st.radio(_("Data"), DATA, format_func=shown(_), horizontal=True, key=f"{PAGE}.data")
    left, right = st.columns([1, 2])
    measure_text = left.text_input(_("Measure"), "nDCG@10", key=f"{PAGE}.measure",
                                   help=_("Ranklab notation (nDCG@10, AP) or trec_eval's (ndcg_cut_10, map)"))
    their_choice = right.radio(_("Their numbers"), THEIRS, format_func=shown(_), horizontal=True, key=f"{PAGE}.theirs")
    with right:
        reader_theirs = their_inputs(their_choice)
    reader_data = data_inputs(data_choice)
    error, current = None, None
    last = st.session_state.get(LAST)
    try:
        if reader_data is None or reader_theirs is None:
            st.info(_("Give the data and their numbers to diagnose."))
        else:
            measure = metrics.parse(measure_text)
            qrels, run, data_key = reader_data()
            their_numbers, tool, their_key = reader_theirs(measure)
            key = (data_key, their_key, str(measure))
            if last is None or last.get("key") != key:
                with st.spinner(_("Searching the conventions…")):
                    diagnosis = dg.diagnose(qrels, run, measure, theirs=their_numbers, tool=tool)
                last = {"key": key, "diagnosis": diagnosis}
                st.session_state[LAST] = last
            current = last
    except (ValueError, TypeError, OSError) as err:
        error = str(err)
    if error:
        st.error(_("These inputs could not be diagnosed:"))
        st.code(error[:4000], language=None)
    if error and last is not None:
        st.caption(_("Showing the previous diagnosis."))
        current = last
    if current is not None:
        show(current["diagnosis"])


def main() -> None:
    """The page, with any unexpected error shown as a message instead of a traceback."""
    try:
        page()
    except Exception as err:   # noqa: BLE001 - the last line of defence: no traceback reaches a user
        st.error(_("Something went wrong on this page. The message below says what; your inputs are kept."))
        st.code(f"{type(err).__name__}: {str(err)[:2000]}", language=None)


main()
