"""Evaluate files: a qrels file and a run (uploaded, pasted, or the bundled sample collection)."""

from __future__ import annotations

import hashlib
import io
import json
import tempfile
from pathlib import Path

import streamlit as st

import metrics
from metrics.batch import evaluate_batch
from metrics.cli_evaluate import write_csv, write_trec
from metrics.io import DEDUP, read_qrels, read_run
from ui import evaluation_view as view
from ui import state
from ui.reader_view import escape_markdown

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "assets" / "collection"
SAMPLE_RUNS = {"BM25 (run_bm25.txt)": "run_bm25.txt", "TF baseline (run_tf.txt)": "run_tf.txt"}
SOURCES = ("Sample collection", "Upload files", "Paste text")
DEFAULT_MEASURES = "P@10 R@100 RR AP nDCG@10"
LAST = "evaluate_files.last"  # the last good evaluation, kept when new input is malformed


def upload_limit_mb() -> int:
    return int(st.get_option("server.maxUploadSize"))


@st.cache_resource(max_entries=4, show_spinner=False)
def load(kind: str, name: str, digest: str, data: bytes, dedup: str = "error"):
    """Read one file's bytes with the reader its name implies (cached by content)."""
    suffix = "".join(Path(name).suffixes[-2:]) or ".txt"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{kind}{suffix}"
        path.write_bytes(data)
        table = read_qrels(path) if kind == "qrels" else read_run(path, dedup=dedup)
    # name the user's file in messages, not the temporary copy
    return table, str(path)


def read(kind: str, name: str, data: bytes, dedup: str = "error"):
    digest = hashlib.sha256(data).hexdigest()
    try:
        table, temp = load(kind, name, digest, data, dedup)
    except ValueError as err:
        raise ValueError(str(err).replace(_temp_name(err), name)) from None
    return table


def _temp_name(err: ValueError) -> str:
    text = str(err)
    head = text.split(":", 1)[0]
    return head if head.startswith(tempfile.gettempdir()) else "\0"


def inputs(source: str):
    """(qrels name, bytes, run name, bytes), or None while something is missing."""
    if source == SOURCES[0]:
        label = st.selectbox("Run", list(SAMPLE_RUNS), key="evaluate_files.sample_run")
        st.caption("324 short documents, 30 queries with graded judgments (0–3), two systems — "
                   "made by `assets/make_collection.py`.")
        run_file = SAMPLE / SAMPLE_RUNS[label]
        return "qrels.txt", (SAMPLE / "qrels.txt").read_bytes(), run_file.name, run_file.read_bytes()
    if source == SOURCES[1]:
        limit = upload_limit_mb()
        st.caption(f"TREC qrels and runs, two-column `qid docid` lists, JSONL (seed 003), CSV/TSV with "
                   f"named columns, each optionally `.gz`. Up to {limit} MB per file "
                   f"(`server.maxUploadSize` in `.streamlit/config.toml`).")
        left, right = st.columns(2)
        qrels_file = left.file_uploader("Qrels (judgments)", key="evaluate_files.qrels_upload")
        run_file = right.file_uploader("Run", key="evaluate_files.run_upload")
        if qrels_file is None or run_file is None:
            return None
        return qrels_file.name, qrels_file.getvalue(), run_file.name, run_file.getvalue()
    left, right = st.columns(2)
    qrels_text = left.text_area("Qrels: `qid iter docid grade` per line", key="evaluate_files.qrels_text",
                                height=180, placeholder="q1 0 d1 2\nq1 0 d2 0")
    run_text = right.text_area("Run: `qid Q0 docid rank score tag` (or `qid docid`) per line",
                               key="evaluate_files.run_text", height=180,
                               placeholder="q1 Q0 d2 1 3.1 mine\nq1 Q0 d1 2 2.5 mine")
    if not qrels_text.strip() or not run_text.strip():
        return None
    return "pasted qrels", qrels_text.encode("utf-8"), "pasted run", run_text.encode("utf-8")


def measures_from(text: str, convention: str) -> list[metrics.Measure]:
    ms = metrics.parse_many(text)
    if convention != "trec_eval":
        ms = [metrics.parse(metrics.conventions.apply(convention, m)) for m in ms]
    return ms


def evaluate(files, ms, missing: str, depth: int | None, dedup: str) -> dict:
    qrels_name, qrels_bytes, run_name, run_bytes = files
    with st.status("Reading and evaluating…", expanded=False) as status:
        try:
            status.update(label=f"Reading {qrels_name} ({len(qrels_bytes) / 1e6:.1f} MB)…")
            qrels = read("qrels", qrels_name, qrels_bytes)
            status.update(label=f"Reading {run_name} ({len(run_bytes) / 1e6:.1f} MB)…")
            run = read("run", run_name, run_bytes, dedup)
            status.update(label=f"Evaluating {len(run):,} lines…")
            result = evaluate_batch(qrels, run, ms, missing=missing, depth=depth)
        except (ValueError, TypeError):
            status.update(label="Stopped: see the message below", state="error")
            raise
        status.update(label=f"Read {len(run):,} run lines and {len(qrels):,} judgments; evaluated "
                            f"{len(result.per_query):,} queries", state="complete")
    return {"result": result, "measures": [str(m) for m in ms], "qrels": qrels, "run": run,
            "names": (qrels_name, run_name), "options": (missing, depth)}


def show(last: dict) -> None:
    result = last["result"]
    names = last["measures"]
    ms = [metrics.parse(n) for n in names]
    qrels_name, run_name = last["names"]
    st.subheader(f"{run_name} against {qrels_name}")
    for text in result.warnings:
        st.warning(escape_markdown(text))
    if not result.per_query:
        st.info("No query is both judged and in the run, so there is nothing to average.")
        return
    st.dataframe([{"measure": n, "trec_eval name": m.trec_name or "—", "mean" if m.family.aggregate == "mean"
                   else "sum": result.aggregate[n]} for n, m in zip(names, ms, strict=True)],
                 hide_index=True, key="evaluate_files.aggregate")
    st.markdown(f"**Per query** ({len(result.per_query):,} queries; click a column to sort)")
    st.dataframe(view.per_query_rows(result.per_query, names), hide_index=True, height=300,
                 key="evaluate_files.per_query")
    measure = st.selectbox("Distribution of", names, key="evaluate_files.measure")
    st.altair_chart(view.distribution_chart(result.per_query, measure), width="stretch")
    worst, best = view.extremes(result.per_query, measure)
    left, right = st.columns(2)
    for column, title, pairs in ((left, "Worst queries", worst), (right, "Best queries", best)):
        column.markdown(f"**{title}** on {escape_markdown(measure)}")
        for qid, value in pairs:
            params = state.permalink_params(view.query_example(last["qrels"], last["run"], qid))
            # the playground is the app's default page, served at the root
            link = f"[open in the playground](./?{state.PARAM}={params[state.PARAM]})" if params else ""
            column.markdown(f"`{escape_markdown(qid)}` — {value:.4f} {link}")
    trec = io.StringIO()
    write_trec(trec, ms, result, True, last["run"].tag if last["run"].tag else None)
    table = io.StringIO()
    write_csv(table, ms, result, True)
    payload = json.dumps({"aggregate": result.aggregate, "per_query": result.per_query,
                          "warnings": result.warnings}, indent=1)
    a, b, c = st.columns(3)
    a.download_button("Download CSV", table.getvalue(), "evaluation.csv", "text/csv", key="evaluate_files.csv")
    b.download_button("Download JSON", payload, "evaluation.json", "application/json", key="evaluate_files.json")
    c.download_button("Download trec_eval text", trec.getvalue(), "evaluation.trec.txt", "text/plain",
                      key="evaluate_files.trec")


def main() -> None:
    st.title("Evaluate files")
    st.write("Evaluate a whole run against its judgments, as `ranklab evaluate` does: the same "
             "numbers as trec_eval (pytrec_eval) for every measure both compute.")
    source = st.radio("Data", SOURCES, horizontal=True, key="evaluate_files.source")
    files = inputs(source)
    left, mid, right, far = st.columns([3, 2, 1, 1])
    text = left.text_input("Measures", DEFAULT_MEASURES, key="evaluate_files.measures",
                           help="Ranklab notation (nDCG(dcg='exp-log2')@10) or trec_eval names (ndcg_cut_10)")
    conventions = ["trec_eval", *[n for n in metrics.conventions.PRESETS if n != "trec_eval"]]
    convention = mid.selectbox("Convention", conventions, key="evaluate_files.convention")
    depth = right.number_input("Depth (-M)", min_value=0, value=0, step=10, key="evaluate_files.depth",
                               help="0 = the whole ranking")
    dedup = far.selectbox("Duplicates", DEDUP, key="evaluate_files.dedup")
    complete = st.checkbox("Count judged queries missing from the run as 0 (trec_eval -c)",
                           key="evaluate_files.complete")
    error = None
    if files is not None:
        try:
            ms = measures_from(text, convention)
            st.session_state[LAST] = evaluate(files, ms, "zero" if complete else "skip",
                                              int(depth) or None, dedup)
        except (ValueError, TypeError) as err:
            error = str(err)
    elif source != SOURCES[0]:
        st.info("Give both files to evaluate them.")
    if error:
        st.error("These files could not be evaluated:")
        st.code(error, language=None)
    last = st.session_state.get(LAST)
    if last is not None:
        if error:
            st.caption("Showing the previous results.")
        show(last)


main()
