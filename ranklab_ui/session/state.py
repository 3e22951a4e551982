"""The session: which example is current, every session key, and the URL kept in step.

Every page works on one example (:mod:`ranklab_ui.core.model`). It lives in ``st.session_state`` under
the keys listed in :data:`KEYS`; change it with :func:`set_example` (or :func:`load_preset`,
:func:`update`), read it with :func:`get_example`. Every change is validated
(:func:`ranklab_ui.core.validation.validate`) and mirrored into the URL (query parameter ``ex``, the
codec :mod:`ranklab_ui.core.codec`), so the browser's address is a permalink to the example.

The model, its validation, the codec and the presets have their own modules; the few of
their names that pages use through ``state`` (``state.Query``, ``state.LIMITS``,
``state.effective_k``, ``state.PARAM``…) are re-exported here for them.

Widget keys follow ``"<page>.<name>"``; keys owned by this module start with ``"state."``.
"""

from __future__ import annotations

import time
from dataclasses import replace

from ..core import i18n, presets
from ..core.codec import PARAM, decode, permalink_params
from ..core.i18n import _
from ..core.model import Example, Query, effective_k
from ..core.presets import build_preset, default_example
from ..core.validation import LIMITS, ExampleError, validate

__all__ = [
    "get_example", "set_example", "update", "load_preset", "current_query", "set_current_query",
    "take_messages", "editor_key", "reset_editors", "on_change", "KEYS",
    # re-exported for the pages that reach them through state
    "Query", "LIMITS", "ExampleError", "PARAM", "permalink_params", "effective_k",
]

KEYS = {
    "example": "state.example",        # the current Example
    "url": "state.url",                # the last ``ex`` value read from or written to the URL
    "messages": "state.messages",      # messages for the user, shown once by the next page
    "version": "state.version",        # bumped on every change not made by a data editor
    "kept": "state.kept",              # {(query index, "ranking"|"tray"): version} of lists a change left alone
    "preset": "state.preset",          # name of the preset last loaded (or None)
    "published": "state.published",    # [(code, time)] of the last links written to the URL
    "encoded": "state.encoded",        # (example, its link code): the last example encoded
    "history": "state.history",        # this session's undo/redo History (ranklab_ui.session.history)
    "grids": "state.grids",            # {grid's base slot: (page, list, query index, prefix)} (ranklab_ui.widgets)
    "drags": "state.drags",            # {(page, query index): the drag list drawn last} (ranklab_ui.widgets)
}


def _st():
    import streamlit as st  # lazy: importing this module needs no Streamlit session

    return st


def _session_state():
    """The running session's state, or None outside a Streamlit run (a script, a test)."""
    import sys

    if "streamlit" not in sys.modules:   # nothing runs a session without it: not loaded for this
        return None
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    return None if ctx is None else ctx.session_state


i18n.use_session(_session_state)   # every text in this session's language


def _messages(st) -> list:
    return st.session_state.setdefault(KEYS["messages"], [])


LAG_SECONDS = 5.0   # a URL holding a link this session wrote this recently is the browser lagging


def _publish(st, example: Example) -> None:
    """Mirror the example into the URL (or drop the parameter if it is too large).

    The code of the last example published is kept: every widget reads the example, and
    encoding a long list a dozen times per run would add to every rerun."""
    ss = st.session_state
    cached = ss.get(KEYS["encoded"])
    if cached is not None and cached[0] is example:
        text = cached[1]
    else:
        text = permalink_params(example).get(PARAM)
        ss[KEYS["encoded"]] = (example, text)
    if text is None:
        if PARAM in st.query_params:
            del st.query_params[PARAM]
    elif st.query_params.get(PARAM) != text:
        st.query_params[PARAM] = text
    if text is not None and text != ss.get(KEYS["url"]):
        ss[KEYS["published"]] = [*ss.get(KEYS["published"], [])[-19:], (text, time.monotonic())]
    ss[KEYS["url"]] = text


def _lagging(ss, text: str) -> bool:
    """Whether ``text`` in the URL is a link this session wrote a moment ago.

    Quick actions outrun the browser's address bar: the request for the next rerun can still
    carry the link of two runs ago. Read as a permalink, it took the example back and dropped
    the edits made since (and a step of quick presses on the k slider). A link written more
    than :data:`LAG_SECONDS` ago is the browser's Back (or a link opened): that one is loaded.
    """
    now = time.monotonic()
    return any(code == text and now - when < LAG_SECONDS for code, when in ss.get(KEYS["published"], ()))


def get_example() -> Example:
    """The current example, created from the URL (a permalink) or the default preset
    (:func:`ranklab_ui.core.presets.default_example`).

    A permalink in the URL that this session has not seen yet replaces the example; a
    damaged one leaves it unchanged and queues a message (see :func:`take_messages`).
    """
    st = _st()
    ss = st.session_state
    example = previous = ss.get(KEYS["example"])
    if example is None:
        name, example = default_example()
        ss[KEYS["example"]] = example
        ss[KEYS["preset"]] = name
        ss.setdefault(KEYS["version"], 0)
        _messages(st).extend(("warning", text) for text in presets.PROBLEMS)  # once per session
    text = st.query_params.get(PARAM)
    if text and text != ss.get(KEYS["url"]) and not _lagging(ss, text):
        try:
            example = decode(text)
        except ExampleError as err:
            _messages(st).append(("error", str(err)))
        else:
            ss[KEYS["example"]] = example
            ss[KEYS["preset"]] = None
            _new_version(ss)
            _changed(previous, example)
    _publish(st, example)
    return example


def set_example(example: Example, *, from_editor: bool = False) -> bool:
    """Validate and store a new example; on error keep the old one and queue the message.

    ``from_editor=True`` means the change came from a data editor's own edits, so the
    editors keep their widget state; any other change resets them (see :func:`editor_key`).
    Returns whether the example was applied.
    """
    st = _st()
    try:
        example = validate(example)
    except ExampleError as err:
        _messages(st).append(("error", _("{error}. The previous example is kept.").format(error=err)))
        return False
    ss = st.session_state
    old = ss.get(KEYS["example"])
    if old == example:
        return True
    ss[KEYS["example"]] = example
    _changed(old, example)
    if not from_editor and (old is None or old.queries != example.queries):
        # the grids start again only when their rows changed (not for a new k, which
        # used to remount every grid in the browser)
        _new_version(ss, old, example)
    elif not from_editor and old.mode != example.mode:
        # a new mode starts every grid again: a grid kept through the page's full run took
        # the first click after it as nothing (no cell selected, the keys typed lost)
        _new_version(ss)
    _publish(st, example)
    return True


def _new_version(ss, old: Example | None = None, new: Example | None = None) -> None:
    """Bump the editors' version after a change made outside them. A ranking or tray list that
    ``old`` and ``new`` share keeps its editor's version (:data:`KEYS` ``kept``): its grid is not
    built again in the browser (a move in the ranking would redraw the tray's grid too)."""
    before = ss.get(KEYS["version"], 0)
    kept = {}
    if old is not None and new is not None and len(old.queries) == len(new.queries):
        earlier = ss.get(KEYS["kept"]) or {}
        for i, (a, b) in enumerate(zip(old.queries, new.queries, strict=True)):
            for field in LISTS:
                if getattr(a, field) == getattr(b, field):
                    kept[(i, field)] = earlier.get((i, field), before)
    ss[KEYS["kept"]] = kept
    ss[KEYS["version"]] = before + 1


LISTS = ("ranking", "tray")  # a query's lists that have an editor of their own


_LISTENERS: list = []   # called with (before, after) for every applied change


def on_change(listener) -> None:
    """Call ``listener(before, after)`` after every applied change of the example (the undo
    history, :mod:`ranklab_ui.session.history`, listens; this module knows nothing of it)."""
    if listener not in _LISTENERS:
        _LISTENERS.append(listener)


def _changed(before: Example | None, after: Example) -> None:
    if before is not None:
        for listener in _LISTENERS:
            listener(before, after)


def update(**changes) -> bool:
    """:func:`set_example` with some fields of the current example replaced (``k=3``)."""
    return set_example(replace(get_example(), **changes))


def load_preset(name: str) -> bool:
    """Replace the example by preset ``name``."""
    st = _st()
    try:
        example = build_preset(name)
    except ExampleError as err:
        _messages(st).append(("error", str(err)))
        return False
    st.session_state[KEYS["preset"]] = name
    return set_example(example)


def current_query() -> Query:
    """The query the single-query pages work on."""
    return get_example().query


def set_current_query(query: Query, *, from_editor: bool = False, index: int | None = None) -> bool:
    """Replace one query (the current one by default) of the example."""
    ex = get_example()
    i = ex.current if index is None else index
    queries = list(ex.queries)
    queries[i] = query
    return set_example(replace(ex, queries=tuple(queries)), from_editor=from_editor)


def reset_editors(message: str | None = None) -> None:
    """Start every data editor afresh from the example (their pending edits are dropped)."""
    st = _st()
    _new_version(st.session_state)
    if message:
        _messages(st).append(("error", message))


def take_messages() -> list[tuple[str, str]]:
    """Pending ``(level, text)`` messages for the user; they are removed once taken."""
    st = _st()
    msgs = list(_messages(st))
    st.session_state[KEYS["messages"]] = []
    return msgs


def editor_key(page: str, name: str = "editor", index: int = 0) -> str:
    """A data editor's widget key: ``"<page>.<name>.<index>.v<version>"``.

    The version changes whenever the example changes from outside the editors (a preset,
    a move, a permalink), so the editor restarts from the new rows instead of replaying
    its old edits on them; a query's ranking or tray that such a change left as it was keeps
    its version, and its grid (``name`` is the list: ``ranking`` or ``tray``).
    """
    ss = _st().session_state
    version = (ss.get(KEYS["kept"]) or {}).get((index, name), ss.get(KEYS["version"], 0))
    return f"{page}.{name}.{index}.v{version}"
