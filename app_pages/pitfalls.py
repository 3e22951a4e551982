"""Pitfall gallery: one small example per classic mistake, wrong and right side by side."""

from __future__ import annotations

import inspect

import pandas as pd
import streamlit as st

import metrics
from metrics.teaching import pitfalls
from ranklab_ui import render
from ranklab_ui.core import teach_view, teaching_charts
from ranklab_ui.core.i18n import N_, _, shown
from ranklab_ui.core.views import escape_markdown
from ranklab_ui.parts import lessons

PAGE = "pitfalls"
VERDICT = {True: N_("✓ right"), False: N_("✗ wrong"), None: N_("another convention")}


def _outcomes(p) -> pd.DataFrame:
    rows = [{_("computation"): _(o.label), _("value"): _("error") if o.error else teach_view.fmt(o.value),
             _("verdict"): _(VERDICT[o.right]), _("note"): " — ".join(_(t) for t in (o.error, o.note) if t)}
            for o in p.outcomes]
    return pd.DataFrame(rows, columns=[_("computation"), _("value"), _("verdict"), _("note")])


EXAMPLE_KEYS = (N_("ranking"), N_("judgments"), N_("qrels"), N_("run"))  # the keys of the pitfalls' examples


def _example(example: dict) -> str:
    return "  \n".join(f"**{escape_markdown(_(k))}**: {escape_markdown(teach_view.describe(v))}"
                       for k, v in example.items())


TRY = ("ndcg_falling", "p_at_k_short", "course_lab_ndcg", "ap_denominators")


def _try_it(key: str) -> None:
    """The interactive part of some pitfalls: the same effect on the current example."""
    if key not in TRY:
        return
    st.subheader(_("Try it"))
    if key != "p_at_k_short":
        lessons.example_controls(PAGE, k=False)
    cq = lessons.current()
    if key == "ndcg_falling":
        st.markdown(_("**On your example** (query “{name}”): nDCG at each cutoff k").format(name=render.plain(cq.name)))
        p = pitfalls.ndcg_falling(cq.ranking, cq.judgments)
        st.altair_chart(teaching_charts.values_over_k([o.value for o in p.outcomes], "nDCG"), width="stretch")
    elif key == "p_at_k_short":
        k = st.slider("k", 1, 10, 5, key=f"{PAGE}.k")
        render.table(_outcomes(pitfalls.p_at_k_short(k)))
    elif key == "course_lab_ndcg":
        k = int(st.number_input(_("k (the lab uses 100)"), 1, 1000, 100, key=f"{PAGE}.course_lab_k"))
        qrels = {"q1": {d: g for d, g in cq.judgments.items() if g > 0}}  # the lab's loader keeps grade > 0
        p = pitfalls.course_lab_ndcg(qrels, {"q1": cq.ranking}, k)
        st.markdown(_("**The IR course lab's code on your example** (query “{name}”, k = {k}):").format(
            name=render.plain(cq.name), k=k))
        render.table(_outcomes(p))
    elif key == "ap_denominators":
        k = cq.k
        rows = [{_("computation"): m, _("value"): teach_view.fmt(metrics.score(m, cq.ranking, cq.judgments))}
                for m in (f"AP@{k}", f"AP(denominator='retrieved')@{k}", f"AP(denominator='min(k,R)')@{k}")]
        st.markdown(_("**On your example** (query “{name}”, k = {k}):").format(name=render.plain(cq.name), k=k))
        render.table(pd.DataFrame(rows))


def main() -> None:
    st.title(_("Pitfall gallery"))
    st.markdown(_("Nine ways ranking metrics go wrong in real code and papers — each with a tiny example, "
                  "the wrong numbers next to the right one, and why."))
    render.messages()
    gallery = {key: fn() for key, fn in pitfalls.GALLERY.items()}
    key = st.radio(_("Pitfall"), list(gallery), format_func=shown(lambda k: _(gallery[k].title)), key=f"{PAGE}.choice")
    p = gallery[key]
    st.header(_(p.title))
    st.markdown(_("**What goes wrong.** {what}").format(what=escape_markdown(_(p.what))))
    st.markdown(_("**The example**") + "  \n" + _example(p.example))
    st.markdown(_("**Wrong and right, side by side**"))
    render.table(_outcomes(p),
                 column_config={_("computation"): st.column_config.TextColumn(width="large"),
                                _("value"): st.column_config.TextColumn(width="small"),
                                _("verdict"): st.column_config.TextColumn(width="small"),
                                _("note"): st.column_config.TextColumn(width="large")})
    st.markdown(_("**Why.** {why}").format(why=escape_markdown(_(p.why))))
    if key == "course_lab_ndcg":
        with st.expander(_("The IR course lab's NDCG function, reproduced line for line")):
            st.code(inspect.getsource(pitfalls.course_lab_ndcg_as_written), language="python")
    _try_it(key)


main()
