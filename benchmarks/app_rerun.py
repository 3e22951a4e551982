"""How long one rerun of each app page takes, measured with Streamlit's AppTest.

    python benchmarks/app_rerun.py [--items 100 1000] [--repeat 15]

The example is a single query of N items (grades 0..3 on every third item) in graded mode;
each page is run once to warm up, then ``--repeat`` times; the median (p50) and the 90th
percentile are printed in milliseconds, for three kinds of rerun: "same example" (e.g. an
expander or a fragment-less widget: chart specs come from the cache), "new k" (k changes
before every rerun; k is a Vega-Lite parameter, so cached specs are reused) and "new grade"
(one grade changes before every rerun: every chart is rebuilt and serialised).
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

PAGES = ["app_pages/playground.py", "app_pages/many_queries.py", "app_pages/lesson_precision_recall.py",
         "app_pages/lesson_reciprocal_rank.py", "app_pages/lesson_average_precision.py", "app_pages/lesson_dcg.py",
         "app_pages/lesson_pr_curve.py"]


def example(n: int, k: int = 10, bump: int = 0) -> state.Example:
    """N items, grades 0..3 on every third; ``bump`` sets item ``bump`` to grade 3."""
    items = tuple(state.Item(f"d{i}", f"result {i}", 3 if i == bump else ((i * 7) % 4 if i % 3 == 0 else 0))
                  for i in range(1, n + 1))
    tray = (state.Item("x1", "missed", 3),)
    return state.Example((state.Query(f"{n} items", items, tray),), k=k, mode="graded")


def measure(n: int, repeat: int, change: str) -> dict[str, tuple[float, float]]:
    """p50 and p90 per page; ``change``: "none", "k" (another k before every rerun) or
    "grade" (another grade before every rerun: every chart's data changes)."""
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
            if change == "k":
                at.session_state["state.example"] = example(n, k=5 + i)
            elif change == "grade":
                at.session_state["state.example"] = example(n, bump=i + 1)
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
        runs = {change: measure(n, args.repeat, change) for change in ("none", "k", "grade")}
        print(f"\n{n} items, {args.repeat} reruns per page, milliseconds (p50 / p90)")
        print(f"{'page':36} {'same example':>14} {'new k':>14} {'new grade':>14}")
        for page in PAGES:
            cells = [f"{runs[c][page][0]:6.1f} /{runs[c][page][1]:6.1f}" for c in ("none", "k", "grade")]
            print(f"{page:36} " + " ".join(f"{c:>14}" for c in cells))


if __name__ == "__main__":
    main()
