"""What a person waits for: from an input in real Chromium to the new value on the screen.

    python benchmarks/browser_latency.py [--items 8 100] [--repeat 20] [--rounds 3] [--server-flag --runner.postScriptGC=false]
    python benchmarks/browser_latency.py --soak 300      # server memory over many reruns

Starts Ranklab (``app.py``) and, as the floor, ``benchmarks/latency_floor_app.py`` (the same
widgets with nothing behind them: the ranking editor whose lists ``st.write`` echoes, a slider)
on free ports, drives both through Playwright and Debian's Chromium, and prints p50 and p95 in
milliseconds for each action:

- **grade**: a digit typed on a focused row of the ranking editor (Playground, ranks 1..5 in
  turn, a grade the row does not have); timed from the key until the nDCG@k value on the page
  differs (the floor: until ``st.write`` echoes the new sum of the grades);
- **tile**: a click on a row's grade (ranks 1..5 in turn), which gives it the next grade; the
  same end as a grade;
- **move**: Alt+↓ on the row of the only grade-4 result (Playground, k = n), which moves it one
  place down; until the nDCG@k shown changes, i.e. the measures show the new order (the floor:
  until the echo of the order changes);
- **k**: the slider moved one step with the arrow key (Playground and the nDCG lesson); until
  the measures show the new k (the floor: until ``st.write`` echoes it).

The editor shows each edit at once, in the browser (``benchmarks/editor_feedback.py`` times
that); these times are the round trip: the server's run and the new measures drawn. The floor
and Ranklab are measured in turn, ``--rounds`` times, so that a change in the machine's load
(it is shared) falls on both: p50 and p95 pool the times of every round. The ratio column
divides Ranklab's p50 by the floor's p50 for the same action and size; "each round" gives the
same ratio within each round, to show how far one round can be trusted. Actions whose effect
never appeared within 10 s are counted as lost (and not timed). ``--soak N`` makes N reruns
(k changes) and prints the server's resident memory every 50.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ranklab_ui.core import codec, model  # noqa: E402
from tests.browser.helpers import ARGS, CHROMIUM, IDLE  # noqa: E402  (the tests' browser and their "idle")

WAIT = 10_000  # ms before an action counts as lost
SLIDER = "[data-testid='stSlider'] input[type='range']"


def example(n: int) -> model.Example:
    """N items, the first of grade 4 (no other item has it, so every move of it changes nDCG),
    then grades 0..3 on every third (as benchmarks/app_rerun.py)."""
    items = tuple(model.Item(f"d{i}", f"result {i}", 4 if i == 1 else ((i * 7) % 4 if i % 3 == 0 else 0))
                  for i in range(1, n + 1))
    return model.Example((model.Query(f"{n} items", items, (model.Item("x1", "missed", 3),)),),
                         k=min(5, n), mode="graded")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(script: str, flags: list[str], script_args: list[str]) -> tuple[subprocess.Popen, str]:
    port = free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true",
           "--server.port", str(port), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
           "--browser.gatherUsageStats", "false", *flags]
    if script_args:
        cmd += ["--", *script_args]
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit(f"{script} did not start within 60 s")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def timed(page, act, condition: str, arg=None) -> float | None:
    """Milliseconds from ``act()`` to ``condition`` holding in the page, or None if it never did."""
    t0 = time.perf_counter()
    act()
    try:
        page.wait_for_function(condition, arg=arg, timeout=WAIT, polling="raf")
    except Exception:
        return None
    ms = (time.perf_counter() - t0) * 1000
    page.wait_for_function(IDLE, timeout=30_000)
    page.wait_for_timeout(250)  # let the page settle before the next action
    return ms


def text_of(page, js: str) -> str:
    return page.evaluate(js)


NDCG_TEXT = ("() => { const a = [...document.querySelectorAll('[data-testid=\"stPageLink\"]')]"
             ".find(a => a.innerText.includes('nDCG@')); return a ? a.innerText : ''; }")
ECHO = ("(prefix) => [...document.querySelectorAll('[data-testid=\"stMarkdownContainer\"]')]"
        ".map(e => e.innerText).find(t => t.startsWith(prefix)) || ''")


def changed(js: str) -> str:
    """A condition: the text that ``js`` reads differs from ``arg``."""
    return f"(old) => {{ const now = ({js})(); return now !== '' && now !== old; }}"


def echo_changed(prefix: str) -> str:
    return f"(old) => {{ const now = ({ECHO})({prefix!r}); return now !== '' && now !== old; }}"


def open_page(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("[data-testid='stAppViewContainer']", timeout=60_000)
    page.wait_for_function(IDLE, timeout=60_000)
    page.wait_for_timeout(1500)


def rows(page):
    """The ranking's rows (the editor's first listbox)."""
    return page.get_by_role("listbox").first.get_by_role("option")


def grade_of(row) -> int | None:
    """The grade a row's accessible name says ("rank 2, grade 1, ...")."""
    said = (row.get_attribute("aria-label") or "").split("grade ", 1)[1].split(",", 1)[0]
    return None if said == "?" else int(said)


def grade_keys(page, repeat: int, condition: str, read) -> tuple[list[float], int]:
    """A digit typed on the focused row of ranks 1..5 in turn, never the grade it has."""
    times, lost = [], 0
    for i in range(repeat):
        row = rows(page).nth(i % 5)
        row.scroll_into_view_if_needed()
        row.focus()
        value = (grade_of(row) or 0) % 9 + 1
        ms = timed(page, lambda: page.keyboard.press(str(value)), condition, read())  # noqa: B023 (called at once)
        times.append(ms) if ms is not None else None
        lost += ms is None
    return times, lost


def tile_clicks(page, repeat: int, condition: str, read) -> tuple[list[float], int]:
    """Clicks on the grade of ranks 1..5 in turn (each gives its row the next grade)."""
    times, lost = [], 0
    for i in range(repeat):
        row = rows(page).nth(i % 5)
        row.scroll_into_view_if_needed()
        box = row.locator(".grade").bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        ms = timed(page, lambda: page.mouse.click(x, y), condition, read())  # noqa: B023 (called at once)
        times.append(ms) if ms is not None else None
        lost += ms is None
    return times, lost


def moves(page, repeat: int, condition: str, read, item: str = "d1") -> tuple[list[float], int]:
    """Alt+↓ on the row of id ``item``, ``repeat`` times: one place down each time."""
    times, lost = [], 0
    for _ in range(repeat):
        row = page.get_by_role("option", name=re.compile(rf", id {re.escape(item)}(,|$)"))
        row.scroll_into_view_if_needed()
        row.focus()
        ms = timed(page, lambda: page.keyboard.press("Alt+ArrowDown"), condition, read())
        times.append(ms) if ms is not None else None
        lost += ms is None
    return times, lost


def slider_steps(page, repeat: int, condition_for) -> tuple[list[float], int]:
    times, lost = [], 0
    thumb = page.locator(SLIDER).first
    thumb.scroll_into_view_if_needed()
    start = int(thumb.input_value())
    for i in range(repeat):
        k = start + i + 1
        thumb.focus()
        ms = timed(page, lambda: page.keyboard.press("ArrowRight"), condition_for(k))
        times.append(ms) if ms is not None else None
        lost += ms is None
    return times, lost


def measure_ranklab(browser, url: str, n: int, repeat: int, only: set | None = None) -> dict:
    out = {}

    def wanted(where: str, action: str) -> bool:
        return only is None or action in only or f"{where}:{action}" in only

    code = codec.encode(example(n))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    ndcg = lambda: text_of(page, NDCG_TEXT)  # noqa: E731
    try:
        if wanted("Playground", "grade"):
            open_page(page, f"{url}/?ex={code}")
            out[("Playground", "grade")] = grade_keys(page, repeat, changed(NDCG_TEXT), ndcg)
        if wanted("Playground", "tile"):
            open_page(page, f"{url}/?ex={code}")
            out[("Playground", "tile")] = tile_clicks(page, repeat, changed(NDCG_TEXT), ndcg)
        # a move is timed until the measures show the new order: with k = n, nDCG@k changes
        # with every step of the grade-4 result down the list
        if wanted("Playground", "move"):
            open_page(page, f"{url}/?ex={codec.encode(replace(example(n), k=n))}")
            out[("Playground", "move")] = moves(page, min(repeat, n - 1), changed(NDCG_TEXT), ndcg)
        steps = min(repeat, n - 5)
        if wanted("Playground", "k"):
            open_page(page, f"{url}/?ex={code}")
            out[("Playground", "k")] = slider_steps(page, steps, lambda k: (
                "() => [...document.querySelectorAll('[data-testid=\"stPageLink\"]')]"
                f".some(a => a.innerText.includes('Precision@{k} ='))"))
        if wanted("nDCG lesson", "k"):
            open_page(page, f"{url}/lesson_dcg?ex={code}")
            out[("nDCG lesson", "k")] = slider_steps(page, steps, lambda k: (
                "() => [...document.querySelectorAll('[data-testid=\"stMetric\"]')]"
                f".some(m => m.innerText.includes('DCG@{k}'))"))
    finally:
        context.close()
    return out


def measure_floor(browser, url: str, n: int, repeat: int, only: set | None = None) -> dict:
    out = {}
    actions = {a.split(":")[-1] for a in only} if only else {"grade", "tile", "move", "k"}
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    grades = lambda: page.evaluate(ECHO, "echo grade")  # noqa: E731
    try:
        open_page(page, url)
        if "grade" in actions:
            out["grade"] = grade_keys(page, repeat, echo_changed("echo grade"), grades)
        if "tile" in actions:
            out["tile"] = tile_clicks(page, repeat, echo_changed("echo grade"), grades)
        if "move" in actions:
            out["move"] = moves(page, min(repeat, n - 1), echo_changed("echo order"),
                                lambda: page.evaluate(ECHO, "echo order"))
        if "k" in actions:
            out["k"] = slider_steps(page, min(repeat, n - 5), lambda k: f"() => ({ECHO})('echo k') === 'echo k {k}'")
    finally:
        context.close()
    return out


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def pool(into: dict, measured: dict) -> None:
    """Add one round's (times, lost) per action to ``into``."""
    for action, (times, lost) in measured.items():
        before, lost_before = into.get(action, ([], 0))
        into[action] = (before + times, lost_before + lost)


def ratio_of(times: list[float], floor: list[float]) -> float:
    return statistics.median(times) / statistics.median(floor) if times and floor else float("nan")


def soak(browser, url: str, proc: subprocess.Popen, reruns: int) -> None:
    code = codec.encode(example(100))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    open_page(page, f"{url}/?ex={code}")
    print("| reruns | server RSS (MB) |\n|---|---|")
    print(f"| 0 | {rss_mb(proc.pid):.0f} |")
    thumb = page.locator(SLIDER).first
    for i in range(1, reruns + 1):
        thumb.focus()
        page.keyboard.press("ArrowRight" if (i // 40) % 2 == 0 else "ArrowLeft")
        page.wait_for_timeout(60)
        page.wait_for_function(IDLE, timeout=30_000)
        if i % 50 == 0:
            print(f"| {i} | {rss_mb(proc.pid):.0f} |", flush=True)
    context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, nargs="+", default=[8, 100])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of the floor then Ranklab; the times of all rounds are pooled")
    parser.add_argument("--server-flag", action="append", default=[],
                        help="a streamlit option for the Ranklab server, e.g. --runner.postScriptGC=false")
    parser.add_argument("--only", nargs="+", default=None,
                        help="measure only these actions: grade, tile, move, k, or page:action (\"nDCG lesson:k\")")
    parser.add_argument("--soak", type=int, default=0, help="N reruns, printing the server's memory")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average before: {os.getloadavg()[0]:.2f}; Ranklab server flags: {args.server_flag or 'none'}")
    ranklab, url = start("app.py", args.server_flag, [])
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            if args.soak:
                soak(browser, url, ranklab, args.soak)
                return
            rows = []
            only = set(args.only or ()) or None
            for n in args.items:
                floor_proc, floor_url = start("benchmarks/latency_floor_app.py", [], ["--items", str(n)])
                ours, floor, ratios = {}, {}, {}
                try:  # rounds of the floor then Ranklab, so that both see the same load
                    for _ in range(args.rounds):
                        f_round = measure_floor(browser, floor_url, n, args.repeat, only)
                        o_round = measure_ranklab(browser, url, n, args.repeat, only)
                        pool(floor, f_round)
                        pool(ours, o_round)
                        for (where, action), (times, _) in o_round.items():
                            ratios.setdefault((where, action), []).append(
                                ratio_of(times, f_round[action][0]))
                finally:
                    floor_proc.terminate()
                for (where, action), (times, lost) in ours.items():
                    f_times, f_lost = floor[action]
                    ratio = ratio_of(times, f_times)
                    each = ", ".join(f"{r:.2f}x" for r in ratios[(where, action)])
                    rows.append(f"| {where} | {n} | {action} | {pct(times, .5):.0f} | {pct(times, .95):.0f} | "
                                f"{pct(f_times, .5):.0f} | {pct(f_times, .95):.0f} | {ratio:.2f}x | {each} | "
                                f"{lost}/{len(times) + lost} | {f_lost} |")
            browser.close()
        print("| page | items | action | p50 ms | p95 ms | floor p50 | floor p95 | p50 / floor | each round | lost | floor lost |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        print("\n".join(rows))
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        ranklab.terminate()


if __name__ == "__main__":
    main()
