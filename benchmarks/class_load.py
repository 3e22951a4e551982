"""A class of N students on one machine: simulated browsers speaking Streamlit's websocket
protocol, each opening a new example on a random page every 1.5–3.5 s (2.5 s on average).

    python benchmarks/class_load.py --students 40 --edits 20 --workers 1 2
    python benchmarks/class_load.py --poll --kill-after 20 --workers 2     # a poll; a worker killed
    python benchmarks/class_load.py --url http://127.0.0.1:8501 --students 10 --edits 200 --limit 3600

For each ``--workers`` count it starts Ranklab (one ``streamlit run`` for 1, or
``scripts/serve.py``'s workers behind nginx for more), connects the students (all traffic to
127.0.0.1; bounded: ``--students`` × ``--edits`` reruns and ``--limit`` seconds at most),
and prints p50/p95 rerun time (from the request until the server reports the run finished),
errors, and the workers' resident memory at the start, at the peak, and after the sessions
closed.

``--poll``: each student opens a class poll from its link and answers it again and again (each
step a new answer, sent as the browser sends it: the number box's value and the button's click),
and the run checks at the end that the poll file holds, for every student, the last answer the
page confirmed ("Sent: ...") or one sent after it: no confirmed vote lost. ``--kill-after S``
(with 2 or more workers) kills one worker with SIGKILL S seconds into the run while the
supervisor of ``scripts/serve.py`` keeps the class running; a student whose websocket drops
reconnects as a browser does (same cookie, new session) and the time from the drop to its
first finished run is its recovery time.

``--url``: load a Ranklab that is already running there instead (as the model check's server
is loaded, ``RANKLAB_TEST_SERVER`` in tests/browser/conftest.py): the same students, no
warm-up, no memory figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sqlite3
import sys
import tempfile
import threading
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
from websockets.exceptions import ConnectionClosed  # noqa: E402

from ranklab_ui import poll_view  # noqa: E402
from ranklab_ui.core import codec, presets  # noqa: E402
from ranklab_ui.core.poll_store import SQLitePolls  # noqa: E402

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
    """One simulated browser: a cookie from the first page, then one websocket (a new one, in a
    new session, when the server drops it, as the browser does)."""

    def __init__(self, url: str, rng: random.Random, links: list[str], poll: str | None = None) -> None:
        self.url, self.rng, self.links, self.poll = url, rng, links, poll
        self.times: list[float] = []
        self.errors = 0
        self.pages: dict[str, str] = {}
        self.widgets: dict[str, str] = {}        # a widget's key -> its id on this session's page
        self.sent: list[float] = []              # every answer sent, in order
        self.confirmed: int | None = None        # index in ``sent`` of the last one the page confirmed
        self.recoveries: list[float] = []        # seconds from a dropped websocket to a finished run
        self.cookie = ""

    async def _run_once(self, ws, query: str, page_hash: str, states: list | None = None) -> bool:
        msg = BackMsg()
        msg.rerun_script.query_string = query
        msg.rerun_script.page_script_hash = page_hash
        for state in states or []:
            msg.rerun_script.widget_states.widgets.append(state)
        await ws.send(msg.SerializeToString())
        ok, self.acknowledged = True, False
        while True:
            raw = await asyncio.wait_for(ws.recv(), timeout=60)
            fwd = ForwardMsg()
            fwd.ParseFromString(raw)
            kind = fwd.WhichOneof("type")
            if kind == "navigation":
                self.pages = {p.url_pathname: p.page_script_hash for p in fwd.navigation.app_pages}
            elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                element = fwd.delta.new_element
                which = element.WhichOneof("type")
                if which == "exception":
                    ok = False
                elif which in ("number_input", "button"):
                    widget_id = getattr(element, which).id
                    self.widgets[widget_id.rsplit("-", 1)[-1] if "-" in widget_id else widget_id] = widget_id
                elif which == "alert" and element.alert.body.startswith("Sent:"):
                    self.acknowledged = True
            elif kind == "script_finished":
                return ok and fwd.script_finished in (ForwardMsg.FINISHED_SUCCESSFULLY,
                                                      ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)

    def _poll_query(self) -> tuple[str, str]:
        return f"{poll_view.PARAM}={self.poll}", self.pages.get("class_poll", "")

    async def _connect(self):
        ws = await connect(self.url.replace("http", "ws", 1) + "/_stcore/stream", max_size=64 * 2**20,
                           additional_headers={"Cookie": self.cookie} if self.cookie else None, open_timeout=60)
        await self._run_once(ws, "", "")
        if self.poll:
            await self._run_once(ws, *self._poll_query())
        return ws

    async def _vote(self, ws) -> bool:
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        value = round(self.rng.random(), 4)
        box, send = WidgetState(), WidgetState()
        box.id, box.double_value = self.widgets["poll.guess"], value
        send.id, send.trigger_value = self.widgets["poll.send"], True
        self.sent.append(value)
        ok = await self._run_once(ws, *self._poll_query(), [box, send])
        if ok and self.acknowledged:
            self.confirmed = len(self.sent) - 1
        return ok and self.acknowledged

    async def run(self, edits: int, deadline: float) -> None:
        self.cookie = await asyncio.to_thread(self._cookie)
        try:
            ws = await self._connect()
        except ConnectionClosed:  # the worker died during the first page: as after any drop
            self.errors += 1
            ws = await self._reconnect(deadline + 60)
        try:
            for _ in range(edits):
                if time.monotonic() > deadline:
                    break
                await asyncio.sleep(self.rng.uniform(1.5, 3.5))
                t = time.perf_counter()
                try:
                    if self.poll:
                        ok = await self._vote(ws)
                    else:
                        page = self.rng.choice(PAGES)
                        ok = await self._run_once(ws, f"ex={self.rng.choice(self.links)}", self.pages.get(page, ""))
                except TimeoutError:
                    ok = False
                except ConnectionClosed:  # the worker died: reconnect as the browser does
                    self.times.append(time.perf_counter() - t)
                    self.errors += 1
                    ws = await self._reconnect(deadline + 60)
                    continue
                self.times.append(time.perf_counter() - t)
                self.errors += not ok
        finally:
            await ws.close()

    async def _reconnect(self, give_up: float):
        dropped = time.monotonic()
        while True:
            try:
                ws = await self._connect()
            except (OSError, ConnectionClosed, TimeoutError) as err:
                if time.monotonic() > give_up:
                    raise RuntimeError("a student could not reconnect") from err
                await asyncio.sleep(0.5)
                continue
            self.recoveries.append(time.monotonic() - dropped)
            return ws

    def _cookie(self) -> str:
        with urllib.request.urlopen(self.url + "/", timeout=30) as r:
            return "; ".join(v.split(";")[0] for k, v in r.headers.items() if k.lower() == "set-cookie")


async def class_run(url: str, students: int, edits: int, limit: float, seed: int,
                    poll: str | None = None) -> list[Student]:
    rng = random.Random(seed)
    links = examples(200, rng)
    crowd = [Student(url, random.Random(rng.random()), links, poll) for _ in range(students)]
    deadline = time.monotonic() + limit

    async def join(s: Student, delay: float) -> None:
        await asyncio.sleep(delay)
        await s.run(edits, deadline)

    await asyncio.gather(*(join(s, i * 0.05) for i, s in enumerate(crowd)), return_exceptions=False)
    return crowd


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))] if s else float("nan")


def first_of_free_ports(count: int) -> int:
    """A port p such that p .. p + count - 1 are all free on 127.0.0.1 now."""
    import socket

    while True:
        first = free_port()
        try:
            for port in range(first, first + count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue


def lost_votes(crowd: list[Student], path: str, code: str) -> int:
    """Students whose confirmed answer is not in the poll file (nor one they sent after it)."""
    with sqlite3.connect(path) as db:
        stored = dict(db.execute("SELECT voter, value FROM votes WHERE code = ?", (code,)).fetchall())
    lost = 0
    for s in crowd:
        if s.confirmed is None:
            continue
        rlw = dict(part.split("=", 1) for part in s.cookie.split("; ") if "=" in part).get("rlw", "")
        value = stored.get(f"browser-{rlw}")
        lost += value is None or float(value) not in s.sent[s.confirmed:]
    return lost


def measure(workers: int, args) -> str:
    return run_class(workers, args)["row"]


def load_running(url: str, args) -> str:
    """The class against a server someone else started: its table row, memory left out."""
    t0 = time.perf_counter()
    crowd = asyncio.run(class_run(url, args.students, args.edits, args.limit, args.seed))
    wall = time.perf_counter() - t0
    times = [t for s in crowd for t in s.times]
    return (f"| {url} | {args.students} | {len(times)} | {len(times) / wall if wall else 0:.1f} | "
            f"{pct(times, .5) * 1000:.0f} | {pct(times, .95) * 1000:.0f} | {max(times, default=0) * 1000:.0f} | "
            f"{sum(s.errors for s in crowd)} | - | - | - |")


def run_class(workers: int, args) -> dict:
    """One configuration under load: its table row and the figures a test checks."""
    # one worker is served on its own (no proxy), as `make run` serves; more sit behind nginx
    polls = Path(tempfile.mkdtemp(prefix="ranklab-load-")) / "polls.sqlite3"
    served = Class(workers, free_port(), first_of_free_ports(workers), proxy=workers > 1,
                   env={"RANKLAB_POLL_DB": str(polls)})
    url = served.start()
    code = None
    if args.poll:
        code = SQLitePolls(polls).create("What is AP@2 of this ranking?", answer=0.125, low=0.0, high=1.0,
                                         example=codec.encode(presets.build_preset("cat")))[0].code
    pids = served.worker_pids()
    stop = threading.Event()
    restarted: list[str] = []

    def supervise() -> None:  # what scripts/serve.py's main loop does
        killed = False
        t0 = time.monotonic()
        while not stop.wait(0.5):
            if args.kill_after and not killed and time.monotonic() - t0 > args.kill_after and workers > 1:
                os.kill(served.worker_pids()[0], signal.SIGKILL)
                killed = True
            restarted.extend(served.check())

    try:
        # warm up: every worker imports the app and draws every page (eight students per worker,
        # so that the cookies reach each), so "start" is a serving process, not an empty interpreter
        if getattr(args, "warm_up", True):
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
            crowd = await class_run(url, args.students, args.edits, args.limit, args.seed, code)
            done.set()
            await watcher
            return crowd

        supervisor = threading.Thread(target=supervise, daemon=True)
        supervisor.start()
        t0 = time.perf_counter()
        crowd = asyncio.run(both())
        wall = time.perf_counter() - t0
        stop.set()
        supervisor.join()
        time.sleep(args.settle)
        after = [rss_mb(p) for p in pids]
        times = [t for s in crowd for t in s.times]
        errors = sum(s.errors for s in crowd)
        rate = len(times) / wall if wall else 0
        recoveries = [r for s in crowd for r in s.recoveries]
        extra, lost = "", 0
        if args.poll:
            lost = lost_votes(crowd, str(polls), code)
            extra = (f" {sum(s.confirmed is not None for s in crowd)} | {lost} | "
                     f"{len(recoveries)} | {max(recoveries, default=0):.1f} | {', '.join(restarted) or '-'} |")
        stats = {"reruns": len(times), "errors": errors, "lost": lost, "recoveries": recoveries,
                 "restarted": restarted, "confirmed": sum(s.confirmed is not None for s in crowd)}
        return stats | {"row": f"| {workers} | {args.students} | {len(times)} | {rate:.1f} | {pct(times, .5) * 1000:.0f} | "
                f"{pct(times, .95) * 1000:.0f} | {max(times, default=0) * 1000:.0f} | {errors} | "
                f"{' + '.join(f'{x:.0f}' for x in start)} | {' + '.join(f'{x:.0f}' for x in peak)} | "
                f"{' + '.join(f'{x:.0f}' for x in after)} |{extra}"}
    finally:
        stop.set()
        served.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--edits", type=int, default=20, help="reruns per student")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--limit", type=float, default=300, help="seconds at most per configuration")
    parser.add_argument("--settle", type=float, default=20, help="seconds after the sessions close")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--poll", action="store_true", help="every step answers a class poll")
    parser.add_argument("--kill-after", type=float, default=0,
                        help="seconds into the run to SIGKILL one worker (2 or more workers)")
    parser.add_argument("--url", help="load the Ranklab already running at this address (no --workers, no --poll)")
    args = parser.parse_args()
    if not (1 <= args.students <= 200 and 1 <= args.edits <= 200):
        raise SystemExit("--students and --edits: 1 to 200")
    if args.url and (not args.url.startswith(("http://", "https://")) or args.poll):
        raise SystemExit("--url: an http:// address, without --poll")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    head = ("| workers | students | reruns | reruns/s | p50 ms | p95 ms | max ms | errors | RSS start (MB) | "
            "peak | after close |")
    if args.poll:
        head += " students confirmed | confirmed votes lost | reconnects | longest recovery (s) | restarted |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    if args.url:
        print(load_running(args.url.rstrip("/"), args), flush=True)
    for w in [] if args.url else args.workers:
        print(measure(w, args), flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
