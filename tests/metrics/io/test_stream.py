"""Streaming a run in blocks gives exactly the in-memory answer, and pytrec_eval's.

Block sizes are forced small (tens of bytes) so that queries straddle blocks, and a query
is sometimes longer than a block.
"""

from __future__ import annotations

import bz2
import gzip
import random

import pyarrow as pa
import pytest
import pytrec_eval

from metrics.batch import evaluate_batch, evaluate_stream
from metrics.io import FileFormatError, read_qrels, read_run
from metrics.io.keys import doc_hashes, pair_keys
from metrics.io.stream import RunStream

MEASURES = ["P@5", "R", "F1@3", "Success@2", "RR", "AP", "AP@5", "nDCG", "nDCG@5", "nDCG(dcg='exp-log2')@5",
            "nDCG(ideal='ranking')", "DCG@3", "CG", "IDCG@4", "Rprec", "Bpref", "IPrec@0.3", "11pt", "NumRet",
            "NumRel", "NumRelRet", "NumQ", "P(rel=2)@5"]


def random_files(tmp_path, seed: int, *, queries=12, docs=20, layout=True):
    """A qrels file and a run file grouped by query, with ties, -1 grades, odd spacing and comments."""
    rng = random.Random(seed)
    names = [f"d{i}" for i in range(docs)]
    qids = [f"q{i}" for i in range(queries)]
    qrels_lines, run_lines = [], []
    for qid in rng.sample(qids, len(qids)):
        if rng.random() < 0.85:
            for d in rng.sample(names, rng.randint(0, docs)):
                qrels_lines.append(f"{qid} 0 {d} {rng.choice([-1, 0, 0, 1, 2, 3])}")
    order = [q for q in qids if rng.random() < 0.85] + ["unjudged"] * (rng.random() < 0.3)
    for qid in order:
        picked = rng.sample(names, rng.randint(1, docs))
        rows = [f"{qid} Q0 {d} {r} {rng.randint(0, 5) / 2} tag" for r, d in enumerate(picked, 1)]
        rng.shuffle(rows)  # within a query, any order
        run_lines += rows
    if layout:  # comments, tabs, blank lines and CRLF: the careful passes, block by block
        for _ in range(3):
            run_lines.insert(rng.randint(0, len(run_lines)), rng.choice(["# note", "", "   "]))
        run_lines = [line.replace(" ", "\t", 1) if rng.random() < 0.1 else line for line in run_lines]
    ending = "\r\n" if layout and rng.random() < 0.3 else "\n"
    q, r = tmp_path / "qrels.txt", tmp_path / "run.txt"
    q.write_text("\n".join(qrels_lines) + "\n" if qrels_lines else "q0 0 d0 0\n")
    r.write_bytes((ending.join(run_lines) + ending).encode())
    return q, r


def assert_identical(got, want):
    assert list(got.per_query) == list(want.per_query)
    assert got.per_query == want.per_query  # exactly, not approximately
    assert got.aggregate == want.aggregate
    assert got.missing_from_run == want.missing_from_run
    assert got.missing_from_qrels == want.missing_from_qrels


@pytest.mark.parametrize("seed", range(40))
def test_streaming_equals_the_in_memory_path_exactly(tmp_path, seed):
    q, r = random_files(tmp_path, seed)
    qrels, run = read_qrels(q), read_run(r)
    block = random.Random(seed).choice([7, 23, 64, 200, 1 << 20])
    for missing in ("skip", "zero"):
        for depth in (None, 3):
            want = evaluate_batch(qrels, run, MEASURES, missing=missing, depth=depth)
            got = evaluate_stream(qrels, RunStream(r, block_size=block), MEASURES, missing=missing, depth=depth)
            assert_identical(got, want)


def test_a_query_longer_than_many_blocks(tmp_path):
    lines = [f"q1 Q0 d{i} {i} {1000 - i} t" for i in range(300)] + ["q2 Q0 d1 1 5 t", "q2 Q0 d2 2 5 t"]
    r = tmp_path / "run.txt"
    r.write_text("\n".join(lines) + "\n")
    q = tmp_path / "qrels.txt"
    q.write_text("q1 0 d299 1\nq1 0 d5 2\nq2 0 d1 1\n")
    stream = RunStream(r, block_size=50)
    chunks = list(stream)
    assert [c.queries for c in chunks] == [["q1"], ["q2"]]
    assert len(chunks[0]) == 300 and stream.rows == 302 and stream.queries == 2
    got = evaluate_stream(read_qrels(q), RunStream(r, block_size=50), "AP RR NumRet")
    # q1: relevant at ranks 6 (d5) and 300 (d299): AP = (1/6 + 2/300) / 2; q2: d1 and d2 tie, d2 first
    assert got.per_query["q1"]["AP"] == pytest.approx((1 / 6 + 2 / 300) / 2, abs=1e-15)
    assert got.per_query["q2"]["RR"] == 0.5
    assert got.aggregate["NumRet"] == 302


def test_keys_made_in_the_parsing_threads_equal_keys_made_from_the_chunk(tmp_path):
    # ids of several widths, queries spanning blocks: each chunk's cached keys (document hashes
    # made per parsed block) must equal the keys computed afresh from the chunk's own columns
    rng = random.Random(7)
    lines = [f"q{q} Q0 {'d' * rng.randint(1, 3)}{rng.randint(0, 10**rng.randint(1, 9))}x{i} {i} {-i} t"
             for q in range(20) for i in range(rng.randint(1, 60))]
    r = tmp_path / "run.txt"
    r.write_text("\n".join(lines) + "\n")
    chunks = list(RunStream(r, block_size=256))
    assert len(chunks) > 3 and sum(len(c) for c in chunks) == len(lines)
    for chunk in chunks:
        assert "keys" in chunk._cache
        fresh = pair_keys(chunk.query, doc_hashes(chunk.doc.combine_chunks()))
        assert chunk.pair_keys().tolist() == fresh.tolist()


def test_list_runs_keep_file_order_across_blocks(tmp_path):
    r = tmp_path / "list.txt"
    r.write_text("".join(f"q1 d{i}\n" for i in range(40)))
    chunk, = list(RunStream(r, block_size=16))
    assert chunk.score.tolist() == [-float(i) for i in range(40)]


def test_a_duplicate_across_a_block_boundary_names_both_lines(tmp_path):
    r = tmp_path / "run.txt"
    r.write_text("q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\nq1 Q0 a 4 0 t\nq2 Q0 a 1 1 t\n")
    with pytest.raises(FileFormatError, match=r"run\.txt:1: query q1: document 'a' appears 2 times \(lines 1 and 4\)"):
        list(RunStream(r, block_size=20))
    chunks = list(RunStream(r, block_size=20, dedup="max"))
    assert chunks[0].doc.to_pylist() == ["a", "b", "c"] and chunks[0].score.tolist() == [3.0, 2.0, 1.0]


def test_an_interleaved_run_is_refused_with_the_line_and_how_to_sort_it(tmp_path):
    r = tmp_path / "run.txt"
    r.write_text("# header\nq1 Q0 a 1 3 t\nq2 Q0 b 1 2 t\nq2 Q0 c 2 1 t\nq1 Q0 d 2 1 t\n")
    with pytest.raises(FileFormatError) as err:
        list(RunStream(r, block_size=30))
    text = str(err.value)
    assert text.startswith(f"{r}:5: query 'q1' appears again after other queries")
    assert "sort -s -k1,1" in text
    with pytest.raises(FileFormatError, match=":5: query 'q1' appears again"):  # whatever the block size
        list(RunStream(r))


def test_a_malformed_line_in_a_later_block_is_named_by_its_file_line(tmp_path):
    r = tmp_path / "run.txt"
    good = "".join(f"q{i} Q0 d 1 1.5 t\n" for i in range(10))
    r.write_text(good + "q10 Q0 d 1 nan t\nq11 Q0 d\n")
    with pytest.raises(FileFormatError) as err:
        list(RunStream(r, block_size=40))
    assert str(err.value).splitlines() == [
        f"{r}:11: score 'nan' is not a finite number", f"{r}:12: expected 6 columns (qid Q0 docid rank score tag), found 3"]


@pytest.mark.parametrize("text, reason", [("", "the file is empty"), ("# only\n\n# comments\n", "no data lines")])
def test_empty_runs(tmp_path, text, reason):
    r = tmp_path / "run.txt"
    r.write_text(text)
    with pytest.raises(FileFormatError, match=reason):
        list(RunStream(r, block_size=8))


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".zst"])
def test_compressed_runs_stream_to_the_same_answer(tmp_path, suffix):
    q, r = random_files(tmp_path, 3, queries=30, layout=False)
    data = r.read_bytes()
    packed = tmp_path / ("run.txt" + suffix)
    if suffix == ".gz":
        packed.write_bytes(gzip.compress(data))
    elif suffix == ".bz2":
        packed.write_bytes(bz2.compress(data[:100]) + bz2.compress(data[100:]))  # two streams
    else:
        with pa.CompressedOutputStream(str(packed), "zstd") as out:
            out.write(data)
    qrels = read_qrels(q)
    want = evaluate_batch(qrels, read_run(r), MEASURES)
    assert_identical(evaluate_stream(qrels, RunStream(packed, block_size=64), MEASURES), want)
    assert_identical(evaluate_batch(qrels, read_run(packed), MEASURES), want)
    stream = RunStream(packed, block_size=64)
    list(stream)
    assert stream.bytes_read == packed.stat().st_size


@pytest.mark.parametrize("suffix", [".bz2", ".zst"])
def test_damaged_compressed_files_say_so(tmp_path, suffix):
    q, r = random_files(tmp_path, 4, layout=False)
    packed = tmp_path / ("run.txt" + suffix)
    if suffix == ".bz2":
        packed.write_bytes(bz2.compress(r.read_bytes())[:-20])
    else:
        packed.write_bytes(b"(\xb5/\xfd" + bytes(range(60)))
    with pytest.raises(FileFormatError, match="cannot decompress"):
        list(RunStream(packed, block_size=64))
    with pytest.raises(FileFormatError, match="cannot decompress"):
        read_run(packed)


def test_streaming_agrees_with_pytrec_eval(tmp_path):
    q, r = random_files(tmp_path, 9, queries=40, docs=30, layout=False)
    got = evaluate_stream(read_qrels(q), RunStream(r, block_size=100), ["P@5", "AP", "nDCG@10", "RR", "Bpref"])
    qrels, run = {}, {}
    for line in q.read_text().split("\n"):
        if line:
            qid, _, doc, grade = line.split()
            qrels.setdefault(qid, {})[doc] = int(grade)
    for line in r.read_text().split("\n"):
        if line:
            qid, _, doc, _, score, _ = line.split()
            run.setdefault(qid, {})[doc] = float(score)
    ref = pytrec_eval.RelevanceEvaluator(qrels, {"P.5", "map", "ndcg_cut.10", "recip_rank", "bpref"}).evaluate(run)
    pairs = {"P_5": "P@5", "map": "AP", "ndcg_cut_10": "nDCG@10", "recip_rank": "RR", "bpref": "Bpref"}
    assert set(ref) == set(got.per_query)
    for qid, values in ref.items():
        for theirs, ours in pairs.items():
            assert got.per_query[qid][ours] == pytest.approx(values[theirs], abs=1e-12), (qid, ours)


def test_a_pipe_is_read_once(tmp_path):
    import os
    import threading

    q, r = random_files(tmp_path, 6, layout=False)
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(r.read_bytes()))
    writer.start()
    try:
        got = evaluate_stream(read_qrels(q), RunStream(fifo, block_size=100), MEASURES)
    finally:
        writer.join(timeout=10)
    assert_identical(got, evaluate_batch(read_qrels(q), read_run(r), MEASURES))


def test_the_judgment_lookup_survives_crafted_probe_chains(monkeypatch):
    """Keys that all land in one hash slot: the probing gives up and the binary search finds them."""
    import numpy as np
    import pyarrow as pa

    from metrics.io import keys

    monkeypatch.setattr(keys, "MAX_PROBES", 3)
    inverse = pow(0x9E3779B97F4A7C15, -1, 2**64)  # key * GOLD = C + i: every key in one slot
    qkeys = np.array([(((1 << 60) + i) * inverse) % 2**64 for i in range(40)], dtype=np.uint64)
    with np.errstate(over="ignore"):
        assert len(set(((qkeys * keys._GOLD) >> np.uint64(50)).tolist())) == 1
    docs = pa.chunked_array([[f"d{i}" for i in range(40)]])
    codes = np.zeros(40, dtype=np.int64)
    run_rows = np.array([39, 0, 17, 5, 17], dtype=np.int64)  # judged docs, one asked twice
    rkeys = np.concatenate([qkeys[run_rows], np.array([999], np.uint64)])
    rdocs = pa.chunked_array([[f"d{i}" for i in run_rows] + ["other"]])
    rows, judged = keys.lookup(rkeys, rdocs, np.zeros(6, np.int64), qkeys, docs, codes)
    assert rows.tolist() == [0, 1, 2, 3, 4] and judged.tolist() == run_rows.tolist()


@pytest.mark.parametrize("seed", range(30))
def test_duplicate_groups_against_a_dictionary(seed, monkeypatch):
    """The per-query sort finds exactly the repeated (query, document) pairs a dict counts."""
    import numpy as np
    import pyarrow as pa

    from metrics.io import keys

    if seed % 2:
        monkeypatch.setattr(keys, "BLOCK", 50)  # many slices of whole queries, some of one long query

    rng = random.Random(seed)
    grouped = seed % 3 != 0  # every third case interleaved: the one-sort path
    rows = []
    for q in range(rng.randint(1, 8)):
        rows += [(q, f"d{rng.randint(0, 30)}") for _ in range(rng.choice([1, 5, 40, 200]))]
    if not grouped:
        rng.shuffle(rows)
    codes = np.array([q for q, _ in rows], dtype=np.int32)
    docs = pa.chunked_array([[d for _, d in rows]])
    key = keys.pair_keys(codes, keys.doc_hashes(docs))
    if seed % 5 == 0:  # keys equal to the padding value must still be found
        key[:] = np.uint64(2**64 - 1)
    got = sorted(tuple(g.tolist()) for g in keys.duplicate_groups(codes, docs, key))
    where: dict = {}
    for i, pair in enumerate(rows):
        where.setdefault(pair, []).append(i)
    assert got == sorted(tuple(v) for v in where.values() if len(v) > 1)


def test_the_choice_to_stream(tmp_path):
    """One rule for the CLI and the app: streamable formats only, as asked, else by size as read."""
    from metrics.io.stream import COMPRESSION_RATIO, STREAM_THRESHOLD, should_stream

    assert STREAM_THRESHOLD == 256 * 2**20 and COMPRESSION_RATIO == 5
    assert not should_stream("run.txt", size=STREAM_THRESHOLD)  # larger than, not equal to
    assert should_stream("run.txt", size=STREAM_THRESHOLD + 1)
    assert should_stream("run.list", format="list", size=11, threshold=10)
    # compressed or Parquet: 3 stored bytes count as 15, over 10; a plain 3 bytes do not
    assert should_stream("run.txt.zst", size=3, threshold=10)
    assert should_stream("run.parquet", size=3, threshold=10)
    assert not should_stream("run.txt", size=3, threshold=10)
    assert not should_stream("run.txt.gz", size=3, threshold=10, compression_ratio=1)
    # asked: decides for a streamable format, and is refused for another
    assert should_stream("run.txt", size=0, asked=True) and not should_stream("run.txt", size=10**12, asked=False)
    assert not should_stream("run.jsonl", size=10**12) and not should_stream("run.csv", size=10**12, asked=False)
    with pytest.raises(ValueError, match="csv files are read whole"):
        should_stream("run.csv", size=1, asked=True)
    # the size of a file is read from it; one that cannot be read is read whole (its reader says why)
    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 a 1 1 t\n")
    assert should_stream(path, threshold=13) and not should_stream(path, threshold=14)
    assert not should_stream(tmp_path / "absent.txt", threshold=0)
