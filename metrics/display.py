"""Rich display in Jupyter, JupyterLab, VS Code and Colab: HTML, Markdown and LaTeX.

:class:`~metrics.Explanation`, :class:`~metrics.Evaluation` and :class:`~metrics.Measure`
implement IPython's display protocol (``_repr_html_``, ``_repr_markdown_``, ``_repr_latex_``)
with the functions below; their plain ``repr`` is unchanged.

Document ids, query ids and labels are data, never markup: in HTML every one is escaped
(:func:`html.escape`) and the tables are marked for MathJax to skip, so an id holding
``$...$`` is shown as typed, not typeset; in Markdown they go through
:func:`escape_markdown`. Only the formulas, which Ranklab writes itself, are typeset.

>>> import metrics
>>> e = metrics.explain("P@2", ["<b>", "a&b"], {"a&b": 1})
>>> html_text = e._repr_html_()
>>> "&lt;b&gt;" in html_text and "a&amp;b" in html_text and "<b>" not in html_text
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence

from .explain import num

__all__ = ["escape_markdown", "explanation_html", "explanation_markdown", "explanation_latex",
           "evaluation_html", "evaluation_markdown", "measure_html", "measure_markdown"]

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=^&\"'@%;/,?])")
_ZERO_WIDTH = "\u200b"
_EMAIL_AT = re.compile(r"@(?=[\w.+-]*\.\w)")
# MathJax 2 and 3 (JupyterLab, Notebook, VS Code, Colab) skip elements of these classes:
# ids and labels in a table are never typeset, whatever dollars they hold
_NO_MATH = "tex2jax_ignore mathjax_ignore"
MAX_ROWS = 200  # step-table rows shown; the rest are counted (to_frame() has them all)


def escape_markdown(text) -> str:
    """User text made inert for Markdown: every Markdown-active character backslash-escaped,
    newlines as spaces (a line break could start a heading or a list), and bare addresses
    broken with an invisible zero-width space inside "//", "www" and an address's "@" (GitHub-flavoured
    Markdown links addresses even when their characters are escaped).

    >>> escape_markdown("**b** [l](u) <b>")
    '\\\\*\\\\*b\\\\*\\\\* \\\\[l\\\\]\\\\(u\\\\) \\\\<b\\\\>'
    >>> escape_markdown("http://x www.x.org a@b.org").count("\u200b")
    3
    >>> "\u200b" in escape_markdown("P@4 nDCG@10")
    False
    """
    text = " ".join(str(text).splitlines())
    for part in ("//", "www"):   # checked in Chromium: "http\\:\\/\\/x" alone still becomes a link
        text = text.replace(part, part[0] + _ZERO_WIDTH + part[1:])
    # an "@" only where an address could follow (a domain with a dot): a measure such as "P@4"
    # is copied from the page into the command line, where an invisible character breaks it
    text = _EMAIL_AT.sub("@" + _ZERO_WIDTH, text)
    return _MD_SPECIAL.sub(r"\\\1", text)


def _cell(value) -> str:
    """A table cell's text: numbers as Ranklab shows them, None as a dash, text as is."""
    if value is None or isinstance(value, bool | int | float):
        return num(value)
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a dependency
        return str(value)
    return num(value.item()) if isinstance(value, np.generic) else str(value)


def _rows(columns: Mapping[str, Sequence]) -> tuple[list[str], list[list[str]], int]:
    names = list(columns)
    n = max((len(v) for v in columns.values()), default=0)
    shown = min(n, MAX_ROWS)
    rows = [[_cell(columns[c][i]) if i < len(columns[c]) else "" for c in names] for i in range(shown)]
    return names, rows, n - shown


def _html_table(names: Sequence[str], rows: Sequence[Sequence[str]], hidden: int = 0, caption: str = "") -> str:
    e = html.escape
    head = "".join(f"<th>{e(str(n))}</th>" for n in names)
    body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in rows)
    more = f"<p>… {hidden} more rows (to_frame() has every row)</p>" if hidden else ""
    cap = f"<caption>{e(caption)}</caption>" if caption else ""
    return (f'<table class="ranklab-table {_NO_MATH}">{cap}<thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>{more}")


def _markdown_table(names: Sequence[str], rows: Sequence[Sequence[str]], hidden: int = 0) -> str:
    lines = ["| " + " | ".join(escape_markdown(n) for n in names) + " |",
             "|" + "---|" * len(names)]
    lines += ["| " + " | ".join(escape_markdown(c) for c in row) + " |" for row in rows]
    if hidden:
        lines.append(f"\n… {hidden} more rows (to_frame() has every row)")
    return "\n".join(lines)


def _math_html(latex: str) -> str:
    # the formula is Ranklab's own LaTeX; escaped all the same (MathJax reads the decoded text)
    return f'<div class="ranklab-formula">$$ {html.escape(latex)} $$</div>' if latex else ""


# --------------------------------------------------------------------------- Explanation

def explanation_html(e) -> str:
    """An :class:`~metrics.Explanation` as HTML: measure, value, formula, step table.

    >>> import metrics
    >>> text = explanation_html(metrics.explain("P@2", ["a", "b"], {"b": 1}))
    >>> "<strong>P@2</strong> = 0.5" in text, r"\\frac{1}{2}" in text, "<td>b</td>" in text
    (True, True, True)
    """
    names, rows, hidden = _rows(e.columns)
    parts = [f'<div class="ranklab-explanation"><p><strong>{html.escape(e.measure)}</strong> = '
             f"{html.escape(num(e.value))}</p>"]
    if e.definition:
        parts.append(_math_html(e.definition))
    parts.append(_math_html(e.formula))
    if names:
        parts.append(_html_table(names, rows, hidden))
    if e.ideal:
        ideal_names, ideal_rows, ideal_hidden = _rows(e.ideal)
        parts.append(_html_table(ideal_names, ideal_rows, ideal_hidden, caption="ideal ordering"))
    parts.append("</div>")
    return "".join(parts)


def explanation_markdown(e) -> str:
    """An :class:`~metrics.Explanation` as Markdown (ids and labels escaped).

    >>> import metrics
    >>> print(explanation_markdown(metrics.explain("P@1", ["a|b"], {"a|b": 1})))
    `P@1` = 1
    <BLANKLINE>
    $$\\mathrm{P}@1 = \\frac{\\text{relevant in top 1}}{1} = \\frac{1}{1} = 1$$
    <BLANKLINE>
    | rank | doc | grade | relevant | hits | precision | recall | f1 |
    |---|---|---|---|---|---|---|---|
    | 1 | a\\|b | 1 | 1 | 1 | 1 | 1 | 1 |
    """
    names, rows, hidden = _rows(e.columns)
    # the canonical measure string (the parser's own, never a backtick) as a code span
    parts = [f"`{e.measure}` = {num(e.value)}", f"$${e.formula}$$"]
    if names:
        parts.append(_markdown_table(names, rows, hidden))
    return "\n\n".join(parts)


def explanation_latex(e) -> str:
    """The formula with the numbers substituted, as display math.

    >>> import metrics
    >>> print(explanation_latex(metrics.explain("P@2", ["a", "b"], {"b": 1})))
    $$\\mathrm{P}@2 = \\frac{\\text{relevant in top 2}}{2} = \\frac{1}{2} = 0.5$$
    """
    return f"$${e.formula}$$"


# --------------------------------------------------------------------------- Evaluation

def _evaluation_rows(ev) -> tuple[list[str], list[list[str]]]:
    names = ["query", *ev.measures]
    rows = [[qid, *(num(values[m]) for m in ev.measures)] for qid, values in ev.per_query.items()]
    rows.append(["all", *(num(ev.aggregate[m]) for m in ev.measures)])
    return names, rows


def evaluation_html(ev) -> str:
    """An :class:`~metrics.Evaluation` as an HTML table: one row per query, then ``all``.

    >>> import metrics
    >>> ev = metrics.evaluate({"<q>": {"a": 1}}, {"<q>": ["b", "a"]}, "RR")
    >>> "<td>&lt;q&gt;</td><td>0.5</td>" in evaluation_html(ev)
    True
    """
    names, rows = _evaluation_rows(ev)
    notes = "".join(f"<p>{html.escape(w)}</p>" for w in ev.warnings)
    return f'<div class="ranklab-evaluation">{_html_table(names, rows)}{notes}</div>'


def evaluation_markdown(ev) -> str:
    """An :class:`~metrics.Evaluation` as a Markdown table (query ids escaped)."""
    names, rows = _evaluation_rows(ev)
    return "\n\n".join([_markdown_table(names, rows), *(escape_markdown(w) for w in ev.warnings)])


# --------------------------------------------------------------------------- Measure

def _measure_rows(m) -> list[list[str]]:
    rows = [[k, repr(m[k]), "" if v == m[k] else repr(v)] for k, v in m.family.params.items()]
    return rows


def measure_html(m) -> str:
    """A :class:`~metrics.Measure`: its notation, family, trec_eval name and parameters.

    >>> import metrics
    >>> text = measure_html(metrics.parse("AP(denominator='retrieved')@5"))
    >>> "<strong>AP(denominator=&#x27;retrieved&#x27;)@5</strong>" in text
    True
    """
    e = html.escape
    trec = m.trec_name
    head = (f'<div class="ranklab-measure"><p><strong>{e(str(m))}</strong>: {e(m.family.description)}'
            f"{'' if trec is None else f' (trec_eval <code>{e(trec)}</code>)'}</p>")
    rows = _measure_rows(m)
    table = _html_table(["parameter", "value", "default"], rows) if rows else ""
    return head + table + "</div>"


def measure_markdown(m) -> str:
    """A :class:`~metrics.Measure` in Markdown.

    >>> import metrics
    >>> print(measure_markdown(metrics.parse("P@5")).splitlines()[0])
    `P@5`: precision: relevant retrieved in the top k, divided by k (trec_eval `P_5`)
    """
    trec = m.trec_name
    head = (f"`{m}`: {m.family.description}"
            f"{'' if trec is None else f' (trec_eval `{trec}`)'}")
    rows = _measure_rows(m)
    return head + ("\n\n" + _markdown_table(["parameter", "value", "default"], rows) if rows else "")
