"""Streaming against reading whole, against peers and the parse floor, side by side (issue 17).

    python benchmarks/generate_large.py --lines 10_000_000 --out /tmp/ranklab-stream/10m
    python benchmarks/generate_large.py --lines 100_000_000 --out /tmp/ranklab-stream/100m
    python benchmarks/stream_speed.py --data /tmp/ranklab-stream/10m /tmp/ranklab-stream/100m --check

For each collection, each tool runs in its own process, one after the other in one invocation:
parse both files and compute P@10, R@100, RR@10, AP and nDCG@10 per query and their means.

- ``stream``: ``ranklab evaluate --stream`` (blocks of whole queries, bounded memory)
- ``memory``: ``ranklab evaluate --no-stream --max-bytes 0`` (the whole run at once)
- ``pytrec_eval`` and ``trec_eval`` (when on PATH): only up to ``--peer-max-lines`` lines, as
  they hold the whole run in memory (pytrec_eval: ~1.7 GB at 10M lines)
- ``parse floor``: pyarrow's CSV reader alone on the run, with Ranklab's column types (the
  least any reader of this file in Python pays)

Wall and CPU time and peak memory (the child's ``ru_maxrss`` from ``wait4``) are measured from
outside. ``--check`` asserts that the streamed per-query values equal the in-memory ones
exactly, and compares them with pytrec_eval's: on every query where pytrec_eval ran, else on
the first ``--sample`` queries of the run (cut from the file with their judgments).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.evaluate_speed import MEASURES, compare, timed  # noqa: E402


def worker_floor(run_path: str) -> None:
    """pyarrow's multithreaded CSV reader on the run: the columns Ranklab keeps, typed."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    table = pacsv.read_csv(
        run_path,
        read_options=pacsv.ReadOptions(column_names=[f"f{i}" for i in range(6)], block_size=1 << 24),
        parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False, double_quote=False, escape_char=False),
        convert_options=pacsv.ConvertOptions(
            column_types={"f0": pa.dictionary(pa.int32(), pa.string()), "f2": pa.binary(), "f4": pa.float64()},
            include_columns=["f0", "f2", "f4"]))
    print(table.num_rows)


def worker_pytrec_eval(qrels_path: str, run_path: str, out: str) -> None:
    from benchmarks.evaluate_speed import worker_pytrec_eval as work

    work(qrels_path, run_path, out)


def ranklab(qrels: Path, run: Path, mode: str) -> list[str]:
    cmd = [sys.executable, "-m", "metrics", "evaluate", str(qrels), str(run), "-q", "--format", "json",
           "--no-progress", "--max-bytes", "0", "--stream" if mode == "stream" else "--no-stream"]
    for m in MEASURES:
        cmd += ["-m", m]
    return cmd


def trec_eval(qrels: Path, run: Path) -> list[str]:
    return ["trec_eval", "-q", "-m", "P.10", "-m", "recall.100", "-m", "map", "-m", "ndcg_cut.10", str(qrels), str(run)]


def sample(qrels: Path, run: Path, queries: int, folder: Path) -> tuple[Path, Path]:
    """The first ``queries`` queries of the run and their judgments, as files."""
    kept: set[str] = set()
    with open(run, "rb") as src, open(folder / "sample_run.txt", "wb") as out:
        for line in src:
            qid = line.split(b" ", 1)[0]
            if qid not in kept:
                if len(kept) == queries:
                    break
                kept.add(qid)
            out.write(line)
    with open(qrels, "rb") as src, open(folder / "sample_qrels.txt", "wb") as out:
        for line in src:
            if line.split(b" ", 1)[0] in kept:
                out.write(line)
    return folder / "sample_qrels.txt", folder / "sample_run.txt"


def count_lines(path: Path) -> int:
    n = 0
    with open(path, "rb") as f:
        while block := f.read(1 << 24):
            n += block.count(b"\n")
    return n


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, nargs="+", help="folders with qrels.txt and run.txt")
    parser.add_argument("--tools", default="stream,memory,pytrec_eval,trec_eval,floor")
    parser.add_argument("--peer-max-lines", type=int, default=10_000_000)
    parser.add_argument("--memory-max-lines", type=int, default=200_000_000,
                        help="skip the in-memory path above this many lines")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--sample", type=int, default=300, help="queries compared with pytrec_eval on large runs")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        if args.worker[0] == "floor":
            worker_floor(args.worker[1])
        else:
            worker_pytrec_eval(*args.worker[1:])
        return 0
    tools = args.tools.split(",")
    if "trec_eval" in tools and not shutil.which("trec_eval"):
        tools.remove("trec_eval")
    print(f"{os.cpu_count()} cores; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n")
    print("| run | lines | tool | wall (s) | CPU (s) | peak RSS (MB) | wall / stream | lines/s per CPU-s |")
    print("|---|---|---|---|---|---|---|---|")
    notes = []
    for folder in args.data:
        qrels, run = folder / "qrels.txt", folder / "run.txt"
        lines = count_lines(run)
        outputs, rows = {}, []
        load_before = os.getloadavg()[0]
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            for tool in tools:
                if tool in ("pytrec_eval", "trec_eval") and lines > args.peer_max_lines:
                    continue
                if tool == "memory" and lines > args.memory_max_lines:
                    continue
                out = tmp / f"{tool}.json"
                if tool in ("stream", "memory"):
                    with open(out, "w") as f:
                        r = timed(ranklab(qrels, run, tool), f)
                    outputs[tool] = json.loads(out.read_text())
                elif tool == "pytrec_eval":
                    r = timed([sys.executable, __file__, "--worker", "pytrec", str(qrels), str(run), str(out)],
                              subprocess.DEVNULL)
                    outputs[tool] = json.loads(out.read_text())
                elif tool == "trec_eval":
                    r = timed(trec_eval(qrels, run), subprocess.DEVNULL)
                else:
                    r = timed([sys.executable, __file__, "--worker", "floor", str(run)], subprocess.DEVNULL)
                rows.append((tool, r))
            if args.check and {"stream", "memory"} <= set(outputs):
                same = outputs["stream"] == outputs["memory"]
                notes.append(f"{folder.name}: streamed output {'==' if same else '!='} in-memory output (exact)")
            if args.check and "pytrec_eval" in outputs:
                n, worst = compare(outputs["stream"]["per_query"], outputs["pytrec_eval"]["per_query"])
                notes.append(f"{folder.name}: stream vs pytrec_eval on all queries: {n:,} values, largest difference {worst:.1e}")
            elif args.check and "stream" in outputs:
                sq, sr = sample(qrels, run, args.sample, tmp)
                out = tmp / "sample.json"
                subprocess.run([sys.executable, __file__, "--worker", "pytrec", str(sq), str(sr), str(out)], check=True)
                ref = json.loads(out.read_text())["per_query"]
                n, worst = compare(outputs["stream"]["per_query"], ref)
                notes.append(f"{folder.name}: stream vs pytrec_eval on the first {len(ref)} queries: {n:,} values, "
                             f"largest difference {worst:.1e}")
        load_after = os.getloadavg()[0]
        base = dict(rows).get("stream", {}).get("wall")
        for tool, r in rows:
            ratio = f"{r['wall'] / base:.2f}x" if base else "-"
            print(f"| {folder.name} | {lines:,} | {tool} | {r['wall']:.2f} | {r['cpu']:.2f} | {r['rss_mb']:.0f} | "
                  f"{ratio} | {lines / r['cpu']:,.0f} |")
        notes.append(f"{folder.name}: load average {load_before:.2f} before, {load_after:.2f} after")
    print()
    for note in notes:
        print(note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
