"""Measures, their notation, and the registry of names.

A measure is written in ir_measures notation::

    NAME [ "(" PARAM "=" VALUE { "," PARAM "=" VALUE } ")" ] [ "@" CUTOFF ]

for example ``P@5``, ``P(rel=2)@5``, ``nDCG(dcg='exp-log2')@10`` or ``IPrec@0.5``.
The parser below is a small hand-written tokenizer (no ``eval``, no ``ast``).
trec_eval names (``P_5``, ``map_cut_100``, ``ndcg_cut_10`` ...) and ranx names
(``precision@5``, ``ndcg_burges@10`` ...) are accepted as aliases.

Every measure's defaults are trec_eval's; every other convention is a named
parameter and appears in the canonical string, which parses back to an equal
measure:

>>> m = parse("nDCG(dcg='exp-log2')@10")
>>> str(m)
"nDCG(dcg='exp-log2')@10"
>>> parse(str(m)) == m
True
>>> str(parse("ndcg_cut_10")), str(parse("P(rel=1)@5"))  # rel=1 is the default
('nDCG@10', 'P@5')
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = ["Measure", "parse", "parse_many", "FAMILIES", "known_names", "UnknownMeasureError"]


class UnknownMeasureError(ValueError):
    """A measure name that is not in the registry; ``.suggestion`` holds the closest valid one."""

    def __init__(self, text: str, suggestion: str | None):
        self.text = text
        self.suggestion = suggestion
        hint = f"; did you mean {suggestion!r}?" if suggestion else ""
        super().__init__(f"measure: unknown measure {text!r}{hint}")


# --------------------------------------------------------------------------- families

@dataclass(frozen=True)
class Family:
    """What one measure family accepts: its cutoff kind and its named parameters."""

    name: str
    description: str
    cutoff: str  # "none" | "optional" | "required" | "recall"
    params: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    aggregate: str = "mean"  # how trec_eval aggregates over queries: "mean" or "sum"
    normalised: bool = True  # value always within [0, 1]


_REL = {"rel": 1}
_DCG = {"dcg": "log2", "ideal": "qrels", "rel": None}
_CHOICES = {
    "dcg": ("log2", "exp-log2", "jarvelin"),
    "ideal": ("qrels", "ranking"),
    "denominator": ("R", "retrieved", "min(k,R)"),
}


def _family(name, description, cutoff, params=None, **kw):
    return Family(name, description, cutoff, MappingProxyType(dict(params or {})), **kw)


FAMILIES: dict[str, Family] = {
    f.name: f
    for f in [
        _family("P", "precision: relevant retrieved in the top k, divided by k", "optional", _REL),
        _family("R", "recall: relevant retrieved in the top k, divided by all relevant (R)", "optional", _REL),
        _family("F1", "harmonic mean of P@k and R@k", "optional", _REL),
        _family("Success", "1 if any relevant document is in the top k, else 0", "optional", _REL),
        _family("RR", "reciprocal rank of the first relevant document (0 if none in the top k)", "optional", _REL),
        _family("AP", "average precision: precision at each relevant rank, summed, divided by R",
                "optional", {"rel": 1, "denominator": "R"}),
        _family("CG", "cumulative gain: the sum of the gains in the top k", "optional",
                {"dcg": "log2", "rel": None}, normalised=False),
        _family("DCG", "discounted cumulative gain: gain / discount, summed over the top k", "optional",
                _DCG, normalised=False),
        _family("IDCG", "ideal DCG: the DCG of the best possible ordering", "optional", _DCG,
                normalised=False),
        _family("nDCG", "normalised DCG: DCG divided by the ideal DCG", "optional", _DCG),
        _family("Rprec", "R-precision: precision at rank R", "none", _REL),
        _family("Bpref", "binary preference: relevant documents ranked above judged non-relevant ones",
                "none", _REL),
        _family("IPrec", "interpolated precision at recall level r (max precision at recall >= r)",
                "recall", _REL),
        _family("11pt", "11-point interpolated average precision (IPrec at recall 0.0, 0.1, ..., 1.0)",
                "none", _REL),
        _family("NumRet", "number of documents retrieved (up to k)", "optional", {},
                aggregate="sum", normalised=False),
        _family("NumRel", "number of relevant documents in the judgments (R)", "none", _REL,
                aggregate="sum", normalised=False),
        _family("NumRelRet", "number of relevant documents retrieved (up to k)", "optional", _REL,
                aggregate="sum", normalised=False),
        _family("NumQ", "number of queries evaluated", "none", {}, aggregate="sum", normalised=False),
    ]
}


# --------------------------------------------------------------------------- the measure

@dataclass(frozen=True)
class Measure:
    """One measure: a family, an optional cutoff, and its non-default parameters.

    Build it with :func:`parse`; ``str(measure)`` is the canonical notation.

    >>> m = parse("AP(denominator='retrieved')@3")
    >>> m.name, m.cutoff, m["denominator"], m["rel"]
    ('AP', 3, 'retrieved', 1)
    """

    name: str
    cutoff: int | float | None = None
    params: tuple[tuple[str, object], ...] = ()

    @property
    def family(self) -> Family:
        return FAMILIES[self.name]

    def __getitem__(self, key: str):
        """The value of parameter ``key`` (its default when not set)."""
        for k, v in self.params:
            if k == key:
                return v
        return self.family.params[key]

    def with_params(self, **params) -> Measure:
        """A copy with some parameters changed (those the family does not accept are ignored).

        >>> str(parse("nDCG@5").with_params(dcg="exp-log2", denominator="R"))
        "nDCG(dcg='exp-log2')@5"
        """
        merged = dict(self.params)
        merged.update({k: v for k, v in params.items() if k in self.family.params})
        return _build(self.name, self.cutoff, merged, text=str(self))

    def with_cutoff(self, cutoff: int | None) -> Measure:
        """A copy with another cutoff (``None`` for the whole ranking).

        >>> str(parse("P@5").with_cutoff(10)), str(parse("AP@5").with_cutoff(None))
        ('P@10', 'AP')
        """
        return _build(self.name, cutoff, dict(self.params), text=str(self))

    def __str__(self) -> str:
        text = self.name
        if self.params:
            text += "(" + ",".join(f"{k}={_value_repr(v)}" for k, v in self.params) + ")"
        if self.cutoff is not None:
            text += "@" + _cutoff_repr(self.cutoff)
        return text

    def __repr__(self) -> str:
        return f"Measure({str(self)!r})"

    @property
    def trec_name(self) -> str | None:
        """The trec_eval name of this measure, or None when trec_eval has no such measure.

        >>> parse("P@5").trec_name, parse("AP@100").trec_name, parse("RR@10").trec_name
        ('P_5', 'map_cut_100', None)
        """
        extra = {k: v for k, v in self.params if k != "rel"}
        if extra:
            return None
        c = self.cutoff
        table = {
            ("P", True): f"P_{c}", ("P", False): "set_P",
            ("R", True): f"recall_{c}", ("R", False): "set_recall",
            ("F1", False): "set_F",
            ("Success", True): f"success_{c}",
            ("RR", False): "recip_rank",
            ("AP", False): "map", ("AP", True): f"map_cut_{c}",
            ("nDCG", False): "ndcg", ("nDCG", True): f"ndcg_cut_{c}",
            ("Rprec", False): "Rprec", ("Bpref", False): "bpref",
            ("11pt", False): "11pt_avg",
            ("NumRet", False): "num_ret", ("NumRel", False): "num_rel",
            ("NumRelRet", False): "num_rel_ret", ("NumQ", False): "num_q",
        }
        if self.name == "IPrec":
            return f"iprec_at_recall_{c:.2f}"
        if self.name in ("nDCG",) and self["rel"] is not None:
            return None
        return table.get((self.name, c is not None))


def _value_repr(v) -> str:
    return f"'{v}'" if isinstance(v, str) else str(v)


def _cutoff_repr(c) -> str:
    if isinstance(c, float):
        return f"{c:g}" if c not in (0.0, 1.0) else f"{c:.1f}"
    return str(c)


def _build(name: str, cutoff, params: dict, *, text: str) -> Measure:
    """Validate a family, cutoff and parameters; drop parameters equal to their defaults."""
    fam = FAMILIES[name]
    if fam.cutoff == "none" and cutoff is not None:
        raise ValueError(f"measure {text!r}: {name} takes no cutoff")
    if fam.cutoff == "required" and cutoff is None:
        raise ValueError(f"measure {text!r}: {name} needs a cutoff, e.g. {name}@10")
    if fam.cutoff == "recall":
        if cutoff is None:
            raise ValueError(f"measure {text!r}: {name} needs a recall level, e.g. {name}@0.5")
        if isinstance(cutoff, bool) or not isinstance(cutoff, int | float) or not 0.0 <= cutoff <= 1.0:
            raise ValueError(f"measure {text!r}: the recall level must be between 0 and 1, got {cutoff!r}")
        cutoff = float(cutoff)
    elif cutoff is not None:
        if isinstance(cutoff, bool) or not isinstance(cutoff, int):
            raise ValueError(f"measure {text!r}: the cutoff k must be a positive integer, got {cutoff!r}")
        if cutoff < 1:
            raise ValueError(f"measure {text!r}: the cutoff k must be a positive integer, got {cutoff}")
    clean = {}
    for key, value in params.items():
        if key not in fam.params:
            accepted = ", ".join(sorted(fam.params)) or "none"
            raise ValueError(f"measure {text!r}: {name} has no parameter {key!r} (accepted: {accepted})")
        if key == "rel":
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"measure {text!r}: rel must be an integer >= 1, got {value!r}")
        elif key in _CHOICES and value not in _CHOICES[key]:
            choices = ", ".join(repr(c) for c in _CHOICES[key])
            raise ValueError(f"measure {text!r}: {key} must be one of {choices}, got {value!r}")
        if value != fam.params[key]:
            clean[key] = value
    return Measure(name, cutoff, tuple(sorted(clean.items())))


# --------------------------------------------------------------------------- tokenizer / parser

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<num>\d+\.\d*|\.\d+|\d+)
      | (?P<name>[A-Za-z_][A-Za-z0-9_\-]*)
      | '(?P<sq>[^']*)' | "(?P<dq>[^"]*)"
      | (?P<op>[()@=,])
    )""",
    re.VERBOSE,
)

# ranklab names, ir_measures aliases and ranx names → family; matched case-sensitively first,
# then case-insensitively.
_ALIASES = {
    "P": "P", "precision": "P", "SetP": "P",
    "R": "R", "recall": "R", "SetR": "R",
    "F1": "F1", "f1": "F1", "SetF": "F1",
    "Success": "Success", "hit_rate": "Success", "Hit_rate": "Success",
    "RR": "RR", "MRR": "RR", "mrr": "RR",
    "AP": "AP", "MAP": "AP", "map": "AP",
    "CG": "CG", "DCG": "DCG", "dcg": "DCG", "IDCG": "IDCG", "nDCG": "nDCG", "NDCG": "nDCG", "ndcg": "nDCG",
    "Rprec": "Rprec", "r-precision": "Rprec", "RPrec": "Rprec",
    "Bpref": "Bpref", "bpref": "Bpref",
    "IPrec": "IPrec", "11pt": "11pt", "11ptAvg": "11pt",
    "NumRet": "NumRet", "NumRel": "NumRel", "NumRelRet": "NumRelRet", "NumQ": "NumQ",
}

# trec_eval names (and ranx's ndcg_burges) as regular expressions → (family, cutoff kind, params)
_TREC = [
    (r"P_(\d+)", "P", int, {}),
    (r"set_P", "P", None, {}),
    (r"recall_(\d+)", "R", int, {}),
    (r"set_recall", "R", None, {}),
    (r"set_F", "F1", None, {}),
    (r"success_(\d+)", "Success", int, {}),
    (r"recip_rank", "RR", None, {}),
    (r"map_cut_(\d+)", "AP", int, {}),
    (r"ndcg_cut_(\d+)", "nDCG", int, {}),
    (r"iprec_at_recall_(\d(?:\.\d+)?)", "IPrec", float, {}),
    (r"11pt_avg", "11pt", None, {}),
    (r"num_ret", "NumRet", None, {}),
    (r"num_rel", "NumRel", None, {}),
    (r"num_rel_ret", "NumRelRet", None, {}),
    (r"num_q", "NumQ", None, {}),
    (r"ndcg_burges(?:@(\d+))?", "nDCG", int, {"dcg": "exp-log2"}),
]


def known_names() -> list[str]:
    """Every name the parser accepts, as shown in suggestions."""
    examples = [
        "P@10", "R@100", "F1@10", "Success@10", "RR", "RR@10", "AP", "AP@100", "CG@10", "DCG@10",
        "IDCG@10", "nDCG", "nDCG@10", "Rprec", "Bpref", "IPrec@0.5", "11pt", "NumRet", "NumRel",
        "NumRelRet", "NumQ", "P_10", "recall_100", "map", "map_cut_100", "recip_rank", "ndcg",
        "ndcg_cut_10", "bpref", "success_10", "iprec_at_recall_0.50", "11pt_avg", "num_ret",
        "num_rel", "num_rel_ret", "num_q", "set_P", "set_recall", "set_F", "precision@10",
        "recall@10", "mrr", "ndcg_burges@10", "hit_rate@10", "r-precision",
    ]
    return examples


def _suggest(text: str) -> str | None:
    head = re.split(r"[(@]", text.strip(), maxsplit=1)[0]
    tail = text.strip()[len(head):]
    names = sorted(set(_ALIASES) | {"P_", "recall_", "map_cut_", "ndcg_cut_", "success_", "recip_rank",
                                    "num_ret", "num_rel", "num_rel_ret", "set_P", "set_F", "set_recall",
                                    "iprec_at_recall_", "11pt_avg", "num_q"})
    # canonical family names win over their aliases ("ndcg" → "nDCG")
    lowered = {n.lower(): n for n in sorted(names, key=lambda n: n in FAMILIES)}
    match = difflib.get_close_matches(head.lower(), list(lowered), n=1, cutoff=0.5)
    if not match:
        match = difflib.get_close_matches(text.lower(), [n.lower() for n in known_names()], n=1, cutoff=0.4)
        if not match:
            return None
        return {n.lower(): n for n in known_names()}[match[0]]
    best = lowered[match[0]]
    if best.endswith("_"):
        digits = re.search(r"\d+(?:\.\d+)?", text)
        return best + (digits.group(0) if digits else "10")
    return best + tail


def parse(text: str | Measure) -> Measure:
    """Parse one measure written in ir_measures, trec_eval or ranx notation.

    Raises ``ValueError`` for a malformed or unknown measure (an unknown name is an
    :class:`UnknownMeasureError` carrying the closest valid name).

    >>> str(parse("P(rel=2)@5")), str(parse("map_cut_100")), str(parse("iprec_at_recall_0.50"))
    ('P(rel=2)@5', 'AP@100', 'IPrec@0.5')
    >>> parse("nDGC@10")
    Traceback (most recent call last):
    ...
    metrics.measures.UnknownMeasureError: measure: unknown measure 'nDGC@10'; did you mean 'nDCG@10'?
    """
    if isinstance(text, Measure):
        return text
    if not isinstance(text, str):
        raise TypeError(f"measure must be a string such as 'P@5', got {type(text).__name__}")
    stripped = text.strip()
    if not stripped:
        raise ValueError("measure: empty measure name")
    if len(stripped) > 200:
        raise ValueError(f"measure: name too long ({len(stripped)} characters)")
    for pattern, fam, kind, params in _TREC:
        m = re.fullmatch(pattern, stripped)
        if m:
            cut = m.group(1) if m.groups() else None
            cutoff = kind(cut) if (kind and cut is not None) else None
            return _build(fam, cutoff, dict(params), text=stripped)
    return _parse_notation(stripped)


def _tokens(text: str):
    pos = 0
    out = []
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError(f"measure {text!r}: unexpected character {text[pos:].lstrip()[:1]!r} at position {pos + 1}")
        kind = m.lastgroup
        value = m.group(kind)
        if kind == "dq":
            kind = "sq"
        out.append((kind, value, m.start(kind) if kind != "sq" else m.start()))
        pos = m.end()
    return out


def _parse_notation(text: str) -> Measure:
    toks = _tokens(text)
    i = 0

    def peek(kind=None, value=None):
        if i >= len(toks):
            return False
        k, v, _ = toks[i]
        return (kind is None or k == kind) and (value is None or v == value)

    def expect(kind, value=None, what=""):
        nonlocal i
        if not peek(kind, value):
            got = repr(toks[i][1]) if i < len(toks) else "the end"
            raise ValueError(f"measure {text!r}: expected {what or value or kind}, got {got}")
        i += 1
        return toks[i - 1][1]

    if peek("num") and toks[0][1] == "11" and len(toks) > 1 and toks[1][0] == "name" and toks[1][1] == "pt":
        i = 2
        name = "11pt"
    else:
        name = expect("name", what="a measure name")
    family = _ALIASES.get(name) or {k.lower(): v for k, v in _ALIASES.items()}.get(name.lower())
    if family is None:
        raise UnknownMeasureError(text, _suggest(text))
    params: dict[str, object] = {}
    if peek("op", "("):
        i += 1
        while True:
            key = expect("name", what="a parameter name")
            expect("op", "=", what="'='")
            if peek("sq"):
                value: object = toks[i][1]
                i += 1
            elif peek("num"):
                raw = toks[i][1]
                i += 1
                value = float(raw) if "." in raw else int(raw)
            elif peek("name"):
                value = toks[i][1]
                i += 1
                if value == "None":
                    value = None
            else:
                got = repr(toks[i][1]) if i < len(toks) else "the end"
                raise ValueError(f"measure {text!r}: expected a value for {key}, got {got}")
            if key in params:
                raise ValueError(f"measure {text!r}: parameter {key!r} given twice")
            params[key] = value
            if peek("op", ","):
                i += 1
                continue
            expect("op", ")", what="',' or ')'")
            break
    cutoff = None
    if peek("op", "@"):
        i += 1
        raw = expect("num", what="a cutoff number after '@'")
        cutoff = float(raw) if "." in raw else int(raw)
        if FAMILIES[family].cutoff == "recall":
            cutoff = float(cutoff)
    if i != len(toks):
        raise ValueError(f"measure {text!r}: unexpected {toks[i][1]!r} at position {toks[i][2] + 1}")
    return _build(family, cutoff, params, text=text)


def parse_many(text: str | list) -> list[Measure]:
    """Parse a space- or comma-separated list of measures (parameters may contain commas).

    >>> [str(m) for m in parse_many("P@5 nDCG@10, map  P(rel=2)@5")]
    ['P@5', 'nDCG@10', 'AP', 'P(rel=2)@5']
    """
    if isinstance(text, list | tuple):
        out = []
        for item in text:
            out.extend(parse_many(item) if isinstance(item, str) else [parse(item)])
        if not out:
            raise ValueError("measures: no measure given")
        return out
    if not isinstance(text, str):
        raise TypeError(f"measures must be a string or a list of strings, got {type(text).__name__}")
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if depth == 0 and (ch.isspace() or ch == ","):
            if cur:
                parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        parts.append(cur)
    if not parts:
        raise ValueError("measures: no measure given")
    return [parse(p) for p in parts]
