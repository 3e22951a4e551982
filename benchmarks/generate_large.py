"""Generate a large benchmark collection fast and in bounded memory (issue 17).

    python benchmarks/generate_large.py --lines 100_000_000 --out /tmp/ranklab-stream/100m
    python benchmarks/generate_large.py --lines 10_000_000 --judged-share 0.2 --out /tmp/ranklab-stream/10m-dense

Writes ``OUT/run.txt`` (queries of ``--depth`` documents each, ``qid Q0 doc rank score tag``,
grouped by query in rank order, scores rounded to 4 decimals so that some tie) and
``OUT/qrels.txt``, the same layout and distributions as :mod:`benchmarks.generate`, one batch
of queries at a time (so 100M lines take the memory of one batch). ``--judged-share 0.2``
judges a fifth of every ranking (dense judgments) instead of about 5 documents per query.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.generate import CORPUS, judgments

BATCH_QUERIES = 1_000


def names(prefix: str, codes: np.ndarray, width: int) -> pa.Array:
    """``prefix`` + zero-padded decimal codes, built as one Arrow buffer (no Python strings)."""
    n = len(codes)
    digits = np.zeros((n, width), dtype=np.uint8)
    rest = codes.astype(np.int64)
    for i in range(width - 1, -1, -1):
        digits[:, i] = rest % 10 + 48
        rest //= 10
    body = np.concatenate([np.full((n, len(prefix)), np.frombuffer(prefix.encode(), np.uint8)), digits], axis=1)
    size = len(prefix) + width
    offsets = np.arange(0, (n + 1) * size, size, dtype=np.int32)
    return pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(offsets), pa.py_buffer(body.tobytes())])


def write(out, columns: dict[str, pa.Array]) -> None:
    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    pacsv.write_csv(pa.table(columns), out, options)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=lambda s: int(s.replace("_", "")), default=10_000_000)
    parser.add_argument("--depth", type=int, default=1_000)
    parser.add_argument("--judged", type=int, default=5, help="judged documents per query (sparse)")
    parser.add_argument("--judged-share", type=float, default=None,
                        help="judge this share of every ranking instead (dense), e.g. 0.2")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    depth = args.depth
    total_queries = args.lines // depth
    start_time = time.perf_counter()
    judgments_written = 0
    with pa.OSFile(str(args.out / "run.txt"), "wb") as run_out, pa.OSFile(str(args.out / "qrels.txt"), "wb") as qrels_out:
        for first in range(0, total_queries, BATCH_QUERIES):
            nq = min(BATCH_QUERIES, total_queries - first)
            qids = np.arange(first + 1, first + nq + 1)
            start = rng.integers(0, CORPUS, nq)
            step = rng.integers(1, CORPUS // depth, nq)
            docs = (start[:, None] + step[:, None] * np.arange(depth)[None, :]) % CORPUS
            scores = np.round(np.sort(rng.gamma(2.0, 3.0, (nq, depth)), axis=1)[:, ::-1], 4)
            qid_text = pa.array(np.repeat(qids, depth).astype(str))
            write(run_out, {
                "qid": qid_text, "q0": pa.array(np.full(nq * depth, "Q0")),
                "doc": names("D", docs.ravel(), 7), "rank": pa.array(np.tile(np.arange(1, depth + 1), nq)),
                "score": pa.array(scores.ravel()), "tag": pa.array(np.full(nq * depth, "bench")),
            })
            flat_q, flat_d, grades = judgments(rng, qids, docs, args.judged, args.judged_share)
            judgments_written += len(flat_q)
            write(qrels_out, {
                "qid": pa.array(flat_q.astype(str)), "iter": pa.array(np.zeros(len(flat_q), dtype=np.int64)),
                "doc": names("D", flat_d, 7), "grade": pa.array(grades),
            })
    print(f"wrote {args.out}/run.txt ({total_queries * depth:,} lines) and {args.out}/qrels.txt "
          f"({judgments_written:,} lines) in {time.perf_counter() - start_time:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
