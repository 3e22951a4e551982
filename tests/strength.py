"""How hard the randomised tests try, in one place.

Two tiers share one suite (docs/contributing.md, "Running the tests"):

- the full tier (`make test-all`, and CI) runs every randomised test at full strength: the
  Hypothesis profile ``ci`` and every seeded fuzz loop at its written count;
- the fast tier (`make test`) runs the profile ``dev``: a tenth of the examples and of each
  fuzz loop, enough to catch a broken parser or kernel while working.

``RANKLAB_TEST_TIER=fast`` selects the fast tier; anything else is the full one, so a plain
``pytest`` proves as much as CI. A test writes its full-strength count once, as
``scaled(3000)``, and the tier scales it; the seeds stay fixed, so the fast tier runs a prefix
of the full tier's cases.
"""

from __future__ import annotations

import os

from hypothesis import settings

FAST = os.environ.get("RANKLAB_TEST_TIER") == "fast"
SHARE = 0.1 if FAST else 1.0

settings.register_profile("ci", max_examples=100)
settings.register_profile("dev", max_examples=10)
settings.load_profile("dev" if FAST else "ci")


def scaled(full: int) -> int:
    """The number of cases a randomised test runs in this tier: ``full`` in the full tier, a
    tenth of it (at least 3) in the fast one."""
    return full if not FAST else max(3, round(full * SHARE))
