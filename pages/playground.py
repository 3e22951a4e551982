"""Playground: the cat-in-the-box ranking and every metric at k (a first, minimal page)."""

import streamlit as st

import metrics

CATS = ["🐱", "🐱📦", "📦", "🐱📦", "🐱📦", "🐱", "🐱📦", "🐶📦"]


def main() -> None:
    st.title("Ranklab — cat in the box")
    ranking = [str(i) for i in range(1, 9)]
    judgments = {"2": 1, "4": 1, "5": 1, "7": 1}
    k = st.slider("k", 1, 8, 5, key="playground.k")
    st.write(" ".join(CATS))
    for m in (f"P@{k}", f"R@{k}", "RR", "AP"):
        e = metrics.explain(m, ranking, judgments)
        st.latex(e.formula)


main()
