"""A class of N students on one machine: simulated browsers speaking Streamlit's websocket
protocol, each opening a new example on a random page every 1.5–3.5 s (2.5 s on average).

    python benchmarks/class_load.py --students 40 --edits 20 --workers 1 2

For each ``--workers`` count it starts Ranklab (one ``streamlit run`` for 1, or
``scripts/serve.py``'s workers behind nginx for more), connects the students (all traffic to
127.0.0.1; bounded: ``--students`` × ``--edits`` reruns and ``--limit`` seconds at most),
and prints p50/p95 rerun time (from the request until the server reports the run finished),
errors, and the workers' resident memory at the start, at the peak, and after the sessions
closed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from serve import Class, free_port  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from ui import codec, presets  # noqa: E402

PAGES = ("", "lesson_precision_recall", "lesson_reciprocal_rank", "lesson_average_precision", "lesson_dcg",
         "lesson_pr_curve", "many_queries")


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def examples(count: int, rng: random.Random) -> list[str]:
    """``count`` different example links: the presets with grades and k changed at random."""
    out = []
    names = list(presets.PRESETS)
    while len(out) < count:
        ex = presets.build_preset(rng.choice(names))
        q = ex.query
        ranking = tuple(replace(item, grade=rng.choice([0, 0, 1, 2, 3])) for item in q.ranking)
        ex = replace(ex, queries=(replace(q, ranking=ranking), *ex.queries[1:]), current=0,
                     k=rng.randint(1, max(1, len(ranking))))
        out.append(codec.encode(ex))
    return out


class Student:
    """One simulated browser: a cookie from the first page, then one websocket."""

    def __init__(self, url: str, rng: random.Random, links: list[str]) -> None:
        self.url, self.rng, self.links = url, rng, links
        self.times: list[float] = []
        self.errors = 0
        self.pages: dict[str, str] = {}

    async def _run_once(self, ws, query: str, page_hash: str) -> bool:
        msg = BackMsg()
        msg.rerun_script.query_string = query
        msg.rerun_script.page_script_hash = page_hash
        await ws.send(msg.SerializeToString())
        ok = True
        while True:
            raw = await asyncio.wait_for(ws.recv(), timeout=60)
            fwd = ForwardMsg()
            fwd.ParseFromString(raw)
            kind = fwd.WhichOneof("type")
            if kind == "navigation":
                self.pages = {p.url_pathname: p.page_script_hash for p in fwd.navigation.app_pages}
            elif kind == "delta" and fwd.delta.new_element.WhichOneof("type") == "exception":
                ok = False
            elif kind == "script_finished":
                return ok and fwd.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY

    async def run(self, edits: int, deadline: float) -> None:
        cookie = await asyncio.to_thread(self._cookie)
        ws = await connect(self.url.replace("http", "ws", 1) + "/_stcore/stream", max_size=64 * 2**20,
                           additional_headers={"Cookie": cookie} if cookie else None, open_timeout=60)
        try:
            await self._run_once(ws, "", "")
            for _ in range(edits):
                if time.monotonic() > deadline:
                    break
                await asyncio.sleep(self.rng.uniform(1.5, 3.5))
                page = self.rng.choice(PAGES)
                t = time.perf_counter()
                try:
                    ok = await self._run_once(ws, f"ex={self.rng.choice(self.links)}", self.pages.get(page, ""))
                except TimeoutError:
                    ok = False
                self.times.append(time.perf_counter() - t)
                self.errors += not ok
        finally:
            await ws.close()

    def _cookie(self) -> str:
        with urllib.request.urlopen(self.url + "/", timeout=30) as r:
            return "; ".join(v.split(";")[0] for k, v in r.headers.items() if k.lower() == "set-cookie")


async def class_run(url: str, students: int, edits: int, limit: float, seed: int) -> list[Student]:
    rng = random.Random(seed)
    links = examples(200, rng)
    crowd = [Student(url, random.Random(rng.random()), links) for _ in range(students)]
    deadline = time.monotonic() + limit

    async def join(s: Student, delay: float) -> None:
        await asyncio.sleep(delay)
        await s.run(edits, deadline)

    await asyncio.gather(*(join(s, i * 0.05) for i, s in enumerate(crowd)), return_exceptions=False)
    return crowd


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))] if s else float("nan")


def measure(workers: int, args) -> str:
    # one worker is served on its own (no proxy), as `make run` serves; more sit behind nginx
    served = Class(workers, free_port(), free_port(), proxy=workers > 1)
    url = served.start()
    pids = served.worker_pids()
    try:
        # warm up: every worker imports the app and draws every page (eight students per worker,
        # so that the cookies reach each), so "start" is a serving process, not an empty interpreter
        asyncio.run(class_run(url, 8 * workers, len(PAGES), 120, args.seed + 1))
        time.sleep(args.settle)
        start = [rss_mb(p) for p in pids]
        peak = list(start)
        done = asyncio.Event()

        async def watch() -> None:
            while not done.is_set():
                for i, p in enumerate(pids):
                    peak[i] = max(peak[i], rss_mb(p))
                await asyncio.sleep(0.5)

        async def both() -> list[Student]:
            watcher = asyncio.create_task(watch())
            crowd = await class_run(url, args.students, args.edits, args.limit, args.seed)
            done.set()
            await watcher
            return crowd

        t0 = time.perf_counter()
        crowd = asyncio.run(both())
        wall = time.perf_counter() - t0
        time.sleep(args.settle)
        after = [rss_mb(p) for p in pids]
        times = [t for s in crowd for t in s.times]
        errors = sum(s.errors for s in crowd)
        rate = len(times) / wall if wall else 0
        return (f"| {workers} | {args.students} | {len(times)} | {rate:.1f} | {pct(times, .5) * 1000:.0f} | "
                f"{pct(times, .95) * 1000:.0f} | {max(times, default=0) * 1000:.0f} | {errors} | "
                f"{' + '.join(f'{x:.0f}' for x in start)} | {' + '.join(f'{x:.0f}' for x in peak)} | "
                f"{' + '.join(f'{x:.0f}' for x in after)} |")
    finally:
        served.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--edits", type=int, default=20, help="reruns per student")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--limit", type=float, default=300, help="seconds at most per configuration")
    parser.add_argument("--settle", type=float, default=20, help="seconds after the sessions close")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not (1 <= args.students <= 200 and 1 <= args.edits <= 200):
        raise SystemExit("--students and --edits: 1 to 200")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print("| workers | students | reruns | reruns/s | p50 ms | p95 ms | max ms | errors | RSS start (MB) | "
          "peak | after close |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for w in args.workers:
        print(measure(w, args), flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
