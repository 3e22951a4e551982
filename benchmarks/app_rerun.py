"""How long one rerun of each app page takes, measured with Streamlit's AppTest.

    python benchmarks/app_rerun.py [--items 100 1000] [--repeat 15]

The example is a single query of N items (grades cycling 0..3, every third relevant) with
k = 10, in graded mode; each page is run once to warm up, then ``--repeat`` times; the
median (p50) and the 90th percentile are printed in milliseconds. A rerun here is the whole
script (all charts serialised), i.e. the worst case: in the browser, fragments rerun less.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from ui import state  # noqa: E402

PAGES = ["pages/playground.py", "pages/many_queries.py", "pages/lesson_precision_recall.py",
         "pages/lesson_reciprocal_rank.py", "pages/lesson_average_precision.py", "pages/lesson_dcg.py",
         "pages/lesson_pr_curve.py"]


def example(n: int) -> state.Example:
    items = tuple(state.Item(f"d{i}", f"result {i}", (i * 7) % 4 if i % 3 == 0 else 0) for i in range(1, n + 1))
    tray = (state.Item("x1", "missed", 3),)
    return state.Example((state.Query(f"{n} items", items, tray),), k=10, mode="graded")


def measure(n: int, repeat: int) -> dict[str, tuple[float, float]]:
    out = {}
    for page in PAGES:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.run()
        at.session_state["state.example"] = example(n)
        at.switch_page(page)
        at.run()
        if at.exception:
            raise SystemExit(f"{page}: {at.exception}")
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            at.run()
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        out[page] = (statistics.median(times), times[int(0.9 * (len(times) - 1))])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    for n in args.items:
        print(f"\n{n} items, {args.repeat} reruns per page (ms)")
        print(f"{'page':40} {'p50':>8} {'p90':>8}")
        for page, (p50, p90) in measure(n, args.repeat).items():
            print(f"{page:40} {p50:8.1f} {p90:8.1f}")


if __name__ == "__main__":
    main()
