"""The Playground's "Paste or import a list" box: a text area or a file, read by :mod:`ranklab_ui.core.paste`.

Applying replaces the current query's ranking through :func:`ranklab_ui.session.state.set_current_query`
(one undoable step); when nothing can be read, the example is kept and the box says why.
Every message quotes the user's text, so it is escaped for Markdown.
"""

from __future__ import annotations

import streamlit as st

from ..core import paste
from ..core.i18n import N_, _, ngettext
from ..core.views import escape_markdown
from ..session import state

__all__ = ["paste_box"]

FORMATS = {"list": N_("a list"), "csv": "CSV", "trec": N_("TREC run and qrels lines")}
HELP = N_("One result per line, best first: `id`, or `id⇥grade`, or `id⇥grade⇥label` (⇥ = a tab, as "
        "when you copy two or three spreadsheet columns). Or a CSV with a header naming `id` (or `doc`, "
        "`docid`), `grade` (or `relevance`) and `label`. Or the TREC lines of one query: run lines "
        "`qid Q0 doc rank score tag` and qrels lines `qid 0 doc grade`. Ids are kept as you typed them.")


def _result_key(page: str) -> str:
    return f"{page}.paste.result"


def _lists():
    """What a report is about: the example's queries when it was made (an edit or an undo in the
    ranking editor changes them without a new version of the lists)."""
    return state.get_example().queries


def _read_upload(upload) -> str:
    size = getattr(upload, "size", None) or 0
    if size > 4 * paste.MAX_CHARS:
        raise paste.PasteError(_("the file has {size} bytes: at most {most} can be read").format(
            size=f"{size:,}", most=f"{4 * paste.MAX_CHARS:,}"))
    data = upload.getvalue()[: 4 * paste.MAX_CHARS + 1]
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise paste.PasteError(_("the file is not UTF-8 text (byte {n} cannot be read)").format(n=err.start + 1)) from None


def _apply(page: str, index: int | None) -> None:
    ss = st.session_state
    upload = ss.get(f"{page}.paste.file")
    try:
        text = _read_upload(upload) if upload is not None else ss.get(f"{page}.paste.text") or ""
        pasted = paste.parse(text)
    except paste.PasteError as err:
        ss[_result_key(page)] = ("error", _("{error}. The example is kept.").format(error=err), (), _lists())
        return
    ex = state.get_example()
    i = ex.current if index is None else index
    if not state.set_current_query(paste.to_query(pasted, ex.queries[i]), index=i):
        ss[_result_key(page)] = ("error", _("The list was read but cannot be used (the message at the top "
                                            "says why). The example is kept."), pasted.problems, _lists())
        return
    n = len(pasted.ranking)
    fmt = _(FORMATS[pasted.format])
    text = (ngettext("Read {n} result and {m} relevant not retrieved ({format}).",
                     "Read {n} results and {m} relevant not retrieved ({format}).", n) if pasted.tray else
            ngettext("Read {n} result ({format}).", "Read {n} results ({format}).", n))
    ss[_result_key(page)] = ("success", text.format(n=n, m=len(pasted.tray), format=fmt),
                             pasted.problems, _lists())


def paste_box(page: str, index: int | None = None) -> None:
    """An expander with a text area, a file picker and an Apply button."""
    result = st.session_state.get(_result_key(page))
    if result and result[3] != _lists():  # the example changed since: the report is about another one
        result = st.session_state[_result_key(page)] = None
    with st.expander(_("Paste or import a list"), expanded=bool(result)):
        st.caption(_(HELP))
        st.text_area(_("the list"), key=f"{page}.paste.text", height=140, max_chars=paste.MAX_CHARS,
                     placeholder="d1\t3\tcat in a box\nd2\t0\td3 …", label_visibility="collapsed")
        st.file_uploader(_("or a file (.txt, .csv, .tsv) — used instead of the text when chosen"),
                         type=["txt", "csv", "tsv"], key=f"{page}.paste.file", max_upload_size=1)
        st.button(_("Replace the ranking with this list"), key=f"{page}.paste.apply", on_click=_apply,
                  args=(page, index), type="primary")
        if result:
            level, text, problems, _when = result
            (st.success if level == "success" else st.error)(escape_markdown(text))
            if problems:
                st.warning(_("Lines left out:") + "\n\n" + "\n".join(f"- {escape_markdown(p)}" for p in problems))
