"""The example's controls: k, the relevance mode, the presets and the query. The lists
themselves, with undo and redo, are the ranking editor's (:mod:`.ranking_editor`)."""

from __future__ import annotations

import streamlit as st

from ..core import model, presets
from ..core.i18n import _, ngettext, shown
from ..render import copy_link, permalink, plain
from ..session import keys, state

__all__ = ["k_slider", "set_k_from_chart", "mode_switch", "preset_picker", "preset_note", "query_picker", "example_bar", "query_title"]


def _show(key: str, value) -> None:
    """Set a widget to the example's value only when they differ (a k set by a chart click, a
    preset). Writing it on every run sent the server's value back to the browser, which then
    overwrote a newer one: the seventh of seven quick arrow presses on the k slider was lost."""
    ss = st.session_state
    if key not in ss or ss[key] != value:
        ss[key] = value


def drawn_as(key: str, value, shape) -> tuple[str, object]:
    """The key under which widget ``key`` is drawn with ``shape`` (its options: the slider's
    range), set to ``value``, and the default to draw it with.

    Streamlit makes a widget anew when its options change, and the browser makes it from
    whichever run's drawing of it reaches it first. A value set through the session state
    travels only with the run that set it: when a later run's drawing came first (an edit sent
    just after a paste), the slider was made from its default, its lowest value, and showed
    k = 1 while every measure used the example's k. So each new shape gets a key never used
    before in the session (:func:`ranklab_ui.session.keys.generation`), and the value it starts
    with as its default, the same in every drawing of that key. While the shape stays, the key
    stays: a value set elsewhere (a point of a chart, a preset, undo) is written to the widget
    in place, so an arrow key pressed on it meanwhile still reaches the server (a new widget
    would have dropped it)."""
    ss = st.session_state
    mark = keys.shape_mark(key)
    seen = ss.get(mark)
    if seen is None or seen[0] != shape:
        seen = (shape, 0 if seen is None else seen[1] + 1, value)
        ss[mark] = seen
        return keys.generation(key, seen[1]), value
    widget = keys.generation(key, seen[1])
    _show(widget, value)
    return widget, seen[2]


def k_slider(page: str, n: int) -> int:
    """The cutoff k (1..n) shared by every page; returns the effective k.

    Drawn inside the fragment that holds everything k changes (the Playground's ``at_k``, a
    lesson's body), a new k reruns only that fragment, in one run: a slider outside it whose
    callback asked for the fragment made two runs of every change (the page's, stopped by the
    callback, then the fragment's), measured at about twice the floor's time for one step."""
    ex = state.get_example()
    k = state.effective_k(ex)
    if ex.k > n and n >= 1:
        st.caption(_("k = {k_asked} is beyond the {n} ranked items; using k = {k}.").format(k_asked=ex.k, n=n, k=k))
    if n < 2:
        st.caption(ngettext("k = {k} (the ranking has {n} item)", "k = {k} (the ranking has {n} items)", n).format(k=k, n=n))
        return k
    key, start = drawn_as(keys.k(page), k, n)

    def changed() -> None:
        state.update(k=int(st.session_state[key]))

    st.slider(_("k — the cutoff (look at the top k results)"), 1, n, start, key=key, on_change=changed,
              help=_("Every '@k' measure looks only at the first k results. Click a point on a chart to set it too."))
    return k


def set_k_from_chart(k: int) -> None:
    """A point of a curve over k clicked (``render.chart``'s ``on_pick``): k for every page,
    and the whole page drawn again, since the k slider is outside the chart's fragment."""
    if state.update(k=k):
        st.rerun()


def mode_switch(page: str) -> str:
    """Binary (relevant or not) or graded relevance. Its column needs about 220 px (the French
    labels): tests/browser/test_editing_browser.py checks it at 1024 px in every language."""
    ex = state.get_example()
    key = keys.mode(page)
    _show(key, ex.mode)

    def changed() -> None:
        value = st.session_state.get(key)
        if value in model.MODES:
            state.update(mode=value)

    st.segmented_control(_("relevance"), list(model.MODES), key=key, on_change=changed,
                         format_func={"binary": _("binary (0/1)"), "graded": _("graded (0..10)")}.get,
                         help=_("binary: every positive grade counts as relevant (1); graded: DCG uses the grades"))
    return ex.mode


def preset_picker(page: str) -> None:
    """Load one of the examples of the sources. Pages with editors call :func:`preset_note`
    after them, so the note sees the edits of this run."""
    key = keys.preset(page)

    def load() -> None:
        name = st.session_state.get(key)
        if name:
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
        # k slider and the editor down under the pointer, and a quick second click hit nothing
        st.button(_("↺ restore the preset"), key=f"state.restore.{name}", on_click=restore,
                  args=(name,), help=_("load the preset again, as it was"), disabled=unchanged)


def restore(name: str) -> None:
    state.load_preset(name)


def query_picker(page: str) -> int:
    """Which query the single-query pages look at (only shown when there are several)."""
    ex = state.get_example()
    if len(ex.queries) < 2:
        return ex.current
    key, start = drawn_as(keys.query(page), ex.current, len(ex.queries))

    def changed() -> None:
        value = st.session_state.get(key)
        if isinstance(value, int):
            state.update(current=value)

    st.selectbox(_("query"), list(range(len(ex.queries))), start, key=key, on_change=changed,
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


def query_title(q) -> str:
    """A query's name, safe for Markdown."""
    return plain(q.name, 80)
