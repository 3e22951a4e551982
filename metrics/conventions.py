"""Named presets: how each tool or source computes the same measure.

Each :class:`Convention` sets measure parameters (and, for the PIAF QA notes, renames a
measure); :func:`apply` turns a measure into that convention's version of it. The app's
conventions explorer evaluates one example under every preset side by side. A preset named
after a source document (``pinecone``, ``course-lab``, ``autorag``, ``piaf``) takes that
document's name, the one docs/sources.md lists with its title and author.

>>> str(apply("sklearn", "nDCG@5")), str(apply("sklearn", "AP"))
("nDCG(ideal='ranking')@5", "AP(denominator='retrieved')")
>>> str(apply("piaf", "R@5"))  # the PIAF QA notes' retriever "recall" is a hit rate
'Success@5'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from ._i18n import N_
from .measures import Measure, parse

__all__ = ["Convention", "PRESETS", "apply", "get"]


@dataclass(frozen=True)
class Convention:
    name: str
    title: str
    description: str
    params: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    renames: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    grouped: bool = False  # the AutoRAG study notes: ground truth as groups of ids, see metrics.grouped
    # how tied scores are scored, per measure family ("*": the others); see metrics.explain
    ties: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    # the name a table's column shows (the source's short name, for a source's preset)
    short: str = ""

    def ties_for(self, measure: str | Measure) -> str:
        """The ``ties`` argument this tool's rule amounts to for ``measure``.

        >>> get("sklearn").ties_for("nDCG@5"), get("sklearn").ties_for("AP"), get("trec_eval").ties_for("AP")
        ('average', 'threshold', 'docid-desc')
        """
        name = parse(measure).name
        return self.ties.get(name, self.ties.get("*", "docid-desc"))

    def apply(self, measure: str | Measure) -> Measure:
        m = parse(measure)
        if m.name in self.renames:
            m = parse(self.renames[m.name] + ("@" + str(m.cutoff) if m.cutoff is not None else ""))
        return m.with_params(**self.params)


def _c(name, short, title, description, params=None, renames=None, grouped=False, ties=None):
    return Convention(name, title, description, MappingProxyType(dict(params or {})),
                      MappingProxyType(dict(renames or {})), grouped, MappingProxyType(dict(ties or {})),
                      short)


PRESETS: dict[str, Convention] = {
    c.name: c
    for c in [
        _c("trec_eval", "trec_eval", N_("trec_eval / pytrec_eval"),
           N_("Linear gain, log2(i+1) discount, ideal from every judged document, AP divided by R.")),
        _c("sklearn", "sklearn", "scikit-learn",
           N_("ndcg_score takes the ideal from the supplied list only; average_precision_score divides "
              "by the relevant documents retrieved. Tied scores: ndcg_score and dcg_score average over "
              "every order of the tied documents (McSherry & Najork); average_precision_score counts a "
              "tie group all at once, at its last rank."),
           {"ideal": "ranking", "denominator": "retrieved"}, ties={"*": "average", "AP": "threshold"}),
        _c("pinecone", N_("Pinecone notebook"), N_("Pinecone notebook"),
           N_("Ideal ordering sorts the retrieved list's labels; AP divided by the number of relevant results."),
           {"ideal": "ranking"}),
        _c("exp-gain", N_("2^rel − 1 gain"), N_("2^rel - 1 gain (ranx ndcg_burges, ir_measures dcg='exp-log2')"),
           N_("Gain 2^grade - 1 rewards highly relevant documents much more than linear gain."),
           {"dcg": "exp-log2"}),
        _c("course-lab", N_("IR course lab"), N_("IR course lab (Järvelin–Kekäläinen DCG)"),
           N_("DCG = rel_1 + sum over i >= 2 of rel_i / log2(i): ranks 1 and 2 undiscounted."),
           {"dcg": "jarvelin"}),
        _c("recommenders", "÷ min(k,R)", N_("Spark / recommenders"),
           N_("AP@k divided by min(k, R): a query with many relevant documents can still reach 1."),
           {"denominator": "min(k,R)"}),
        _c("autorag", N_("AutoRAG study notes"), N_("AutoRAG study notes (grouped ground truth)"),
           N_("Ground truth is groups of ids; any id satisfies its group (see metrics.grouped)."),
           grouped=True),
        _c("piaf", N_("PIAF QA notes"), N_("PIAF QA notes (hit rate)"),
           N_("The retriever's 'Recall' is the share of queries with any relevant document retrieved: Success@k."),
           renames={"R": "Success"}),
    ]
}


def get(name: str) -> Convention:
    """The preset called ``name`` (ValueError listing the presets otherwise).

    >>> get("sklearn").params["ideal"]
    'ranking'
    """
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise ValueError(f"convention must be one of {', '.join(PRESETS)}, got {name!r}") from None


def apply(name: str, measure: str | Measure) -> Measure:
    """``measure`` as the preset ``name`` computes it.

    >>> str(apply("course-lab", "nDCG@100"))  # the IR course lab's Järvelin–Kekäläinen DCG
    "nDCG(dcg='jarvelin')@100"
    """
    return get(name).apply(measure)
