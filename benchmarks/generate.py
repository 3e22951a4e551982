"""Generate the benchmark collection: a graded qrels file and a TREC run (deterministic).

    python benchmarks/generate.py --queries 10000 --depth 1000 --out /tmp/ranklab-bench/10m
    python benchmarks/generate.py --queries 2000 --depth 1000 --out /tmp/ranklab-bench/2m

Writes ``OUT/qrels.txt`` (about 5 judged documents per query, grades 0-3, one in ten
graded -1) and ``OUT/run.txt`` (``queries × depth`` lines ``qid Q0 doc rank score tag``, in
rank order per query, scores rounded to 4 decimals so that some of them tie).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

CORPUS = 5_000_000  # document ids D0000000 .. D4999999


def doc_names(codes: np.ndarray) -> pa.Array:
    return pa.array(np.char.add("D", np.char.zfill(codes.astype(str), 7)).astype(object), pa.string())


def judgments(rng, qids: np.ndarray, docs: np.ndarray, judged: int, dense_share: float | None = None):
    """(query, document code, grade) of each judgment of the queries whose rankings are ``docs``.

    Sparse: ``judged`` documents per query, mostly from the top of the ranking, 30% never
    retrieved. Dense (``dense_share``): that share of every ranking, at random. Grades 0-3, one
    in ten -1; a document judged twice for one query keeps its first judgment.
    """
    nq, depth = docs.shape
    if dense_share:
        judged = max(1, int(depth * dense_share))
        pos = np.argsort(rng.random((nq, depth)), axis=1)[:, :judged]
        qrel_docs = docs[np.arange(nq)[:, None], pos]
    else:
        pos = np.minimum(rng.geometric(0.02, (nq, judged)) - 1, depth - 1)
        qrel_docs = docs[np.arange(nq)[:, None], pos]
        unretrieved = rng.random((nq, judged)) < 0.3
        qrel_docs = np.where(unretrieved, rng.integers(0, CORPUS, (nq, judged)), qrel_docs)
    grades = rng.integers(0, 4, (nq, judged))
    grades = np.where(rng.random((nq, judged)) < 0.1, -1, grades)
    flat_q = np.repeat(qids, judged)
    flat_d = qrel_docs.ravel()
    _, first = np.unique(flat_q.astype(np.int64) * CORPUS + flat_d, return_index=True)
    keep = np.sort(first)
    return flat_q[keep], flat_d[keep], grades.ravel()[keep]


def write(path: Path, columns: dict[str, pa.Array]) -> None:
    table = pa.table(columns)
    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    pacsv.write_csv(table, path, options)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=1_000)
    parser.add_argument("--judged", type=int, default=5, help="judged documents per query")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    nq, depth = args.queries, args.depth
    qids = np.arange(1, nq + 1)

    # run: each query retrieves `depth` distinct documents (a random stride through the corpus)
    start = rng.integers(0, CORPUS, nq)
    step = rng.integers(1, CORPUS // depth, nq)
    docs = (start[:, None] + step[:, None] * np.arange(depth)[None, :]) % CORPUS
    scores = np.round(np.sort(rng.gamma(2.0, 3.0, (nq, depth)), axis=1)[:, ::-1], 4)
    write(args.out / "run.txt", {
        "qid": pa.array(np.repeat(qids, depth).astype(str).astype(object), pa.string()),
        "q0": pa.array(np.full(nq * depth, "Q0", dtype=object), pa.string()),
        "doc": doc_names(docs.ravel()),
        "rank": pa.array(np.tile(np.arange(1, depth + 1), nq)),
        "score": pa.array(scores.ravel()),
        "tag": pa.array(np.full(nq * depth, "bench", dtype=object), pa.string()),
    })

    flat_q, flat_d, grades = judgments(rng, qids, docs, args.judged)
    keep = np.arange(len(flat_q))
    write(args.out / "qrels.txt", {
        "qid": pa.array(flat_q[keep].astype(str).astype(object), pa.string()),
        "iter": pa.array(np.zeros(len(keep), dtype=np.int64)),
        "doc": doc_names(flat_d[keep]),
        "grade": pa.array(grades),
    })
    print(f"wrote {args.out}/run.txt ({nq * depth:,} lines) and {args.out}/qrels.txt ({len(keep):,} lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
