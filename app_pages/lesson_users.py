"""Lesson: what does the user do? Each measure as a user stepping down the list (C/W/L)."""

import pandas as pd
import streamlit as st

import metrics
from metrics.teaching.users import users
from ranklab_ui import render
from ranklab_ui.core import teaching_charts
from ranklab_ui.core.i18n import N_, _
from ranklab_ui.parts import lessons

PAGE = "lesson_users"
STEP_PAUSE = 0.7  # seconds between ranks when the user walks down the list
WALK = f"{PAGE}.walking"  # session key: the rank the walk shows next (None: no walk)

# what each measure's user does, by family (shown with _())
STORIES = {
    "P": N_("reads exactly the top k, whatever they find, and counts the relevant ones."),
    "RR": N_("reads until the first relevant result, then stops: one good answer is enough."),
    "AP": N_("wants one of the relevant documents, chosen at random, and reads down to it; documents "
             "never retrieved are never reached."),
    "nDCG": N_("reads the top k, paying less attention further down: rank i gets 1/log2(i + 1) of "
               "the attention rank 1 gets."),
    "RBP": N_("after each result goes on with probability p and stops otherwise, whatever they saw."),
    "ERR": N_("stops, satisfied, at a result of grade g with chance (2^g − 1)/2^gmax (gmax: the top "
              "grade); the better the results above, the less likely they read on."),
}


def main() -> None:
    lessons.run(
        PAGE,
        _("What does the user do?"),
        _("Every measure imagines a user reading the ranking from the top. After each result the user "
          "**continues** with some probability (C), so each rank gets a **weight** (W): the share of "
          "the user's attention it receives. The measure is then the **expected gain** per result read, "
          "the sum of W times gain. Same ranking, six different users."),
        lesson, editor=True)


def lesson(inputs: lessons.LessonInputs) -> None:
    ranking, judgments, k, labels = inputs.ranking, inputs.judgments, inputs.k, inputs.labels
    n = len(ranking)
    p = st.slider(_("RBP's patience p (the chance to go on after each result)"), 0.5, 0.95, 0.8, 0.05,
                  key=f"{PAGE}.p")
    people = users(ranking, judgments, k, p=p)

    # one measure per user model, side by side; a row that does not fit the width wraps (seven
    # equal columns cut the values at 1024 px)
    with st.container(horizontal=True, gap="medium"):
        for user in people:
            st.metric(user.measure, metrics.num(user.value, fixed=True), width="content")

    st.subheader(_("A user stepping down the list"))
    step = 1
    step_key = f"{PAGE}.step.{n}"
    if n > 1:
        step = st.slider(_("The user has just read rank"), 1, n, 1, key=step_key)

    def walk() -> None:   # the walk ends at the last rank: the slider says so too, as the chart does
        if n > 1:
            st.session_state[step_key] = n

    play = st.button(_("Walk down the list"), icon=":material/play_arrow:", key=f"{PAGE}.play", on_click=walk)
    if play:
        st.session_state[WALK] = 1
    if st.session_state.get(WALK):
        # the walk is a fragment the browser reruns every STEP_PAUSE seconds, one rank a run:
        # no run waits in between, so the server is free meanwhile
        st.fragment(_walk, run_every=STEP_PAUSE)(people, ranking, judgments, labels)
    else:
        _draw(st.empty(), people, step, ranking, judgments, labels)

    st.subheader(_("Six users in words"))
    for user in people:
        family = metrics.parse(user.measure).name
        st.markdown(f"**{user.measure}** — " + _(STORIES[family]))
    st.caption(_("For P@k, RR, AP and RBP the value is exactly the sum of W × gain. nDCG divides DCG by the "
                 "ideal DCG instead of by the sum of the discounts, and ERR scores 1/i at the rank where its "
                 "user stops, so their values are not that sum (Moffat et al. 2013; Azzopardi et al. 2021)."))

    st.subheader(_("One user, rank by rank"))
    names = [u.measure for u in people]
    chosen = st.selectbox(_("User"), names, key=f"{PAGE}.user")
    user = people[names.index(chosen)]
    frame = pd.DataFrame({
        _("rank"): list(range(1, n + 1)),
        _("document"): [labels.get(d, d) for d in ranking],
        _("C: goes on"): user.continue_,
        _("reads it"): user.reach,
        _("W: attention"): user.weight,
        _("gain"): user.gain,
        _("W × gain"): [w * g for w, g in zip(user.weight, user.gain, strict=True)],
    })
    render.table(frame, decimals=4, height=min(38 + 35 * n, 400), key=f"{PAGE}.table")
    st.caption(_("C is the chance of going on from this rank to the next; 'reads it' is the chance of "
                 "getting this far; W is 'reads it' divided by the sum over all ranks."))


def _walk(people, ranking, judgments, labels) -> None:
    """One rank of the walk down the list, the next one on the next run; the page is drawn
    again once the last rank is shown, which ends the reruns."""
    rank = st.session_state.get(WALK)
    if not isinstance(rank, int) or not 1 <= rank <= len(ranking):
        st.session_state.pop(WALK, None)
        st.rerun()
    _draw(st.empty(), people, rank, ranking, judgments, labels)
    st.session_state[WALK] = rank + 1 if rank < len(ranking) else None


def _draw(where, people, step: int, ranking, judgments, labels) -> None:
    with where.container():
        doc = ranking[step - 1]
        grade = judgments.get(doc)
        st.text(_("Rank {rank}: {doc} ({grade})").format(
            rank=step, doc=labels.get(doc, doc),
            grade=_("unjudged") if grade is None else _("grade {g}").format(g=grade)))
        render.altair_chart(teaching_charts.user_reach, people, step, key=f"{PAGE}.reach",
                            title=_("The chance each user reads each rank"))
        rows = [{
            _("user"): u.measure,
            _("reads rank {rank}").format(rank=step): u.reach[step - 1],
            _("goes on after it"): u.continue_[step - 1],
            _("gain so far (sum of W × gain)"): u.utility_until(step),
            _("final value"): u.value,
        } for u in people]
        render.table(pd.DataFrame(rows), decimals=4, key=f"{PAGE}.now")


main()
