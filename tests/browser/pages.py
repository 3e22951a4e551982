"""Page objects: what a person does on Ranklab's pages, in their words, for the browser tests.

Every selector and every wait for a page to be drawn lives here; a test reads as a person's
steps (``Playground(page).open(server)``, ``.grade(1, 1)``, ``.wait_measure("Precision@2", "1")``).

The ranking editor (ranklab/ranking_editor) is found by its ARIA roles inside the component: two
``listbox`` lists (the ranking, then the tray), each result an ``option`` whose accessible name
reads "rank 2, grade 1, cat in a box, id 2". Its parts (``.rank``, ``.grade``, ``.label``,
``.ident``, ``.handle``) are the editor's own classes (editor.css). Streamlit's widgets around it
(the k slider, the preset box, the measures) are found by Streamlit's test ids: allowed in tests,
never in the app.

An edit in the editor is applied in the browser in the frame of the key or pointer event, so
the lists read right after a key press already show it. The measures follow once the server has
run: a test waits for the value it computed by hand (:meth:`AppPage.wait_measure`), then for the
page to be idle (:meth:`AppPage.settled`). Nothing waits a fixed time where a condition can be
waited for, and no action is ever repeated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from ranklab_ui.core import codec, model, validation

from .helpers import (
    IDLE,
    K_SLIDER,
    SHOWN_SLIDER,
    ST,
    TIMEOUT,
    drawn,
    focus_slider,
    st_js,
    stays_put,
    wait_ready,
)

EDITOR = ".rle"   # the ranking editor's box (editor.js builds it inside the component)
FIRST_DRAW = 3 * TIMEOUT   # a fresh page on a busy machine: the app's modules and the component loaded


@dataclass(frozen=True)
class Row:
    """One result as the editor shows it: its rank (None in the tray), its grade (None: ``?``,
    unjudged), its label and its id; ``name`` is its accessible name (aria-label)."""

    rank: int | None
    grade: int | None
    label: str
    id: str
    name: str = ""

    @property
    def short(self) -> tuple:
        """(rank, grade, label, id): what a test compares with a list written by hand."""
        return self.rank, self.grade, self.label, self.id


# each list's results: the digits and texts shown, and the accessible name (the rank is the
# cell's text, or what its style draws before it)
_ROWS = """(box) => [...box.querySelectorAll('[role=listbox]')].slice(0, 2).map(list =>
  [...list.querySelectorAll('[role=option]')].map(o => { const r = o.querySelector('.rank'); return {
    rank: r.textContent.trim() || getComputedStyle(r, '::before').content.replace(/^"|"$/g, ''),
    grade: o.querySelector('.grade').textContent,
    label: o.querySelector('.label').textContent, id: o.querySelector('.ident').textContent,
    name: o.getAttribute('aria-label') || ''}; }))"""


def _row(d: dict, tray: bool) -> Row:
    rank = None if tray else int(d["rank"])
    grade = None if d["grade"] == "?" else int(d["grade"])
    return Row(rank, grade, d["label"], d["id"], d["name"])


class Editor:
    """One ranking editor: its two lists, its buttons, what it says and what it refuses.

    A result is named by its rank in the ranking (an ``int``, 1 first) or by its id (a ``str``,
    in either list)."""

    def __init__(self, page, box) -> None:
        self.page = page
        self.box = box   # a locator of the editor's box

    # ------------------------------------------------------------------ reading

    def _lists(self) -> tuple[list[Row], list[Row]]:
        ranking, tray = self.box.evaluate(_ROWS)
        return [_row(d, False) for d in ranking], [_row(d, True) for d in tray]

    def ranking(self) -> list[Row]:
        """The ranked results, best first."""
        return self._lists()[0]

    def tray(self) -> list[Row]:
        """The results in the tray (relevant but not retrieved)."""
        return self._lists()[1]

    def ids(self) -> list[str]:
        return [r.id for r in self.ranking()]

    def grades(self) -> list[int | None]:
        return [r.grade for r in self.ranking()]

    def said(self) -> str:
        """What the aria-live region says (what changed last)."""
        return (self.box.get_by_role("status").text_content() or "").strip()

    def notice(self) -> str | None:
        """The refusal shown in the editor, or None when it shows none."""
        alert = self.box.get_by_role("alert")
        return alert.inner_text().strip() if alert.is_visible() else None

    def focused(self) -> str | None:
        """The id of the result that has the keyboard focus, or None."""
        return self.box.evaluate("""b => { const r = b.getRootNode().activeElement;
            const row = r && r.closest ? r.closest('[role=option]') : null;
            return row && b.contains(row) ? row.querySelector('.ident').textContent : null; }""")

    def row(self, which: int | str):
        """The locator of a result: rank ``which`` (int) or the result whose id is ``which``."""
        where, at = self.position(which)
        return self.box.get_by_role("listbox").nth(0 if where == "ranking" else 1).get_by_role("option").nth(at - 1)

    def ranking_list(self):
        return self.box.get_by_role("listbox").nth(0)

    def tray_list(self):
        return self.box.get_by_role("listbox").nth(1)

    def undo_button(self):
        return self.box.get_by_role("button", name=re.compile("Undo"))

    def redo_button(self):
        return self.box.get_by_role("button", name=re.compile("Redo"))

    # ------------------------------------------------------------------ the keyboard

    def focus(self, which: int | str) -> None:
        """Give a result the keyboard focus, as Tab and the arrows do."""
        row = self.row(which)
        row.scroll_into_view_if_needed()
        row.focus()

    def press(self, which: int | str, key: str) -> None:
        """Focus a result and press ``key`` once (``"Alt+ArrowUp"``, ``"Control+z"``...)."""
        self.focus(which)
        self.page.keyboard.press(key)

    def grade(self, which: int | str, value: int | None) -> None:
        """The digit ``value`` typed on the result (None: ``?``, unjudged)."""
        self.press(which, "?" if value is None else str(value))

    def next_grade(self, which: int | str) -> None:
        """Space on the result: its next grade."""
        self.press(which, " ")

    def position(self, which: int | str) -> tuple[str, int]:
        """Where a result is: ("ranking" or "tray", its place there, 1 first)."""
        if isinstance(which, int):
            return "ranking", which
        ranking, tray = self._lists()
        for where, rows in (("ranking", ranking), ("tray", tray)):
            ids = [r.id for r in rows]
            if which in ids:
                return where, ids.index(which) + 1
        raise AssertionError(f"no result with id {which!r} in the editor")

    def move(self, which: int | str, to: int) -> None:
        """Alt+↑ or Alt+↓ on the result until it is at place ``to`` of its list (each press an
        edit of its own, as a person makes them)."""
        _where, at = self.position(which)
        self.focus(which)
        key = "Alt+ArrowUp" if to < at else "Alt+ArrowDown"
        for _ in range(abs(to - at)):
            self.page.keyboard.press(key)

    def top(self, which: int | str) -> None:
        self.press(which, "Home")

    def bottom(self, which: int | str) -> None:
        self.press(which, "End")

    def to_tray(self, which: int | str) -> None:
        """Delete on a ranked result: into the tray (on one in the tray: back to the ranking's end)."""
        self.press(which, "Delete")

    def from_tray(self, which: str) -> None:
        self.press(which, "Delete")

    def remove(self, which: int | str) -> None:
        self.press(which, "Shift+Delete")

    def edit_label(self, which: int | str, text: str, *, keep: bool = True) -> None:
        """Enter on the result, its label replaced by ``text``, then Enter (keep) or Esc (cancel)."""
        self.press(which, "Enter")
        field = self.box.locator("input.label-input")
        field.fill(text)
        field.press("Enter" if keep else "Escape")

    def undo_key(self, which: int | str) -> None:
        self.press(which, "Control+z")

    def redo_key(self, which: int | str) -> None:
        self.press(which, "Control+Shift+z")

    # ------------------------------------------------------------------ the pointer

    def click_grade(self, which: int | str) -> None:
        """A click on the result's grade: its next grade."""
        self.row(which).locator(".grade").click()

    def undo(self) -> None:
        self.undo_button().click()

    def redo(self) -> None:
        self.redo_button().click()

    def add(self) -> None:
        """"+ add a result": a new result at the ranking's end, its label open for typing."""
        self.box.get_by_role("button", name=re.compile(r"^\+")).click()

    def _target(self, which: int | str, to: int | str) -> tuple[float, float]:
        """Where the pointer lets go to put a result at rank ``to``, at the end of the ranking
        (``"end"``) or at the end of the tray (``"tray"``). The editor puts the carried result
        before the first other one whose middle the pointer has not passed: a quarter of a row
        past the middle of the one at rank ``to`` (above it coming from below, under it coming
        from above; left or right of it for tiles side by side)."""
        if to in ("tray", "end"):
            box = (self.tray_list() if to == "tray" else self.ranking_list()).bounding_box()
            return box["x"] + box["width"] / 2, box["y"] + box["height"] - 6
        where, at = self.position(which)
        later = where == "ranking" and to > at
        box = self.row(to).bounding_box()
        across = self.box.evaluate("b => b.dataset.layout === 'across'")
        if across:
            return box["x"] + box["width"] * (0.75 if later else 0.25), box["y"] + box["height"] / 2
        return box["x"] + box["width"] / 2, box["y"] + box["height"] * (0.75 if later else 0.25)

    def drag(self, which: int | str, to: int | str) -> None:
        """The mouse presses a result (on its label), carries it to ``to`` (a rank, ``"end"``,
        ``"tray"``) and lets go."""
        row = self.row(which)
        row.scroll_into_view_if_needed()
        start = row.locator(".text").bounding_box()
        x0, y0 = start["x"] + 10, start["y"] + start["height"] / 2
        mouse = self.page.mouse
        mouse.move(x0, y0)
        mouse.down()
        mouse.move(x0, y0 + 10, steps=3)   # past the few pixels that make a press a drag
        x, y = self._target(which, to)
        mouse.move(x, y, steps=15)
        mouse.up()

    def touch_drag(self, which: int | str, to: int | str) -> None:
        """A finger on the result's handle ⠿ carries it to ``to`` and lifts (touch events, as a
        phone sends them: the browser makes pointer events of type "touch" of them)."""
        row = self.row(which)
        row.scroll_into_view_if_needed()
        handle = row.locator(".handle").bounding_box()
        x0, y0 = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
        x, y = self._target(which, to)
        touch(self.page, [(x0, y0), (x0, y0 + 10)] + [(x0 + (x - x0) * i / 15, y0 + 10 + (y - y0 - 10) * i / 15)
                                                    for i in range(1, 16)])


def measure_link(page, name: str):
    """The link of measure ``name`` on ``page``, its name matched whole: has_text alone is a
    case-blind substring, so "DCG@8 = " would also find "nDCG@8 = "."""
    whole = re.compile(rf"(?<![\w@]){re.escape(name)} = ")
    return page.locator(ST.PAGE_LINK, has_text=whole).first


def touch(page, points: list[tuple[float, float]]) -> None:
    """One finger down at the first point, moved through the others, lifted at the last."""
    cdp = page.context.new_cdp_session(page)
    try:
        x, y = points[0]
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for x, y in points[1:]:
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


# ---------------------------------------------------------------------- the pages


def link_example(url: str) -> model.Example | None:
    """The example the address carries (``?ex=``), or None."""
    code = parse_qs(urlsplit(url).query).get(codec.PARAM, [""])[0]
    try:
        return codec.decode(code) if code else None
    except validation.ExampleError:
        return None


class AppPage:
    """A page of the app: open it, wait until it is drawn, read its measures and messages."""

    path = ""

    def __init__(self, page) -> None:
        self.page = page

    def url(self, server: str, example: model.Example | None = None, **params: str) -> str:
        query = {**({codec.PARAM: codec.encode(example)} if example is not None else {}), **params}
        return f"{server}/{self.path}" + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")

    def open(self, server: str, example: model.Example | None = None, **params: str):
        """Go to the page (with ``example`` in the link, and ``params`` such as ``lang="fr"``)
        and wait until it is drawn."""
        self.page.goto(self.url(server, example, **params))
        self.wait_drawn()
        return self

    # the last part the page draws: once it is there, and the page is still, it is drawn
    last = ST.DOWNLOAD_BUTTON
    editor_shown = True

    def wait_drawn(self) -> None:
        """The page's first runs are over and drawn: the editor there, the page's last part there,
        every chart drawn and nothing moving (the script's end comes before the browser has drawn
        all it sent, so "not running" alone is not enough)."""
        if self.editor_shown:
            self.page.get_by_role("listbox").first.wait_for(timeout=FIRST_DRAW)
        self.page.locator(self.last).first.wait_for(state="attached", timeout=FIRST_DRAW)
        drawn(self.page, timeout=FIRST_DRAW)

    def settled(self) -> None:
        """The server's runs are over and drawn: no script run under way, none shown (Streamlit's
        running state and its status widget)."""
        self.page.wait_for_function(IDLE, timeout=TIMEOUT)

    def finished(self) -> None:
        """Settled, charts and frames drawn, fonts in and nothing moving: for a screenshot."""
        drawn(self.page)

    def shows(self, text: str, timeout: int = TIMEOUT) -> None:
        self.page.wait_for_function("t => document.body.innerText.includes(t)", arg=text, timeout=timeout)

    def messages(self) -> list[str]:
        """The messages at the top of the page (errors, warnings)."""
        return [t.strip() for t in self.page.locator(ST.ALERT).all_inner_texts()]

    def exceptions(self) -> int:
        return self.page.locator(ST.EXCEPTION).count()

    def link(self) -> model.Example | None:
        """The example the address carries."""
        return link_example(self.page.url)

    def wait_link(self, predicate, timeout: int = TIMEOUT) -> model.Example:
        """Wait until the address carries an example for which ``predicate`` holds (the app
        writes each run's example into the address)."""
        self.page.wait_for_url(lambda url: (lambda ex: ex is not None and predicate(ex))(link_example(url)),
                               timeout=timeout, wait_until="commit")
        return self.link()

    # ------------------------------------------------------------------ the example's controls

    def slider(self):
        return self.page.locator(K_SLIDER).first

    @property
    def k(self) -> int:
        """The k the slider shows."""
        return int(self.page.evaluate(f"() => ({SHOWN_SLIDER})().value"))

    def press_k(self, key: str) -> None:
        """The k slider focused (a click on its thumb, a Tab) and ``key`` pressed once."""
        focus_slider(self.page)
        self.page.keyboard.press(key)

    def wait_k(self, k: int) -> None:
        self.page.wait_for_function(f"() => {{ const s = ({SHOWN_SLIDER})(); return !!s && s.value === '{k}'; }}",
                                    timeout=TIMEOUT)

    def load_preset(self, title: str) -> None:
        """Choose ``title`` in "load an example"."""
        box = self.page.locator(ST.SELECTBOX, has_text="load an example").first
        box.scroll_into_view_if_needed()
        box.locator("input").first.click()
        self.page.get_by_role("option", name=title).first.click()

    def mode(self, label: str) -> None:
        """Click the relevance switch's ``label`` ("binary (0/1)", "graded (0..10)")."""
        self.page.locator(f"{ST.BUTTON_GROUP} button", has_text=label).first.click()

    def editor(self, n: int = 0) -> Editor:
        return Editor(self.page, self.page.locator(EDITOR).nth(n))

    # the editor of the page, by name: a test reads "playground.grade(1, 1)"
    def ranking(self) -> list[Row]:
        return self.editor().ranking()

    def tray(self) -> list[Row]:
        return self.editor().tray()

    def grade(self, which: int | str, value: int | None) -> None:
        self.editor().grade(which, value)

    def click_grade(self, which: int | str) -> None:
        self.editor().click_grade(which)

    def move(self, which: int | str, to: int) -> None:
        self.editor().move(which, to)

    def drag(self, which: int | str, to: int | str) -> None:
        self.editor().drag(which, to)

    def to_tray(self, which: int | str) -> None:
        self.editor().to_tray(which)

    def undo(self) -> None:
        self.editor().undo()

    def redo(self) -> None:
        self.editor().redo()

    # ------------------------------------------------------------------ the measures

    def measure(self, name: str) -> str:
        """The value shown for measure ``name`` ("Precision@2")."""
        raise NotImplementedError

    def wait_measure(self, name: str, value: str, timeout: int = TIMEOUT) -> None:
        """Wait until measure ``name`` shows ``value`` (a value computed by hand)."""
        raise NotImplementedError


# the Playground's measures are links to their lessons: "Precision@2 = 0.5"
_LINK_VALUE = st_js("""(name) => { for (const a of document.querySelectorAll(ST.PAGE_LINK)) {
  const m = /^(.*) = (\\S+)$/.exec(a.innerText.trim()); if (m && m[1] === name) return m[2]; } return null; }""")

# a metric box (st.metric) whose label is ``name`` (or starts with it, then a space: " — in focus")
_METRIC_VALUE = st_js("""(name) => { for (const m of document.querySelectorAll(ST.METRIC)) {
  const label = m.querySelector(ST.METRIC_LABEL), value = m.querySelector(ST.METRIC_VALUE);
  if (!label || !value) continue; const l = label.innerText.trim();
  if (l === name || l.startsWith(name + ' ')) return value.innerText.trim(); } return null; }""")


class Playground(AppPage):
    path = ""

    def measure(self, name: str) -> str | None:
        return self.page.evaluate(_LINK_VALUE, name)

    def wait_measure(self, name: str, value: str, timeout: int = TIMEOUT) -> None:
        self.page.wait_for_function(f"([n, v]) => ({_LINK_VALUE})(n) === v", arg=[name, value], timeout=timeout)

    def measure_link(self, name: str):
        """The measure's link: its name whole ("DCG@8" is not the end of "nDCG@8")."""
        return measure_link(self.page, name)

    def paste(self, text: str, timeout: int = TIMEOUT) -> None:
        """Open "Paste or import a list", put ``text`` in its box and replace the ranking with it
        (``timeout``: for a long text, which the box takes a while to take in)."""
        self.type_paste(text, timeout)
        self.apply_paste()

    def type_paste(self, text: str, timeout: int = TIMEOUT) -> None:
        head = self.page.get_by_text("Paste or import a list")
        area = self.page.locator(f"{ST.TEXT_AREA} textarea").first
        if not area.is_visible():
            head.click()
            stays_put(self.page.get_by_role("button", name="Replace the ranking with this list"))
        area.wait_for(timeout=TIMEOUT)
        area.fill(text, timeout=timeout)

    def apply_paste(self) -> None:
        self.page.get_by_role("button", name="Replace the ranking with this list").click()

    def presenter(self) -> None:
        self.page.get_by_role("button", name="Presenter view").click()


class Lesson(AppPage):
    """A lesson: its header, the example bar, its measure under the slider, the editor's tiles."""

    def __init__(self, page, path: str, *, editor: bool = True) -> None:
        super().__init__(page)
        self.path = path
        self.editor_shown = editor   # the DCG lesson shows none: its step table is the list

    def measure(self, name: str) -> str | None:
        return self.page.evaluate(_METRIC_VALUE, name)

    def wait_measure(self, name: str, value: str, timeout: int = TIMEOUT) -> None:
        self.page.wait_for_function(f"([n, v]) => ({_METRIC_VALUE})(n) === v", arg=[name, value], timeout=timeout)


class Presenter(Lesson):
    """The presenter view (``?view=present``) of the Playground or of a lesson."""

    def __init__(self, page, path: str = "") -> None:
        super().__init__(page, path)

    def open(self, server: str, example: model.Example | None = None, **params: str):
        return super().open(server, example, view="present", **params)

    last = ST.CHART   # the curve, beside the measures

    @property
    def k(self) -> int:
        text = self.page.locator(ST.MARKDOWN, has_text=re.compile(r"^k = \d+$")).first
        return int(text.inner_text().split("=")[1])

    def wait_k(self, k: int) -> None:
        self.page.get_by_text(f"k = {k}", exact=True).first.wait_for(timeout=TIMEOUT)

    def k_button(self, sign: str):
        return self.page.get_by_role("button", name=f"k {sign}")


class ManyQueries(AppPage):
    """Many queries: a tab per query, each with its editor; the per-query table and the means."""

    path = "many_queries"

    def tab(self, n: int):
        """The tab of query ``n`` (1 first)."""
        return self.page.get_by_role("tab").nth(n - 1)

    def query(self, n: int) -> Editor:
        """Open query ``n``'s tab; its editor (each tab holds one, the others hidden)."""
        self.tab(n).click()
        self.page.wait_for_function("t => t.getAttribute('aria-selected') === 'true'",
                                    arg=self.tab(n).element_handle(), timeout=TIMEOUT)
        return self.editor(n - 1)

    def add_query(self) -> None:
        self.page.get_by_role("tab").last.click()
        self.page.get_by_role("button", name="add an empty query").click()

    def mean(self, title: str) -> tuple[list[str], str] | None:
        """The mean written out under the chart ("MRR", "MAP"): its terms, one per query, and
        its value, read from the formula's TeX (``MRR = 1/2 (1 + 0.5) = 0.75``)."""
        for tex in self.page.locator(".katex-mathml annotation").all_text_contents():
            found = re.fullmatch(r"\\mathrm\{(.+?)\} = \\frac\{1\}\{\d+\}\\left\((.*)\\right\) = (\S+)", tex.strip())
            if found and found[1].replace("\\ ", " ") == title:
                return found[2].split(" + "), found[3]
        return None

    def wait_mean(self, title: str, value: str) -> None:
        self.page.wait_for_function(
            """([title, value]) => [...document.querySelectorAll('.katex-mathml annotation')].some(a =>
                 a.textContent.trim().startsWith('\\\\mathrm{' + title + '}') && a.textContent.trim().endsWith('= ' + value))""",
            arg=[title, value], timeout=TIMEOUT)


class Poll(AppPage):
    """The class poll: the teacher's side (open, the code, the link, the QR code, reveal) and a
    student's (join by the code, answer)."""

    path = "class_poll"
    editor_shown = False
    last = f"{ST.MAIN} h1"

    # the teacher
    def open_poll(self) -> None:
        self.page.get_by_role("button", name="Open the poll").click()

    def reveal_button(self):
        return self.page.get_by_role("button", name="Reveal the answer")

    def reveal(self) -> None:
        self.reveal_button().click()

    def code(self) -> str:
        return self.page.locator(f"{ST.MARKDOWN_ELEMENT} code").first.inner_text().strip()

    def link_shown(self) -> str:
        return self.page.locator(ST.TEXT).first.inner_text().strip()

    def qr_source(self) -> str | None:
        return self.page.locator(f"{ST.IMAGE} img").first.get_attribute("src")

    # a student
    def join_box(self):
        return self.page.get_by_label("a student? type the poll's code")

    def join(self, code: str) -> None:
        self.join_box().fill(code)
        self.page.get_by_role("button", name="Join").click()

    def answer_box(self):
        return self.page.get_by_label("your answer (0 to 1)")

    def answer(self, value: str) -> None:
        """Type ``value`` in the answer box (Enter), then "Send my answer", once."""
        box = self.answer_box()
        box.fill(value)
        box.press("Enter")
        wait_ready(self.page)
        self.page.get_by_role("button", name="Send my answer").click()
