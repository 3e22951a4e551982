"""`ranklab evaluate` against pytrec_eval and ranx on one run file, as whole processes.

    python benchmarks/generate.py --out /tmp/ranklab-bench/10m             # 10,000 x 1,000
    python benchmarks/evaluate_speed.py --data /tmp/ranklab-bench/10m --check

Each tool runs in its own process (parse the files + evaluate P@10, R@100, RR@10, AP and
nDCG@10, per query and mean, as its users do); wall time, CPU time and peak memory (the
child's ru_maxrss from wait4) are measured from outside, one tool after the other in one
invocation. ``--check`` compares Ranklab's per-query values with pytrec_eval's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MEASURES = ["P@10", "R@100", "RR@10", "AP", "nDCG@10"]
TREC = {"P_10": "P@10", "recall_100": "R@100", "map": "AP", "ndcg_cut_10": "nDCG@10"}


# ----------------------------------------------------------------------------- workers

def worker_pytrec_eval(qrels_path: str, run_path: str, out: str) -> None:
    import pytrec_eval

    with open(qrels_path) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(run_path) as f:
        run = pytrec_eval.parse_run(f)
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {"P.10", "recall.100", "map", "ndcg_cut.10"}).evaluate(run)
    # RR@10: recip_rank on the run cut at 10 (trec_eval -M10), ordered as trec_eval orders it
    top10 = {q: dict(sorted(docs.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)[:10])
             for q, docs in run.items()}
    rr = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(top10)
    result = {q: {TREC[k]: v for k, v in values.items() if k in TREC} | {"RR@10": rr[q]["recip_rank"]}
              for q, values in per_query.items()}
    means = {m: sum(v[m] for v in result.values()) / len(result) for m in MEASURES}
    Path(out).write_text(json.dumps({"aggregate": means, "per_query": result}))


def worker_ranx(qrels_path: str, run_path: str, out: str) -> None:
    from ranx import Qrels, Run, evaluate

    qrels = Qrels.from_file(qrels_path, kind="trec")
    run = Run.from_file(run_path, kind="trec")
    names = {"precision@10": "P@10", "recall@100": "R@100", "mrr@10": "RR@10", "map": "AP", "ndcg@10": "nDCG@10"}
    means = evaluate(qrels, run, list(names), make_comparable=True)
    per_query: dict[str, dict[str, float]] = {}
    for metric, values in run.scores.items():  # ranx keeps {metric: {qid: value}}
        for q, v in values.items():
            per_query.setdefault(q, {})[names[metric]] = float(v)
    Path(out).write_text(json.dumps({"aggregate": {names[k]: v for k, v in means.items()},
                                     "per_query": per_query}))


# ----------------------------------------------------------------------------- driver

def timed(cmd: list[str], stdout) -> dict:
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE, cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace")
    if proc.returncode:
        raise SystemExit(f"{cmd[:4]} failed ({proc.returncode}):\n{err}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024}


def commands(tool: str, qrels: Path, run: Path, out: Path) -> tuple[list[str], object]:
    py = sys.executable
    if tool == "ranklab":
        cmd = [py, "-m", "metrics", "evaluate", str(qrels), str(run), "-q", "--format", "json"]
        for m in MEASURES:
            cmd += ["-m", m]
        return cmd, open(out, "w")
    return [py, __file__, "--worker", tool, str(qrels), str(run), str(out)], subprocess.DEVNULL


def warm_ranx(folder: Path) -> None:
    """One tiny evaluation first, so that numba's cache is warm (as for a regular user)."""
    (folder / "wq.txt").write_text("1 0 a 1\n")
    (folder / "wr.txt").write_text("1 Q0 a 1 1.0 x\n1 Q0 b 2 0.5 x\n")
    cmd, _ = commands("ranx", folder / "wq.txt", folder / "wr.txt", folder / "w.json")
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)


def compare(a: dict, b: dict) -> tuple[int, float]:
    worst, n = 0.0, 0
    for q, values in b.items():
        for m, v in values.items():
            worst = max(worst, abs(a[q][m] - v))
            n += 1
    return n, worst


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="folder with qrels.txt and run.txt")
    parser.add_argument("--tools", default="ranklab,pytrec_eval,ranx")
    parser.add_argument("--check", action="store_true", help="compare per-query values with pytrec_eval")
    parser.add_argument("--repeat", type=int, default=1, help="run the tools in turn this many times; "
                        "the table shows the median wall time (and the range)")
    parser.add_argument("--worker", nargs=4, metavar=("TOOL", "QRELS", "RUN", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        tool, qrels, run, out = args.worker
        {"pytrec_eval": worker_pytrec_eval, "ranx": worker_ranx}[tool](qrels, run, out)
        return 0
    qrels, run = args.data / "qrels.txt", args.data / "run.txt"
    lines = sum(1 for _ in open(run, "rb"))
    tools = args.tools.split(",")
    rows, outputs = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if "ranx" in tools:
            warm_ranx(tmp)
        load_before = os.getloadavg()
        timings: dict[str, list[dict]] = {tool: [] for tool in tools}
        for _ in range(args.repeat):  # interleaved, so that the load hits every tool alike
            for tool in tools:
                out = tmp / f"{tool}.json"
                cmd, stdout = commands(tool, qrels, run, out)
                timings[tool].append(timed(cmd, stdout))
                if hasattr(stdout, "close"):
                    stdout.close()
                outputs[tool] = json.loads(out.read_text())
        load_after = os.getloadavg()
    for tool in tools:
        runs = sorted(timings[tool], key=lambda r: r["wall"])
        median = runs[len(runs) // 2]
        rows.append((tool, median | {"low": runs[0]["wall"], "high": runs[-1]["wall"],
                                     "rss_mb": max(r["rss_mb"] for r in runs)}))
    base = dict(rows)["ranklab"]["wall"] if "ranklab" in tools else None
    print(f"{run} ({lines:,} lines), {len(outputs[tools[0]]['per_query']):,} queries evaluated; "
          f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; {os.cpu_count()} cores; "
          f"{args.repeat} run(s) per tool\n")
    print("| tool | wall (s), median | wall range (s) | CPU (s) | peak RSS (MB) | wall / ranklab |")
    print("|---|---|---|---|---|---|")
    for tool, r in rows:
        ratio = f"{r['wall'] / base:.1f}x" if base else "-"
        print(f"| {tool} | {r['wall']:.2f} | {r['low']:.2f}–{r['high']:.2f} | {r['cpu']:.2f} | "
              f"{r['rss_mb']:.0f} | {ratio} |")
    print("\nmeans:")
    for tool in tools:
        agg = outputs[tool]["aggregate"]
        print(f"  {tool:12s} " + "  ".join(f"{m}={agg[m]:.4f}" for m in MEASURES))
    if args.check and {"ranklab", "pytrec_eval"} <= set(tools):
        n, worst = compare(outputs["ranklab"]["per_query"], outputs["pytrec_eval"]["per_query"])
        print(f"\nper-query agreement with pytrec_eval: {n:,} values, largest difference {worst:.2e}")
        if outputs["ranklab"]["per_query"].keys() != outputs["pytrec_eval"]["per_query"].keys():
            print("  (the query sets differ!)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
