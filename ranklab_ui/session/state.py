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
    "take_messages", "say", "take_edit", "on_change", "before_change", "KEYS",
    # re-exported for the pages that reach them through state
    "Query", "LIMITS", "ExampleError", "PARAM", "permalink_params", "effective_k",
]

KEYS = {
    "example": "state.example",        # the current Example
    "url": "state.url",                # the last ``ex`` value read from or written to the URL
    "messages": "state.messages",      # messages for the user, shown once by the next page
    "version": "state.version",        # the lists' version: one more for every change of them not made by an editor
    "preset": "state.preset",          # name of the preset last loaded (or None)
    "published": "state.published",    # [(code, time)] of the last links the URL held, and when each was replaced
    "encoded": "state.encoded",        # (example, its link code): the last example encoded
    "history": "state.history",        # this session's undo/redo History (ranklab_ui.session.history)
    "edits": "state.edits",            # {editor key: (last sequence number processed, its last refusal)}
    "redraw": "state.redraw",          # an editor's undo or redo changed more than its lists: draw the whole page
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


LAG_SECONDS = 5.0   # a URL holding a link this session replaced this recently is the browser lagging


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
    old = ss.get(KEYS["url"])
    if old is not None and text != old:
        ss[KEYS["published"]] = [*ss.get(KEYS["published"], [])[-19:], (old, time.monotonic())]
    ss[KEYS["url"]] = text


def _lagging(ss, text: str) -> bool:
    """Whether ``text`` in the URL is a link this session replaced a moment ago.

    Quick actions outrun the browser's address bar: the request for the next rerun can still
    carry the link of two runs ago. Read as a permalink, it took the example back and dropped
    the edits made since (and a step of quick presses on the k slider). What counts is when
    the link was replaced, not when it was written: after a pause, the first of two quick
    edits replaced a link written long before, and the second one's request, still carrying
    it, took the example back. A link replaced more than :data:`LAG_SECONDS` ago is the
    browser's Back (or a link opened): that one is loaded.
    """
    now = time.monotonic()
    return any(code == text and now - when < LAG_SECONDS for code, when in ss.get(KEYS["published"], ()))


def get_example() -> Example:
    """The current example, created from the URL (a permalink) or the default preset
    (:func:`ranklab_ui.core.presets.default_example`).

    A permalink in the URL that this session has not seen yet replaces the example; a
    damaged one leaves it unchanged and queues a message (see :func:`take_messages`).
    """
    _before()
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


def set_example(example: Example) -> bool:
    """Validate and store a new example; on error keep the old one and queue the message.

    A change of the lists or the mode (a preset, a paste, a link, a query added, the switch)
    makes a new version of them, which every ranking editor adopts (``docs/editing.md``); a
    change of only k or the query shown does not. Returns whether the example was applied.
    """
    _before()
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
    # the mode too: it changes what a click on a grade gives and which undo steps an editor may take
    if old is None or old.queries != example.queries or old.mode != example.mode:
        _new_version(ss)
    _publish(st, example)
    return True


def take_edit(example: Example, *, version: int) -> None:
    """Store an example a ranking editor made, already validated and recorded in the history
    (:func:`ranklab_ui.core.snapshots.receive`), with the lists' ``version`` it leaves."""
    st = _st()
    ss = st.session_state
    ss[KEYS["example"]] = example
    ss[KEYS["version"]] = version
    _publish(st, example)


def _new_version(ss) -> None:
    """One more version of the lists: a change made outside the editors, which they adopt."""
    ss[KEYS["version"]] = ss.get(KEYS["version"], 0) + 1


_LISTENERS: list = []   # called with (before, after) for every applied change
_BEFORE: list = []      # called before the example is read or changed


def before_change(listener) -> None:
    """Call ``listener()`` before the example is read or changed: the ranking editors apply the
    edits their browser sent that no callback has taken yet (this module knows nothing of them),
    so that a change starts from the edits made before it."""
    if listener not in _BEFORE:
        _BEFORE.append(listener)


def _before() -> None:
    for listener in _BEFORE:
        listener()


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


def set_current_query(query: Query, *, index: int | None = None) -> bool:
    """Replace one query (the current one by default) of the example."""
    ex = get_example()
    i = ex.current if index is None else index
    queries = list(ex.queries)
    queries[i] = query
    return set_example(replace(ex, queries=tuple(queries)))


def say(level: str, text: str) -> None:
    """Queue a message (``"error"``, ``"warning"``, ``"info"``) for the next page drawn."""
    _messages(_st()).append((level, text))


def take_messages() -> list[tuple[str, str]]:
    """Pending ``(level, text)`` messages for the user; they are removed once taken."""
    st = _st()
    msgs = list(_messages(st))
    st.session_state[KEYS["messages"]] = []
    return msgs
