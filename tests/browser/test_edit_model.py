"""The editing loop against a model: seeded random sequences of a person's actions in real
Chromium, and after each sequence everything the Playground shows (the grid's grades, the
tiles, k, every measure's value) equals a pure-Python model of the same actions, computed
with :func:`metrics.score`. The link is then opened in a second browser context, which must
show the same.

The actions: a grade typed into the grid (a new value, a value typed back to the one before
it, ``?``, a value the grid refuses), a click on a tile, a move with the ↑ / ↓ / ⤒ buttons,
undo and redo, k one step with the slider's arrow keys, the binary/graded switch. Each comes
after a random pause of up to two seconds, so some arrive while the page is still running. No action is
ever repeated: a second try that succeeds would hide a lost one.

Size: ``RANKLAB_MODEL_ACTIONS`` actions in all (60 by default: two sequences, a few minutes in
the suite; 300 and more by hand, see benchmarks/README.md), in sequences of
``RANKLAB_MODEL_LENGTH`` (30), seed ``RANKLAB_MODEL_SEED`` (20261127). A failure prints the
seed and the shortest failing prefix of the sequence, found by replaying shorter ones.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass, field

import pytest

import metrics
from ui.presets import build_preset

from .helpers import TIMEOUT, select_cell, tiles, wait_ready

pytestmark = pytest.mark.browser

SEED = int(os.environ.get("RANKLAB_MODEL_SEED", "20261127"))
ACTIONS = int(os.environ.get("RANKLAB_MODEL_ACTIONS", "60"))
LENGTH = int(os.environ.get("RANKLAB_MODEL_LENGTH", "30"))
GRADE_X = 145          # the middle of the ranking grid's grade column (row markers, rank, grade)
SUMMARY = [("P@{k}", "Precision@{k}"), ("R@{k}", "Recall@{k}"), ("F1@{k}", "F1@{k}"),
           ("Success@{k}", "Success@{k}"), ("RR@{k}", "RR@{k}"), ("AP@{k}", "AP@{k}"),
           ("DCG@{k}", "DCG@{k}"), ("nDCG@{k}", "nDCG@{k}"), ("Rprec", "R-precision"), ("11pt", "11-point avg")]
REFUSED = ("11", "2.5", "x")


# --------------------------------------------------------------------------- the model

@dataclass
class Model:
    """The Playground's example as a person's actions make it: written from the page's
    documented behaviour, not from its code."""

    ids: list
    labels: list
    grades: list
    tray: list            # (id, grade) judged but not retrieved
    k: int
    mode: str
    pick: int = 0         # the item the move buttons act on (the picker starts on #1)
    done: list = field(default_factory=list)
    undone: list = field(default_factory=list)
    typed: dict = field(default_factory=dict)   # rank index -> the grade before its last edit

    @classmethod
    def fresh(cls) -> Model:
        ex = build_preset("cat")
        q = ex.query
        return cls([i.id for i in q.ranking], [i.label for i in q.ranking], [i.grade for i in q.ranking],
                   [(i.id, i.grade) for i in q.tray], ex.k, ex.mode)

    def content(self):
        return (list(self.ids), list(self.labels), list(self.grades), self.mode)

    def _change(self, ids, labels, grades, mode) -> None:
        before = self.content()
        if before == (ids, labels, grades, mode):
            return
        self.done.append(before)
        self.undone.clear()
        self.ids, self.labels, self.grades, self.mode = ids, labels, grades, mode

    def type_grade(self, row: int, text: str) -> None:
        if text in REFUSED:
            return       # refused with a message; nothing changes
        grade = None if text == "?" else int(text)
        if grade != self.grades[row]:
            self.typed[row] = self.grades[row]
        grades = list(self.grades)
        grades[row] = grade
        self._change(list(self.ids), list(self.labels), grades, self.mode)

    def click_tile(self, row: int) -> None:
        g = self.grades[row]
        top = min(max([3] + [x for x in self.grades + [t for _, t in self.tray] if x is not None]), 10)
        new = 0 if g is None else (0 if g >= 1 else 1) if self.mode == "binary" else (g + 1 if g < top else 0)
        grades = list(self.grades)
        grades[row] = new
        self._change(list(self.ids), list(self.labels), grades, self.mode)

    def move(self, action: str) -> None:
        n = self.pick
        to = {"up": n - 1, "down": n + 1, "top": 0}[action]
        if not 0 <= to < len(self.ids) or to == n:
            return
        lists = [list(self.ids), list(self.labels), list(self.grades)]
        for values in lists:
            values.insert(to, values.pop(n))
        self.pick = to
        self._change(*lists, self.mode)

    def switch(self) -> None:
        self._change(list(self.ids), list(self.labels), list(self.grades),
                     "graded" if self.mode == "binary" else "binary")

    def undo(self) -> None:
        self.undone.append(self.content())
        self.ids, self.labels, self.grades, self.mode = self.done.pop()

    def redo(self) -> None:
        self.done.append(self.content())
        self.ids, self.labels, self.grades, self.mode = self.undone.pop()

    def step_k(self, delta: int) -> None:
        self.k = max(1, min(len(self.ids), self.k + delta))

    def shown(self) -> dict:
        """What the page must show: the grid's grades, the tiles' texts, k, every measure."""
        judged = [(i, g) for i, g in zip(self.ids, self.grades, strict=True)] + self.tray
        judgments = {i: (int(g >= 1) if self.mode == "binary" else g) for i, g in judged if g is not None}
        values = {title.format(k=self.k): metrics.num(metrics.score(m.format(k=self.k), list(self.ids), judgments))
                  for m, title in SUMMARY}
        grades = ["?" if g is None else str(g) for g in self.grades]
        tiles = [f"#{n} · {label[:40] or i} · grade {g}"
                 for n, (i, label, g) in enumerate(zip(self.ids, self.labels, grades, strict=True), start=1)]
        return {"grid": grades, "tiles": tiles, "k": str(self.k), "measures": values}


# --------------------------------------------------------------------------- the actions

def plan(rng: random.Random, n: int) -> list[tuple]:
    """``n`` actions drawn against a model that tracks what is possible (undo only when
    there is something to undo), each with the pause before it."""
    m, out = Model.fresh(), []
    for _ in range(n):
        kinds = ["type", "type", "back", "tile", "move", "k", "switch"]
        kinds += ["undo"] * bool(m.done) + ["redo"] * bool(m.undone)
        kind = rng.choice(kinds)
        row = rng.randrange(len(m.ids))
        if kind == "back" and m.typed:          # a grade typed back to the one before it
            row = rng.choice(sorted(m.typed))
            action = ("type", row, "?" if m.typed[row] is None else str(m.typed[row]))
        elif kind in ("type", "back"):
            action = ("type", row, rng.choice(["0", "1", "2", "3", "?", rng.choice(REFUSED)]))
        elif kind == "tile":
            action = ("tile", row)
        elif kind == "move":
            action = ("move", rng.choice(["up", "down", "top"]))
        elif kind == "k":
            action = ("k", rng.choice([-1, 1]))
        else:
            action = (kind,)
        apply(m, action)
        out.append((round(rng.uniform(0, 2), 2), action))
    return out


def apply(m: Model, action: tuple) -> None:
    kind = action[0]
    if kind == "type":
        m.type_grade(action[1], action[2])
    elif kind == "tile":
        m.click_tile(action[1])
    elif kind == "move":
        m.move(action[1])
    elif kind == "k":
        m.step_k(action[1])
    elif kind == "switch":
        m.switch()
    elif kind == "undo":
        m.undo()
    elif kind == "redo":
        m.redo()


def _scroll_to(page, locator) -> None:
    """Bring ``locator`` into view as a person scrolls to it (the element may be being drawn
    again by a run: looked for again; nothing is done to the app here)."""
    for _ in range(20):
        try:
            locator.scroll_into_view_if_needed(timeout=2000)
            return
        except Exception:
            page.wait_for_timeout(250)
    raise AssertionError(f"{locator} never shown")


def act(page, action: tuple, m: Model) -> None:
    """Do ``action`` once, as a person does it."""
    kind = action[0]
    if kind == "type":
        # the click is seen selecting its cell before a key is sent (select_cell says why
        # a click that selected nothing may be made again); the keys are sent once
        grid = page.locator("[data-testid='stDataFrame']").first
        _scroll_to(page, grid)
        select_cell(page, grid, GRADE_X, action[1] + 1, 2)
        page.keyboard.type(action[2], delay=80)   # a quick typist's pace (see type_grade)
        # a person's Enter comes a moment after the last key: sent in the same frame, it
        # reached the grid before the editor the key opened, and the grade was never typed
        page.wait_for_timeout(120)
        page.keyboard.press("Enter")
    elif kind == "tile":
        box = None
        for _ in range(20):   # where the tile is (the strip may be being drawn again): read, not done
            tile = page.locator("[data-testid='stVegaLiteChart']").first.locator(".mark-rect path").nth(action[1])
            try:
                tile.scroll_into_view_if_needed(timeout=2000)
                box = tile.bounding_box(timeout=2000)
                break
            except Exception:
                page.wait_for_timeout(250)
        assert box is not None, f"tile {action[1] + 1} never shown"
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    elif kind == "move":
        label = {"up": "↑ up", "down": "↓ down", "top": "⤒ top"}[action[1]]
        page.get_by_role("button", name=label).first.click()
    elif kind == "k":
        page.locator("[data-testid='stSlider'] input[type='range']").first.focus()
        page.keyboard.press("ArrowRight" if action[1] > 0 else "ArrowLeft")
    elif kind == "switch":
        name = "graded (0..10)" if m.mode == "binary" else "binary (0/1)"
        page.locator("[data-testid='stButtonGroup'] button", has_text=name).first.click()
    elif kind in ("undo", "redo"):
        page.get_by_role("button", name="↶ Undo" if kind == "undo" else "↷ Redo").first.click()


SHOWN = """() => {
  const grid = document.querySelector('[data-testid="stDataFrame"]');
  const rows = [...grid.querySelectorAll('tr')].map(r => [...r.querySelectorAll('td')].map(c => c.innerText))
    .filter(r => r.length);
  const measures = {};
  for (const a of document.querySelectorAll('[data-testid="stPageLink"]')) {
    const m = /^(.+?) = (.+)$/.exec(a.innerText.trim());
    if (m) measures[m[1]] = m[2];
  }
  const k = document.querySelector('[data-testid="stSlider"] input[type="range"]');
  return {grid: rows.map(r => r[1]), k: k ? k.value : null, measures};
}"""


def shown(page) -> dict:
    out = page.evaluate(SHOWN)
    frame = tiles(page)
    items = frame.locator(".sortable-container").first.locator(".sortable-item")
    try:
        out["tiles"] = [t.strip() for t in items.all_inner_texts()]
    except Exception as err:   # the tiles' frame is made anew after each change: read it again
        out["tiles"] = f"(being drawn: {err.__class__.__name__})"
    return out


def settled(page, expected: dict) -> dict:
    """What the page shows once it is idle (and, when it already matches, stays idle)."""
    wait_ready(page)
    deadline = 20
    got = shown(page)
    while got != expected and deadline > 0:   # the last run's tail (the tiles' frame) may still be drawing
        page.wait_for_timeout(500)
        wait_ready(page)
        got = shown(page)
        deadline -= 1
    return got


def open_fresh(browser, url: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    wait_ready(page)
    page.wait_for_selector("[data-testid='stDataFrame'] canvas", timeout=TIMEOUT)
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=\"stPageLink\"]')]"
                           ".some(a => / = /.test(a.innerText))", timeout=TIMEOUT)
    wait_ready(page)
    page.locator("[data-testid='stDataFrame']").first.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(300)
    return context, page


def run(browser, server, actions: list[tuple]) -> list[str]:
    """Play ``actions`` on a fresh Playground; the differences from the model (empty when none)."""
    m = Model.fresh()
    context, page = open_fresh(browser, server)
    try:
        for pause, action in actions:
            page.wait_for_timeout(int(pause * 1000))
            act(page, action, m)
            apply(m, action)
        expected = m.shown()
        got = settled(page, expected)
        problems = _differences("page", got, expected)
        link = page.url
    finally:
        context.close()
    context, other = open_fresh(browser, link)   # the shared link, in a second context
    try:
        problems += _differences("link", settled(other, expected), expected)
    finally:
        context.close()
    return problems


def _differences(where: str, got: dict, expected: dict) -> list[str]:
    out = []
    for part in ("grid", "tiles", "k"):
        if got.get(part) != expected[part]:
            out.append(f"{where} {part}: shown {got.get(part)!r}, model {expected[part]!r}")
    for name, value in expected["measures"].items():
        if got["measures"].get(name) != value:
            out.append(f"{where} {name}: shown {got['measures'].get(name)!r}, model {value!r}")
    return out


def shortest(browser, server, actions: list[tuple]) -> tuple[list[tuple], list[str]]:
    """The shortest prefix of ``actions`` that still fails (bisected; a few replays)."""
    low, high, problems = 0, len(actions), None
    while high - low > 1:
        mid = (low + high) // 2
        found = run(browser, server, actions[:mid])
        if found:
            high, problems = mid, found
        else:
            low = mid
    return actions[:high], problems


@pytest.mark.xfail(strict=False, reason=(
    "open: seed 20261127, third sequence (beyond the suite's 60 actions): after quick moves (↓ down 0.11 s after a tile click), "
    "undo and redo, the page's order of ranks 2 and 3 differs from the model's; not yet known "
    "whether the page or the model is wrong (benchmarks/README.md)"))
def test_every_action_reaches_the_page_and_the_link(server, browser):
    rng = random.Random(SEED)
    sequences = [plan(rng, min(LENGTH, ACTIONS - i)) for i in range(0, ACTIONS, LENGTH)]
    for n, actions in enumerate(sequences):
        problems = run(browser, server, actions)
        if problems:
            prefix, fewer = shortest(browser, server, actions)
            pytest.fail(f"seed {SEED}, sequence {n + 1} of {len(sequences)}: {len(problems)} differences\n  "
                        + "\n  ".join(problems) + f"\nshortest failing sequence ({len(prefix)} actions, pause in s "
                        f"before each): {prefix!r}\n  " + "\n  ".join(fewer or problems))


def test_the_model_reads_the_cat_example_as_the_page_does():
    # the model's own starting point, by hand: cat in the box, relevant at 2, 4, 5 and 7, k = 2:
    # P@2 = 1/2, R@2 = 1/4, RR = 1/2, AP@2 = (1/2) / 4 = 0.125
    measures = Model.fresh().shown()["measures"]
    assert (measures["Precision@2"], measures["Recall@2"], measures["RR@2"], measures["AP@2"]) == \
        ("0.5", "0.25", "0.5", "0.125")
    assert re.fullmatch(r"0\.3869", measures["nDCG@2"])   # (1/log2 3) / (1 + 1/log2 3)
