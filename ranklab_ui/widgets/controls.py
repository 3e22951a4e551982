"""The example's controls: k, the relevance mode, the presets, the query, undo and redo,
and the buttons that move an item."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from ..core import editing, model, presets
from ..core.i18n import _, ngettext, shown
from ..render import copy_link, permalink, plain
from ..session import history, state
from .drag import DRAG_MOST
from .editors import apply_pending_edits

__all__ = ["k_slider", "mode_switch", "preset_picker", "preset_note", "query_picker", "example_bar", "undo_buttons", "item_actions", "move_item", "query_title"]


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
        return f"{place} · {item.label[:40] or item.id} (" + _("grade {grade}").format(grade=editing.grade_text(item.grade)) + ")"

    long = len(everything) > DRAG_MOST
    drawn = st.session_state[key]
    if not long:
        # the widget is made anew when the list's texts change: a selectbox keeps showing the
        # text of its old choice otherwise (after a drag, #1 still read as the item that was first)
        widget = f"{key}.{editing.digest([describe(c) for c in everything])}"
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
    moved = editing.move(cur.ranking, cur.tray, where, n, action)
    if moved is None:
        return
    ranking, tray, pick = moved
    if pick is None:
        st.session_state.pop(key, None)
    else:
        st.session_state[key] = pick
    if state.set_current_query(replace(cur, ranking=ranking, tray=tray), index=i):
        st.rerun()  # the whole page at once (the buttons sit in a fragment), not the fragment first



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
