"""Lesson and Teach page options in the link: which URL parameter holds which widget's value.

The example itself travels in ``?ex=`` (:mod:`ranklab_ui.session.state`); the options a page offers on top
of it (the nDCG lesson's gain/discount and ideal ordering, the AP lesson's denominator,
Check my calculation's choices, Practice's exercise) travel in short parameters of their
own, written only when they differ from the default:

======================  ==================  ================================================
page                    parameter           values (default first)
======================  ==================  ================================================
CG → DCG → nDCG         ``dcg``             ``log2``, ``exp-log2``, ``jarvelin``
                        ``ideal``           ``qrels``, ``ranking``
AP and MAP              ``denominator``     ``R``, ``retrieved``, ``min(k,R)``
Check my calculation    ``work``            ``example``, ``exercise``
                        ``level``           ``1``, ``2``, ``3`` (used by ``exercise``)
                        ``seed``            ``1``, any exercise number 0 … 2³¹ − 1
                        ``measure``         ``P@k``, ``R@k``, ``RR``, ``AP``, ``AP@k``, …
                        ``detail``          ``final``, ``steps``
Practice                ``seed``, ``level`` the exercise (the page's own code keeps them)
======================  ==================  ================================================

A value read from the URL is checked against its list (or range); a bad one leaves the
default selected and queues a message (escaped where it is shown), never an exception.

>>> dcg = option("lesson_dcg", "dcg")
>>> dcg.read("exp-log2"), dcg.text("jarvelin")
('exp-log2', 'jarvelin')
>>> dcg.read("exp")
Traceback (most recent call last):
...
ranklab_ui.session.options.OptionError: the link's dcg='exp' is not one of log2, exp-log2, jarvelin; the default (log2) is used
>>> link = encode_params("check_calculation", {"measure": "nDCG(dcg='exp-log2')@{k}", "seed": 7})
>>> link
{'seed': '7', 'measure': "nDCG(dcg='exp-log2')@k"}
>>> decode_params("check_calculation", link) == {"measure": "nDCG(dcg='exp-log2')@{k}", "seed": 7}
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlencode

from metrics.teaching import exercises

from ..core.i18n import N_, _
from . import state

__all__ = ["Option", "OptionError", "OPTIONS", "option", "encode_params", "decode_params",
           "sync", "params", "stale", "query_string"]

SEEN = "options.seen"  # session key: {parameter: the text this session last read or wrote}


class OptionError(ValueError):
    """A page option in the link that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class Option:
    """One page option: the URL ``param``, the widget ``key`` holding it, its values.

    ``values`` maps each allowed value (what the widget holds) to its text in the URL; an
    integer option has ``values`` empty and the range ``low`` … ``high`` instead.
    """

    param: str
    key: str
    default: object
    values: Mapping[object, str] = field(default_factory=dict)
    low: int = 0
    high: int = 0
    fallback: str = ""  # what happens to a bad value, when not "the default (…) is used"

    def text(self, value) -> str:
        """The URL text of a value of the widget."""
        if self.values:
            return self.values[value]
        return str(int(value))

    def read(self, raw) -> object:
        """The widget value for the URL text ``raw``; :class:`OptionError` when it is not allowed."""
        shown = str(raw)[:40] + ("…" if len(str(raw)) > 40 else "")
        if self.values:
            for value, text in self.values.items():
                if raw == text:
                    return value
            allowed = ", ".join(self.values.values())
            raise OptionError(_("the link's {param}={shown} is not one of {allowed}; ").format(param=self.param, shown=f"{shown!r}", allowed=allowed)
                              + (_(self.fallback) if self.fallback else _("the default ({value}) is used").format(
                                  value=self.values[self.default])))
        text = str(raw).strip()
        if text.isascii() and text.isdigit() and len(text) <= 12 and self.low <= int(text) <= self.high:
            return int(text)
        raise OptionError(_("the link's {param}={shown} is not a whole number from {low} to {high}; ").format(param=self.param, shown=f"{shown!r}", low=self.low, high=self.high) + (_(self.fallback) if self.fallback else _("the default ({value}) is used").format(value=self.default)))


def _choices(*pairs: tuple[object, str]) -> dict[object, str]:
    return dict(pairs)


_MEASURES = ["P@{k}", "R@{k}", "RR", "AP", "AP@{k}", "DCG@{k}", "nDCG@{k}", "nDCG(dcg='exp-log2')@{k}"]

OPTIONS: dict[str, tuple[Option, ...]] = {
    "lesson_dcg": (
        Option("dcg", "lesson_dcg.dcg", "log2", _choices(*((v, v) for v in ("log2", "exp-log2", "jarvelin")))),
        Option("ideal", "lesson_dcg.ideal", "qrels", _choices(("qrels", "qrels"), ("ranking", "ranking"))),
    ),
    "lesson_ap": (
        Option("denominator", "lesson_ap.denominator", "R",
               _choices(*((v, v) for v in ("R", "retrieved", "min(k,R)")))),
    ),
    "check_calculation": (
        Option("work", "check_calculation.source", "The shared example",
               _choices(("The shared example", "example"), ("A generated exercise", "exercise"))),
        Option("level", "check_calculation.level", 1, _choices(*((v, str(v)) for v in exercises.LEVELS))),
        Option("seed", "check_calculation.seed", 1, low=0, high=exercises.MAX_SEED),
        Option("measure", "check_calculation.measure", _MEASURES[0],
               _choices(*((m, m.replace("{k}", "k")) for m in _MEASURES))),
        Option("detail", "check_calculation.detail", "The final value only",
               _choices(("The final value only", "final"), ("Every step", "steps"))),
    ),
    "practice": (
        Option("seed", "practice.seed", None, low=0, high=exercises.MAX_SEED, fallback=N_("it is ignored")),
        Option("level", "practice.level", 1, _choices(*((v, str(v)) for v in exercises.LEVELS)),
               fallback=N_("it is ignored")),
    ),
}


def option(page: str, param: str) -> Option:
    """The option of ``page`` held in URL parameter ``param``."""
    for opt in OPTIONS[page]:
        if opt.param == param:
            return opt
    raise KeyError(_('{page} has no option {param}').format(page=page, param=f"{param!r}"))


def encode_params(page: str, values: Mapping[str, object]) -> dict[str, str]:
    """URL parameters for option values given by parameter name (defaults left out)."""
    out = {}
    for opt in OPTIONS.get(page, ()):
        if opt.param in values and values[opt.param] != opt.default:
            out[opt.param] = opt.text(values[opt.param])
    return out


def decode_params(page: str, query: Mapping[str, str]) -> dict[str, object]:
    """Option values (by parameter name) from URL parameters; :class:`OptionError` on a bad one."""
    return {opt.param: opt.read(query[opt.param]) for opt in OPTIONS.get(page, ()) if opt.param in query}


# --------------------------------------------------------------------------- the session

def _st():
    import streamlit as st

    return st


def _current(opt: Option):
    value = _st().session_state.get(opt.key, opt.default)
    if opt.values and value not in opt.values:
        return opt.default
    return value


def params(page: str) -> dict[str, str]:
    """The URL parameters of ``page``'s options as the widgets hold them now (defaults left out)."""
    return encode_params(page, {opt.param: _current(opt) for opt in OPTIONS.get(page, ())})


def query_string(page: str | None, base: Mapping[str, str]) -> str:
    """``base`` (e.g. ``{"ex": code}``) and ``page``'s options as a URL query string."""
    return urlencode({**base, **(params(page) if page else {})})


def sync(page: str, *, messages: list | None = None) -> None:
    """Bring ``page``'s options and the URL in line; call it before the page draws its widgets.

    A URL value this session has not read yet (a link just opened, the browser's Back) is
    checked and put into its widget; a bad one selects the default and queues a message on
    ``messages`` (``ranklab_ui.session.state``'s queue by default). Then the widgets' values are written back
    to the URL, a default by removing its parameter.
    """
    st = _st()
    ss = st.session_state
    seen = ss.setdefault(SEEN, {})
    queue = messages if messages is not None else ss.setdefault(state.KEYS["messages"], [])
    for opt in OPTIONS.get(page, ()):
        raw = st.query_params.get(opt.param)
        if raw is not None and (raw != seen.get(opt.param) or opt.key not in ss):
            try:
                ss[opt.key] = opt.read(raw)
            except OptionError as err:
                ss[opt.key] = opt.default
                queue.append(("error", str(err)))  # ranklab_ui.render.messages escapes it
        ss.setdefault(opt.key, opt.default)  # the widgets are drawn without a value of their own
        value = _current(opt)
        text = None if value == opt.default else opt.text(value)
        if text is None:
            if opt.param in st.query_params:
                del st.query_params[opt.param]
        elif st.query_params.get(opt.param) != text:
            st.query_params[opt.param] = text
        seen[opt.param] = text


def stale(page: str) -> bool:
    """Whether a widget of ``page`` changed since :func:`sync` wrote the URL (a fragment rerun
    that should become a full one, so that the URL and the Copy link follow)."""
    seen = _st().session_state.get(SEEN, {})
    return any((None if _current(o) == o.default else o.text(_current(o))) != seen.get(o.param)
               for o in OPTIONS.get(page, ()))
