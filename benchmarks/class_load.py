"""A class on one machine: simulated browsers that speak Streamlit's websocket protocol as the
browser does (each widget's value, the fragment it sits in, the page's address), against
Ranklab served by ``scripts/serve.py``.

    python benchmarks/class_load.py --cpu --before /tmp/before40 --reps 20     # 1. CPU per interaction
    python benchmarks/class_load.py --students 40 --edits 20 --workers 2 --before /tmp/before40 --rounds 2
    python benchmarks/class_load.py --students 100 --edits 20 --workers 2     # 3. a class of 100
    python benchmarks/class_load.py --hall 200 --workers 2                     # 4. a lecture hall's poll
    python benchmarks/class_load.py --links --students 40 --edits 20 --workers 1 2   # new examples opened
    python benchmarks/class_load.py --poll --kill-after 20 --workers 2         # a poll; a worker killed
    python benchmarks/class_load.py --url http://127.0.0.1:8501 --students 10 --edits 200 --limit 3600
    python benchmarks/class_load.py --profile /tmp/prof --students 40 --edits 20 --workers 2

What a student does (``--students`` of them, each ``--edits`` times, after 1–4 s of thought): on
the Playground or a lesson, picked at random (a new page before about one edit in three), one
of the interactions the page offers: a typed grade, a click on a grade (a tile), a move, a step
of the k slider, a switch of the relevance mode. Each is sent as the browser sends it: an edit
of the ranking editor as the component's value ``{"events": [...]}`` (``docs/editing.md``), a
slider's or a switch's value, each with the fragment it belongs to. ``--before PATH`` runs the
same class against another checkout (one without the ranking editor is driven through its own
widgets: the data editor's delta, a click on a tile of the strip, the "↓ down" button), in
alternating rounds. A rerun is timed from the request until the server reports the run
finished; the server's CPU is read from /proc, so that it is the server's own time.

``--cpu``: one browser per checkout, one single-process server each, the interactions of every
kind on every page in turn, alternating between the checkouts; prints the server's CPU
milliseconds per interaction by page and kind.

``--hall N``: a lecture hall. A teacher opens a poll; N phones, all behind one network address
(as behind a campus NAT), join with the code typed, each answers once within 30 s; the teacher
counts the answers held back by the per-address limit, then reveals. Checks that every answer
is counted and times the reveal on every phone, the teacher's live screen, and the CPU the
phones' 3-second refresh costs.

``--poll``: each student opens a class poll from its link and answers it again and again, and
the run checks at the end that the poll file holds, for every student, the last answer the page
confirmed or one sent after it. ``--kill-after S`` (2 or more workers) kills one worker with
SIGKILL S seconds into the run while the supervisor of ``scripts/serve.py`` keeps the class
running; a student whose websocket drops reconnects as a browser does (same cookie, new
session) and the time from the drop to its first finished run is its recovery time.

``--links``: the earlier scenario, each step a new example opened from a link on a random page.
``--url``: load a Ranklab that is already running there (as the model check's server is
loaded, ``RANKLAB_TEST_SERVER`` in tests/browser/conftest.py): no warm-up, no memory figures.
``--profile DIR``: every worker runs under cProfile (its script runs and its main thread); the
costliest functions are printed at the end.
"""

from __future__ import annotations

import sys

if __name__ == "__main__" and sys.argv[1:2] == ["--profiled-worker"]:
    # a worker of --profile: `streamlit run` under cProfile, before anything else is imported
    import atexit
    import cProfile
    import pstats
    import threading
    import time

    from streamlit.runtime.scriptrunner import script_runner
    from streamlit.web import cli

    _out, _lock, _merged = sys.argv[2], threading.Lock(), []
    _original = script_runner.ScriptRunner._run_script

    _runs = [0]   # the first runs import the app: left out

    def _profiled(self, rerun_data):   # each script run, in its own thread
        _runs[0] += 1
        if _runs[0] <= 3:
            return _original(self, rerun_data)
        profile = cProfile.Profile(time.thread_time)   # CPU, not wall: the machine is shared
        profile.enable()
        try:
            return _original(self, rerun_data)
        finally:
            profile.disable()
            with _lock:
                if _merged:
                    _merged[0].add(profile)
                else:
                    _merged.append(pstats.Stats(profile))

    _main = cProfile.Profile(time.thread_time)   # the main thread: the server's event loop

    def _dump() -> None:
        _main.disable()
        pstats.Stats(_main).dump_stats(f"{_out}.main.prof")
        with _lock:
            if _merged:
                _merged[0].dump_stats(f"{_out}.script.prof")

    script_runner.ScriptRunner._run_script = _profiled
    atexit.register(_dump)
    _main.enable()
    sys.argv = ["streamlit", *sys.argv[4:]]
    cli.main()

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import signal  # noqa: E402
import sqlite3  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import urllib.request  # noqa: E402
from dataclasses import dataclass, field, replace  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from serve import Class, free_port  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from ranklab_ui.core import codec, presets  # noqa: E402
from ranklab_ui.core.addresses import network_address  # noqa: E402
from ranklab_ui.core.poll_store import SQLitePolls  # noqa: E402

# the pages a student edits on: the Playground ("") and every lesson, each with its key prefix
EDIT_PAGES = {"": "playground", "lesson_precision_recall": "lesson_pr", "lesson_reciprocal_rank": "lesson_rr",
              "lesson_average_precision": "lesson_ap", "lesson_dcg": "lesson_dcg", "lesson_pr_curve": "lesson_prc",
              "lesson_unjudged": "lesson_unjudged", "lesson_users": "lesson_users"}
PAGES = ("", "lesson_precision_recall", "lesson_reciprocal_rank", "lesson_average_precision", "lesson_dcg",
         "lesson_pr_curve", "many_queries")  # --links: where a new example is opened
KINDS = ("grade", "tile", "move", "k", "mode")
TITLES = {"grade": "typed grade", "tile": "tile (a click on a grade)", "move": "move", "k": "k step",
          "mode": "mode switch", "page": "page opened"}
RUN_OK = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
CLOCK = os.sysconf("SC_CLK_TCK")
FLOOR = "floor"   # --cpu --floor: the server of benchmarks/rerun_floor_app.py
POLL = "poll"   # ranklab_ui.parts.poll_view.PARAM: importing that module outside a server fails (its component)


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has used so far, all its threads."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / CLOCK


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))] if s else float("nan")


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


@dataclass
class Widget:
    id: str
    kind: str           # the element's type: slider, button_group, bidi_component...
    fragment: str       # the fragment it was drawn in ("" for the page's own run)
    proto: object


def _key(widget_id: str) -> str:
    """A widget's user key from its id (``$$ID-<hash>-<key>``)."""
    return widget_id.split("-", 2)[2] if widget_id.startswith("$$ID-") and widget_id.count("-") >= 2 else widget_id


@dataclass
class Browser:
    """One simulated browser tab: a cookie, one websocket (a new one, in a new session, when the
    server drops it, as the browser does), the page's widgets as the server last drew them."""

    url: str
    rng: random.Random
    headers: dict = field(default_factory=dict)   # sent with every request (X-Real-IP behind a NAT)
    cookie: str = ""
    ws: object = None
    pages: dict = field(default_factory=dict)      # url path -> page hash
    page: str = ""
    query: str = ""                                # the page's query string, as the server set it
    widgets: dict = field(default_factory=dict)    # key -> Widget
    editors: dict = field(default_factory=dict)    # editor key -> the data the server gave it
    sent: dict = field(default_factory=dict)       # editor key -> last sequence number sent
    grid_edits: dict = field(default_factory=dict)  # data editor key -> {row: {"grade": text}} (before the editor)
    k: dict = field(default_factory=dict)          # slider key -> the k it shows
    mode: dict = field(default_factory=dict)       # switch key -> the option shown
    pick: int = 0                                  # the item the old move buttons act on
    auto: dict = field(default_factory=dict)       # fragment id -> seconds between its auto reruns
    texts: list = field(default_factory=list)      # markdown and alert texts of the last run
    problems: list = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last: float = 0.0                              # seconds the last run took

    async def open(self, here: bool = False) -> bool:
        """Connect and draw the first page: the Playground, or with ``here`` the page and query
        this browser shows (a phone reconnecting to its poll)."""
        if not self.cookie:
            self.cookie = await asyncio.to_thread(self._cookie)
        headers = {**self.headers, **({"Cookie": self.cookie} if self.cookie else {})}
        self.ws = await connect(self.url.replace("http", "ws", 1) + "/_stcore/stream", max_size=64 * 2**20,
                                additional_headers=headers or None, open_timeout=60,
                                ping_interval=None)   # a browser sends no pings; a busy loop missed their replies
        self.widgets, self.auto = {}, {}
        return await self.run() if here else await self.run(page="", query="")

    def _cookie(self) -> str:
        request = urllib.request.Request(self.url + "/", headers=self.headers)
        with urllib.request.urlopen(request, timeout=30) as r:
            return "; ".join(v.split(";")[0] for k, v in r.headers.items() if k.lower() == "set-cookie")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def run(self, states=(), *, fragment: str = "", page: str | None = None, query: str | None = None,
                  auto: bool = False) -> bool:
        """One request for a run, as the browser sends it; True when the run finished without an
        exception shown. Its duration is :attr:`last`."""
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string = self.query if query is None else query
        rerun.page_script_hash = self.pages.get(self.page, "") if page is None else page
        if page is None and not rerun.page_script_hash:
            rerun.page_name = self.page   # a first page by its address, as a browser opening a link
        if fragment:
            rerun.fragment_id = fragment
        rerun.is_auto_rerun = auto
        rerun.widget_states.widgets.extend(states)
        if not fragment:
            self.widgets, self.auto = {}, {}
        self.texts = []
        t = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        ok = True
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await asyncio.wait_for(self.ws.recv(), timeout=60))
            kind = fwd.WhichOneof("type")
            if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                ok &= self._element(fwd.delta.new_element, fwd.delta.fragment_id)
            elif kind == "navigation":
                self.pages = {p.url_pathname: p.page_script_hash for p in fwd.navigation.app_pages}
            elif kind == "page_info_changed":
                self.query = fwd.page_info_changed.query_string
            elif kind == "auto_rerun":
                self.auto[fwd.auto_rerun.fragment_id] = fwd.auto_rerun.interval
            elif kind == "stop_auto_rerun":
                for frag in fwd.stop_auto_rerun.fragment_ids:
                    self.auto.pop(frag, None)
            elif kind == "script_finished":
                if fwd.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    self.widgets, self.auto = {}, {}   # st.rerun(): the whole page is drawn again
                    continue
                self.last = time.perf_counter() - t
                return ok and fwd.script_finished in RUN_OK

    def _element(self, element, fragment: str) -> bool:
        which = element.WhichOneof("type")
        if which == "exception":
            self.problems.append(element.exception.message)
            return False
        sub = getattr(element, which)
        if which == "markdown":
            self.texts.append(sub.body)
        elif which == "alert":
            self.texts.append(sub.body)
        if "id" not in sub.DESCRIPTOR.fields_by_name or not sub.id:
            return True
        key = _key(sub.id)
        self.widgets[key] = Widget(sub.id, which, fragment, sub)
        if which == "bidi_component":
            raw = sub.json or (sub.mixed.json if sub.HasField("mixed") else "")
            try:
                self.editors[key] = json.loads(raw)
            except ValueError:
                pass
        elif which == "slider" and sub.set_value:
            self.k[key] = int(sub.value[0])
        elif which == "slider" and key not in self.k:
            self.k[key] = int(sub.default[0])
        elif which == "button_group" and sub.set_value and sub.raw_values:
            self.mode[key] = sub.raw_values[0]
        elif which == "button_group" and key not in self.mode and sub.default:
            self.mode[key] = sub.options[sub.default[0]].content
        return True

    # ------------------------------------------------------------------ pages

    async def goto(self, page: str) -> bool:
        self.page, self.pick = page, 0
        return await self.run()

    def _find(self, pattern: str) -> str | None:
        keys = [k for k in self.widgets if re.fullmatch(pattern, k)]
        return keys[0] if keys else None

    def _drawn(self, prefix: str, name: str) -> str | None:
        """The key an example control (``k``, ``mode``) is drawn under: each range or value the
        server gave it is a key of its own (``keys.generation``), the latest the one drawn."""
        found = [k for k in self.widgets if re.fullmatch(rf"{prefix}\.{name}(\.\d+)?", k)]
        return max(found, key=lambda k: int(k.rsplit(".", 1)[1]) if k.rsplit(".", 1)[1].isdigit() else 0,
                   default=None)

    def kinds(self) -> list[str]:
        """The interactions this page offers, as drawn."""
        prefix = re.escape(EDIT_PAGES.get(self.page, "-"))
        out = []
        if self._find(rf"{prefix}\.editor\.\d+") or self._find(rf"{prefix}\.ranking\.0\.v\d+"):
            out.append("grade")
        if self._find(rf"{prefix}\.editor\.\d+") or self._find(rf"{prefix}\.strip\.\d+"):
            out.append("tile")
        if self._find(rf"{prefix}\.editor\.\d+") or self._find(rf"{prefix}\.pick\.0\.down"):
            out.append("move")
        if self._drawn(prefix, "k"):
            out.append("k")
        if self._drawn(prefix, "mode"):
            out.append("mode")
        return out

    async def act(self, kind: str) -> bool:
        """One interaction of ``kind`` (:data:`KINDS`) on this page."""
        prefix = re.escape(EDIT_PAGES[self.page])
        editor = self._find(rf"{prefix}\.editor\.\d+")
        if kind in ("grade", "tile", "move") and editor:
            return await self._edit(editor, kind)
        if kind == "grade":
            return await self._typed_in_grid(self._find(rf"{prefix}\.ranking\.0\.v\d+"))
        if kind == "tile":
            return await self._tile_of_strip(self._find(rf"{prefix}\.strip\.\d+"))
        if kind == "move":
            return await self._move_button(prefix)
        if kind == "k":
            return await self._k(self._drawn(prefix, "k"))
        return await self._mode(self._drawn(prefix, "mode"))

    # the ranking editor: every edit is the component's value, its lists whole (docs/editing.md)
    async def _edit(self, key: str, kind: str) -> bool:
        data = self.editors[key]
        ranking = [list(row) for row in data["ranking"]]
        if len(ranking) < 2:
            return True
        graded = data.get("mode") == "graded"
        r = self.rng.randrange(len(ranking) - (kind == "move"))
        grade = ranking[r][2]
        if kind == "move":   # Alt+↓ on result r
            ranking[r], ranking[r + 1] = ranking[r + 1], ranking[r]
        elif kind == "tile":   # a click on the grade: the next one
            top = max([3] + [row[2] for row in ranking if row[2] is not None])
            ranking[r][2] = 0 if grade is None else (1 - min(grade, 1) if not graded else (grade + 1 if grade < top else 0))
        else:   # a digit typed
            ranking[r][2] = self.rng.choice([g for g in range(4 if graded else 2) if g != grade])
        seq = max(self.sent.get(key, 0), int(data.get("processed", 0))) + 1
        self.sent[key] = seq
        event = {"seq": seq, "base": data["version"], "op": "set", "ranking": ranking, "tray": data["tray"]}
        state = WidgetState(id=self.widgets[key].id, json_value=json.dumps({"events": [event]}))
        ok = await self.run([state], fragment=self.widgets[key].fragment)
        if ok and self.editors.get(key, {}).get("processed", 0) < seq:
            self.problems.append(f"{key}: edit {seq} not processed")
            return False
        return ok

    # before the ranking editor: the data editor, the strip of tiles, the move buttons
    async def _typed_in_grid(self, key: str) -> bool:
        import pyarrow as pa

        widget = self.widgets[key]
        table = pa.ipc.open_stream(widget.proto.arrow_data.data).read_all()
        grades = [str(g) for g in table.column("grade").to_pylist()]
        if not grades:
            return True
        edits = self.grid_edits.setdefault(key, {})
        r = self.rng.randrange(len(grades))
        now = edits.get(r, {}).get("grade", grades[r])
        edits[r] = {"grade": self.rng.choice([str(g) for g in range(4) if str(g) != now])}
        value = {"edited_rows": {str(i): v for i, v in edits.items()}, "added_rows": [], "deleted_rows": []}
        return await self.run([WidgetState(id=widget.id, string_value=json.dumps(value))], fragment=widget.fragment)

    async def _tile_of_strip(self, key: str) -> bool:
        widget = self.widgets[key]
        n = max((self.widgets[k].proto.max for k in self.widgets if k.endswith(".k")), default=1)
        value = {"selection": {"tile": [{"rank": self.rng.randint(1, int(min(n, 40)))}]}}
        return await self.run([WidgetState(id=widget.id, string_value=json.dumps(value))], fragment=widget.fragment)

    async def _move_button(self, prefix: str) -> bool:
        n = max((self.widgets[k].proto.max for k in self.widgets if k.endswith(".k")), default=1)
        way = "down" if self.pick < n - 1 else "up"
        self.pick += 1 if way == "down" else -1
        widget = self.widgets[self._find(rf"{prefix}\.pick\.0\.{way}")]
        return await self.run([WidgetState(id=widget.id, trigger_value=True)], fragment=widget.fragment)

    async def _k(self, key: str) -> bool:
        widget = self.widgets[key]
        low, high = int(widget.proto.min), int(widget.proto.max)
        k = self.k.get(key, low)
        step = self.rng.choice([-1, 1]) if low < k < high else (1 if k <= low else -1)
        self.k[key] = k + step
        state = WidgetState(id=widget.id)
        state.double_array_value.data.append(float(k + step))
        return await self.run([state], fragment=widget.fragment)

    async def _mode(self, key: str) -> bool:
        widget = self.widgets[key]
        options = [o.content for o in widget.proto.options]
        other = next(o for o in options if o != self.mode.get(key))
        self.mode[key] = other
        state = WidgetState(id=widget.id)
        state.string_array_value.data.append(other)
        return await self.run([state], fragment=widget.fragment)

    # ------------------------------------------------------------------ a poll

    async def auto_reruns(self, until: asyncio.Event) -> None:
        """Run each fragment the server asked to rerun every few seconds, as the browser does."""
        due: dict[str, float] = {}
        while not until.is_set():
            await asyncio.sleep(0.05)
            now = time.monotonic()
            for frag, interval in list(self.auto.items()):
                when = due.setdefault(frag, now + interval)
                if now >= when and not self.lock.locked():
                    due[frag] = now + interval
                    async with self.lock:
                        if frag in self.auto:
                            await self.run(fragment=frag, auto=True)
                            self.on_auto(frag)
            for frag in list(due):
                if frag not in self.auto:
                    del due[frag]

    def on_auto(self, fragment: str) -> None:
        """Called after each auto rerun (the hall times the reveal with it)."""


class Served(Class):
    """``scripts/serve.py``'s workers (and nginx) for the checkout at ``root``, each worker
    under cProfile when ``profile`` names where to write its profile."""

    def __init__(self, *args, root: Path = ROOT, profile: str | None = None, app: str = "app.py", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.root, self.profile, self.app = Path(root), profile, app
        self.env["PYTHONPATH"] = str(self.root)

    def _worker(self, port: int) -> subprocess.Popen:
        args = ["run", self.app, "--server.headless", "true", "--server.port", str(port), "--server.address",
                "127.0.0.1", "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false", *self.flags]
        command = ([sys.executable, "-m", "streamlit", *args] if not self.profile else
                   [sys.executable, str(Path(__file__).resolve()), "--profiled-worker", f"{self.profile}-{port}", "--",
                    *args])
        return subprocess.Popen(command, cwd=self.root, env=self.env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL if self.quiet else None)


# ---------------------------------------------------------------------- 1. CPU per interaction

async def _cpu_kinds(servers: dict[str, tuple[str, int]], pages: list[str], kinds: list[str], reps: int,
                     seed: int, settle: float) -> dict:
    """For each page and kind, ``reps`` interactions on each server in turn (which goes first
    alternates); the server's CPU seconds for each, less what it spends idle meanwhile."""
    rng = random.Random(seed)
    browsers = {name: Browser(url, random.Random(rng.random())) for name, (url, _pid) in servers.items()}
    idle = {}
    for name, b in browsers.items():
        if not await b.open():
            raise SystemExit(f"{name}: the first page failed: {b.problems}")
    for name, (_url, pid) in servers.items():   # what the server does with nothing asked
        c0, t0 = cpu_seconds(pid), time.monotonic()
        await asyncio.sleep(2)
        idle[name] = (cpu_seconds(pid) - c0) / (time.monotonic() - t0)
    out: dict = {"idle": idle, "cpu": {}, "wall": {}, "errors": {}, "problems": []}
    names = list(browsers)
    for page in pages:
        for name, b in browsers.items():
            if name == FLOOR:   # its one page: its k steps are taken beside the Playground's
                continue
            if not await b.goto(page):
                raise SystemExit(f"{page}: the page failed: {b.problems}")
        for kind in kinds:
            for rep in range(reps):
                for name in names if rep % 2 == 0 else names[::-1]:
                    b, pid = browsers[name], servers[name][1]
                    if kind not in b.kinds() or (name == FLOOR and page != ""):
                        continue
                    c0, t0 = cpu_seconds(pid), time.monotonic()
                    ok = await b.act(kind)
                    await asyncio.sleep(settle)   # the run's last messages go out after its end
                    used = cpu_seconds(pid) - c0 - idle[name] * (time.monotonic() - t0)
                    out["cpu"].setdefault((name, page, kind), []).append(used)
                    out["wall"].setdefault((name, page, kind), []).append(b.last)
                    out["errors"][(name, page, kind)] = out["errors"].get((name, page, kind), 0) + (not ok)
                    if not ok:
                        out["problems"].append((name, page, kind, b.problems[-1:]))
    for b in browsers.values():
        await b.close()
    return out


def cpu_report(args) -> None:
    trees = {"before": Path(args.before)} if args.before else {}
    trees["now"] = Path(args.now)
    served = {name: Served(1, free_port(), first_of_free_ports(1), proxy=False, root=root,
                           env={"RANKLAB_POLL_DB": str(Path(tempfile.mkdtemp()) / "polls.sqlite3")},
                           profile=str(Path(args.profile) / name) if args.profile else None)
              for name, root in trees.items()}
    if args.floor:
        served[FLOOR] = Served(1, free_port(), first_of_free_ports(1), proxy=False, app="benchmarks/rerun_floor_app.py")
    try:
        servers = {name: (s.start(), s.worker_pids()[0]) for name, s in served.items()}
        print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
        pages = [p for p in EDIT_PAGES if not args.pages or EDIT_PAGES[p] in args.pages]
        kinds = [k for k in KINDS if not args.kinds or k in args.kinds]
        result = asyncio.run(_cpu_kinds(servers, pages, kinds, args.reps, args.seed, args.settle_run))
    finally:
        for s in served.values():
            s.stop()
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print("idle CPU (ms/s): " + ", ".join(f"{n} {v * 1000:.1f}" for n, v in result["idle"].items()))
    names = list(trees)
    head = "| page | interaction | " + " | ".join(f"{n}: CPU ms (wall p50 ms)" for n in names)
    head += " | now / before |" if len(names) == 2 else " |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    per_kind: dict = {}
    for page in EDIT_PAGES:
        for kind in KINDS:
            cells, means = [], []
            for name in names:
                cpu = result["cpu"].get((name, page, kind))
                if not cpu:
                    cells.append("—")
                    means.append(None)
                    continue
                mean = sum(cpu) / len(cpu)
                means.append(mean)
                per_kind.setdefault((name, kind), []).extend(cpu)
                errors = result["errors"].get((name, page, kind), 0)
                cells.append(f"{mean * 1000:.0f} ({pct(result['wall'][(name, page, kind)], .5) * 1000:.0f})"
                             + (f" {errors} errors" if errors else ""))
            if all(m is None for m in means):
                continue
            ratio = f" {means[1] / means[0]:.2f}x |" if len(names) == 2 and None not in means and means[0] > 0 else \
                (" — |" if len(names) == 2 else "")
            print(f"| {EDIT_PAGES[page]} | {TITLES[kind]} | " + " | ".join(cells) + " |" + ratio)
    print("\nCPU ms per interaction, every page together:")
    for kind in KINDS:
        row = []
        for name in names:
            cpu = per_kind.get((name, kind), [])
            row.append(f"{name} {sum(cpu) / len(cpu) * 1000:.0f} ms (n={len(cpu)})" if cpu else f"{name} —")
        print(f"  {TITLES[kind]}: " + ", ".join(row))
    floor = result["cpu"].get((FLOOR, "", "k"))
    if floor:
        floor_ms = sum(floor) / len(floor) * 1000
        print(f"\nthe floor (benchmarks/rerun_floor_app.py, a fragment that draws one slider): {floor_ms:.1f} ms "
              f"per k step (n={len(floor)})")
        before = result["cpu"].get(("before", "", "k"))
        if before:
            before_ms = sum(before) / len(before) * 1000
            print(f"  the Playground's k step on the main before: {before_ms:.1f} ms; the floor is "
                  f"{floor_ms / before_ms:.2f}x of it (the goal: 0.25x, {before_ms / 4:.1f} ms)")
    for problem in result["problems"][:10]:
        print("problem:", problem)
    if args.profile:
        print_profiles(args.profile)


# ---------------------------------------------------------------------- 2, 3. a class editing

@dataclass
class Run:
    kind: str
    seconds: float
    ok: bool


async def _student(b: Browser, edits: int, deadline: float, links: list[str], scenario: str, code: str | None,
                   log: list[Run], recoveries: list[float], voter: dict) -> None:
    rng = b.rng
    await _connect(b, scenario, code, deadline + 60, recoveries, log, first=True)
    try:
        for i in range(edits):
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(rng.uniform(1.5, 3.5) if scenario != "edits" else rng.uniform(1.0, 4.0))
            kind = "?"
            try:
                if scenario == "links":
                    kind, page = "link", rng.choice(PAGES)
                    b.page = page
                    ok = await b.run(query=f"ex={rng.choice(links)}")
                elif scenario == "poll":
                    kind = "answer"
                    ok = await _vote(b, voter)
                else:
                    if i == 0 or rng.random() < 1 / 3 or not b.kinds():
                        ok = await b.goto(rng.choice(list(EDIT_PAGES)))
                        log.append(Run("page", b.last, ok))
                    kind = rng.choice(b.kinds())
                    ok = await b.act(kind)
            except TimeoutError:
                ok = False
            except ConnectionClosed:   # the worker died: reconnect as the browser does
                log.append(Run(kind, 0.0, False))
                await _connect(b, scenario, code, deadline + 60, recoveries, log)
                continue
            log.append(Run(kind, b.last, ok))
    finally:
        await b.close()


async def _connect(b: Browser, scenario: str, code: str | None, give_up: float, recoveries: list[float],
                   log: list[Run], first: bool = False) -> None:
    """Open the page (again after a drop, with the same cookie, in a new session)."""
    dropped = time.monotonic()
    while True:
        try:
            ok = await b.open()
            if scenario == "poll":   # then the poll's link
                b.page, b.query = "class_poll", f"{POLL}={code}"
                ok = await b.run()
        except (OSError, ConnectionClosed, TimeoutError) as err:
            if first:   # the worker died during the first page: as after any drop, from now
                log.append(Run("page", 0.0, False))
                first, dropped = False, time.monotonic()
            if time.monotonic() > give_up:
                raise RuntimeError("a student could not reconnect") from err
            await asyncio.sleep(0.5)
            continue
        if not first:
            recoveries.append(time.monotonic() - dropped)
        elif not ok:
            log.append(Run("page", b.last, False))
        return


async def _vote(b: Browser, voter: dict) -> bool:
    """A new answer, as the browser sends it: the number box's value and the button's click."""
    value = round(b.rng.random(), 4)
    voter.setdefault("sent", []).append(value)
    states = [WidgetState(id=b.widgets["poll.guess"].id, double_value=value),
              WidgetState(id=b.widgets["poll.send"].id, trigger_value=True)]
    async with b.lock:
        ok = await b.run(states)
    confirmed = any(t.startswith(("Sent:", "Received,")) for t in b.texts)
    if ok and confirmed:
        voter["confirmed"] = len(voter["sent"]) - 1
    return ok and confirmed


async def class_run(url: str, students: int, edits: int, limit: float, seed: int, poll: str | None = None,
                    scenario: str | None = None) -> dict:
    """Every student's runs, recoveries and answers."""
    rng = random.Random(seed)
    links = examples(200, rng)
    scenario = scenario or ("poll" if poll else "edits")
    crowd = [Browser(url, random.Random(rng.random())) for _ in range(students)]
    logs: list[list[Run]] = [[] for _ in crowd]
    recoveries: list[float] = []
    voters: list[dict] = [{} for _ in crowd]
    deadline = time.monotonic() + limit

    async def join(i: int) -> None:
        await asyncio.sleep(i * 0.05)
        await _student(crowd[i], edits, deadline, links, scenario, poll, logs[i], recoveries, voters[i])

    await asyncio.gather(*(join(i) for i in range(students)))
    return {"crowd": crowd, "logs": logs, "recoveries": recoveries, "voters": voters}


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


def lost_votes(crowd: list[Browser], voters: list[dict], path: str, code: str) -> int:
    """Students whose confirmed answer is not in the poll file (nor one they sent after it)."""
    with sqlite3.connect(path) as db:
        stored = dict(db.execute("SELECT voter, value FROM votes WHERE code = ?", (code,)).fetchall())
    lost = 0
    for b, v in zip(crowd, voters, strict=True):
        if v.get("confirmed") is None:
            continue
        rlw = dict(part.split("=", 1) for part in b.cookie.split("; ") if "=" in part).get("rlw", "")
        value = stored.get(f"browser-{rlw}")
        lost += value is None or float(value) not in v["sent"][v["confirmed"]:]
    return lost


def load_running(url: str, args) -> str:
    """The class against a server someone else started: its table row, memory left out."""
    t0 = time.perf_counter()
    out = asyncio.run(class_run(url, args.students, args.edits, args.limit, args.seed,
                                scenario="links" if args.links else "edits"))
    wall = time.perf_counter() - t0
    runs = [r for log in out["logs"] for r in log]
    times = [r.seconds for r in runs if r.ok]
    return (f"| {url} | {args.students} | {len(runs)} | {len(runs) / wall if wall else 0:.1f} | "
            f"{pct(times, .5) * 1000:.0f} | {pct(times, .95) * 1000:.0f} | {max(times, default=0) * 1000:.0f} | "
            f"{sum(not r.ok for r in runs)} | - | - | - | - |")


def run_class(workers: int, args, root: Path = ROOT, label: str = "") -> dict:
    """One configuration under load: its table row and the figures a test checks."""
    # one worker is served on its own (no proxy), as `make run` serves; more sit behind nginx
    polls = Path(tempfile.mkdtemp(prefix="ranklab-load-")) / "polls.sqlite3"
    profile = getattr(args, "profile", None)
    served = Served(workers, free_port(), first_of_free_ports(workers), proxy=workers > 1, root=root,
                    env={"RANKLAB_POLL_DB": str(polls)},
                    profile=str(Path(profile) / (label or "now")) if profile else None)
    url = served.start()
    scenario = "poll" if args.poll else "links" if getattr(args, "links", False) else "edits"
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
            asyncio.run(class_run(url, 8 * workers, len(EDIT_PAGES), 120, args.seed + 1, scenario=scenario))
            time.sleep(args.settle)
        start = [rss_mb(p) for p in pids]
        cpu0 = [cpu_seconds(p) for p in pids]
        peak = list(start)
        done = asyncio.Event()

        async def watch() -> None:
            while not done.is_set():
                for i, p in enumerate(pids):
                    peak[i] = max(peak[i], rss_mb(p))
                await asyncio.sleep(0.5)

        async def both() -> dict:
            watcher = asyncio.create_task(watch())
            out = await class_run(url, args.students, args.edits, args.limit, args.seed, code, scenario)
            done.set()
            await watcher
            return out

        supervisor = threading.Thread(target=supervise, daemon=True)
        supervisor.start()
        t0 = time.perf_counter()
        out = asyncio.run(both())
        wall = time.perf_counter() - t0
        cpu = sum(cpu_seconds(p) - c for p, c in zip(served.worker_pids(), cpu0, strict=True))
        stop.set()
        supervisor.join()
        time.sleep(args.settle)
        after = [rss_mb(p) for p in pids]
        crowd, voters = out["crowd"], out["voters"]
        runs = [r for log in out["logs"] for r in log]
        times = [r.seconds for r in runs if r.ok]
        edits = [r.seconds for r in runs if r.ok and r.kind in KINDS]
        errors = sum(not r.ok for r in runs)
        rate = len(runs) / wall if wall else 0
        recoveries = out["recoveries"]
        extra, lost = "", 0
        confirmed = sum(v.get("confirmed") is not None for v in voters)
        if args.poll:
            lost = lost_votes(crowd, voters, str(polls), code)
            extra = (f" {confirmed} | {lost} | {len(recoveries)} | {max(recoveries, default=0):.1f} | "
                     f"{', '.join(restarted) or '-'} |")
        per_session = (sum(peak) - sum(start)) / args.students
        stats = {"reruns": len(runs), "errors": errors, "lost": lost, "recoveries": recoveries,
                 "restarted": restarted, "confirmed": confirmed, "p50": pct(times, .5), "p95": pct(times, .95),
                 "cpu_per_run": cpu / len(runs) if runs else float("nan"), "mb_per_session": per_session,
                 "problems": [p for b in crowd for p in b.problems][:5]}
        return stats | {"row": f"| {label or workers} | {args.students} | {len(runs)} | {rate:.1f} | "
                               f"{pct(times, .5) * 1000:.0f} | {pct(times, .95) * 1000:.0f} | "
                               f"{pct(edits, .5) * 1000:.0f} / {pct(edits, .95) * 1000:.0f} | "
                               f"{max(times, default=0) * 1000:.0f} | {errors} | {cpu / max(len(runs), 1) * 1000:.0f} | "
                               f"{' + '.join(f'{x:.0f}' for x in start)} | {' + '.join(f'{x:.0f}' for x in peak)} | "
                               f"{' + '.join(f'{x:.0f}' for x in after)} | {per_session:.2f} |{extra}"}
    finally:
        stop.set()
        served.stop()


def measure(workers: int, args) -> str:
    return run_class(workers, args)["row"]


# ---------------------------------------------------------------------- 4. a lecture hall

async def _hall(teacher_url: str, phones_url: str, phones: int, seed: int, nat: dict, pids: list[int],
                answer_by: float = 30.0) -> dict:
    """A teacher opens a poll, ``phones`` phones (behind one address: ``nat``'s headers, or one
    network address) join with the code and answer once within ``answer_by`` seconds, the
    teacher counts the held answers and reveals; every phone refreshes as the browser does."""
    rng = random.Random(seed)
    out: dict = {"teacher": [], "join": [], "answer": [], "errors": 0, "problems": [], "seen": {}}
    stop = asyncio.Event()
    teacher = Browser(teacher_url, random.Random(rng.random()))
    teacher.on_auto = lambda frag: out["teacher"].append((teacher.last, time.monotonic()))
    if not await teacher.open() or not await teacher.goto("class_poll"):
        raise SystemExit(f"the poll page failed: {teacher.problems}")
    opened = teacher.widgets["class_poll.open"]
    await teacher.run([WidgetState(id=opened.id, trigger_value=True)], fragment=opened.fragment)
    code = next((m.group(1) for t in teacher.texts if (m := re.search(r"Code: `([A-Z0-9]{6})`", t))), None)
    if code is None:
        raise SystemExit(f"no poll code on the teacher's page: {teacher.texts[:5]} {teacher.problems}")
    tasks = [asyncio.create_task(teacher.auto_reruns(stop))]
    crowd = [Browser(phones_url, random.Random(rng.random()), headers=dict(nat)) for _ in range(phones)]
    voters: list[dict] = [{} for _ in crowd]
    t_start = time.monotonic()
    revealed: list[float] = []

    def seen(i: int, b: Browser) -> None:
        if revealed and i not in out["seen"] and any(t.startswith("The answer is") for t in b.texts):
            out["seen"][i] = time.monotonic() - revealed[0]

    async def phone(i: int, b: Browser) -> None:
        joined_at = rng.uniform(0, answer_by / 3)   # the code goes up on the screen; phones join
        await asyncio.sleep(joined_at)
        try:
            b.page = "class_poll"   # the poll page's address, as the teacher tells the class
            ok = await b.open(here=True)
            box, join = b.widgets["class_poll.code"], b.widgets["class_poll.join"]
            async with b.lock:
                ok = ok and await b.run([WidgetState(id=box.id, string_value=code.lower()),
                                         WidgetState(id=join.id, trigger_value=True)])
            out["join"].append(b.last)
            if not ok or "poll.guess" not in b.widgets:
                out["errors"] += 1
                out["problems"].append(b.problems[-1:] or b.texts[:2])
                return
            b.on_auto = lambda frag: seen(i, b)
            tasks.append(asyncio.create_task(b.auto_reruns(stop)))
            await asyncio.sleep(max(0.0, rng.uniform(joined_at + 3, answer_by) - (time.monotonic() - t_start)))
            ok = await _vote(b, voters[i])
            out["answer"].append(b.last)
            out["errors"] += not ok
            if not ok:
                out["problems"].append(b.problems[-1:] or b.texts[:2])
        except (ConnectionClosed, TimeoutError, OSError, KeyError) as err:
            out["errors"] += 1
            out["problems"].append(repr(err))

    await asyncio.gather(*(phone(i, b) for i, b in enumerate(crowd)))
    out["answered_in"] = time.monotonic() - t_start
    # the phones only refresh now: what their 3-second refresh costs the server
    refreshes = sum(1 for _ in crowd)
    cpu0, t0 = sum(cpu_seconds(p) for p in pids), time.monotonic()
    await asyncio.sleep(9 if answer_by >= 20 else 3)
    out["refresh_cpu"] = (sum(cpu_seconds(p) for p in pids) - cpu0) / (time.monotonic() - t0)
    out["refresh_rate"] = refreshes / 3
    # the teacher counts the answers held back by the per-address limit, then reveals
    async with teacher.lock:
        await teacher.run()
        out["held_shown"] = next((t for t in teacher.texts if "from one network address" in t), "")
        if "poll.count" in teacher.widgets:
            w = teacher.widgets["poll.count"]
            await teacher.run([WidgetState(id=w.id, trigger_value=True)], fragment=w.fragment)
        w = teacher.widgets["poll.reveal"]
        revealed.append(time.monotonic())
        await teacher.run([WidgetState(id=w.id, trigger_value=True)], fragment=w.fragment)
        out["reveal_run"] = teacher.last
        out["teacher_says"] = next((t for t in teacher.texts if t.startswith("The answer:")), "")
    while len(out["seen"]) < phones - out["errors"] and time.monotonic() - revealed[0] < 15:
        await asyncio.sleep(0.2)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    for b in [teacher, *crowd]:
        await b.close()
    out["code"], out["crowd"], out["voters"] = code, crowd, voters
    return out


def hall(args) -> dict:
    polls = Path(tempfile.mkdtemp(prefix="ranklab-hall-")) / "polls.sqlite3"
    address = network_address()
    # behind nginx the phones reach it at this computer's network address, all from one address
    # (nginx passes it on); a single worker believes the X-Real-IP of a client on this computer
    nat = {"X-Real-IP": "203.0.113.50"} if args.workers == 1 else {}
    served = Served(args.workers, free_port(), first_of_free_ports(args.workers), proxy=args.workers > 1,
                    host="0.0.0.0" if args.workers > 1 and address else "127.0.0.1",
                    env={"RANKLAB_POLL_DB": str(polls)})
    url = served.start()
    phones_url = url if args.workers == 1 or not address else url.replace("127.0.0.1", address)
    pids = served.worker_pids()
    try:
        start = [rss_mb(p) for p in pids]
        cpu0 = sum(cpu_seconds(p) for p in pids)
        t0 = time.monotonic()
        out = asyncio.run(_hall(url, phones_url, args.hall, args.seed, nat, pids,
                                answer_by=getattr(args, "answer_by", 30.0)))
        out["cpu"] = sum(cpu_seconds(p) for p in pids) - cpu0
        out["wall"] = time.monotonic() - t0
        out["mb_per_session"] = (sum(rss_mb(p) for p in pids) - sum(start)) / (args.hall + 1)
    finally:
        served.stop()
    with sqlite3.connect(polls) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info(votes)")}
        held = " AND held = 0" if "held" in columns else ""
        stored = dict(db.execute(f"SELECT voter, value FROM votes WHERE code = ?{held}", (out["code"],)).fetchall())
    # every phone's last answer is in the file, counted (a session's token when no nginx gives
    # a browser its cookie: then matched by value)
    from collections import Counter

    left = Counter(float(v) for v in stored.values())
    counted = 0
    for v in out["voters"]:
        if v.get("sent") and left[v["sent"][-1]] > 0:
            left[v["sent"][-1]] -= 1
            counted += 1
    out["counted"], out["stored"] = counted, len(stored)
    out["nat"] = (f"one address ({address}) through nginx" if args.workers > 1 and address
                  else "X-Real-IP 203.0.113.50 to one worker" if args.workers == 1 else "none: no network address")
    return out


def hall_report(args) -> dict:
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    out = hall(args)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    seen = sorted(out["seen"].values())
    teacher = [t for t, _when in out["teacher"]]
    print(f"phones: {args.hall}, workers: {args.workers}, behind one address: {out['nat']}")
    print(f"joined with the code: p50 {pct(out['join'], .5) * 1000:.0f} ms, p95 {pct(out['join'], .95) * 1000:.0f} ms; "
          f"answers sent: {len(out['answer'])} in {out['answered_in']:.0f} s, p50 {pct(out['answer'], .5) * 1000:.0f} ms, "
          f"p95 {pct(out['answer'], .95) * 1000:.0f} ms; errors {out['errors']}")
    print(f"held by the per-address limit, as the teacher saw it: {out['held_shown'] or '(none)'}")
    print(f"counted: {out['counted']} of {args.hall} (votes stored and counted: {out['stored']}); "
          f"the teacher's page: {out['teacher_says']}")
    print(f"the reveal on the phones: {len(seen)} of {args.hall}, p50 {pct(seen, .5):.1f} s, p95 {pct(seen, .95):.1f} s, "
          f"max {max(seen, default=float('nan')):.1f} s")
    print(f"the teacher's live screen: {len(teacher)} refreshes, p50 {pct(teacher, .5) * 1000:.0f} ms, "
          f"p95 {pct(teacher, .95) * 1000:.0f} ms, max {max(teacher, default=0) * 1000:.0f} ms")
    print(f"the phones' refresh alone ({out['refresh_rate']:.0f} a second): {out['refresh_cpu'] * 100:.0f} % of one "
          f"core, {out['refresh_cpu'] / out['refresh_rate'] * 1000:.1f} CPU-ms each")
    print(f"server CPU over the whole hall: {out['cpu']:.1f} s in {out['wall']:.0f} s; memory per session "
          f"{out['mb_per_session']:.2f} MB")
    for problem in out["problems"][:5]:
        print("problem:", problem)
    return out


# ---------------------------------------------------------------------- profiles

def print_profiles(folder: str, top: int = 40) -> None:
    import pstats

    for part in ("script", "main"):
        for label in sorted({p.name.split("-")[0] for p in Path(folder).glob(f"*.{part}.prof")}):
            files = sorted(str(p) for p in Path(folder).glob(f"{label}-*.{part}.prof"))
            stats = pstats.Stats(*files)
            print(f"\n== {label}: {part} thread(s), {len(files)} worker(s), {stats.total_tt:.1f} s in all")
            stats.sort_stats("tottime").print_stats(top)
            stats.sort_stats("cumulative").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--edits", type=int, default=20, help="interactions per student")
    parser.add_argument("--workers", type=int, nargs="+", default=[2])
    parser.add_argument("--limit", type=float, default=300, help="seconds at most per configuration")
    parser.add_argument("--settle", type=float, default=20, help="seconds after the sessions close")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--before", help="another checkout (git worktree add /tmp/before40 2fc7728): "
                                         "the same load against it, in alternating rounds")
    parser.add_argument("--now", default=str(ROOT), help="the checkout measured (default: this one)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of each checkout, alternating")
    parser.add_argument("--cpu", action="store_true", help="server CPU per interaction, by page and kind")
    parser.add_argument("--floor", action="store_true",
                        help="--cpu: also the least a k step costs in Streamlit (benchmarks/rerun_floor_app.py)")
    parser.add_argument("--reps", type=int, default=20, help="--cpu: interactions of each kind on each page")
    parser.add_argument("--pages", nargs="*", help="--cpu: only these pages (playground, lesson_pr...)")
    parser.add_argument("--kinds", nargs="*", help="--cpu: only these interactions (grade, tile, move, k, mode)")
    parser.add_argument("--settle-run", type=float, default=0.05, help="--cpu: seconds after each run")
    parser.add_argument("--hall", type=int, default=0, help="phones answering one poll from one address")
    parser.add_argument("--links", action="store_true", help="each step opens a new example from a link")
    parser.add_argument("--poll", action="store_true", help="every step answers a class poll")
    parser.add_argument("--kill-after", type=float, default=0,
                        help="seconds into the run to SIGKILL one worker (2 or more workers)")
    parser.add_argument("--url", help="load the Ranklab already running at this address (no --workers, no --poll)")
    parser.add_argument("--profile", help="a folder: every worker runs under cProfile, its profile written there")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))   # stop the servers it started (finally)
    if not (1 <= args.students <= 200 and 1 <= args.edits <= 200 and 0 <= args.hall <= 400):
        raise SystemExit("--students and --edits: 1 to 200; --hall: up to 400")
    if args.url and (not args.url.startswith(("http://", "https://")) or args.poll):
        raise SystemExit("--url: an http:// address, without --poll")
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    if args.cpu:
        cpu_report(args)
        return
    if args.hall:
        args.workers = args.workers[0]
        hall_report(args)
        return
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    head = ("| workers | students | runs | runs/s | p50 ms | p95 ms | edits p50 / p95 ms | max ms | errors | "
            "CPU ms per run | RSS start (MB) | peak | after close | MB per session |")
    if args.poll:
        head += " students confirmed | confirmed votes lost | reconnects | longest recovery (s) | restarted |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    if args.url:
        print(load_running(args.url.rstrip("/"), args), flush=True)
    trees = ([("before", Path(args.before))] if args.before else []) + [("now", Path(args.now))]
    for w in [] if args.url else args.workers:
        for r in range(args.rounds):
            for name, root in trees:
                stats = run_class(w, args, root, label=f"{name}-{w}w-{r + 1}" if args.before or args.rounds > 1 else "")
                print(stats["row"], flush=True)
                for problem in stats["problems"]:
                    print("  problem:", problem)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.profile:
        print_profiles(args.profile)


if __name__ == "__main__":
    main()
