"""The class poll page: the teacher opens a poll on the current example ("what is AP@5 of this
ranking?"), students answer from their phones with the code or the QR code, the teacher's
screen shows the answers live and reveals the right one. The store is :mod:`ranklab_ui.core.poll_store`.

Nothing personal is kept: a student is a random token (of the browser behind ``make serve``, of
the session otherwise), and a network address only as a hash, for the per-client limits.
"""

from __future__ import annotations

import io
import logging
import os
import secrets
import threading
import time
from urllib.parse import urlsplit, urlunsplit

import streamlit as st

import metrics

from .. import render
from ..core import charts, codec, views
from ..core.addresses import PUBLIC_ENV, is_loopback, network_address, public_base
from ..core.i18n import _, ngettext, shown
from ..core.model import Example
from ..core.poll_store import (
    MAX_VOTERS,
    Poll,
    PollError,
    PollLimited,
    PollUnavailable,
    SQLitePolls,
    default_path,
    normalize_code,
)
from ..session import state
from .presenter import FOCUS

__all__ = ["store", "voter", "question", "join", "teacher", "student", "student_link", "owns_a_poll",
           "REFRESH", "PUBLIC_ENV"]

PARAM = "poll"      # ?poll=CODE opens the student's view
REFRESH = 3         # seconds between two refreshes of the teacher's live results
OWNED = "poll.owned"  # this session's open poll: (code, owner token)
PUBLIC_KEY = "poll.public_url"     # the address students open, typed by the teacher on the page
LOW, HIGH = 0.0, 1.0               # every measure a poll asks for lies in [0, 1]

log = logging.getLogger(__name__)


@st.cache_resource
def _store(path: str) -> SQLitePolls:
    return SQLitePolls(path)


def store() -> SQLitePolls:
    """The poll store of this server (one SQLite file, shared by every process)."""
    try:
        configured = st.secrets.get("poll_db")
    except Exception:  # noqa: BLE001 - no secrets.toml, or one that does not parse: the default
        configured = None
    return _store(str(default_path(configured if isinstance(configured, str) else None)))


def voter() -> str:
    """This browser's anonymous token: from the cookie ``make serve``'s nginx gives each browser
    (so that a session reconnected after a restart, or a second tab, is still one voter), else
    a random token of the session."""
    cookie = st.context.cookies.get("rlw")
    if isinstance(cookie, str) and 8 <= len(cookie) <= 64 and cookie.isascii() and cookie.isalnum():
        return f"browser-{cookie}"
    return st.session_state.setdefault("poll.voter", secrets.token_urlsafe(12))


def client() -> str | None:
    """The network address a vote comes from, for the poll's per-client limits; None for this
    computer itself (a local test, a benchmark). Behind ``make serve``, nginx passes the
    browser's address in X-Real-IP; it is believed only from a proxy on this computer (Streamlit
    gives no address, None, for a connection from this computer)."""
    address = st.context.ip_address
    if not address or is_loopback(address):
        address = st.context.headers.get("X-Real-Ip")
    return None if not address or is_loopback(address) else address[:64]


def question(example: Example, focus: str) -> tuple[str, float]:
    """The poll's question about ``example`` and its answer: the value of the measure in
    ``focus`` (a key of :data:`ranklab_ui.parts.presenter.FOCUS`) at the example's k.

    >>> from ranklab_ui.core.presets import build_preset
    >>> question(build_preset("cat"), "AP")     # relevant at 2, 4, 5, 7: AP@2 = (1/2) / 4
    ('What is AP@2 of this ranking?', 0.125)
    """
    measure, title, _curve = FOCUS[focus]
    k = state.effective_k(example)
    ranking, judgments = example.query.inputs(example.mode)
    value = metrics.score(measure.format(k=k), ranking, judgments)
    return (_("What is {measure} of this ranking?").format(measure=_(title).replace("@k", f"@{k}")),
            round(float(value), 4))


QR_WIDTH = 200  # about this many pixels on the teacher's screen


def _qr_png(link: str) -> tuple[bytes, int]:
    """The QR code of ``link`` as a PNG and its width: whole pixels per module, so that the
    browser shows it unscaled and every module stays sharp for a phone's camera."""
    import segno

    code = segno.make(link, error="m")
    modules = code.symbol_size(scale=1, border=2)[0]
    scale = max(2, QR_WIDTH // modules)
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=scale, border=2)
    return buffer.getvalue(), modules * scale


def _unavailable(err: PollUnavailable, *, student: bool) -> None:
    """A poll file that cannot be used: the teacher is told which file and what to do; a
    student, only that the poll cannot be reached (the file's path is the server's business).
    The log keeps the cause."""
    log.warning("class poll store: %s", err, exc_info=err.__cause__)
    if student:
        st.error(_("The poll cannot be reached right now, so nothing was recorded. Tell your teacher, "
                   "and try again in a moment."), icon=":material/warning:")
    else:
        render.notes([("error", str(err))])


def student_link(code: str, page_url: str, configured: str | None = None) -> tuple[str, bool]:
    """The link students open for poll ``code``, and whether other devices can open it.

    ``page_url`` is the poll page's address as the teacher's browser has it; ``configured``
    the app's public address (the page's setting, else ``$RANKLAB_PUBLIC_URL``), which
    replaces the page's scheme, host and port.

    >>> student_link("K7QX2M", "http://localhost:8501/class_poll?x=1")
    ('http://localhost:8501/class_poll?poll=K7QX2M', False)
    >>> student_link("K7QX2M", "http://localhost:8501/class_poll", "http://192.168.1.20:8080/")
    ('http://192.168.1.20:8080/class_poll?poll=K7QX2M', True)
    """
    page = urlsplit(page_url or "")
    base = public_base(configured)
    page_name = page.path.rstrip("/").rsplit("/", 1)[-1] or "class_poll"
    if base is not None:
        scheme, netloc, path = base
        return urlunsplit((scheme, netloc, f"{path}/{page_name}", f"{PARAM}={code}", "")), not is_loopback(
            urlsplit(f"{scheme}://{netloc}").hostname)
    link = urlunsplit((page.scheme or "http", page.netloc, page.path or f"/{page_name}", f"{PARAM}={code}", ""))
    return link, not is_loopback(page.hostname)


def owns_a_poll() -> bool:
    """Whether this session has opened a poll (the teacher's live screen is showing)."""
    return bool(st.session_state.get(OWNED))


def join(page: str) -> None:
    """For a student who has the code and not the link: type it to join."""
    def go() -> None:
        code = normalize_code(st.session_state.get(f"{page}.code"))
        if code:
            st.query_params[PARAM] = code
        else:
            st.session_state[f"{page}.bad"] = True

    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.text_input(_("a student? type the poll's code"), key=f"{page}.code", max_chars=12,
                      placeholder=_("e.g. {code}").format(code="K7QX2M"), width=260)
        st.button(_("Join"), key=f"{page}.join", on_click=go)
    if st.session_state.pop(f"{page}.bad", False):
        st.error(_("A poll code is six letters and digits, as your teacher shows it."))


def _ranking(example_code: str) -> None:
    """The ranking the poll is about, as tiles (nothing when the link does not decode)."""
    try:
        example = codec.decode(example_code)
    except ValueError:
        return
    if example.query.ranking:
        render.strip(views.item_rows(example.query.ranking), state.effective_k(example), key="poll.strip")


def teacher(page: str) -> None:
    """Open a poll on the current example, show its code, QR code and answers, reveal it.

    The answer is never shown before the reveal: this screen is projected, and a student who
    opens the page without a code sees it too."""
    owned = st.session_state.get(OWNED)
    try:
        poll = store().get(owned[0]) if owned else None
    except PollUnavailable as err:
        _unavailable(err, student=False)
        return
    if poll is None:
        ex = state.get_example()
        if not ex.query.ranking:
            render.empty_notice()
            return
        focus = st.segmented_control(_("ask for"), list(FOCUS), default="AP", key=f"{page}.focus",
                                     format_func=shown(lambda name: _(FOCUS[name][1])))
        text, answer = question(ex, focus or "AP")
        st.markdown(_("**The question:** {question} (the class sees the ranking and k = {k}; the answer "
                      "shows here when you reveal it)").format(question=views.escape_markdown(text),
                                                                k=state.effective_k(ex)))
        if st.button(_("Open the poll"), type="primary", key=f"{page}.open"):
            try:
                poll, owner = store().create(text, kind="number", answer=answer, example=codec.encode(ex),
                                             low=LOW, high=HIGH)
            except PollUnavailable as err:
                _unavailable(err, student=False)
                return
            except PollError as err:
                render.notes([("error", str(err))])
                return
            st.session_state[OWNED] = (poll.code, owner)
            st.rerun()
        return
    configured = st.session_state.get(PUBLIC_KEY) or os.environ.get(PUBLIC_ENV)
    link, reachable = student_link(poll.code, st.context.url or "", configured)
    _ranking(poll.example)
    left, right = st.columns([2, 3], gap="medium")
    with left:
        st.markdown("### " + _("Code: `{code}`").format(code=poll.code))
        st.text(link)  # plain text, so that it copies as it is
        png, width = _qr_png(link)
        st.image(png, width=width, caption=_("the poll's link as a QR code"), output_format="PNG")
    with right:
        st.markdown(f"**{views.escape_markdown(poll.question)}**")
        results(poll.code)
    if not reachable:
        guess = network_address()
        st.warning(_("This link opens only on this computer: phones cannot reach {host}. Serve the app on "
                     "the network (`make serve`) and open it at its network address{hint}, or type the "
                     "address students should open below (or set RANKLAB_PUBLIC_URL).").format(
            host=urlsplit(link).hostname, hint=_(" (here probably http://{address}:{port})").format(
                address=guess, port=urlsplit(link).port or 80) if guess else ""), icon=":material/warning:")
    with st.expander(_("The address students open"), expanded=not reachable):
        typed = st.text_input(_("the app's address on the class's network"), key=PUBLIC_KEY,
                              placeholder="http://192.168.1.20:8501", max_chars=500)
        if typed and public_base(typed) is None:
            st.error(_("An address looks like http://192.168.1.20:8501 (http or https, a host, a port)."))
    if st.button(_("Close this poll and open another"), key=f"{page}.another"):
        st.session_state.pop(OWNED, None)
        st.rerun()


def _reveal(code: str, owner: str | None) -> None:
    try:
        store().reveal(code, owner)
    except PollUnavailable as err:
        st.session_state["poll.fault"] = str(err)


def _reset(code: str, owner: str | None) -> None:
    try:
        store().reset(code, owner)
    except PollUnavailable as err:
        st.session_state["poll.fault"] = str(err)


def _count_held(code: str, owner: str | None) -> None:
    try:
        store().count_held(code, owner)
    except PollUnavailable as err:
        st.session_state["poll.fault"] = str(err)


@st.fragment(run_every=REFRESH)
def results(code: str) -> None:
    """The answers so far and the reveal button (above the chart, so that a projector at
    1024x768 shows it), refreshed every :data:`REFRESH` seconds."""
    if fault := st.session_state.pop("poll.fault", None):
        render.notes([("error", fault)])
    try:
        poll = store().get(code)
        values = store().votes(code) if poll is not None else []
        refused = store().refused(code) if poll is not None else 0
    except PollUnavailable as err:
        _unavailable(err, student=False)
        return
    if poll is None:
        st.warning(_("This poll has expired."))
        return
    owner = st.session_state.get(OWNED, (None, None))[1]
    with st.container(horizontal=True, vertical_alignment="center"):
        st.markdown(ngettext("**{n}** answer so far", "**{n}** answers so far", len(values)).format(n=len(values)))
        if not poll.revealed:
            st.button(_("Reveal the answer"), type="primary", key="poll.reveal", on_click=_reveal,
                      args=(code, owner))
    if refused and not poll.revealed:
        st.warning(ngettext("{n} answer was refused: too many from one network address. It is kept aside, not "
                            "counted: if your class answers through one address (a lecture hall, a campus "
                            "network), count it; if a script sent it, clear the answers and ask the class again.",
                            "{n} answers were refused: too many from one network address. They are kept aside, "
                            "not counted: if your class answers through one address (a lecture hall, a campus "
                            "network), count them; if a script sent them, clear the answers and ask the class "
                            "again.", refused).format(n=refused))
        with st.container(horizontal=True):
            st.button(_("Count them"), key="poll.count", on_click=_count_held, args=(code, owner),
                      help=_("count the answers kept aside, and from now on as many students from one "
                             "network address"))
            st.button(_("Clear the answers"), key="poll.reset", on_click=_reset, args=(code, owner))
    if poll.revealed:
        close = sum(abs(v - poll.answer) <= 0.05 for v in values)
        st.success(_("The answer: {answer} — {close} of {n} within 0.05 (the dashed line).").format(
            answer=metrics.num(poll.answer), close=close, n=len(values)))
    render.chart(charts.poll_answers, values, answer=poll.answer if poll.revealed else None,
                 key="poll.answers", name="poll_answers", export=False)


_SEEN: dict[str, tuple[float, Poll | None]] = {}   # poll code -> (when read, the poll, None when gone)
_SEEN_LOCK = threading.Lock()
SEEN_FOR = 1.0   # seconds a poll read for one phone answers the others' looks
SHOWN = "poll.answer_shown"   # session key: the poll whose answer this phone's last look showed


def _seen(code: str) -> Poll | None:
    """Poll ``code`` (None when it is gone), read from the poll file at most once a
    :data:`SEEN_FOR` for every session of this process: a lecture hall's phones each look every
    :data:`REFRESH` seconds, and each look would otherwise open the file. Raises
    :class:`PollUnavailable` when the file cannot be read."""
    now = time.monotonic()
    seen = _SEEN.get(code)
    if seen is not None and now - seen[0] < SEEN_FOR:
        return seen[1]
    poll = store().get(code)
    with _SEEN_LOCK:
        _SEEN[code] = (now, poll)
        for old in [c for c, (when, _p) in _SEEN.items() if now - when > 60]:
            del _SEEN[old]
    return poll


@st.fragment(run_every=REFRESH)
def _until_revealed(code: str) -> None:
    """Looks at the poll every :data:`REFRESH` seconds and shows the answer as soon as the
    teacher reveals it, so that no one has to press anything; nothing shown before. The answer
    is drawn here, by this fragment's own run: a lecture hall's phones all see the reveal within
    a few seconds of each other, and drawing every page again at that moment queued them on the
    server. The page is drawn again (closed: no more answer box, no more looks) at the look
    after, once the answer is on the screen; a poll that expired at once (the page says so)."""
    try:
        poll = _seen(code)
    except PollUnavailable:
        return
    if poll is None or (poll.revealed and st.session_state.get(SHOWN) == code):
        st.rerun(scope="app")
    if poll.revealed:
        st.success(_("The answer is {answer}.").format(answer=metrics.num(poll.answer)))
        st.session_state[SHOWN] = code


def _read_guess(value: object) -> float | None:
    """The student's answer, or None (with a message shown) when it is not one the poll takes."""
    if value is None:
        st.error(_("Type your answer first: a number from 0 to 1."))
        return None
    try:
        return float(value) if LOW <= float(value) <= HIGH else _out_of_range()
    except (TypeError, ValueError, OverflowError):
        return _out_of_range()


def _out_of_range() -> None:
    st.error(_("Your answer must be a number from 0 to 1: nothing was sent."))
    return None


def student(code_text: str) -> None:
    """A student's view of poll ``code_text``: the ranking, the question, an answer box.

    Before the reveal nothing sent to this browser holds the answer."""
    code = normalize_code(code_text)
    try:
        poll = store().get(code) if code else None
    except PollUnavailable as err:
        _unavailable(err, student=True)
        return
    if poll is None:
        st.error(_("No open poll has this code: check it with your teacher (polls close after a few hours)."))
        return
    _ranking(poll.example)
    st.markdown(f"### {views.escape_markdown(poll.question)}")
    if poll.revealed:
        st.success(_("The answer is {answer}.").format(answer=metrics.num(poll.answer)))
        return
    # no min/max: the browser would silently clamp or keep the last valid value, and the
    # student be told "Sent: 0" for a "-5" they typed; the range is checked here instead
    # no placeholder: a grey number in the box would read as a hint
    guess = st.number_input(_("your answer (0 to 1)"), value=None, step=0.01, format="%.4f", key="poll.guess",
                            width=320)
    if st.button(_("Send my answer"), type="primary", key="poll.send"):
        value = _read_guess(guess)
        if value is not None:
            try:
                sent = store().vote(poll.code, voter(), value, client=client())
                full = not sent and len(store().votes(poll.code)) >= MAX_VOTERS
            except PollUnavailable as err:
                _unavailable(err, student=True)
                sent = None
            except PollLimited as err:   # kept aside until the teacher counts it
                st.info(str(err), icon=":material/hourglass_top:")
                sent = None
            except PollError as err:
                render.notes([("error", str(err))])
                sent = None
            if sent:
                st.success(_("Sent: {answer}. You can change it until the answer is revealed.").format(
                    answer=metrics.num(value)))
            elif sent is False:
                st.warning(_("This poll takes no more answers: tell your teacher.") if full
                           else _("This poll is closed."))
    _until_revealed(poll.code)
