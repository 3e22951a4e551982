"""The example's controls: k, the relevance mode, the presets and the query. The lists
themselves, with undo and redo, are the ranking editor's (:mod:`.ranking_editor`)."""

from __future__ import annotations

import streamlit as st

from ..core import model, presets
from ..core.i18n import _, ngettext, shown
from ..render import copy_link, permalink, plain
from ..session import keys, state

__all__ = ["k_slider", "set_k_from_chart", "mode_switch", "preset_picker", "preset_note", "query_picker", "example_bar", "query_title"]


def drawn_as(key: str, value, shape) -> tuple[str, object]:
    """The key under which widget ``key`` (an example control: k, the query, the mode, the
    preset) is drawn with ``shape`` (its options: the slider's range), showing ``value``, and
    the default to draw it with.

    A Streamlit widget sends the value the browser shows with every request of the page. A
    value the server writes into a widget (k from a preset or a point of a chart, the mode
    after an undo) is therefore taken back by any request that leaves before the run that
    wrote it reaches the browser (an edit made at once): the server reads the old value as the
    person's change. And a widget whose options change is made anew, from whichever run's
    drawing reaches the browser first, while a value set through the session state travels
    only with the run that set it (a slider made for a shorter list showed k = 1 while every
    measure used the example's k).

    So the server never writes into a widget drawn already: a new shape or a new value set
    elsewhere gets a key never used before in the session
    (:func:`ranklab_ui.session.keys.generation`), drawn with that value as its default, the same
    in every drawing. A request from the page as it was brings the value of a widget the server
    no longer draws, which its callback leaves alone (:func:`drawn_now`): an arrow key pressed
    on the old slider in that moment is lost with it (docs/editing.md). While the shape and
    the value stay, the key stays, and the person's own steps reach the server."""
    ss = st.session_state
    mark = keys.shape_mark(key)
    seen = ss.get(mark)
    widget = None if seen is None else keys.generation(key, seen[1])
    if seen is None or seen[0] != shape or widget not in ss or ss[widget] != value:
        seen = (shape, 0 if seen is None else seen[1] + 1, value)
        ss[mark] = seen
        return keys.generation(key, seen[1]), value
    return widget, seen[2]


def drawn_now(key: str, widget: str) -> bool:
    """Whether ``widget`` is the key widget ``key`` is drawn under now (:func:`drawn_as`).
    Streamlit keeps the callback of a widget it no longer draws, and calls it when a request
    from the page as it was brings that widget's value: such a value is not the person's."""
    return keys.current(st.session_state, key) == widget


def k_slider(page: str, n: int) -> int:
    """The cutoff k (1..n) shared by every page; returns the effective k.

    Drawn inside the fragment that holds everything k changes (the Playground's ``body``, a
    lesson's), a new k reruns only that fragment, in one run: a slider outside it whose
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
        if drawn_now(keys.k(page), key):
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
    key, start = drawn_as(keys.mode(page), ex.mode, None)

    def changed() -> None:
        value = st.session_state.get(key)
        if drawn_now(keys.mode(page), key) and value in model.MODES:
            state.update(mode=value)

    st.segmented_control(_("relevance"), list(model.MODES), default=start, key=key, on_change=changed,
                         format_func={"binary": _("binary (0/1)"), "graded": _("graded (0..10)")}.get,
                         help=_("binary: every positive grade counts as relevant (1); graded: DCG uses the grades"))
    return ex.mode


def preset_picker(page: str) -> None:
    """Load one of the examples of the sources. Pages with editors call :func:`preset_note`
    after them, so the note sees the edits of this run."""
    # the box keeps showing the preset loaded; "restore" in :func:`preset_note` loads the same
    # preset again
    loaded = st.session_state.get(state.KEYS["preset"])
    names = list(presets.PRESETS)
    key, start = drawn_as(keys.preset(page), loaded if loaded in presets.PRESETS else None, None)

    def load() -> None:
        name = st.session_state.get(key)
        if drawn_now(keys.preset(page), key) and name:
            state.load_preset(name)

    st.selectbox(_("load an example"), names, None if start is None else names.index(start), key=key, on_change=load,
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
        if drawn_now(keys.query(page), key) and isinstance(value, int):
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
