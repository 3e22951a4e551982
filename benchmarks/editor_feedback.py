"""How soon the ranking editor shows an edit: from the key or pointer event to the paint.

    python benchmarks/editor_feedback.py [--items 100 1000] [--repeat 40] [--cost] [--nice -15] [--trace PREFIX]

Starts Ranklab (``app.py``), opens the Playground from a permalink holding N results (the app's
limit is 1,000 per list) and, in Debian's Chromium through Playwright, times what the editor
does by itself, before any reply of the server:

- **digit**: a digit typed on a focused row (a grade it does not have);
- **space**: Space on a focused row (its next grade);
- **alt-down**: Alt+↓ on a focused row (moved one place down);
- **delete**: Delete on a focused row (sent to the tray, every row below it takes a new rank);
- **click**: a click on a row's grade (its next grade).

The rows acted on are near the top (ranks 1-5, in turn), where a change renumbers the most rows
below it. A listener in the page, added in the capture phase of ``keydown`` and ``pointerup``,
takes the event's own time stamp (``event.timeStamp``: when Chromium made the event, so the wait
in its queue counts); a MutationObserver on the editor sees the row change; at the first
animation frame after that change a message posted from ``requestAnimationFrame`` stamps the end
of that frame's paint. Printed: p50 and p95 in ms of **input → paint**, and of **input →
change** (the editor's own work in the event, the send to the server included). After each
action the page waits for the server's reply to be drawn, so the next action starts from a
quiet page; the reply's own drawing is not timed here (``browser_latency.py`` times the
measures).

On a machine shared with other work, Chromium waits for a core, and the wall time says more
about the other work than about the editor. ``--cost`` traces each action (CDP ``Tracing``) and
adds the CPU time the page's main thread spent from the input to the paint (the thread time of
its tasks between the probe's two marks): what the wall time would be with a core to itself,
short of the wait for the next frame. ``--nice -15`` (as root) runs Chromium ahead of the other
work. ``--trace PREFIX`` writes the trace of each action at the largest size to ``PREFIX-<action>.json``,
to open in chrome://tracing or Perfetto.

Goal: p95 of input → paint at most 16 ms at 100 items and 50 ms at 1,000.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.browser_latency import example, start  # noqa: E402
from ranklab_ui.core import codec  # noqa: E402
from tests.browser.helpers import ARGS, CHROMIUM, IDLE  # noqa: E402

GOAL = {100: 16.0, 1000: 50.0}   # p95 of input -> paint, ms

# Armed once per action: the next keydown or pointerup is the input; the first mutation of
# the editor after it, the change; the frame after that change, the paint.
PROBE = """(root) => {
  const fb = window.__feedback = {armed: false, results: [], input: null, changed: null};
  const watch = new MutationObserver(() => {
    if (fb.input !== null && fb.changed === null) fb.changed = performance.now();
  });
  watch.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
  const painted = () => {
    if (fb.changed === null) { requestAnimationFrame(painted); return; }
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      performance.mark('feedback-paint');
      fb.results.push({change: fb.changed - fb.input, paint: performance.now() - fb.input});
      fb.input = fb.changed = null;
    };
    channel.port2.postMessage(0);
  };
  for (const type of ['keydown', 'pointerup']) {
    window.addEventListener(type, (e) => {
      if (!fb.armed) return;
      fb.armed = false;
      fb.input = e.timeStamp;
      performance.mark('feedback-input');
      requestAnimationFrame(painted);
    }, {capture: true});
  }
}"""

EDITOR_ROOT = """() => { const list = [...document.querySelectorAll('*')].map(e => e.shadowRoot)
  .find(r => r && r.querySelector('[role=listbox]')); return list; }"""


def open_playground(page, url: str, n: int) -> None:
    code = codec.encode(replace(example(n), k=min(5, n)))
    page.goto(f"{url}/?ex={code}")
    page.get_by_role("option").first.wait_for(timeout=60_000)
    page.wait_for_function(IDLE, timeout=60_000)
    page.wait_for_function(f"() => {{ const r = ({EDITOR_ROOT})(); "
                           f"return !!r && r.querySelectorAll('[role=option]').length === {n + 1}; }}",
                           timeout=60_000)
    page.wait_for_timeout(1000)
    root = page.evaluate_handle(EDITOR_ROOT)
    page.evaluate(PROBE, root)


def row(page, rank: int):
    return page.get_by_role("listbox").first.get_by_role("option").nth(rank - 1)


def grade_of(page, rank: int) -> str:
    name = row(page, rank).get_attribute("aria-label") or ""
    return name.split("grade ", 1)[1].split(",", 1)[0]


def settle(page) -> None:
    """The server's reply drawn (no run under way), and a frame or two with nothing to do."""
    page.wait_for_timeout(50)
    page.wait_for_function(IDLE, timeout=30_000)
    page.wait_for_timeout(120)


def one(page, action: str, rank: int) -> dict | None:
    """Do ``action`` on the row of rank ``rank``; returns its times, or None if nothing changed."""
    target = row(page, rank)
    if action == "click":
        target.scroll_into_view_if_needed()
        box = target.locator(".grade").bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.evaluate("() => { window.__feedback.armed = true; }")
        page.mouse.down()
        page.mouse.up()
    else:
        target.focus()
        key = {"space": " ", "alt-down": "Alt+ArrowDown", "delete": "Delete"}.get(action)
        if action == "digit":
            key = "2" if grade_of(page, rank) != "2" else "3"
        page.evaluate("() => { window.__feedback.armed = true; }")
        page.keyboard.press(key)
    try:
        page.wait_for_function("() => window.__feedback.results.length > 0", timeout=5000, polling=20)
    except Exception:
        page.evaluate("() => { const f = window.__feedback; f.armed = false; f.input = f.changed = null; }")
        return None
    result = page.evaluate("() => window.__feedback.results.pop()")
    settle(page)
    return result


def descendants(pid: int) -> list[int]:
    """The processes started by ``pid``, and by them, read from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def prioritise(niceness: int | None, server: int) -> None:
    """Give this process's Chromium (its renderers included: run after a page is opened) and
    Playwright's driver ``niceness``; the server ``server`` and its children keep theirs."""
    if niceness is None:
        return
    skip = {server, *descendants(server)}
    for pid in descendants(os.getpid()):
        if pid in skip:
            continue
        try:
            os.setpriority(os.PRIO_PROCESS, pid, niceness)
        except OSError:
            pass


TRACED = "devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing"


def read_trace(cdp, page) -> list[dict]:
    """End the trace started on ``cdp`` and return its events."""
    done = {}
    cdp.on("Tracing.tracingComplete", lambda e: done.update(e))
    cdp.send("Tracing.end")
    for _ in range(400):
        if done:
            break
        page.wait_for_timeout(50)
    chunks = []
    while True:
        part = cdp.send("IO.read", {"handle": done["stream"]})
        chunks.append(part["data"])
        if part.get("eof"):
            break
    events = json.loads("".join(chunks))
    return events["traceEvents"] if isinstance(events, dict) else events


def main_thread_cost(events: list[dict]) -> list[float]:
    """For each input and its paint (the probe's marks), the CPU time in ms the page's main thread
    spent between them: the thread time (``tdur``) of its tasks, each counted for the part of it
    that falls between the two marks. What the wall time would be on a core of its own, short of
    the wait for the next frame."""
    marks = sorted((e["ts"], e["name"], e["pid"]) for e in events
                   if e.get("name") in ("feedback-input", "feedback-paint") and e.get("ph") in ("R", "I", "i", "n", "b"))
    if not marks:
        return []
    pid = marks[0][2]
    main = {e["tid"] for e in events if e.get("name") == "thread_name" and e.get("pid") == pid
            and e.get("args", {}).get("name") == "CrRendererMain"}
    tasks = sorted((e["ts"], e["ts"] + e.get("dur", 0), e.get("tdur", e.get("dur", 0))) for e in events
                   if e.get("name") == "RunTask" and e.get("pid") == pid and e.get("tid") in main and e.get("ph") == "X")
    costs, start = [], None
    for ts, name, _ in marks:
        if name == "feedback-input":
            start = ts
        elif start is not None:
            cpu = 0.0
            for a, b, thread_time in tasks:
                if b > start and a < ts and b > a:
                    cpu += thread_time * (min(b, ts) - max(a, start)) / (b - a)
            costs.append(cpu / 1000)
            start = None
    return costs


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


ACTIONS = ("digit", "space", "alt-down", "delete", "click")


def measure(browser, url: str, n: int, repeat: int, trace: str | None, nice: int | None = None,
            server: int = 0, cost: bool = False) -> dict:
    out = {}
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    cdp = None
    try:
        for action in ACTIONS:
            # a fresh page for each action: deletes empty the top of the list, moves reorder it
            open_playground(page, url, n)
            prioritise(nice, server)
            if cost or trace:
                cdp = context.new_cdp_session(page)
                cdp.send("Tracing.start", {"transferMode": "ReturnAsStream", "categories": TRACED})
            times, lost = [], 0
            for i in range(repeat):
                got = one(page, action, i % 5 + 1)
                if got is None:
                    lost += 1
                else:
                    times.append(got)
            if cdp is not None:
                events = read_trace(cdp, page)
                cdp.detach()
                cdp = None
                if trace:
                    to = f"{trace}-{action}.json"
                    Path(to).write_text(json.dumps(events))
                    print(f"trace of {action} at {n} items: {to}")
                if cost:
                    cpu = main_thread_cost(events)
                    if len(cpu) == len(times):   # one mark pair for each action timed
                        for got, ms in zip(times, cpu, strict=True):
                            got["cpu"] = ms
            out[action] = (times, lost)
    finally:
        context.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--trace", default=None,
                        help="write a Chromium trace of each action at the largest size, to TRACE-<action>.json")
    parser.add_argument("--json", default=None, help="also write every time measured to this file")
    parser.add_argument("--cost", action="store_true",
                        help="trace each action and add the main thread's CPU time from input to paint")
    parser.add_argument("--nice", type=int, default=None,
                        help="run Chromium at this niceness (e.g. -10, as root): on a machine shared with "
                             "other work, what the editor costs rather than how long Chromium waits for a core")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average before: {os.getloadavg()[0]:.2f}; Chromium's niceness: {args.nice or 'as started'}")
    server, url = start("app.py", [], [])
    rows, raw = [], {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for n in args.items:
                t = time.time()
                measured = measure(browser, url, n, args.repeat, args.trace if n == max(args.items) else None,
                                   args.nice, server.pid, args.cost)
                for action, (times, lost) in measured.items():
                    paint = [r["paint"] for r in times]
                    change = [r["change"] for r in times]
                    cpu = [r["cpu"] for r in times if "cpu" in r]
                    raw[f"{n}:{action}"] = times
                    goal = GOAL.get(n)
                    met = "" if goal is None else ("yes" if pct(paint, .95) <= goal else "**no**")
                    rows.append(f"| {n} | {action} | {pct(paint, .5):.1f} | {pct(paint, .95):.1f} | "
                                f"{pct(change, .5):.1f} | {pct(change, .95):.1f} | {pct(cpu, .5):.1f} | {pct(cpu, .95):.1f} | "
                                f"{lost}/{len(times) + lost} | "
                                f"{'' if goal is None else f'{goal:.0f}'} | {met} |")
                print(f"{n} items: {time.time() - t:.0f} s", flush=True)
            browser.close()
    finally:
        server.terminate()
    print("| items | action | input → paint p50 ms | p95 | input → change p50 ms | p95 | "
          "main thread CPU, input → paint, p50 ms | p95 | lost | goal p95 | met |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(raw))


if __name__ == "__main__":
    main()
