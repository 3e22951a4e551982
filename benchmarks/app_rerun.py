"""How long one rerun of each app page takes, measured with Streamlit's AppTest.

    python benchmarks/app_rerun.py [--items 100 1000] [--repeat 15]

The example is a single query of N items (grades 0..3 on every third item) in graded mode;
each page is run once to warm up, then ``--repeat`` times; the median (p50) and the 90th
percentile are printed in milliseconds, for five kinds of rerun:

- "same": nothing changed (an expander, a download);
- "new k": k changes before every rerun (k is a Vega-Lite parameter of the cached templates);
- "new grade": one grade of the shared example changes before every rerun (every chart gets
  new data);
- "typed grade": a grade typed in the page's ranking editor (Playground and Many queries
  only: the lessons show theirs only when asked), i.e. the editor's event as the browser sends
  it (the whole lists, on the version shown), so the server's check of it is measured too;
- "added row": a result added in the ranking editor (the list grows by one before every rerun).
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

from ranklab_ui.core import model  # noqa: E402
from tests.app import conftest as editing  # noqa: E402  (the AppTest tests' editor events)

PAGES = ["app_pages/playground.py", "app_pages/many_queries.py", "app_pages/lesson_precision_recall.py",
         "app_pages/lesson_reciprocal_rank.py", "app_pages/lesson_average_precision.py", "app_pages/lesson_dcg.py",
         "app_pages/lesson_pr_curve.py"]


def example(n: int, k: int = 10, bump: int = 0) -> model.Example:
    """N items, grades 0..3 on every third; ``bump`` sets item ``bump`` to grade 3."""
    items = tuple(model.Item(f"d{i}", f"result {i}", 3 if i == bump else ((i * 7) % 4 if i % 3 == 0 else 0))
                  for i in range(1, n + 1))
    tray = (model.Item("x1", "missed", 3),)
    return model.Example((model.Query(f"{n} items", items, tray),), k=k, mode="graded")


EDITORS = {"app_pages/playground.py": "playground", "app_pages/many_queries.py": "many"}   # their editors' page keys
CHANGES = ("none", "k", "grade", "typed", "row")
TITLES = {"none": "same", "k": "new k", "grade": "new grade", "typed": "typed grade", "row": "added row"}


def measure(n: int, repeat: int, change: str) -> dict[str, tuple[float, float]]:
    """p50 and p90 per page for one kind of ``change`` (see :data:`CHANGES`)."""
    out = {}
    for page in PAGES:
        if change in ("typed", "row") and page not in EDITORS:
            continue
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
            if change == "typed":   # ranks 1..5 in turn, a grade each does not have
                editing.grade(at, 1 + i % 5, 4 + i % 2, page=EDITORS[page])
            elif change == "row":
                editing.edit(at, lambda ranking, tray, i=i: ranking.append([f"added{i}", f"added {i}", i % 3]),
                             page=EDITORS[page])
            else:
                at.run()
            times.append((time.perf_counter() - t) * 1000)
            if at.exception:
                raise SystemExit(f"{page}: {at.exception}")
        times.sort()
        out[page] = (statistics.median(times), times[int(0.9 * (len(times) - 1))])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    for n in args.items:
        runs = {change: measure(n, args.repeat, change) for change in CHANGES}
        print(f"\n{n} items, {args.repeat} reruns per page, milliseconds (p50 / p90)")
        print(f"{'page':38} " + " ".join(f"{TITLES[c]:>14}" for c in CHANGES))
        for page in PAGES:
            cells = [f"{runs[c][page][0]:6.1f} /{runs[c][page][1]:6.1f}" if page in runs[c] else "—"
                     for c in CHANGES]
            print(f"{page:38} " + " ".join(f"{c:>14}" for c in cells))


if __name__ == "__main__":
    main()
