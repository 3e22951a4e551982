"""Latency tuning, all of it in one place: what the pages do only so that the numbers a reader
watches reach the screen sooner. None of it changes what is shown or where.

- :func:`values_shown`: a short pause once a page's values are sent, so that the browser paints
  them before the charts sent after them arrive.
``ON = False`` switches it off.
What each one gains, measured in Chromium, is in benchmarks/README.md ("What a person waits
for")."""

from __future__ import annotations

import math
import os
import time

__all__ = ["ON", "PAINT_PAUSE", "values_shown"]

ON = True

# seconds the run waits once the values a reader watches are sent (RANKLAB_PAINT_PAUSE; the
# app's tests set 0). One frame is too short: when a run starts, the browser first spends
# several frames marking the page's (or the fragment's) elements stale, so the values and the
# charts after them would still reach the screen together.
PAINT_PAUSE = 0.07


def values_shown() -> None:
    """Let the browser paint the values just sent before the rest of the run reaches it.

    The browser renders each message of a run as it arrives, and paints only when it is
    free: a value sent first still waits for the charts and tables sent a few milliseconds
    after it, so it is in the page long before it is on the screen. A pause here lets the
    browser draw the values alone first; the charts follow.
    """
    if not ON:
        return
    try:
        seconds = float(os.environ.get("RANKLAB_PAINT_PAUSE", PAINT_PAUSE))
    except ValueError:
        seconds = PAINT_PAUSE
    if math.isfinite(seconds) and seconds > 0:
        time.sleep(min(seconds, 0.1))
