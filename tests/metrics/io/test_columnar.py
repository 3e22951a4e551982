"""Parquet and Arrow IPC qrels and runs: the same numbers as the TREC files they hold,
row-numbered messages for bad values, and no traceback on damaged files (fuzzed)."""

from __future__ import annotations

import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from metrics import cli
from metrics.batch import evaluate_batch, evaluate_stream
from metrics.io import FileFormatError, columnar, read_qrels, read_run
from metrics.io.columnar import qrels_from_arrow, run_from_arrow
from metrics.io.stream import RunStream
from tests.metrics.io.test_stream import MEASURES, assert_identical, random_files


def tables_of(q, r):
    """The TREC files' columns, parsed independently of Ranklab (str.split)."""
    qrels = [line.split() for line in q.read_text().splitlines() if line.strip()]
    run = [line.split() for line in r.read_text().splitlines() if line.strip() and not line.lstrip().startswith("#")]
    qt = pa.table({"qid": [x[0] for x in qrels], "docid": [x[2] for x in qrels], "grade": [int(x[3]) for x in qrels]})
    rt = pa.table({"query_id": [x[0] for x in run], "doc_id": [x[2] for x in run],
                   "score": [float(x[4]) for x in run], "extra": ["x"] * len(run)})
    return qt, rt


def write(table: pa.Table, path, fmt: str):
    if fmt == "parquet":
        pq.write_table(table, path, row_group_size=7)  # small row groups: batches split queries
    elif fmt == "arrow":
        with pa.ipc.new_file(str(path), table.schema) as w:
            for b in table.to_batches(max_chunksize=5):
                w.write_batch(b)
    else:
        with pa.ipc.new_stream(str(path), table.schema) as w:
            w.write_table(table, max_chunksize=5)
    return path


SUFFIX = {"parquet": ".parquet", "arrow": ".arrow", "arrows": ".arrows"}


@pytest.mark.parametrize("fmt", ["parquet", "arrow", "arrows"])
@pytest.mark.parametrize("seed", range(6))
def test_columnar_files_give_the_numbers_of_the_trec_files(tmp_path, monkeypatch, fmt, seed):
    monkeypatch.setattr(columnar, "BATCH_ROWS", 6)
    q, r = random_files(tmp_path, seed, layout=False)
    qt, rt = tables_of(q, r)
    qp = write(qt, tmp_path / f"qrels{SUFFIX[fmt]}", fmt)
    rp = write(rt, tmp_path / f"run{SUFFIX[fmt]}", fmt)
    for missing in ("skip", "zero"):
        want = evaluate_batch(read_qrels(q), read_run(r), MEASURES, missing=missing)
        qrels = read_qrels(qp)
        assert_identical(evaluate_batch(qrels, read_run(rp), MEASURES, missing=missing), want)
        assert_identical(evaluate_stream(qrels, RunStream(rp), MEASURES, missing=missing), want)


def test_integer_query_ids_match_the_trec_text(tmp_path):
    pq.write_table(pa.table({"qid": pa.array([7, 7, 12], pa.int16()), "docid": ["a", "b", "a"],
                             "grade": pa.array([1, 0, 2], pa.uint8())}), tmp_path / "q.parquet")
    (tmp_path / "r.txt").write_text("7 Q0 b 1 2 t\n7 Q0 a 2 1 t\n12 Q0 a 1 1 t\n")
    e = evaluate_batch(read_qrels(tmp_path / "q.parquet"), read_run(tmp_path / "r.txt"), "RR")
    assert e.per_query == {"7": {"RR": 0.5}, "12": {"RR": 1.0}}  # a at rank 2 for 7, rank 1 for 12


def test_rank_column_without_score(tmp_path):
    pq.write_table(pa.table({"qid": ["q", "q", "q"], "docid": ["a", "b", "c"], "rank": [3, 1, 2]}), tmp_path / "r.pq")
    run = read_run(tmp_path / "r.pq")
    assert run.score.tolist() == [-3.0, -1.0, -2.0]  # rank 1 is the best


@pytest.mark.parametrize("table, message", [
    (pa.table({"qid": ["q", None, "q"], "docid": ["a", "b", "c"], "score": [1.0, 2.0, 3.0]}),
     "run.parquet: row 2: missing query id (null)"),
    (pa.table({"qid": ["q", "q"], "docid": ["a", ""], "score": [1.0, 2.0]}), "run.parquet: row 2: empty document id"),
    (pa.table({"qid": ["q", "q"], "docid": ["a", "b"], "score": [1.0, float("nan")]}),
     "run.parquet: row 2: score nan is not a finite number"),
    (pa.table({"qid": ["q", "q"], "docid": ["a", "b"], "score": [1.0, None]}), "run.parquet: row 2: missing score (null)"),
    (pa.table({"qid": ["q"], "docid": ["a"], "score": ["high"]}),
     "run.parquet: column 'score' has type string, expected an integer type or a floating-point type"),
    (pa.table({"question": ["q"], "docid": ["a"], "score": [1.0]}), "run.parquet: no qid column"),
    (pa.table({"qid": pa.array([], pa.string()), "docid": pa.array([], pa.string()), "score": pa.array([], pa.float64())}),
     "run.parquet: no rows"),
    (pa.table({"qid": ["q", "q"], "docid": ["a", "a"], "score": [1.0, 2.0]}),
     "run.parquet:1: query q: document 'a' appears 2 times (rows 1 and 2)"),
])
def test_bad_runs_name_the_row(tmp_path, table, message):
    path = tmp_path / "run.parquet"
    pq.write_table(table, path)
    for read in (lambda: read_run(path), lambda: list(RunStream(path))):
        with pytest.raises(FileFormatError) as err:
            read()
        assert str(err.value).startswith(message.replace("run.parquet", str(path)))


@pytest.mark.parametrize("grades, message", [
    (pa.array([1.0, 2.0]), "column 'grade' has type double, expected an integer type"),
    (pa.array([1, 2**40]), f"row 2: grade {2**40} is out of range"),
    (pa.array([1, 2**63 + 5], pa.uint64()), f"row 2: grade {2**63 + 5} is out of range"),
])
def test_bad_qrels_name_the_row(tmp_path, grades, message):
    path = tmp_path / "q.arrow"
    write(pa.table({"qid": ["q", "q"], "docid": ["a", "b"], "grade": grades}), path, "arrow")
    with pytest.raises(FileFormatError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_qrels(path)


def test_a_decoded_file_larger_than_the_limit_is_refused(tmp_path):
    path = tmp_path / "run.parquet"
    n = 20_000  # one id repeated: a few hundred bytes compressed, over 100 kB decoded
    pq.write_table(pa.table({"qid": ["q"] * n, "docid": ["d" * 8] * n, "score": [1.0] * n}), path,
                   compression="zstd")
    assert path.stat().st_size < 30_000
    with pytest.raises(FileFormatError, match=r"larger than 29.3 KB once decompressed \(limit 29.3 KB\)"):
        read_run(path, max_bytes=30_000)


def test_interleaved_parquet_runs_stream_with_a_row_number(tmp_path):
    path = tmp_path / "run.parquet"
    pq.write_table(pa.table({"qid": ["a", "b", "a"], "docid": ["x", "y", "z"], "score": [3.0, 2.0, 1.0]}), path)
    with pytest.raises(FileFormatError, match=r"run\.parquet: row 3: query 'a' appears again .*sort_by\('qid'\)"):
        list(RunStream(path))


def test_arrow_tables_in_memory_for_a_distributed_engine():
    q = qrels_from_arrow(pa.table({"qid": ["1", "1"], "docid": ["a", "b"], "grade": [1, 0]}))
    r = run_from_arrow(pa.record_batch({"qid": ["1", "1"], "docid": ["b", "a"], "score": [2.0, 1.0]}))
    assert evaluate_batch(q, r, "RR").per_query == {"1": {"RR": 0.5}}


def test_fuzzed_columnar_files_never_crash(tmp_path, capsys):
    """Byte flips, truncations and inserted bytes in Parquet and Arrow files (fixed seed)."""
    rng = random.Random(1717)
    q, r = random_files(tmp_path, 1, layout=False)
    qt, rt = tables_of(q, r)
    seeds = {}
    for fmt in SUFFIX:
        seeds[("run", fmt)] = write(rt, tmp_path / f"seed_run{SUFFIX[fmt]}", fmt).read_bytes()
        seeds[("qrels", fmt)] = write(qt, tmp_path / f"seed_qrels{SUFFIX[fmt]}", fmt).read_bytes()
    outcomes = {"ok": 0, "error": 0}
    for i in range(240):
        (role, fmt), data = rng.choice(sorted(seeds.items()))
        data = bytearray(data)
        how = rng.choice(["flip", "truncate", "insert", "zero"])
        if how == "flip":
            for _ in range(rng.randint(1, 8)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        elif how == "truncate":
            data = data[: rng.randrange(len(data))]
        elif how == "insert":
            at = rng.randrange(len(data))
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        else:
            at = rng.randrange(len(data))
            data[at: at + rng.randint(1, 64)] = bytes(64)
        path = tmp_path / f"case{i}{SUFFIX[fmt]}"
        path.write_bytes(bytes(data))
        args = [str(path), str(r)] if role == "qrels" else [str(q), str(path)]
        for extra in ([], ["--stream"]) if role == "run" else ([],):
            code = cli.main(["evaluate", *args, "-m", "AP", "--max-bytes", "50M", *extra])
            out, err = capsys.readouterr()
            assert code in (0, 1), (i, how, err)
            assert "Traceback" not in err
            if code == 1:
                assert err.startswith(f"ranklab: error: {path}") and err.count("\n") <= 25, err
            outcomes["ok" if code == 0 else "error"] += 1
    assert outcomes["ok"] and outcomes["error"]  # both kinds of outcome were exercised


def test_fuzzed_streamed_text_runs_never_crash(tmp_path, capsys):
    """Mutated TREC runs read in tiny blocks give a file:line error or a value, never a traceback."""
    rng = random.Random(1718)
    q, r = random_files(tmp_path, 2)
    clean = r.read_bytes()
    pieces = [b" ", b"\t", b"\n", b"\r", b"#", b"\xff", b"nan", b"0x10", b"q1 Q0 d1 1 1 t\n", b"\x00"]
    for i in range(120):
        data = bytearray(clean)
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(len(data) + 1)
            data[at:at + rng.randint(0, 3)] = rng.choice(pieces)
        path = tmp_path / f"case{i}.txt"
        path.write_bytes(bytes(data))
        stream = RunStream(path, block_size=rng.choice([5, 17, 64, 1000]))
        try:
            evaluate_stream(read_qrels(q), stream, ["AP", "P@5"])
        except FileFormatError as err:
            assert str(err).startswith(str(path))
        else:
            # a mutation that leaves a valid, grouped run: the whole-file reader agrees exactly
            whole = evaluate_batch(read_qrels(q), read_run(path), ["AP", "P@5"])
            assert_identical(evaluate_stream(read_qrels(q), RunStream(path, block_size=7), ["AP", "P@5"]), whole)


def test_evaluate_arrow_groups_merge_to_the_whole_run(tmp_path):
    """Per-query groups as Arrow tables (as a distributed engine hands them over), merged:
    the in-memory numbers exactly, -c included (a judged query with an empty run group)."""
    import pyarrow.compute as pc

    from metrics.batch import evaluate_arrow, merge_parts

    q, r = random_files(tmp_path, 8, queries=15, layout=False)
    qt, rt = tables_of(q, r)
    rt = rt.rename_columns(["qid", "docid", "score", "extra"])
    qrels = read_qrels(q)
    for missing in ("skip", "zero"):
        want = evaluate_batch(qrels, read_run(r), MEASURES, missing=missing)
        parts = []
        for qid in qrels.queries:
            group = evaluate_arrow(qt.filter(pc.equal(qt["qid"], qid)), rt.filter(pc.equal(rt["qid"], qid)),
                                   MEASURES, missing=missing)
            parts.append((group["qid"].to_pylist(), {m: group[m].to_numpy() for m in group.column_names[1:]}))
        got = merge_parts(MEASURES, parts, qrels.queries)
        assert got.per_query == want.per_query and got.aggregate == want.aggregate
