"""The URL parameters added for the classroom (``view``, ``focus``, ``poll``) with hostile
values, generated with a fixed seed: every page still runs, nothing of the value is shown as
a link or markup, and an unknown value means the default."""

import random

import pytest

from tests.app.conftest import new_app
from tests.ui.test_permalink_fuzz import HOSTILE

SEED = 20261124
PAGES = ["app_pages/playground.py", "app_pages/lesson_dcg.py", "app_pages/class_poll.py"]


def values(count: int) -> list[str]:
    rng = random.Random(SEED)
    out = list(HOSTILE)
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789abc01OI -_<>[]()#?&=%\u200b\ud800文"
    while len(out) < count:
        out.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))))
    # a URL carries bytes: a lone surrogate arrives as its UTF-8 bytes, read back with U+FFFD
    return [v.encode("utf-8", "surrogatepass").decode("utf-8", "replace") for v in out]


@pytest.fixture(autouse=True)
def poll_file(tmp_path, monkeypatch):
    monkeypatch.setenv("RANKLAB_POLL_DB", str(tmp_path / "polls.sqlite3"))


@pytest.mark.parametrize("value", values(40))
def test_hostile_classroom_parameters(value):
    rng = random.Random(value)
    page = rng.choice(PAGES)
    at = new_app(view=value if rng.random() < 0.5 else "present", focus=value, poll=value)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, (page, value)
    shown = [m.value for m in at.markdown] + [e.value for e in at.error] + [t.value for t in at.title]
    if len(value) > 3 and value.strip() and value not in ("present",):
        assert not any(value in text for text in shown), (page, value)
    for text in shown:
        assert "](http" not in text and "<img" not in text
    if page.endswith("class_poll.py"):
        assert at.error and at.error[0].value.startswith("No open poll has this code")
