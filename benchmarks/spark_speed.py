"""`ranklab evaluate --engine spark` (local mode) next to the single-machine engine, one run file.

    python benchmarks/generate.py --queries 10000 --depth 1000 --out /tmp/ranklab-bench/10m
    python benchmarks/spark_speed.py --data /tmp/ranklab-bench/10m --master 'local[2]' --check --parquet

Both engines run as whole processes, one after the other in this one invocation, on the
same files and the same five measures (P@10, R@100, RR@10, AP, nDCG@10), printing every
query (``-q``). Measured from outside, sampling /proc every 0.1 s: wall time, CPU time of
the process and all its children (Spark's JVM and its Python workers), and peak memory as
the largest sum of their resident sizes. Spark's fixed cost (JVM start, planning, Python
workers) is measured on the bundled 30-query collection and subtracted to give the
throughput per CPU-second, which a loaded machine changes far less than wall time.
``--check`` asserts that both engines print the same bytes.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROOT = Path(__file__).resolve().parent.parent
MEASURES = ["P@10", "R@100", "RR@10", "AP", "nDCG@10"]
COLLECTION = ROOT / "assets" / "collection"


def tree(pid: int) -> dict[int, tuple[int, float]]:
    """(resident bytes, CPU seconds so far) of a process and each of its descendants (/proc)."""
    children: dict[int, list[int]] = {}
    stats: dict[int, tuple[int, float]] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        # after the ")": state ppid ... utime (12) stime (13) ... rss (22), counted from 0
        stats[int(entry)] = (int(fields[21]) * os.sysconf("SC_PAGE_SIZE"),
                             (int(fields[11]) + int(fields[12])) / tick)
    out, todo = {}, [pid]
    while todo:
        p = todo.pop()
        if p in stats:
            out[p] = stats[p]
        todo += children.get(p, [])
    return out


def timed(cmd: list[str], out_path: Path) -> dict:
    """Wall time, the largest sum of the tree's resident sizes, and the tree's CPU time (each
    process's last sample; a process shorter than 0.1 s may be missed)."""
    start = time.perf_counter()
    cpu: dict[int, float] = {}
    with open(out_path, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, cwd=ROOT)
        peak = 0
        while proc.poll() is None:
            now = tree(proc.pid)
            peak = max(peak, sum(rss for rss, _ in now.values()))
            cpu.update({p: c for p, (_, c) in now.items()})
            time.sleep(0.1)
        err = proc.stderr.read().decode(errors="replace")
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err[-2000:]}")
    return {"wall": wall, "peak_gb": peak / 1e9, "cpu": sum(cpu.values())}


def command(engine: str, qrels: Path, run: Path, master: str, partitions: int | None) -> list[str]:
    cmd = [sys.executable, "-m", "metrics", "evaluate", str(qrels), str(run), "-q"]
    for m in MEASURES:
        cmd += ["-m", m]
    if engine == "spark":
        cmd += ["--engine", "spark", "--master", master]
        if partitions:
            cmd += ["--partitions", str(partitions)]
    return cmd


def lines(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 24), b""))


def to_parquet(qrels: Path, run: Path) -> tuple[Path, Path]:
    """The two files as Parquet (qid, docid, grade / score), written once beside them."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from metrics.io import read_qrels, read_run

    pq_qrels, pq_run = qrels.with_suffix(".parquet"), run.with_suffix(".parquet")
    if not pq_qrels.exists():
        q = read_qrels(qrels)
        pq.write_table(pa.table({"qid": pa.array(q.queries).take(pa.array(q.query)), "docid": q.doc,
                                 "grade": q.grade}), pq_qrels)
    if not pq_run.exists():
        r = read_run(run)
        pq.write_table(pa.table({"qid": pa.array(r.queries).take(pa.array(r.query)), "docid": r.doc,
                                 "score": r.score}), pq_run)
    return pq_qrels, pq_run


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="folder with qrels.txt and run.txt")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--partitions", type=int)
    parser.add_argument("--check", action="store_true", help="both engines print the same bytes")
    parser.add_argument("--parquet", action="store_true",
                        help="also time Spark on the same files as Parquet (written once next to them)")
    args = parser.parse_args(argv)
    qrels, run = args.data / "qrels.txt", args.data / "run.txt"
    n = lines(run)
    match = re.fullmatch(r"local\[(\d+)\]", args.master)
    cores = int(match.group(1)) if match else os.cpu_count()
    load = os.getloadavg()
    out = Path(os.environ.get("TMPDIR", "/tmp"))
    rows = {}
    rows["spark, fixed cost (30 queries)"] = timed(
        command("spark", COLLECTION / "qrels.txt", COLLECTION / "run_bm25.txt", args.master, None), out / "s0.txt")
    rows["local"] = timed(command("local", qrels, run, args.master, None), out / "local.txt")
    rows["spark"] = timed(command("spark", qrels, run, args.master, args.partitions), out / "spark.txt")
    if args.parquet:
        pq_qrels, pq_run = to_parquet(qrels, run)
        rows["spark, Parquet"] = timed(command("spark", pq_qrels, pq_run, args.master, args.partitions),
                                       out / "spark_parquet.txt")
    for name in ("spark.txt", "spark_parquet.txt") if args.check else ():
        if (out / name).exists() and (out / "local.txt").read_bytes() != (out / name).read_bytes():
            raise SystemExit(f"the engines printed different output ({name})")
    fixed = rows["spark, fixed cost (30 queries)"]
    print(f"{n:,} run lines, master {args.master}, load average before {load[0]:.1f}, "
          f"after {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")
    print("| engine | wall s | CPU s (process tree) | peak GB (process tree) | CPU vs local |")
    print("|---|---|---|---|---|")
    for name, r in rows.items():
        print(f"| {name} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['peak_gb']:.2f} | "
              f"{r['cpu'] / rows['local']['cpu']:.1f}x |")
    per_core = n / max(rows["spark"]["cpu"] - fixed["cpu"], 1e-9)
    wall_core = n / max(rows["spark"]["wall"] - fixed["wall"], 1e-9) / cores
    print(f"\nspark past its fixed cost: {per_core:,.0f} lines per CPU-second; "
          f"{wall_core:,.0f} lines/s per core of wall time ({cores} cores)")
    print(f"local: {n / rows['local']['cpu']:,.0f} lines per CPU-second")
    if args.parquet:
        per_core = n / max(rows["spark, Parquet"]["cpu"] - fixed["cpu"], 1e-9)
        print(f"spark on Parquet past its fixed cost: {per_core:,.0f} lines per CPU-second")
    if args.check:
        print("outputs identical: yes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
