"""The two grids, ranking and tray (Streamlit's data editor), and what keeps their edits:
an edit is applied first by any change made elsewhere (:func:`apply_pending_edits`), and a
click, an option or a slider's key that follows one closely waits for it (:func:`edits_first`)."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from ..core import editing, model, validation
from ..core.i18n import _
from ..render import messages
from ..session import state
from . import drag

__all__ = ["edits_first", "grade_help", "ranking_editor", "tray_editor", "apply_pending_edits", "editors_idle"]



# Streamlit's data editor sends an edit to the server a moment after it is made (a trailing
# debounce), while a click elsewhere is sent at once. A button clicked within that time after
# Enter reached the server first, without the edit, and the change it made (a move, a tile,
# undo, a preset) started the grid afresh: the grade typed was lost. So a click outside the
# grids that comes that soon after a key pressed in one is held until the edit has gone, then
# given again, once. Clicks keep their order and their spacing: one made soon after a held
# click is held too (two clicks sent together reach the script in one run, whose callbacks go
# in the page's order, not the person's). A click on a grid is left alone (the grid sends its
# edit at once when a click takes its editor away). A chart sends a click on it (a point of the
# curve, a tile) the same moment late, and a run that draws the chart again before then drops
# it: a click that follows one on a chart is held until the chart has sent it.
# Two requests that reach the server before it starts the run asked for first are run as one,
# and the callbacks of that run go in the page's order: a paste clicked just after a preset, or
# Undo just after a move, could come first. So a click made while a run asked for has not
# started yet is held until it has; so is an option picked in a select box (chosen when the
# button is let go, before any click). A key on a slider steps from the value the slider shows:
# one pressed while the run of another action (a paste, a point of the curve) is not drawn yet
# stepped from the k before that action, so it waits until the run is drawn. The page learns
# all this from the app's own connection: a request for a run is a BackMsg whose first field is
# rerun_script, the start of one a ForwardMsg with new_session, its end one with script_finished
# (protobuf field numbers, which do not change). The run that drew this script has started, its
# start read before the script was there: the first action on a fresh page waits like any other
# (it did not, and a preset picked just after a tile's click came first). A wait is capped
# (WAIT), so a connection read wrongly costs time, never an action.
# The script must hold no "<" before a letter, "/" or "!": Streamlit's sanitiser drops it then.
_EDITS_FIRST = """<script>
(() => {
  if (window.__ranklabEditsFirst) return;
  window.__ranklabEditsFirst = true;
  const HOLD = 200;   // the editor's debounce (150 ms in its source), and time to send the edit
  const WAIT = 3000;   // the longest a click waits for the server to start a run or a chart to send
  let keyed = -Infinity;
  let asked = -Infinity, chartAt = -Infinity;   // performance.now() of each
  let started = performance.now();   // a run drew this script
  // the last request for a run that came from anything but a slider, and the end of the last
  // run that held every request sent before it; unseen: that request's run is not drawn yet;
  // bySlider: the last input was a slider's
  let askedOther = -Infinity, done = -Infinity, unseen = false, bySlider = false;
  const held = [];

  const RERUN = 0x5a;        // BackMsg.rerun_script: field 11, length-delimited
  const NEW_SESSION = 4;    // ForwardMsg.new_session: sent when a run starts
  const FINISHED = 6;       // ForwardMsg.script_finished: its status, sent when a run ends
  const FOR_RERUN = 2;      // the status of a run stopped to start the next one: not an end
  function read(data) {   // a ForwardMsg's top-level fields: "start", "end" or ""
    if (!(data instanceof ArrayBuffer)) return "";
    const b = new Uint8Array(data);
    let i = 0;
    const varint = () => {
      let v = 0, f = 1, c;
      do { c = b[i++]; v += (c & 127) * f; f *= 128; } while (c >= 128 && i  < b.length);
      return v;
    };
    for (let n = 0; n  < 8 && i  < b.length; n++) {
      const tag = varint(), field = Math.floor(tag / 8), type = tag % 8;
      if (field === NEW_SESSION) return "start";
      if (field === FINISHED && type === 0) return varint() === FOR_RERUN ? "" : "end";
      if (type === 2) { const n = varint(); i += n; } else if (type === 0) varint(); else return "";
    }
    return "";
  }
  const watched = new WeakSet();
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (!watched.has(this)) {
      watched.add(this);
      this.addEventListener("message", (m) => {
        const what = read(m.data);
        if (what === "start") started = performance.now();
        // the end of a run that holds every request sent so far (none sent since it started)
        else if (what === "end" && started >= asked) done = performance.now();
      });
    }
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data)
      : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
    if (bytes && bytes.length > 0 && bytes[0] === RERUN) {
      asked = performance.now();
      if (!bySlider) [askedOther, unseen] = [asked, true];
    }
    return send.call(this, data);
  };
  // whether a click now would reach the server before the run asked for last has started, or
  // before the chart clicked last has sent its click (a click on no point sends nothing: capped)
  const waiting = () => {
    const now = performance.now();
    return (asked > started && now - asked  < WAIT)
      || (chartAt > asked && now - chartAt  < WAIT);
  };
  // whether the run asked for by something else than a slider is not drawn yet: the page
  // sends the value of every widget with each request, and a value that run set (k by a point
  // of the curve, the mode by a preset) is in the page only once it is drawn. A click sent
  // before then carried the value from before, which the server took for the person's, and the
  // run's change was undone (k back after a point of the curve, undo, then the switch). The
  // page reads the run's end before it has drawn what came before it: drawn once the page
  // shows no run under way.
  const undrawn = () => {
    if (unseen && done > askedOther && !running()) unseen = false;
    return unseen && performance.now() - askedOther  < WAIT;
  };
  // the same for a key on a slider, which acts on the value the slider shows: a slider takes
  // its new value a few frames after the page shows the run over, so AFTER more
  const AFTER = 500;
  const drawing = () => {
    const now = performance.now();
    return undrawn() || (now - askedOther  < WAIT && now - done  < AFTER);
  };
  let giving = false;
  const inGrid = (t) => t instanceof Element
    && t.closest('[data-testid="stDataFrame"], [data-testid="stDataFrameResizable"], #portal, .gdg-overlay') !== null;
  const inChart = (t) => t instanceof Element && t.closest('[data-testid="stVegaLiteChart"]') !== null;

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
    const key = box && keyOf(box);
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
  const STILL = 250;   // how long a slider shows the same k before a held key is given to it
  let lastMade = 0, lastGiven = 0;   // performance.now() starts at 0
  const due = (made, after) => Math.max(after + HOLD, lastGiven + Math.min(made - lastMade, SPACE));
  function next() {
    if (giving || held.length === 0) return;
    giving = true;
    let shown = "", since = 0;   // what a held key's slider shows, and since when
    const step = (tries) => {
      const [give, made, after, chart, slider] = held[0];
      const wait = due(made, after) - performance.now();
      if (wait > 0) { setTimeout(() => step(tries), wait); return; }
      if (waiting() || undrawn() || (slider && drawing())) { shown = ""; setTimeout(() => step(tries), 20); return; }
      // a held key goes to its slider once that has shown the same value for STILL: the new
      // value of a run drawn comes a few frames late, later on a busy browser
      const now = slider && give.shows();
      if (slider && now !== shown) [shown, since] = [now, performance.now()];
      if (slider && performance.now() - since  < STILL) { setTimeout(() => step(tries), 20); return; }
      bySlider = slider;   // read when the action sends its request, during give
      if (!give(tries)) { setTimeout(() => step(tries - 1), 50); return; }   // 10 s at most
      [lastMade, lastGiven] = [made, performance.now()];
      if (chart) keyed = chartAt = lastGiven;   // the chart sends it late: the clicks after it wait
      held.shift();
      shown = "";
      giving = false;
      next();
    };
    step(200);
  }

  // A key on the k slider steps from the k it shows: one pressed while a run asked for by
  // another action has not ended yet (a drop that shortened the list, a point of the curve,
  // an undo) acted on the slider of the list before it, and the k it set was that list's. Such
  // a key waits, as a click does, and also until that run has drawn the slider anew; it is then
  // given to the slider found again.
  const SLIDER_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"]);
  const inSlider = (t) => t instanceof Element && t.closest('[data-testid="stSlider"]') !== null;
  const keyOf = (t) => {
    const box = t.closest('[class*="st-key-"]');
    return box && [...box.classList].find((c) => c.startsWith("st-key-"));
  };
  function holdKey(e, key) {   // key: the st-key of the slider it is for
    const init = {key: e.key, code: e.code, bubbles: true, cancelable: true, composed: true, view: window,
      ctrlKey: e.ctrlKey, shiftKey: e.shiftKey, altKey: e.altKey, metaKey: e.metaKey};
    const input = () => key && shownIn(key);   // the slider of that key shown, made anew or not
    const give = (tries) => {   // a slider no longer drawn (a list of one item) takes no key
      const to = input();
      if (!to) return !(running() && tries > 0);
      to.focus({preventScroll: true});
      to.dispatchEvent(new KeyboardEvent("keydown", init));
      return true;
    };
    give.shows = () => { const to = input(); return to ? to.value + "/" + to.max : ""; };
    return give;
  }

  // An option of a select box (a preset in "load an example") is chosen when the button is let
  // go, before the click: it is held from the press on, the press, its release and its click
  // kept from the list, then chosen by a click with no pointer (how a screen reader chooses).
  // The run it waited for may draw the box anew, which closes its list: the list is then
  // opened again from the keyboard (↓ on the box) and the option found by its text.
  const inOption = (t) => t instanceof Element && t.closest('[role="option"]') !== null;
  let swallowing = false;   // the rest of a held press on an option: kept from the page
  function holdOption(e) {
    const option = e.target.closest('[role="option"]');
    const text = option.textContent;
    const list = option.closest('[role="listbox"]');
    const field = list && list.id && document.querySelector('[aria-controls="' + CSS.escape(list.id) + '"]');
    const box = field && field.closest('[class*="st-key-"]');
    const key = box && keyOf(box);
    let opened = 0;   // tries left after the list was opened again
    return (tries) => {
      const now = option.isConnected ? option
        : [...document.querySelectorAll('[role="option"]')].find((o) => o.textContent === text);
      if (now) {
        now.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, composed: true, view: window, detail: 0}));
        return true;
      }
      if (opened > 0) return --opened === 0 || tries  <= 0;   // the list not shown: given up
      const at = box && box.isConnected ? box : key && document.querySelector("." + CSS.escape(key));
      const input = at && at.querySelector('input[role="combobox"], input');
      if (!input) return !(running() && tries > 0);
      input.focus({preventScroll: true});
      input.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowDown", code: "ArrowDown", bubbles: true, cancelable: true, composed: true, view: window}));
      opened = 20;
      return false;
    };
  }
  // A slider whose range a run changed (a paste, a drop, a preset) is made anew: the one a
  // person had focused is hidden, then removed, and the focus goes with it, so the next key
  // went nowhere. The focus is given to the new slider of the same key once it is shown, unless
  // the person has focused something else; a slider's key pressed meanwhile is held for it.
  // Whether the focus was taken away is asked when it matters, not when it went: the page
  // gives a key priority over the timers it has queued.
  let left = null;   // [a focused slider that lost the focus to nothing, its st-key, when]
  const shownIn = (key) => [...document.querySelectorAll("." + CSS.escape(key) + ' input[type="range"]')]
    .find((i) => i.offsetParent !== null);
  const unfocused = () => !document.activeElement || document.activeElement === document.body;
  const lost = () => {   // the st-key of the slider whose focus a run took away, if any
    if (!left || !unfocused() || performance.now() - left[2] > WAIT) return null;
    const [old, key] = left;
    return old.isConnected && old.offsetParent !== null ? null : key;   // else: left by the person
  };
  function refocus() {
    const key = lost();
    if (!key) { left = null; return; }
    const input = shownIn(key);
    if (input) { left = null; input.focus({preventScroll: true}); return; }
    setTimeout(refocus, 20);
  }
  window.addEventListener("focusout", (e) => {
    if (!e.isTrusted || e.relatedTarget || !inSlider(e.target)) return;
    const key = keyOf(e.target);
    if (!key) return;
    left = [e.target, key, performance.now()];
    setTimeout(refocus, 0);   // once the run has hidden or removed it
  }, true);

  const keep = (e) => { e.preventDefault(); e.stopImmediatePropagation(); };
  const free = (made) => held.length === 0 && due(made, keyed) <= made && !waiting() && !undrawn();

  window.addEventListener("keydown", (e) => {
    if (!e.isTrusted) return;
    if (inGrid(e.target)) keyed = performance.now();
    const orphan = SLIDER_KEYS.has(e.key) && !inSlider(e.target) ? lost() : null;   // its slider taken away
    if (!inSlider(e.target) && !orphan) { bySlider = false; return; }
    if (!SLIDER_KEYS.has(e.key)) return;
    const made = performance.now();
    if (!orphan && free(made) && !drawing()) {
      bySlider = true;
      [lastMade, lastGiven] = [made, made];
      return;
    }
    keep(e);
    held.push([holdKey(e, orphan || keyOf(e.target)), made, keyed, false, true]);
    next();
  }, true);
  window.addEventListener("pointerdown", (e) => {
    if (!e.isTrusted) return;
    swallowing = false;
    bySlider = inSlider(e.target);
    const made = performance.now();
    if (!inOption(e.target) || free(made)) return;
    keep(e);
    swallowing = true;
    held.push([holdOption(e), made, keyed, false, false]);
    next();
  }, true);
  for (const type of ["pointerup", "mousedown", "mouseup"]) {
    window.addEventListener(type, (e) => { if (swallowing && e.isTrusted) keep(e); }, true);
  }
  // a drop in the drag list reaches the page as a component's message
  window.addEventListener("message", (m) => {
    if (m.data && m.data.type === "streamlit:setComponentValue") bySlider = false;
  }, true);
  window.addEventListener("click", (e) => {
    if (!e.isTrusted) return;
    if (swallowing) { swallowing = false; keep(e); return; }
    if (inGrid(e.target)) return;
    const made = performance.now();
    if (free(made)) {
      [lastMade, lastGiven] = [made, made];
      if (inChart(e.target)) keyed = chartAt = made;   // the chart sends it late: the clicks after it wait
      return;
    }
    keep(e);
    held.push([hold(e), made, keyed, inChart(e.target), false]);   // held for what came before it only
    next();
  }, true);
})();
</script>"""


def edits_first() -> None:
    """Keep a grid's edit, or any action's run, ahead of a click, an option or a slider's key
    that follows it closely (see ``_EDITS_FIRST``); once per page, before the pages' widgets."""
    st.html(_EDITS_FIRST, unsafe_allow_javascript=True)


def grade_help() -> str:
    """:data:`editing.GRADE_HELP` in the session's language, with the limits filled in."""
    return _(editing.GRADE_HELP).format(grade_max=validation.LIMITS.grade_max, unjudged=validation.UNJUDGED)



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
    base = editing.frame(base_items, ranked=ranked)
    # the height depends on the base only: a changing height would make a new widget and drop the edits
    rows_height = 38 + 35 * (len(base_items) + 1)
    edited = st.data_editor(
        base, key=key, num_rows="dynamic", hide_index=True, width="stretch",
        height=min(rows_height, height) if height else "auto",
        column_config=_columns(ranked), column_order=(["rank"] if ranked else []) + ["grade", "label", "id"],
    )
    if base_items == items and not editing.has_edits(st.session_state.get(key)):
        # no edit in the grid, and the example shows its rows: nothing to compare
        st.session_state[slot] = (key, base_items, items)
        return None
    reserved = {i.id for i in base_items}
    rows = editing.records(edited)
    # compared with the example as it is now, not with the editor's base: a value typed back
    # to the base's (0 → 1 → 0) is a change of the example, though the editor shows no edit
    if rows == editing.records(base if base_items == items else editing.frame(items, ranked=ranked)):
        st.session_state[slot] = (key, base_items, items)
        return None
    new_items = model.items_from_rows(rows, reserved=reserved, prefix=prefix)
    st.session_state[slot] = (key, base_items, None)  # filled in by the caller once applied
    return new_items, slot, key, base_items



def apply_pending_edits() -> None:
    """Apply what the grids hold but the example does not have yet, before a change made
    elsewhere (a move, a tile click, undo, the mode, a paste) is computed from the example.

    A grade typed and, a moment later, a button clicked reach the server in one run: the
    button's callback runs before the page's script, where the grid applies its edits. The
    change computed from the example without the edit then started the grids afresh, and the
    grade typed was lost. Called first by every such callback. A tile dropped in the drag list
    is applied here too, for the same reason (:func:`ranklab_ui.widgets.drag.apply_drops`)."""
    drag.apply_drops()
    ss = st.session_state
    ex = ss.get(state.KEYS["example"])
    for slot, (page, field, i, prefix) in list((ss.get(state.KEYS["grids"]) or {}).items()):
        stored, key = ss.get(slot), state.editor_key(page, field, i)
        delta = ss.get(key)
        if ex is None or not isinstance(delta, dict) or stored is None or stored[0] != key or i >= len(ex.queries):
            continue
        if not editing.has_edits(delta) and stored[1] == stored[2]:
            continue   # the grid shows its base, which the example has: nothing to apply (cheap)
        q = ex.queries[i]
        items = getattr(q, field)
        if stored[2] != items:
            continue   # the example changed since this grid was drawn: it starts afresh
        rows = editing.rows_with(delta, stored[1], ranked=field == "ranking")
        if rows is None or rows == editing.records(editing.frame(items, ranked=field == "ranking")):
            continue
        new_items = model.items_from_rows(rows, reserved={it.id for it in stored[1]}, prefix=prefix)
        if state.set_current_query(replace(q, **{field: new_items}), from_editor=True, index=i):
            ss[slot] = (key, stored[1], getattr(state.get_example().queries[i], field))
        else:
            state.reset_editors()   # refused (the message says why): the grid starts again
        ex = ss.get(state.KEYS["example"])



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
    if editing.has_edits(delta):
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
    """One editor for a query's ``ranking`` or ``tray``, applied through ranklab_ui.session.state."""
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

