"""benchmarks/class_load.py's lecture hall, small: under concurrency, every phone's answer is
counted and every phone sees the reveal. No timing is asserted (the suite's machines are shared)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from argparse import Namespace
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ranklab_ui.core.poll_store import PER_CLIENT

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))


def test_a_lecture_hall_behind_one_address_is_counted_whole():
    """PER_CLIENT + 5 phones, all behind one address, join with the code typed and answer at
    once; the teacher sees the five held, counts them, reveals: every answer counted, none lost."""
    import class_load

    phones = PER_CLIENT + 5
    # in a thread of its own: the benchmark runs its own event loop, and in one pytest process a
    # browser test's Playwright (sync API) may already run a loop in this thread
    with ThreadPoolExecutor(1) as pool:
        out = pool.submit(class_load.hall, Namespace(hall=phones, workers=1, seed=11, answer_by=8.0)).result()
    assert out["errors"] == 0, out["problems"][:3]
    assert "5 answers were refused" in out["held_shown"]          # the teacher saw them held
    assert out["counted"] == phones and out["stored"] == phones   # then counted, each phone's last answer
    assert len(out["seen"]) == phones                             # every phone shows the answer
    assert out["teacher_says"].startswith("The answer: 0.125")


def test_the_playgrounds_parts_patch_still_applies(tmp_path):
    """benchmarks/README.md measures what each part of the Playground costs with
    ``benchmarks/playground_parts.patch`` applied to a copy of the page: a page changed since must
    come with the patch made again, or the recorded command stops working."""
    page = tmp_path / "app_pages" / "playground.py"
    page.parent.mkdir()
    shutil.copy(ROOT / "app_pages" / "playground.py", page)
    # git applies a patch to plain files too (tmp_path is no repository)
    done = subprocess.run(["git", "apply", "--check", str(ROOT / "benchmarks" / "playground_parts.patch")],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
