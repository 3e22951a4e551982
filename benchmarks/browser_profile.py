"""Where one action's time goes, in Chromium: the server's messages and the browser's main thread.

    python benchmarks/browser_profile.py --page lesson_dcg --action k [--steps 10] [--items 100]
    python benchmarks/browser_profile.py --page playground --action move
    python benchmarks/browser_profile.py --floor --action k       # the floor app, for comparison

Starts the app (or ``benchmarks/latency_floor_app.py`` with ``--floor``) on a free port, opens
the page on an N-item example (the one ``browser_latency.py`` uses) and repeats the action
(``k``: the slider's arrow key; ``move``: the "↓ down" button) ``--steps`` times. It prints:

- **the messages of one action** as the browser's websocket received them (Streamlit's
  protocol, decoded): how many script runs it took, how many elements were sent, and which;
- **the browser's main thread per action** from V8's sampling profiler: busy milliseconds by
  script bundle (React, Vega, the markdown renderer, the data grid…) and by named function,
  inclusive. ``(program)`` is native work the profiler cannot attribute (style, layout, paint).

Absolute numbers follow the machine's load; the shares and the message counts do not, which
is what makes this useful on a shared machine (``browser_latency.py`` needs a quiet one).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import browser_latency as bl  # noqa: E402  (benchmarks/ is this script's directory)

from ranklab_ui.core import codec  # noqa: E402


def act(page, action: str) -> None:
    if action == "move":
        page.get_by_role("button", name="↓ down").first.click()
    else:
        page.locator(bl.SLIDER).first.focus()
        page.keyboard.press("ArrowRight")
    page.wait_for_timeout(150)
    page.wait_for_function(bl.IDLE, timeout=30_000)
    page.wait_for_timeout(400)


def messages(frames: list) -> list[str]:
    """One line per message: what it is (an element's type and place, a run's start or end)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    out = []
    for payload in frames:
        if not isinstance(payload, bytes | bytearray):
            continue
        msg = ForwardMsg()
        msg.ParseFromString(bytes(payload))
        kind = msg.WhichOneof("type")
        if kind == "delta":
            delta = msg.delta
            what = delta.WhichOneof("type")
            if what == "new_element":
                what = delta.new_element.WhichOneof("type")
            elif what == "add_block":
                what = "block"
            kind = f"{what} at {list(msg.metadata.delta_path)}"
        out.append(kind)
    return out


def main_thread(profile: dict, steps: int, top: int) -> None:
    """Busy ms per action by bundle and by function (inclusive), from a V8 CPU profile."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", ())}
    own = collections.Counter()
    for sample, dt in zip(profile["samples"], profile["timeDeltas"], strict=True):
        own[sample] += dt / 1000
    by_bundle, inclusive = collections.Counter(), collections.Counter()
    for node, ms in own.items():
        frame = nodes[node]["callFrame"]
        name = frame["functionName"]
        bundle = name if name.startswith("(") else (frame["url"].rsplit("/", 1)[-1] or "(native)")
        by_bundle[bundle] += ms
        seen, at = set(), node
        while at in nodes:
            f = nodes[at]["callFrame"]
            key = (f["url"].rsplit("/", 1)[-1], f["functionName"])
            if key not in seen and f["functionName"] and not f["functionName"].startswith("("):
                inclusive[key] += ms
                seen.add(key)
            at = parent.get(at)
    busy = sum(ms for b, ms in by_bundle.items() if b != "(idle)")
    print(f"\nmain thread, per action: busy {busy / steps:.1f} ms, of which (program) "
          f"{by_bundle['(program)'] / steps:.1f} ms")
    for bundle, ms in by_bundle.most_common(top):
        if bundle != "(idle)":
            print(f"  {ms / steps:7.1f} ms  {bundle}")
    print("inclusive, by function:")
    for (bundle, name), ms in inclusive.most_common(top):
        print(f"  {ms / steps:7.1f} ms  {bundle[:32]:32s} {name[:50]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", default="playground", help="a page's URL path: playground, lesson_dcg, …")
    parser.add_argument("--action", choices=["k", "move"], default="k")
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--items", type=int, default=100)
    parser.add_argument("--top", type=int, default=14)
    parser.add_argument("--floor", action="store_true", help="profile the floor app instead")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    if args.floor:
        proc, url = bl.start("benchmarks/latency_floor_app.py", [], ["--items", str(args.items)])
    else:
        proc, url = bl.start("app.py", [], [])
        path = "" if args.page == "playground" else args.page
        url = f"{url}/{path}?ex={codec.encode(bl.example(args.items))}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=bl.CHROMIUM, args=bl.ARGS)
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            frames: list = []
            page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
            bl.open_page(page, url)
            act(page, args.action)  # warm-up: the first action after a page opens can carry its tail
            frames.clear()
            act(page, args.action)
            time.sleep(0.5)
            sent = messages(frames)
            runs = sent.count("new_session")
            print(f"one {args.action}: {runs} script run(s), {len(sent)} messages, "
                  f"{sum(' at ' in m for m in sent)} elements and blocks")
            print("  " + "\n  ".join(sent))
            cdp = context.new_cdp_session(page)
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 200})
            cdp.send("Profiler.start")
            for _ in range(args.steps):
                act(page, args.action)
            main_thread(cdp.send("Profiler.stop")["profile"], args.steps, args.top)
            browser.close()
    finally:
        proc.kill()


if __name__ == "__main__":
    main()
