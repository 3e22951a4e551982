"""Hostile text for the browser tests: a permalink whose query names, labels and document ids
are Markdown links, images and HTML, and the check that none of it became markup."""

from __future__ import annotations

import re

from ranklab_ui.core import model, validation

from .helpers import ST, drawn, st_js

TIMEOUT = 60_000  # a cold server on a busy machine

EVIL = "evil.example"
NAME = "[Fix it](http://evil.example/x) ![i](http://evil.example/i.png) <img src=x onerror=alert(1)> **b**"
IDS = ["[d](http://evil.example/d)", "![j](http://evil.example/j.png)", "<img src=y onerror=alert(2)>",
       "doc#D001 :red[x] $x$", "www.evil.example"]
LABELS = ["![k](http://evil.example/k.png) label", "<b>bold</b> [l](http://evil.example/l)", "me@evil.example",
          ":material/home: <script>alert(3)</script>", "**not bold**"]

def hostile_example() -> model.Example:
    assert len(NAME) <= validation.LIMITS.name_chars
    first = model.Query(NAME, tuple(model.Item(d, lab, g) for d, lab, g in zip(IDS, LABELS, [1, 0, 3, 2, 1], strict=True)),
                        (model.Item("[t](http://evil.example/t)", "![tray](http://evil.example/tray.png)", 2),),
                        groups=((IDS[0], IDS[2]), ("![g](http://evil.example/g.png)",)))
    second = model.Query("second: " + NAME[:60], (model.Item("a", NAME, 1), model.Item("b", "", 0)))
    return validation.validate(model.Example((first, second), k=3, mode="graded"))


def wait_heading(page, heading: str) -> None:
    page.get_by_role("heading", name=heading).first.wait_for(timeout=TIMEOUT)
    drawn(page, timeout=TIMEOUT)   # charts, components and images settled


# every <a href> and <img src> of the page and its frames, and what the text became
_MARKUP = st_js("""() => ({
    links: [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href')),
    images: [...document.querySelectorAll('img[src], image[href]')].map(i => i.getAttribute('src') || i.getAttribute('href')),
    bold: [...document.querySelectorAll(ST.MARKDOWN + ' strong, ' + ST.MARKDOWN + ' b')]
          .map(b => b.textContent),
    scripts: [...document.querySelectorAll('script')].filter(s => s.textContent.includes('alert(')).length,
})""")


def assert_inert(page, requests: list[str], dialogs: list[str], where: str) -> None:
    assert page.locator(ST.EXCEPTION).count() == 0, where
    for frame in page.frames:
        try:
            found = frame.evaluate(_MARKUP)
        except Exception:   # noqa: BLE001 - a frame that went away while being read
            continue
        bad_links = [h for h in found["links"] if EVIL in h or h.rstrip("/").endswith(("/x", "/d", "/l", "/t"))]
        bad_images = [s for s in found["images"] if EVIL in s or s in ("x", "y")]
        assert not bad_links, (where, frame.url, bad_links)
        assert not bad_images, (where, frame.url, bad_images)
        assert not found["scripts"], (where, frame.url)
        # "**b**" and "**not bold**" stay as typed: bold only where the page itself writes it
        assert not [b for b in found["bold"] if b in ("b", "not bold")], (where, found["bold"])
    assert not [u for u in requests if EVIL in u], (where, [u for u in requests if EVIL in u])
    assert not [u for u in requests if re.search(r"/(x|y)$", u)], where   # <img src=x> never loaded
    assert not dialogs, (where, dialogs)
