"""Evaluate files: a qrels file and a run (uploaded, pasted, or the bundled sample collection)."""

from __future__ import annotations

import gc
import io
from pathlib import Path

import pyarrow as pa
import streamlit as st

import metrics
import metrics.io
from metrics.batch import evaluate_batch, evaluate_stream
from metrics.io import DEDUP, FileFormatError
from metrics.io.source import format_size
from metrics.io.stream import STREAMABLE, NotGroupedError, RunStream, should_stream
from metrics.report import as_printed, notes, trec_summary_overrides, write
from metrics.trec_args import Asked, asked_from_line
from ranklab_ui.core import evaluation_view as view
from ranklab_ui.core.i18n import N_, _, shown
from ranklab_ui.core.views import escape_markdown
from ranklab_ui.session import state
from ranklab_ui.widgets import files as ui_files
from ranklab_ui.widgets.files import Source, file_source, read, text_source, upload_source

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "assets" / "collection"
SAMPLE_RUNS = {"BM25 (run_bm25.txt)": "run_bm25.txt", N_("TF baseline (run_tf.txt)"): "run_tf.txt"}
SOURCES = (N_("Sample collection"), N_("Upload files"), N_("Paste text"))
DEFAULT_MEASURES = "P@10 R@100 RR AP nDCG@10"
# the last good evaluation, kept when new input is malformed. It holds only what the page
# shows (numbers, links, the run's tag), never the files' bytes or parsed tables.
LAST = "evaluate_files.last"


def upload_limit_mb() -> int:
    return int(st.get_option("server.maxUploadSize"))


def max_bytes() -> int:
    """The most bytes a file may hold, plain or once decompressed (read at every call, so a
    test can lower it)."""
    return metrics.io.APP_MAX_BYTES


def inputs(source: str) -> tuple[Source, Source] | None:
    """The qrels and the run, or None while something is missing."""
    if source == SOURCES[0]:
        label = st.selectbox(_("Run"), list(SAMPLE_RUNS), format_func=shown(_), key="evaluate_files.sample_run")
        st.caption(_("324 short documents, 30 queries with graded judgments (0–3), two systems — "
                     "made by `assets/make_collection.py`."))
        return file_source(SAMPLE / "qrels.txt"), file_source(SAMPLE / SAMPLE_RUNS[label])
    if source == SOURCES[1]:
        limit = upload_limit_mb()
        st.caption(_("TREC qrels and runs, two-column `qid docid` lists, JSONL (Azure AI Search README), CSV/TSV with "
                     "named columns, each optionally `.gz`, `.bz2` or `.zst`; Parquet or Arrow files with "
                     "columns `qid`, `docid` and `grade` or `score`. Up to {limit} MB per file "
                     "(`server.maxUploadSize` in `.streamlit/config.toml`); a compressed file may expand to "
                     "at most {size}. A large run is read in blocks, with a progress bar.").format(
                         limit=limit, size=format_size(max_bytes())))
        left, right = st.columns(2)
        qrels_file = left.file_uploader(_("Qrels (judgments)"), key="evaluate_files.qrels_upload")
        run_file = right.file_uploader(_("Run"), key="evaluate_files.run_upload")
        if qrels_file is None or run_file is None:
            return None
        return upload_source(qrels_file), upload_source(run_file)
    left, right = st.columns(2)
    qrels_text = left.text_area(_("Qrels: `qid iter docid grade` per line"), key="evaluate_files.qrels_text",
                                height=180, placeholder="q1 0 d1 2\nq1 0 d2 0")
    run_text = right.text_area(_("Run: `qid Q0 docid rank score tag` (or `qid docid`) per line"),
                               key="evaluate_files.run_text", height=180,
                               placeholder="q1 Q0 d2 1 3.1 mine\nq1 Q0 d1 2 2.5 mine")
    if not qrels_text.strip() or not run_text.strip():
        return None
    return text_source("pasted qrels", qrels_text), text_source("pasted run", run_text)


def measures_from(text: str, convention: str) -> Asked:
    """The box's measures, read as ``ranklab evaluate -m`` reads them (one ``-m`` a word), then
    renamed by the convention chosen."""
    asked = asked_from_line(text)
    if convention != "trec_eval":
        asked.measures = [metrics.parse(metrics.conventions.apply(convention, m)) for m in asked.measures]
        asked.labels = {}
    return asked


def _links(qrels, run_of, per_query: dict, measures: list[str]) -> dict[str, str | None]:
    """The playground permalink code of every query shown among the worst and best of some
    measure (None when the query cannot become an example), made while the tables are read;
    ``run_of(qid)`` is the run (or the streamed chunk) holding the query."""
    wanted = dict.fromkeys(qid for m in measures for pairs in view.extremes(per_query, m) for qid, _ in pairs)
    links: dict[str, str | None] = {}
    for qid in wanted:
        try:
            links[qid] = state.permalink_params(view.query_example(qrels, run_of(qid), qid)).get(state.PARAM)
        except state.ExampleError:
            links[qid] = None
    return links


def evaluate(files: tuple[Source, Source], asked: Asked, missing: str, depth: int | None, dedup: str) -> dict:
    """Read both files, evaluate, and keep only the small results: the tables are dropped
    when this returns. The results are what ``ranklab evaluate`` prints for the same files and
    options (9.0.8's -c included: a judged query missing from the run is never scored)."""
    qrels_source, run_source = files
    ms = asked.measures
    with st.status(_("Reading and evaluating…"), expanded=False) as status:
        try:
            status.update(label=_("Reading {name} ({size} MB)…").format(name=escape_markdown(qrels_source.name),
                                                                         size=f"{qrels_source.size / 1e6:.1f}"))
            qrels = read("qrels", qrels_source, max_bytes=max_bytes())
            status.update(label=_("Reading {name} ({size} MB)…").format(name=escape_markdown(run_source.name),
                                                                         size=f"{run_source.size / 1e6:.1f}"))
            # the page's threshold is lower than the command line's (an upload is held in memory
            # already) and an upload's size is what it holds, compressed or not
            big = should_stream(run_source.name, size=run_source.size, threshold=ui_files.STREAM_BYTES - 1,
                                compression_ratio=1)
            streamed = _streamed(qrels, run_source, ms, missing, depth, dedup) if big else None
            if streamed is not None:
                result, run, chunk_of, in_run = streamed
                run_of = chunk_of.get
            else:
                run = read("run", run_source, dedup=dedup, max_bytes=max_bytes())
                status.update(label=_("Evaluating {n} lines…").format(n=f"{len(run):,}"))
                result = evaluate_batch(qrels, run, ms, missing=missing, depth=depth)
                run_of, in_run = {}.get, set(run.queries)
            complete = missing == "zero"
            result, hidden = as_printed(result, ms, qrels, in_run, complete)
            said = notes(result, qrels, in_run, complete)
            summary = trec_summary_overrides(ms, qrels, complete)
            names = [str(m) for m in ms]
            links = _links(qrels, lambda qid: run_of(qid, run), result.per_query, names)
        except Exception:
            status.update(label=_("Stopped: see the message below"), state="error")
            raise
        status.update(label=_("Read {lines} run lines and {judgments} judgments; evaluated {queries} queries").format(
            lines=f"{len(run):,}", judgments=f"{len(qrels):,}", queries=f"{len(result.per_query):,}"), state="complete")
    # the trec_eval text's extras: the queries it prints no line for, its summary lines that are
    # not the sum of the per-query ones, the labels of measures given parameters, and runid
    trec = {"hidden": hidden, "summary": summary, "labels": asked.labels, "runid": asked.runid}
    return {"result": result, "measures": names, "links": links, "tag": run.tag or None, "notes": said,
            "trec": trec, "names": (qrels_source.name, run_source.name)}


def _streamed(qrels, source: Source, ms, missing: str, depth: int | None, dedup: str):
    """A large run read in blocks of whole queries under a progress bar: (result, a summary of
    the run, the chunk of each query, the run's query ids), or None for a run that must be read whole (a format
    that does not stream, or queries not grouped)."""
    fmt = metrics.io.detect_format(source.name)
    if fmt not in STREAMABLE:
        return None
    stream = RunStream(source.data(), name=source.name, dedup=dedup, max_bytes=max_bytes())
    bar = st.progress(0.0, text=_("Reading the run…"))
    chunk_of = {}

    def follow():
        for chunk in stream:
            chunk_of.update(dict.fromkeys(chunk.queries, chunk))
            share = stream.bytes_read / stream.total_bytes if stream.total_bytes else 0.0
            bar.progress(min(share, 1.0), text=_("{lines} lines, {queries} queries read").format(
                lines=f"{stream.rows:,}", queries=f"{stream.queries:,}"))
            yield chunk

    try:
        result = evaluate_stream(qrels, follow(), ms, missing=missing, depth=depth)
    except NotGroupedError:
        return None
    finally:
        bar.empty()
    return result, _Summary(stream.rows, stream.tag), chunk_of, stream.seen


class _Summary:
    """What the page needs of a streamed run once it is evaluated: its size and tag."""

    queries: list[str] = []  # as an empty run, for a judged query the run does not hold

    def __init__(self, rows: int, tag: str | None):
        self.rows, self.tag = rows, tag

    def __len__(self) -> int:
        return self.rows


def show(last: dict) -> None:
    result = last["result"]
    names = last["measures"]
    ms = [metrics.parse(n) for n in names]
    qrels_name, run_name = last["names"]
    st.subheader(_("{run} against {qrels}").format(run=escape_markdown(run_name), qrels=escape_markdown(qrels_name)))
    for text in last["notes"]:
        st.warning(escape_markdown(text))
    if not result.per_query:
        st.info(_("No query is both judged and in the run, so there is nothing to average."))
        return
    st.dataframe([{_("measure"): n, _("trec_eval name"): m.trec_name or "—", _("mean") if m.family.aggregate == "mean"
                   else _("sum"): result.aggregate[n]} for n, m in zip(names, ms, strict=True)],
                 hide_index=True, key="evaluate_files.aggregate")
    st.markdown(_("**Per query** ({n} queries; click a column to sort)").format(n=f"{len(result.per_query):,}"))
    st.dataframe(view.per_query_rows(result.per_query, names), hide_index=True, height=300,
                 key="evaluate_files.per_query")
    measure = st.selectbox(_("Distribution of"), names, key="evaluate_files.measure")
    st.altair_chart(view.distribution_chart(result.per_query, measure), width="stretch")
    worst, best = view.extremes(result.per_query, measure)
    left, right = st.columns(2)
    for column, title, pairs in ((left, _("Worst queries"), worst), (right, _("Best queries"), best)):
        column.markdown(_("**{title}** on {measure}").format(title=title, measure=escape_markdown(measure)))
        for qid, value in pairs:
            code = last["links"].get(qid)
            # the playground is the app's default page, served at the root; the code is base64url
            link = _("[open in the playground]({link})").format(link=f"./?{state.PARAM}={code}") if code else ""
            column.markdown(f"{escape_markdown(qid)} — {metrics.num(value, fixed=True)} {link}")

    def printed(fmt: str):   # what `ranklab evaluate -q --format FMT` prints
        def text() -> str:
            out = io.StringIO()
            extras = last["trec"]
            write(out, fmt, ms, result, True, tag=last["tag"] if extras["runid"] else None, notes=last["notes"],
                  summary=extras["summary"], hidden=extras["hidden"], labels=extras["labels"])
            return out.getvalue()
        return text

    # made when clicked, not held in the session on every rerun
    a, b, c = st.columns(3)
    a.download_button(_("Download CSV"), printed("csv"), "evaluation.csv", "text/csv", key="evaluate_files.csv",
                      on_click="ignore")
    b.download_button(_("Download JSON"), printed("json"), "evaluation.json", "application/json", key="evaluate_files.json",
                      on_click="ignore")
    c.download_button(_("Download trec_eval text"), printed("trec"), "evaluation.trec.txt", "text/plain",
                      key="evaluate_files.trec", on_click="ignore")


def release_memory() -> None:
    """Hand the memory of the tables just read back to the system: Arrow's allocator keeps
    freed blocks for reuse otherwise, and a session would go on holding them."""
    gc.collect()
    pa.default_memory_pool().release_unused()


def page() -> None:
    st.title(_("Evaluate files"))
    st.write(_("Evaluate a whole run against its judgments, as `ranklab evaluate` does: the same "
               "numbers as trec_eval (pytrec_eval) for every measure both compute."))
    source = st.radio(_("Data"), SOURCES, horizontal=True, format_func=shown(_), key="evaluate_files.source")
    files = inputs(source)
    left, mid, right, far = st.columns([3, 2, 1.5, 1.5])
    text = left.text_input(_("Measures"), DEFAULT_MEASURES, key="evaluate_files.measures",
                           help=_("Separated by spaces, each as `ranklab evaluate -m` reads it: Ranklab notation "
                                  "(nDCG(dcg='exp-log2')@10) or trec_eval's (ndcg_cut_10, ndcg_cut.5,10, map)"))
    conventions = ["trec_eval", *[n for n in metrics.conventions.PRESETS if n != "trec_eval"]]
    convention = mid.selectbox(_("Convention"), conventions, key="evaluate_files.convention")
    depth = right.number_input(_("Depth (-M)"), min_value=0, value=0, step=10, key="evaluate_files.depth",
                               help=_("0 = the whole ranking"))
    dedup = far.selectbox(_("Duplicates"), DEDUP, key="evaluate_files.dedup")
    complete = st.checkbox(_("Count judged queries missing from the run as 0 (trec_eval -c)"),
                           key="evaluate_files.complete")
    asked = measure_box(left, text, convention)
    error = hint = None
    last = st.session_state.get(LAST)
    if files is not None and asked is not None:
        try:
            options = ("zero" if complete else "skip", int(depth) or None, dedup)
            wanted = (files[0].key, files[1].key, tuple(str(m) for m in asked.measures), asked.runid,
                      tuple(asked.labels.items()), options, max_bytes())
            if last is None or last.get("key") != wanted:   # a rerun for a widget below reads nothing again
                try:
                    last = evaluate(files, asked, *options)
                finally:
                    release_memory()
                last["key"] = wanted
                st.session_state[LAST] = last
        except FileFormatError as err:
            error, hint = view.grouped_problems(err), swapped(files, err)
        except (ValueError, TypeError, OSError) as err:
            error = str(err)
    elif files is None and source != SOURCES[0]:
        st.info(_("Give both files to evaluate them."))
    if error:
        st.error(_("These files could not be evaluated:"))
        st.code(error, language=None, wrap_lines=True)
        if hint:
            st.warning(hint)
    if last is not None:
        if error or asked is None:
            st.caption(_("Showing the previous results."))
        show(last)


def measure_box(column, text: str, convention: str) -> Asked | None:
    """The measures asked for, or None with the reason shown under the box (the files are
    not to blame for a measure's name)."""
    try:
        asked = measures_from(text, convention)
    except (ValueError, TypeError) as err:   # the message names the measure, as on the command line
        column.error(escape_markdown(str(err)))
        return None
    if not asked.measures:
        column.error(_("Give a measure to compute: runid and relstring are printed, not computed."))
        return None
    if asked.relstring is not None:
        column.caption(_("relstring is printed by the command line only (`ranklab evaluate -q`)."))
    return asked


def swapped(files: tuple[Source, Source], err: FileFormatError) -> str | None:
    """A hint when the file that failed looks like the other kind (a run given as qrels, or
    qrels given as the run)."""
    qrels, run = files
    if err.source == qrels.name and view.looks_like(qrels.data()) == "run":
        return _("{name}: this looks like a run file (6 columns: qid Q0 docid rank score tag); did you swap "
                 "qrels and run?").format(name=escape_markdown(qrels.name))
    if err.source == run.name and view.looks_like(run.data()) == "qrels":
        return _("{name}: this looks like a qrels file (4 columns: qid iter docid grade); did you swap "
                 "qrels and run?").format(name=escape_markdown(run.name))
    return None


def main() -> None:
    """The page, with any unexpected error shown as a message instead of a traceback."""
    try:
        page()
    except Exception as err:   # noqa: BLE001 - the last line of defence: no traceback reaches a user
        st.error(_("Something went wrong on this page. The message below says what; the files were not changed."))
        st.code(f"{type(err).__name__}: {str(err)[:2000]}", language=None)


main()
