"""Every benchmark once, in its quick form, one after the other (`make bench`).

    python benchmarks/run_all.py [--full]

Quick form: explain speed; the comparison statistics against SciPy; app reruns (AppTest, 100 items);
ranklab against pytrec_eval on a generated 2-million-line run (`--full`: 10 million, as in
benchmarks/README.md); `ranklab diagnose`'s search on 1,000 queries (`--full`: 3,000); what a person
waits for in Chromium at 100 items, and how soon the ranking editor shows an edit at 100 and 1,000
(both skipped without /usr/bin/chromium). Each prints its own
table; the load average is printed before each, since this machine is shared.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(*args: str) -> int:
    print(f"\n$ python {' '.join(args)}   (load average {os.getloadavg()[0]:.2f})", flush=True)
    return subprocess.call([sys.executable, *args], cwd=HERE.parent)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="the 10-million-line run of benchmarks/README.md")
    args = parser.parse_args()
    failed = run("benchmarks/explain_speed.py")
    failed |= run("benchmarks/stats_speed.py")
    failed |= run("benchmarks/app_rerun.py", "--items", "100", "--repeat", "10")
    with tempfile.TemporaryDirectory() as folder:
        queries = "10000" if args.full else "2000"
        failed |= run("benchmarks/generate.py", "--queries", queries, "--out", folder)
        failed |= run("benchmarks/evaluate_speed.py", "--data", folder, "--tools", "ranklab,pytrec_eval",
                      "--repeat", "3", "--check")
    failed |= run("benchmarks/diagnose_speed.py", "--queries", "3000" if args.full else "1000")
    if Path("/usr/bin/chromium").exists():
        failed |= run("benchmarks/browser_latency.py", "--items", "100", "--repeat", "10")
        failed |= run("benchmarks/editor_feedback.py", "--items", "100", "1000", "--repeat", "10")
    else:
        print("\nbrowser_latency.py and editor_feedback.py skipped: /usr/bin/chromium is missing "
              "(apt-get install chromium)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
