"""Widgets bound to the shared example (:mod:`ui.session.state`): k, mode, presets, the editors.

Each widget has a page-prefixed key (``"<page>.<name>"``) and writes its changes back into
the example through a callback, so every page sees the same example.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import replace

import pandas as pd
import streamlit as st

from .core import model, presets, validation, views
from .core.charts import GRADE_COLORS, UNJUDGED_FILL, grade_text_color
from .core.i18n import N_, _, ngettext, shown
from .render import copy_link, messages, permalink, plain, strip
from .session import history, state

__all__ = ["k_slider", "mode_switch", "preset_picker", "preset_note", "query_picker", "ranking_editor",
           "tray_editor", "item_actions", "move_item", "drag_order", "example_bar", "edits_first", "GRADE_HELP"]

GRADE_HELP = N_("0 = not relevant; 1 to {grade_max} = relevant, higher is better; "
                "{unjudged} (or empty) = unjudged: nobody judged it, like trec_eval's −1")


# Streamlit's data editor sends an edit to the server a moment after it is made (a trailing
# debounce), while a click elsewhere is sent at once. A button clicked within that time after
# Enter reached the server first, without the edit, and the change it made (a move, a tile,
# undo, a preset) started the grid afresh: the grade typed was lost. So a click outside the
# grids that comes that soon after a key pressed in one is held until the edit has gone, then
# given again, once. Clicks keep their order and their spacing: one made soon after a held
# click is held too (two clicks sent together reach the script in one run, whose callbacks go
# in the page's order, not the person's). A click on a grid is left alone (the grid sends its
# edit at once when a click takes its editor away).
# The script must hold no "<" before a letter, "/" or "!": Streamlit's sanitiser drops it then.
_EDITS_FIRST = """<script>
(() => {
  if (window.__ranklabEditsFirst) return;
  window.__ranklabEditsFirst = true;
  const HOLD = 200;   // the editor's debounce (150 ms in its source), and time to send the edit
  let keyed = -Infinity;
  const held = [];
  let giving = false;
  const inGrid = (t) => t instanceof Element
    && t.closest('[data-testid="stDataFrame"], [data-testid="stDataFrameResizable"], #portal, .gdg-overlay') !== null;

  // The run the edit starts may draw the page anew, and move it (a message above): a held
  // click goes to the same element of the same widget (Streamlit gives a keyed widget's box
  // the class st-key- and its key), found again if the run drew it anew; a widget whose key
  // changed (a chart made anew) is waited for until the run is over, then the click goes to
  // what is where it was made.
  const running = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    return !!app && app.dataset.testScriptState === "running";
  };
  function hold(e) {
    const target = e.target;
    const box = target.closest('[class*="st-key-"]');
    const key = box && [...box.classList].find((c) => c.startsWith("st-key-"));
    const at = box && box.getBoundingClientRect();
    const dx = at ? e.clientX - at.left : 0, dy = at ? e.clientY - at.top : 0;
    const sx = window.scrollX, sy = window.scrollY;
    const route = [];   // the child indices from the box down to the element clicked
    for (let n = target; box && n !== box; n = n.parentElement) route.unshift([...n.parentElement.children].indexOf(n));
    const click = (to, x, y) => to.dispatchEvent(new MouseEvent("click", {
      bubbles: true, cancelable: true, composed: true, view: window, detail: e.detail,
      clientX: x, clientY: y, screenX: e.screenX, screenY: e.screenY,
      button: e.button, buttons: e.buttons, ctrlKey: e.ctrlKey, shiftKey: e.shiftKey,
      altKey: e.altKey, metaKey: e.metaKey}));
    return (tries) => {   // true once given, false while the run may still draw its widget
      const now = box && box.isConnected ? box : key && document.querySelector("." + CSS.escape(key));
      if (now) {
        const r = now.getBoundingClientRect();
        let to = now;
        for (const i of route) to = to && to.children[i];
        if (!to || to.tagName !== target.tagName) {
          const hit = document.elementFromPoint(r.left + dx, r.top + dy);
          to = hit && now.contains(hit) ? hit : (now.querySelector("button") || now);
        }
        click(to, r.left + dx, r.top + dy);
        return true;
      }
      if (!target.isConnected && running() && tries > 0) return false;
      const x = e.clientX - (window.scrollX - sx), y = e.clientY - (window.scrollY - sy);
      const to = target.isConnected ? target : document.elementFromPoint(x, y);
      if (to) click(to, x, y);
      return true;
    };
  }

  // A click made soon after a held one is held too, and given as long after it as it was
  // made, up to SPACE: sent together, two clicks reach the script in one run, whose callbacks
  // go in the page's order, not the person's. Capped, a held click's delay is not carried on
  // to every click after it.
  const SPACE = 250;
  let lastMade = 0, lastGiven = 0;   // performance.now() starts at 0
  const due = (made, after) => Math.max(after + HOLD, lastGiven + Math.min(made - lastMade, SPACE));
  function next() {
    if (giving || held.length === 0) return;
    giving = true;
    const step = (tries) => {
      const [give, made, after] = held[0];
      const wait = due(made, after) - performance.now();
      if (wait > 0) { setTimeout(() => step(tries), wait); return; }
      if (!give(tries)) { setTimeout(() => step(tries - 1), 50); return; }   // 10 s at most
      [lastMade, lastGiven] = [made, performance.now()];
      held.shift();
      giving = false;
      next();
    };
    step(200);
  }

  window.addEventListener("keydown", (e) => { if (inGrid(e.target)) keyed = performance.now(); }, true);
  window.addEventListener("click", (e) => {
    if (!e.isTrusted || inGrid(e.target)) return;
    const made = performance.now();
    if (held.length === 0 && due(made, keyed) <= made) {
      [lastMade, lastGiven] = [made, made];
      return;
    }
    e.preventDefault();
    e.stopImmediatePropagation();
    held.push([hold(e), made, keyed]);   // held for the keys pressed before it only
    next();
  }, true);
})();
</script>"""


def edits_first() -> None:
    """Keep a grid's edit ahead of a click that follows it closely (see ``_EDITS_FIRST``);
    once per page, before the pages' widgets."""
    st.html(_EDITS_FIRST, unsafe_allow_javascript=True)


def grade_help() -> str:
    """:data:`GRADE_HELP` in the session's language, with the limits filled in."""
    return _(GRADE_HELP).format(grade_max=validation.LIMITS.grade_max, unjudged=validation.UNJUDGED)


# --------------------------------------------------------------------------- k, mode, presets

def _show(key: str, value, shape=None) -> None:
    """Set a widget to the example's value only when they differ (a k set by a chart click, a
    preset) or when the widget is made anew (``shape``: its options, e.g. the slider's range).
    Writing it on every run sent the server's value back to the browser, which then
    overwrote a newer one: the seventh of seven quick arrow presses on the k slider was lost."""
    ss = st.session_state
    if key not in ss or ss[key] != value or ss.get(f"{key}.shape") != shape:
        ss[key] = value
        ss[f"{key}.shape"] = shape


def k_slider(page: str, n: int) -> int:
    """The cutoff k (1..n) shared by every page; returns the effective k.

    Drawn inside the fragment that holds everything k changes (the Playground's ``at_k``, a
    lesson's body), a new k reruns only that fragment, in one run: a slider outside it whose
    callback asked for the fragment made two runs of every change (the page's, stopped by the
    callback, then the fragment's), measured at about twice the floor's time for one step."""
    ex = state.get_example()
    key = f"{page}.k"
    k = state.effective_k(ex)
    if ex.k > n and n >= 1:
        st.caption(_("k = {k_asked} is beyond the {n} ranked items; using k = {k}.").format(k_asked=ex.k, n=n, k=k))
    if n < 2:
        st.caption(ngettext("k = {k} (the ranking has {n} item)", "k = {k} (the ranking has {n} items)", n).format(k=k, n=n))
        return k
    _show(key, k, shape=n)

    def changed() -> None:
        state.update(k=int(st.session_state[key]))

    st.slider(_("k — the cutoff (look at the top k results)"), 1, n, key=key, on_change=changed,
              help=_("Every '@k' measure looks only at the first k results. Click a point on a chart to set it too."))
    return k


def mode_switch(page: str) -> str:
    """Binary (relevant or not) or graded relevance. Its column needs about 220 px (the French
    labels): tests/browser/test_editing_browser.py checks it at 1024 px in every language."""
    ex = state.get_example()
    key = f"{page}.mode"
    _show(key, ex.mode)

    def changed() -> None:
        value = st.session_state.get(key)
        if value in model.MODES:
            apply_pending_edits()
            state.update(mode=value)

    st.segmented_control(_("relevance"), list(model.MODES), key=key, on_change=changed,
                         format_func={"binary": _("binary (0/1)"), "graded": _("graded (0..10)")}.get,
                         help=_("binary: every positive grade counts as relevant (1); graded: DCG uses the grades"))
    return ex.mode


def preset_picker(page: str) -> None:
    """Load one of the examples of the sources. Pages with editors call :func:`preset_note`
    after them, so the note sees the edits of this run."""
    key = f"{page}.preset"

    def load() -> None:
        name = st.session_state.get(key)
        if name:
            apply_pending_edits()   # an edit made just before is a step that undo goes back to
            state.load_preset(name)

    # the box keeps showing the preset loaded (resetting it to empty after a load left the
    # browser's focus in a state where the grid swallowed the next click and keystroke);
    # "restore" in :func:`preset_note` loads the same preset again
    loaded = st.session_state.get(state.KEYS["preset"])
    _show(key, loaded if loaded in presets.PRESETS else None)
    st.selectbox(_("load an example"), list(presets.PRESETS), key=key, on_change=load,
                 format_func=shown(lambda name: _(presets.PRESETS[name].title)), placeholder=_("choose a preset…"))


def preset_note() -> None:
    """Which preset the example came from, and whether it was edited since (with a button
    that loads it again)."""
    name = st.session_state.get(state.KEYS["preset"])
    if name in presets.PRESETS:
        preset = presets.PRESETS[name]
        unchanged = state.get_example().queries == preset.queries
        # a fixed height (four caption lines): "(edited since)" can take one line more
        with st.container(height=88, border=False):
            if unchanged:
                # a preset file's text is a teacher's: shown as plain text
                st.caption(_("Loaded: {title} — {source}").format(title=plain(_(preset.title)),
                                                                  source=plain(_(preset.source), 200)))
            else:
                st.caption(_("Started from: {title} — {source} (edited since)").format(
                    title=plain(_(preset.title)), source=plain(_(preset.source), 200)))
        # always there, greyed out until an edit: appearing with the first edit, it pushed the
        # k slider and the tiles down under the pointer, and a quick second click hit nothing
        st.button(_("↺ restore the preset"), key=f"state.restore.{name}", on_click=restore,
                  args=(name,), help=_("load the preset again, as it was"), disabled=unchanged)


def restore(name: str) -> None:
    apply_pending_edits()   # the edited example, as it was, is the step undo goes back to
    state.load_preset(name)


def query_picker(page: str) -> int:
    """Which query the single-query pages look at (only shown when there are several)."""
    ex = state.get_example()
    if len(ex.queries) < 2:
        return ex.current
    key = f"{page}.query"
    _show(key, ex.current, shape=len(ex.queries))

    def changed() -> None:
        value = st.session_state.get(key)
        if isinstance(value, int):
            state.update(current=value)

    st.selectbox(_("query"), list(range(len(ex.queries))), key=key, on_change=changed,
                 format_func=lambda i: f"{i + 1}. {ex.queries[i].name[:60]}")
    return ex.current


def example_bar(page: str, n: int, *, k_slot: bool = False):
    """The controls every lesson shows at the top: query, k, mode. Returns the effective k, or
    with ``k_slot=True`` the empty place where the k slider goes: the caller draws it there
    (:func:`k_slider`) from the fragment that a new k reruns."""
    several = len(state.get_example().queries) > 1
    # the relevance switch's labels need ~220 px (French) at 1024 px with the sidebar open
    cols = st.columns([2, 3, 4] if several else [4, 3], gap="medium")
    if several:
        with cols[0]:
            query_picker(page)
    with cols[-1]:
        mode_switch(page)
        copy_link(permalink(page))
    if k_slot:
        return cols[-2].container()
    with cols[-2]:
        return k_slider(page, n)


# --------------------------------------------------------------------------- editors

def _frame(items, *, ranked: bool) -> pd.DataFrame:
    rows = model.item_rows(items)
    frame = pd.DataFrame(rows, columns=["id", "label", "grade"])
    # text, not a number column: the browser's number editor bent what was typed (−1 became 1,
    # 1e3 became 3, 11 became 1) before the server could refuse it; text reaches
    # ui.core.validation exactly as typed, which reads it strictly and says what is wrong
    frame["grade"] = pd.array([grade_text(row["grade"]) for row in rows], dtype="string")
    if ranked:
        frame.insert(0, "rank", pd.array(range(1, len(rows) + 1), dtype="Int64"))
    return frame


def _columns(ranked: bool) -> dict:
    cfg = {
        "id": st.column_config.TextColumn(_("id"), disabled=True, width="small",
                                          help=_("the document id the metrics see (new rows get one)")),
        "label": st.column_config.TextColumn(_("label"), max_chars=validation.LIMITS.label_chars, width="medium",
                                             help=_("what the result is (shown as plain text)")),
        "grade": st.column_config.TextColumn(_("grade"), max_chars=8, help=grade_help(), width="small"),
    }
    if ranked:
        cfg["rank"] = st.column_config.NumberColumn(_("rank"), disabled=True, width="small", format="%d")
    return cfg


def grade_text(grade: int | None) -> str:
    """A grade as shown: its number, or ``?`` when unjudged."""
    return validation.UNJUDGED if grade is None else str(grade)


def _records(frame: pd.DataFrame) -> list[dict]:
    out = []
    for row in frame.to_dict("records"):
        clean = {}
        for col in ("id", "label", "grade"):
            v = row.get(col)
            clean[col] = None if v is pd.NA else v
        out.append(clean)
    return out


def _editor(page: str, name: str, index: int, items, *, ranked: bool, prefix: str, height: int | None):
    """A data editor over ``items``; returns the edited items (None when nothing changed).

    The editor is given a fixed base (the items as they were when its key was made) and
    keeps its own edits; the base is rebuilt only when the example changed elsewhere.
    """
    key = state.editor_key(page, name, index)
    slot = f"{page}.{name}.{index}.base"
    grids = st.session_state.setdefault(state.KEYS["grids"], {})
    if slot not in grids:
        grids[slot] = (page, name, index, prefix)
    items = tuple(items)
    stored = st.session_state.get(slot)
    delta = st.session_state.get(key)
    added = len(delta.get("added_rows") or ()) if isinstance(delta, dict) else 0
    if added + len(items) > validation.LIMITS.items:
        # refuse before Streamlit applies the rows (it adds them one by one, which takes minutes)
        state.reset_editors(_("{added} rows added: a list holds at most {most} items. The previous example is "
                              "kept.").format(added=f"{added:,}", most=f"{validation.LIMITS.items:,}"))
        key, delta = state.editor_key(page, name, index), None
        messages()
    if isinstance(delta, dict) and stored is not None and stored[0] == key and stored[2] == items:
        # the grid in the browser was built on this base and nothing outside it changed the
        # example since. This holds even when its widget state holds no edit: the browser
        # drops an edit typed back to the base's value, so "no edit" can mean "the grid shows
        # its base again", a change of the example (0 → 1 → 0 leaves edited_rows empty).
        # Without a widget state (a first run, a return from another page) the grid is new.
        base_items = stored[1]
    else:
        base_items = items
    base = _frame(base_items, ranked=ranked)
    # the height depends on the base only: a changing height would make a new widget and drop the edits
    rows_height = 38 + 35 * (len(base_items) + 1)
    edited = st.data_editor(
        base, key=key, num_rows="dynamic", hide_index=True, width="stretch",
        height=min(rows_height, height) if height else "auto",
        column_config=_columns(ranked), column_order=(["rank"] if ranked else []) + ["grade", "label", "id"],
    )
    if base_items == items and not _has_edits(st.session_state.get(key)):
        # no edit in the grid, and the example shows its rows: nothing to compare
        st.session_state[slot] = (key, base_items, items)
        return None
    reserved = {i.id for i in base_items}
    rows = _records(edited)
    # compared with the example as it is now, not with the editor's base: a value typed back
    # to the base's (0 → 1 → 0) is a change of the example, though the editor shows no edit
    if rows == _records(base if base_items == items else _frame(items, ranked=ranked)):
        st.session_state[slot] = (key, base_items, items)
        return None
    new_items = model.items_from_rows(rows, reserved=reserved, prefix=prefix)
    st.session_state[slot] = (key, base_items, None)  # filled in by the caller once applied
    return new_items, slot, key, base_items


def _rows_with(delta: dict, base_items, ranked: bool) -> list[dict] | None:
    """The rows a grid shows: its base with the edits of its widget state ``delta`` applied
    (as the browser sent them); None when the delta does not fit the base."""
    rows = _records(_frame(base_items, ranked=ranked))
    for n, change in (delta.get("edited_rows") or {}).items():
        if not (isinstance(change, dict) and str(n).isdigit() and int(n) < len(rows)):
            return None
        rows[int(n)].update((col, value) for col, value in change.items() if col in ("label", "grade"))
    gone = {int(n) for n in delta.get("deleted_rows") or () if str(n).isdigit()}
    rows = [row for n, row in enumerate(rows) if n not in gone]
    for added in delta.get("added_rows") or ():
        if not isinstance(added, dict):
            return None
        rows.append({"id": None, "label": added.get("label"), "grade": added.get("grade")})
    return rows


def undo_buttons(page: str) -> None:
    """"↶ Undo" and "↷ Redo" side by side; draw them after the editors so they see this run's edits."""
    def go(step) -> None:
        apply_pending_edits()   # a grade typed just before the click is a step to undo
        step()

    row = st.container(horizontal=True)
    row.button(_("↶ Undo"), key=f"{page}.undo", on_click=go, args=(history.undo,), disabled=not history.can_undo(),
               help=_("undo the last change of the example (up to {depth}; k is not undone)").format(depth=history.DEPTH))
    row.button(_("↷ Redo"), key=f"{page}.redo", on_click=go, args=(history.redo,), disabled=not history.can_redo(),
               help=_("redo the change just undone"))


def apply_pending_edits() -> None:
    """Apply what the grids hold but the example does not have yet, before a change made
    elsewhere (a move, a tile click, undo, the mode, a paste) is computed from the example.

    A grade typed and, a moment later, a button clicked reach the server in one run: the
    button's callback runs before the page's script, where the grid applies its edits. The
    change computed from the example without the edit then started the grids afresh, and the
    grade typed was lost. Called first by every such callback. A tile dropped in the drag list
    is applied here too, for the same reason (:func:`drag_order` applies it otherwise)."""
    ss = st.session_state
    for (_page, i), (key, lookup, lists) in list((ss.get(state.KEYS["drags"]) or {}).items()):
        ex = ss.get(state.KEYS["example"])
        if ex is None or i >= len(ex.queries) or (ex.queries[i].ranking, ex.queries[i].tray) != lists:
            continue   # the list changed since it was drawn: a reply of it is for an older list
        dropped = _dropped(key, lookup)
        if dropped is not None and dropped != lists:
            state.set_current_query(replace(ex.queries[i], ranking=dropped[0], tray=dropped[1]), index=i)
    ex = ss.get(state.KEYS["example"])
    for slot, (page, field, i, prefix) in list((ss.get(state.KEYS["grids"]) or {}).items()):
        stored, key = ss.get(slot), state.editor_key(page, field, i)
        delta = ss.get(key)
        if ex is None or not isinstance(delta, dict) or stored is None or stored[0] != key or i >= len(ex.queries):
            continue
        if not _has_edits(delta) and stored[1] == stored[2]:
            continue   # the grid shows its base, which the example has: nothing to apply (cheap)
        q = ex.queries[i]
        items = getattr(q, field)
        if stored[2] != items:
            continue   # the example changed since this grid was drawn: it starts afresh
        rows = _rows_with(delta, stored[1], ranked=field == "ranking")
        if rows is None or rows == _records(_frame(items, ranked=field == "ranking")):
            continue
        new_items = model.items_from_rows(rows, reserved={it.id for it in stored[1]}, prefix=prefix)
        if state.set_current_query(replace(q, **{field: new_items}), from_editor=True, index=i):
            ss[slot] = (key, stored[1], getattr(state.get_example().queries[i], field))
        else:
            state.reset_editors()   # refused (the message says why): the grid starts again
        ex = ss.get(state.KEYS["example"])


def _has_edits(delta) -> bool:
    """Whether a data editor's widget state holds edits (changed, added or deleted rows)."""
    return isinstance(delta, dict) and any(delta.get(part) for part in ("edited_rows", "added_rows", "deleted_rows"))


def editors_idle(page: str, index: int | None = None) -> bool:
    """Whether neither grid of a query (the current one by default) holds an edit, so that
    drawing them cannot change the example: true after a move, a tile click, a preset or a
    link (each starts the changed grid afresh) and on a first visit; false once a grid has
    been edited, until a change made elsewhere starts it again."""
    i = state.get_example().current if index is None else index
    return not any(_grid_changed(page, field, i) for field in state.LISTS)


def _grid_changed(page: str, field: str, i: int) -> bool:
    """Whether the grid of query ``i``'s ``field`` may show rows other than the example's: it
    holds edits, or it holds none while its base differs from the rows last applied (the
    browser drops an edit typed back to the base's value, and such a grid shows its base)."""
    key = state.editor_key(page, field, i)
    delta = st.session_state.get(key)
    if _has_edits(delta):
        return True
    stored = st.session_state.get(f"{page}.{field}.{i}.base")
    return isinstance(delta, dict) and stored is not None and stored[0] == key and stored[1] != stored[2]


def ranking_editor(page: str, index: int | None = None, *, height: int | None = 390) -> None:
    """Edit the ranked list of a query (the current one by default): labels and grades;
    add rows at the bottom, delete rows by selecting them. ``height`` is the most pixels it takes."""
    _list_editor(page, "ranking", index, ranked=True, prefix="n", height=height)


def tray_editor(page: str, index: int | None = None) -> None:
    """Edit the judged documents the system did not retrieve (they count in R and the ideal)."""
    _list_editor(page, "tray", index, ranked=False, prefix="t", height=None)


def _list_editor(page: str, field: str, index: int | None, *, ranked: bool, prefix: str,
                 height: int | None) -> None:
    """One editor for a query's ``ranking`` or ``tray``, applied through ui.session.state."""
    ex = state.get_example()
    i = ex.current if index is None else index
    q = ex.queries[i]
    result = _editor(page, field, i, getattr(q, field), ranked=ranked, prefix=prefix, height=height)
    if result is not None:
        new_items, slot, key, base_items = result
        applied = state.set_current_query(replace(q, **{field: new_items}), from_editor=True, index=i)
        if applied:
            st.session_state[slot] = (key, base_items, getattr(state.get_example().queries[i], field))
        delta = st.session_state.get(key) or {}
        if not applied or delta.get("added_rows") or delta.get("deleted_rows"):
            # the grid starts again from the example: a refused value shows the previous one
            # again (the message says why), added rows get their rank and id, ranks close up
            state.reset_editors()
            st.rerun()
        messages()


def _digest(value) -> str:
    """A short fingerprint of a widget's contents, for keys that must change with them."""
    return hashlib.sha1(repr(value).encode()).hexdigest()[:12]


DRAG_MOST = 20  # items (ranked and in the tray) up to which the list can be dragged


def _drag_css(ranking, tray, *, across: bool = False) -> str:
    """Compact tiles in the grade colours of the charts (our CSS: user text is never in it);
    ``across``: larger tiles side by side, for a projector."""
    rules = [".sortable-component{padding:0}.sortable-container{margin:0 0 6px;padding:0}"
             ".sortable-container-header{font-size:14px;color:#555;padding:2px 0}"
             ".sortable-item{font-size:14px;padding:2px 10px;margin:2px 0;text-align:left;border:1px solid #ced4da;"
             "background:#f8f9fa;color:#111}"]
    if across:
        # a long label ends in an ellipsis inside its tile; rank and grade come first, so they stay
        rules.append(".sortable-container-body{flex-wrap:wrap}.sortable-item{font-size:18px;padding:6px 10px;"
                     "margin:2px 3px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:13em}")
    for nth, items in ((1, ranking), (2, tray)):
        for n, item in enumerate(items, start=1):
            grade = max(0, min(int(item.grade or 0), len(GRADE_COLORS) - 1))
            colour = UNJUDGED_FILL if item.grade is None else "#ffffff" if grade == 0 else GRADE_COLORS[grade]
            rules.append(f".sortable-container:nth-of-type({nth}) .sortable-item:nth-child({n})"
                         f"{{background:{colour};color:{grade_text_color(grade) if grade else '#111'}}}")
    return "".join(rules)


def drag_order(page: str, index: int | None = None, *, across: bool = False, extra_css: str = "") -> None:
    """The ranking and the tray as tiles to drag: reorder the ranking, or drag an item
    between the ranking and the tray. Offered up to :data:`DRAG_MOST` items; the buttons of
    :func:`item_actions` work at any length. ``across``: tiles side by side, rank and grade
    first and the label after, cut with an ellipsis (the presenter view), instead of one under
    the other. ``extra_css``: more of the caller's own rules for the tiles (never user text)."""
    from streamlit_sortables import sort_items

    ex = state.get_example()
    i = ex.current if index is None else index
    q = ex.queries[i]
    if not 0 < len(q.ranking) + len(q.tray) <= DRAG_MOST:
        if q.ranking or q.tray:
            st.caption(_("Dragging is offered for lists of up to {most} items; use the buttons below.").format(most=DRAG_MOST))
        return

    def tile(where: str, n: int, item) -> str:  # unique (it carries the position); shown as plain text
        if across:
            return f"{where}{n} · {grade_text(item.grade)} · {item.label[:40] or item.id[:40]}"
        return f"{where}{n} · {item.label[:40] or item.id} · " + _("grade {grade}").format(grade=grade_text(item.grade))

    ranked = [tile("#", n, item) for n, item in enumerate(q.ranking, start=1)]
    missed = [tile(_("tray") + " ", n, item) for n, item in enumerate(q.tray, start=1)]
    lookup = dict(zip(ranked + missed, q.ranking + q.tray, strict=True))
    # a new list (an edit, a move) makes a new component, which starts from the list as it is now.
    # The key holds the ids, not only the texts: two tiles can read the same ("cat in a box",
    # grade 1), and swapping them leaves every text as it was. It holds the example's version
    # too, which every change but a grid's own edit bumps: undo brings back an earlier list,
    # and that list's old component still held the drop undone. Either way an old component's
    # reply, read against the list of now, made the change again (without end, for the swap).
    version = st.session_state.get(state.KEYS["version"], 0)
    digest = _digest((version, [item.id for item in q.ranking], [item.id for item in q.tray], ranked, missed))
    key = f"{page}.drag.{i}.{digest}"
    with st.container(key=f"{page}-drag-{i}-{digest}"):  # a keyed block: the browser remounts the component
        result = sort_items([{"header": _("ranking, best first"), "items": ranked},
                             {"header": _("relevant but not retrieved"), "items": missed}],
                            multi_containers=True, direction="horizontal" if across else "vertical",
                            custom_style=_drag_css(q.ranking, q.tray, across=across) + extra_css, key=key)
    st.session_state.setdefault(state.KEYS["drags"], {})[(page, i)] = (key, lookup, (q.ranking, q.tray))
    dropped = _dropped(result, lookup)
    if dropped is not None and dropped != (q.ranking, q.tray):
        # the reply arrives while the page is drawn (the editors above already show the old
        # order): apply it and draw the page again
        if state.set_current_query(replace(q, ranking=dropped[0], tray=dropped[1]), index=i):
            st.rerun()


def _dropped(result, lookup: dict) -> tuple[tuple, tuple] | None:
    """The ranking and the tray a drag list's reply (``result``, or its widget key) holds, as
    items; None for no reply, one of an older list, or anything else the browser sent."""
    if isinstance(result, str):
        result = st.session_state.get(result)
    try:
        ranking = tuple(lookup[text] for text in result[0]["items"])
        tray = tuple(lookup[text] for text in result[1]["items"])
    except (KeyError, IndexError, TypeError):
        return None
    return (ranking, tray) if len(ranking) + len(tray) == len(lookup) else None


def item_actions(page: str, index: int | None = None) -> None:
    """Move an item up or down, to the tray (not retrieved) or back into the ranking."""
    ex = state.get_example()
    i = ex.current if index is None else index
    q = ex.queries[i]
    everything = [("r", n) for n in range(len(q.ranking))] + [("t", n) for n in range(len(q.tray))]
    if not everything:
        return
    key = f"{page}.pick.{i}"  # the picked (place, position), kept across lists
    if st.session_state.get(key) not in everything:
        st.session_state[key] = everything[0]

    def describe(choice) -> str:
        where, n = choice
        item = (q.ranking if where == "r" else q.tray)[n]
        place = f"#{n + 1}" if where == "r" else _("tray")
        return f"{place} · {item.label[:40] or item.id} (" + _("grade {grade}").format(grade=grade_text(item.grade)) + ")"

    long = len(everything) > DRAG_MOST
    drawn = st.session_state[key]
    if not long:
        # the widget is made anew when the list's texts change: a selectbox keeps showing the
        # text of its old choice otherwise (after a drag, #1 still read as the item that was first)
        widget = f"{key}.{_digest([describe(c) for c in everything])}"
        st.session_state[widget] = drawn

    def picked() -> None:
        # a request the browser sent before it had the new picker carries the old one as it
        # was drawn: that is no choice, and taking it put the pick back on an item that had
        # moved since (the next move then moved the wrong item)
        if st.session_state[widget] != drawn:
            st.session_state[key] = st.session_state[widget]

    if long:
        _pick_by_position(key, len(q.ranking), len(q.tray))
        st.caption(plain(describe(st.session_state[key]), 80))
    else:
        st.selectbox(_("item"), everything, key=widget, format_func=shown(describe), on_change=picked)
    where = st.session_state[key][0]
    with st.container(horizontal=True, gap="small"):  # wraps when narrow, never cuts a label
        if where == "r":
            st.button(_("↑ up"), key=f"{key}.up", on_click=move_item, args=(key, i, "up"))
            st.button(_("↓ down"), key=f"{key}.down", on_click=move_item, args=(key, i, "down"))
            st.button(_("⤒ top"), key=f"{key}.top", on_click=move_item, args=(key, i, "top"))
            st.button(_("→ tray"), key=f"{key}.move", on_click=move_item, args=(key, i, "move"),
                      help=_("relevant but not retrieved: it leaves the ranking and still counts in R"))
        else:
            st.button(_("← retrieve"), key=f"{key}.move", on_click=move_item, args=(key, i, "move"),
                      help=_("append it to the bottom of the ranking"))
        st.button(_("remove"), key=f"{key}.remove", on_click=move_item, args=(key, i, "remove"))


def move_item(key: str, i: int, action: str) -> None:
    """Move the item picked under session key ``key`` (a (place, position) pair) of query ``i``:
    ``up``, ``down``, ``top``, ``move`` (to the tray, or back into the ranking) or ``remove``;
    the pick follows the item. Reruns the whole page when the example changed."""
    apply_pending_edits()
    where, n = st.session_state.get(key, ("r", 0))
    cur = state.get_example().queries[i]
    lists = {"r": list(cur.ranking), "t": list(cur.tray)}
    here, there = lists[where], lists["t" if where == "r" else "r"]
    to = {"up": n - 1, "down": n + 1, "top": 0}.get(action) if where == "r" else None
    if not 0 <= n < len(here):
        return
    if to is not None and 0 <= to < len(here) and to != n:
        here.insert(to, here.pop(n))
        st.session_state[key] = ("r", to)
    elif action == "move":
        there.append(here.pop(n))
        st.session_state[key] = ("t" if where == "r" else "r", len(there) - 1)
    elif action == "remove":
        here.pop(n)
        st.session_state.pop(key, None)
    else:
        return
    if state.set_current_query(replace(cur, ranking=tuple(lists["r"]), tray=tuple(lists["t"])), index=i):
        st.rerun()  # the whole page at once (the buttons sit in a fragment), not the fragment first


def next_grade(grade: int | None, mode: str, top: int) -> int:
    """The grade a click on an item's tile gives it: binary, 0 ↔ 1; graded, one more, and
    after ``top`` back to 0; an unjudged item (``None``) becomes 0.

    >>> [next_grade(g, "graded", 3) for g in (0, 1, 2, 3, None)]
    [1, 2, 3, 0, 0]
    >>> [next_grade(g, "binary", 3) for g in (0, 1, 2, None)]
    [1, 0, 0, 0]
    """
    if grade is None:
        return 0
    if mode == "binary":
        return 0 if grade >= 1 else 1
    return grade + 1 if grade < top else 0


TILE_CLICKS = "{page}.tile_clicks"  # session key: tiles clicked so far (a fresh strip after each)
TILES_DONE = "{page}.tiles_done"    # session key: the last (strip key, rank) clicks applied


def grade_strip(page: str, index: int, query, k: int, mode: str) -> None:
    """Query ``index``'s ranked list as tiles (:func:`ui.render.strip`); a click on a tile gives
    its result the next grade (:func:`cycle_grade`), and a caption under the strip says so.

    The strip's key changes after each click, so that it starts without a selection and a
    second click on the same tile counts again."""
    key = f"{page}.strip.{st.session_state.get(TILE_CLICKS.format(page=page), 0)}"
    strip(views.item_rows(query.ranking), k, key=key, on_tile=functools.partial(_tile_clicked, page, index, key))
    st.caption(_("Click a tile to switch it between relevant and not relevant.") if mode == "binary"
               else _("Click a tile to give it the next grade (after the highest, 0 again)."))


def _tile_clicked(page: str, i: int, key: str, rank: int) -> None:
    """A click on the tile at ``rank`` of the strip ``key``, applied once.

    The browser's next request, sent before it had the new strip, carries the old strip's
    selection again; taken as a click, it gave the tile a second grade (a click lost, seen
    as two). A click on another tile of an old strip is a new one and counts."""
    done = st.session_state.setdefault(TILES_DONE.format(page=page), [])
    if (key, rank) in done:
        return
    done.append((key, rank))
    del done[:-20]
    cycle_grade(page, i, rank)


def cycle_grade(page: str, i: int, rank: int) -> None:
    """A click on the tile at ``rank`` of query ``i``: that item's :func:`next_grade`, where the
    top grade is the query's highest (at least 3). The whole page follows (the grids included)."""
    apply_pending_edits()
    ex = state.get_example()
    if not 0 <= i < len(ex.queries) or not 1 <= rank <= len(ex.queries[i].ranking):
        return  # a click on a list that changed since it was drawn
    q = ex.queries[i]
    top = min(max([3] + [it.grade for it in q.ranking + q.tray if it.grade is not None]), validation.LIMITS.grade_max)
    ranking = list(q.ranking)
    ranking[rank - 1] = replace(ranking[rank - 1], grade=next_grade(ranking[rank - 1].grade, ex.mode, top))
    clicks = TILE_CLICKS.format(page=page)
    st.session_state[clicks] = st.session_state.get(clicks, 0) + 1
    if state.set_current_query(replace(q, ranking=tuple(ranking)), index=i):
        st.rerun()  # the whole page (the strip sits in a fragment): the grid shows the new grade


def _pick_by_position(key: str, ranked: int, missed: int) -> None:
    """For long lists: the item to move by its rank (or its place in the tray), a number
    box instead of a select box listing every item, which the browser drew again after every
    run, slowing every rerun of a long list."""
    where, n = st.session_state[key]
    if missed:
        place = f"{key}.place"
        _show(place, where)

        def placed() -> None:
            st.session_state[key] = (st.session_state[place], 0)

        st.segmented_control(_("from"), ["r", "t"], key=place, on_change=placed, required=True,
                             format_func={"r": _("the ranking"), "t": _("not retrieved")}.get)
        where, n = st.session_state[key]
    number = f"{key}.number"
    _show(number, n + 1, shape=(where, ranked if where == "r" else missed))

    def numbered() -> None:
        value = st.session_state.get(number)
        if isinstance(value, int):
            st.session_state[key] = (where, value - 1)

    st.number_input(_("rank of the item") if where == "r" else _("place in the tray"), min_value=1,
                    max_value=ranked if where == "r" else missed, step=1, key=number, on_change=numbered)


def query_title(q) -> str:
    """A query's name, safe for Markdown."""
    return plain(q.name, 80)
