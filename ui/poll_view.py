"""The class poll page: the teacher opens a poll on the current example ("what is AP@5 of this
ranking?"), students answer from their phones with the code or the QR code, the teacher's
screen shows the answers live and reveals the right one. The store is :mod:`ui.poll_store`.

Nothing personal is kept: a student is a random token of the browser session.
"""

from __future__ import annotations

import io
import secrets

import streamlit as st

import metrics

from . import charts, codec, render, state, views
from .i18n import _, ngettext, shown
from .model import Example
from .poll_store import PollError, SQLitePolls, default_path, normalize_code
from .presenter import FOCUS

__all__ = ["store", "voter", "question", "join", "teacher", "student", "REFRESH"]

PARAM = "poll"      # ?poll=CODE opens the student's view
REFRESH = 3         # seconds between two refreshes of the teacher's live results
OWNED = "poll.owned"  # this session's open poll: (code, owner token)


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
    """This browser session's anonymous token."""
    return st.session_state.setdefault("poll.voter", secrets.token_urlsafe(12))


def question(example: Example, focus: str) -> tuple[str, float]:
    """The poll's question about ``example`` and its answer: the value of the measure in
    ``focus`` (a key of :data:`ui.presenter.FOCUS`) at the example's k.

    >>> from ui.presets import build_preset
    >>> question(build_preset("cat"), "AP")     # relevant at 2, 4, 5, 7: AP@2 = (1/2) / 4
    ('What is AP@2 of this ranking?', 0.125)
    """
    measure, title, _curve = FOCUS[focus]
    k = state.effective_k(example)
    ranking, judgments = example.query.inputs(example.mode)
    value = metrics.score(measure.format(k=k), ranking, judgments)
    return (_("What is {measure} of this ranking?").format(measure=_(title).replace("@k", f"@{k}")),
            round(float(value), 4))


def _qr_png(link: str) -> bytes:
    import segno

    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="png", scale=8, border=2)
    return buffer.getvalue()


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


def teacher(page: str) -> None:
    """Open a poll on the current example, show its code, QR code and answers, reveal it."""
    owned = st.session_state.get(OWNED)
    poll = store().get(owned[0]) if owned else None
    if poll is None:
        ex = state.get_example()
        if not ex.query.ranking:
            render.empty_notice()
            return
        focus = st.segmented_control(_("ask for"), list(FOCUS), default="AP", key=f"{page}.focus",
                                     format_func=shown(lambda name: _(FOCUS[name][1])))
        text, answer = question(ex, focus or "AP")
        st.markdown(_("**The question:** {question} (the class sees the ranking and k = {k}; the answer is "
                      "{answer})").format(question=views.escape_markdown(text), k=state.effective_k(ex),
                                           answer=metrics.num(answer)))
        if st.button(_("Open the poll"), type="primary", key=f"{page}.open"):
            try:
                poll, owner = store().create(text, kind="number", answer=answer, example=codec.encode(ex))
            except PollError as err:
                render.notes([("error", str(err))])
                return
            st.session_state[OWNED] = (poll.code, owner)
            st.rerun()
        return
    link = f"{(st.context.url or '').split('?')[0]}?{PARAM}={poll.code}"
    left, right = st.columns([2, 3], gap="large")
    with left:
        st.markdown(_("Students open this link or scan the code, then answer:"))
        st.text(link)  # plain text, so that it copies as it is
        st.markdown(_("## Code: `{code}`").format(code=poll.code))
        st.image(_qr_png(link), width=220, caption=_("the poll's link as a QR code"))
    with right:
        st.markdown(f"**{views.escape_markdown(poll.question)}**")
        results(poll.code)
    if st.button(_("Close this poll and open another"), key=f"{page}.another"):
        st.session_state.pop(OWNED, None)
        st.rerun()


@st.fragment(run_every=REFRESH)
def results(code: str) -> None:
    """The answers so far, refreshed every :data:`REFRESH` seconds; the reveal button."""
    poll = store().get(code)
    if poll is None:
        st.warning(_("This poll has expired."))
        return
    values = store().votes(code)
    st.markdown(ngettext("**{n}** answer so far", "**{n}** answers so far", len(values)).format(n=len(values)))
    render.chart(charts.poll_answers, values, answer=poll.answer if poll.revealed else None,
                 key="poll.answers", name="poll_answers", export=False)
    if poll.revealed:
        close = sum(abs(v - poll.answer) <= 0.05 for v in values)
        st.success(_("The answer: {answer} — {close} of {n} within 0.05.").format(
            answer=metrics.num(poll.answer), close=close, n=len(values)))
    else:
        owner = st.session_state.get(OWNED, (None, None))[1]
        st.button(_("Reveal the answer"), type="primary", key="poll.reveal",
                  on_click=lambda: store().reveal(code, owner))


def student(code_text: str) -> None:
    """A student's view of poll ``code_text``: the ranking, the question, an answer box."""
    code = normalize_code(code_text)
    poll = store().get(code) if code else None
    if poll is None:
        st.error(_("No open poll has this code: check it with your teacher (polls close after a few hours)."))
        return
    try:
        example = codec.decode(poll.example)
    except ValueError:
        example = None
    if example is not None and example.query.ranking:
        k = state.effective_k(example)
        render.strip(views.item_rows(example.query.ranking), k, key="poll.strip")
    st.markdown(f"### {views.escape_markdown(poll.question)}")
    if poll.revealed:
        st.success(_("The answer is {answer}.").format(answer=metrics.num(poll.answer)))
        return
    guess = st.number_input(_("your answer"), min_value=0.0, max_value=1.0, step=0.01, format="%.4f",
                            key="poll.guess")
    if st.button(_("Send my answer"), type="primary", key="poll.send"):
        try:
            sent = store().vote(poll.code, voter(), float(guess))
        except PollError as err:
            render.notes([("error", str(err))])
            return
        if sent:
            st.success(_("Sent: {answer}. You can change it until the answer is revealed.").format(
                answer=metrics.num(float(guess))))
        else:
            st.warning(_("This poll is closed."))
