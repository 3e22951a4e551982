"""How long one rerun of each app page takes, measured with Streamlit's AppTest.

    python benchmarks/app_rerun.py [--items 100 1000] [--repeat 15]

The example is a single query of N items (grades 0..3 on every third item) in graded mode;
each page is run once to warm up, then ``--repeat`` times; the median (p50) and the 90th
percentile are printed in milliseconds, for two kinds of rerun: "same" (the example did not
change, e.g. a download or an expander: chart specs come from the cache) and "new k" (k
changes before every rerun, so every chart that shows k is rebuilt and serialised).
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


def example(n: int, k: int = 10) -> state.Example:
    items = tuple(state.Item(f"d{i}", f"result {i}", (i * 7) % 4 if i % 3 == 0 else 0) for i in range(1, n + 1))
    tray = (state.Item("x1", "missed", 3),)
    return state.Example((state.Query(f"{n} items", items, tray),), k=k, mode="graded")


def measure(n: int, repeat: int, change_k: bool) -> dict[str, tuple[float, float]]:
    """p50 and p90 per page; ``change_k``: every rerun sees another k (charts rebuilt)."""
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
        for i in range(repeat):
            if change_k:
                at.session_state["state.example"] = example(n, k=5 + i)
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
        same = measure(n, args.repeat, change_k=False)
        moved = measure(n, args.repeat, change_k=True)
        print(f"\n{n} items, {args.repeat} reruns per page, milliseconds")
        print(f"{'page':36} {'same p50':>9} {'same p90':>9} {'new k p50':>10} {'new k p90':>10}")
        for page in PAGES:
            print(f"{page:36} {same[page][0]:9.1f} {same[page][1]:9.1f} {moved[page][0]:10.1f} {moved[page][1]:10.1f}")


if __name__ == "__main__":
    main()
