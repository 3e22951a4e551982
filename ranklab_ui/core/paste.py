"""Read a pasted (or uploaded) list of results for the Playground: pure Python, no Streamlit.

Three layouts, recognised from the first line that is not blank nor a ``#`` comment:

- **a list**, one result per line, best first: ``id``, or ``id<TAB>grade``, or
  ``id<TAB>grade<TAB>label``;
- **CSV** (or TSV, when the header has a tab) with a header naming the columns: the id in
  ``id``, ``doc``, ``docid``, ``doc_id`` or ``docno``; optional ``grade`` (or ``relevance``)
  and ``label``;
- **TREC lines of one query**: run lines ``qid Q0 doc rank score tag`` (ordered as trec_eval
  orders a run: score descending, ties by doc id descending) and qrels lines
  ``qid 0 doc grade``, in any order, ``#`` comments allowed; judged relevant documents the
  run missed become the tray.

Ids are kept as given (only the spaces around them are trimmed): ``#``, ``/``, spaces inside
a CSV field and any script are fine; control characters are not. A line that cannot be read
is reported as ``line N: reason`` and left out; when nothing can be read, or the text is
beyond the limits (checked before any parsing), :class:`PasteError` is raised. Nothing else
is ever raised, and the work is linear in the size of the text.

>>> p = parse("d1\\t2\\tcat in a box\\nd#2\\nd/3\\t0\\nd3\\t?\\tunknown")
>>> p.format, [(r.id, r.grade, r.label) for r in p.ranking]
('list', [('d1', 2, 'cat in a box'), ('d#2', None, None), ('d/3', 0, None), ('d3', None, 'unknown')])
>>> p = parse("doc,relevance\\nmy doc 1,3\\nb,x")
>>> p.format, [(r.id, r.grade) for r in p.ranking], p.problems
('csv', [('my doc 1', 3)], ("line 3: grade 'x' is not a whole number",))
>>> p = parse("q1 Q0 a 1 0.5 bm25\\nq1 Q0 b 2 0.9 bm25\\nq1 0 a 1\\nq1 0 c 2")
>>> [(r.id, r.grade) for r in p.ranking], [(r.id, r.grade) for r in p.tray], p.query
([('b', None), ('a', 1)], [('c', 2)], 'q1')
>>> parse("\\n# nothing\\n")
Traceback (most recent call last):
...
ranklab_ui.core.paste.PasteError: nothing to read: paste one id per line, a CSV with a header, or TREC run and qrels lines
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass

from .i18n import _
from .model import Item, Query
from .validation import LIMITS, UNJUDGED

__all__ = ["PasteError", "Row", "Pasted", "parse", "to_query", "MAX_CHARS", "MAX_LINES", "MAX_PROBLEMS"]

MAX_CHARS = 200_000              # pasted text (an upload is refused above 4 bytes per character)
MAX_LINES = 3 * LIMITS.items     # lines that are not blank
MAX_PROBLEMS = 20                # line problems reported one by one; the rest are counted

ID_COLUMNS = ("id", "doc", "docid", "doc_id", "docno")
GRADE_COLUMNS = ("grade", "relevance")
LABEL_COLUMNS = ("label",)
_GRADE = re.compile(r"[+-]?[0-9]{1,6}(\.0{0,6})?")


class PasteError(ValueError):
    """Nothing could be read (or the text is too large); the message says why, line by line."""


@dataclass(frozen=True)
class Row:
    """One result: its id, and the grade and label when the text gave them (else None)."""

    id: str
    grade: int | None = None
    label: str | None = None
    unjudged: bool = False   # the text said so (``?``, as in the grid): not "no grade given"


@dataclass(frozen=True)
class Pasted:
    """What was read: the ranking (best first), the tray (TREC: judged, not retrieved),
    the layout recognised, the query id (TREC) and one ``line N: reason`` per line left out."""

    format: str
    ranking: tuple[Row, ...]
    tray: tuple[Row, ...] = ()
    query: str | None = None
    problems: tuple[str, ...] = ()


class _Problems:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.more = 0

    def add(self, line: int, reason: str) -> None:
        if len(self.lines) < MAX_PROBLEMS:
            self.lines.append(_("line {line}: {reason}").format(line=line, reason=reason))
        else:
            self.more += 1

    def note(self, text: str) -> None:
        self.lines.append(text)

    def all(self) -> tuple[str, ...]:
        return ((*self.lines, _("… and {n} more lines that cannot be read").format(n=self.more)) if self.more
                else tuple(self.lines))


def _short(text: str, limit: int = 30) -> str:
    """A piece of the user's text for a message: cut, its unprintable characters shown as ?."""
    text = "".join(c if c.isprintable() else "?" for c in text[: limit + 1])
    return repr(text[:limit] + "…" if len(text) > limit else text)


def _id(text: str) -> str:
    """A document id, trimmed; ValueError with the reason when it cannot be one."""
    doc = text.strip()
    if not doc:
        raise ValueError(_('the id is empty'))
    if not doc.isprintable():
        raise ValueError(_('id {doc} has a character that is not printable (a tab, a line break …)').format(doc=_short(doc)))
    if len(doc) > LIMITS.id_chars:
        raise ValueError(_('id {doc} is longer than {id_chars} characters').format(doc=_short(doc), id_chars=LIMITS.id_chars))
    return doc


def _grade(text: str, *, unjudged: bool = True) -> int | str | None:
    """A grade 0..grade_max from its text; None when the text is empty; :data:`UNJUDGED`
    for ``?``, as the grid takes it (not in qrels lines, ``unjudged=False``: a number there)."""
    text = text.strip()
    if not text:
        return None
    if unjudged and text == UNJUDGED:
        return UNJUDGED
    if not (text.isascii() and _GRADE.fullmatch(text)):
        raise ValueError(_('grade {text} is not a whole number').format(text=_short(text, 12)))
    grade = int(float(text))
    if not 0 <= grade <= LIMITS.grade_max:
        raise ValueError(_('grade {grade} is out of range (0 to {grade_max})').format(grade=grade, grade_max=LIMITS.grade_max))
    return grade


def _row(doc: str, grade: int | str | None, label: str | None) -> Row:
    if grade == UNJUDGED:
        return Row(doc, None, label, unjudged=True)
    return Row(doc, grade, label)


def _label(text: str) -> str | None:
    text = text.strip()
    if not text:
        return None
    if not text.isprintable():
        raise ValueError(_('label {text} has a character that is not printable (a tab, a line break …)').format(text=_short(text)))
    if len(text) > LIMITS.label_chars:
        raise ValueError(_('the label is longer than {label_chars} characters').format(label_chars=LIMITS.label_chars))
    return text


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith("#")


def _is_trec(line: str) -> bool:
    """A run line (``qid Q0 doc rank score tag``) or a qrels line (``qid 0 doc grade``), and
    not a tab-separated ``id<TAB>grade<TAB>label`` whose label has spaces."""
    f = line.split()
    run = len(f) >= 6 and f[1] == "Q0"
    qrels = len(f) == 4 and f[1].isascii() and f[1].isdigit() and bool(re.fullmatch(r"-?[0-9]{1,6}", f[3]))
    return (run or qrels) and len(line.split("\t")) not in (2, 3)


def _header(line: str) -> tuple[str, list[str]] | None:
    delimiter = "\t" if "\t" in line else ","
    names = [name.strip().lower() for name in line.split(delimiter)]
    if len(names) >= 2 and any(name in ID_COLUMNS for name in names):
        return delimiter, names
    return None


def _add(rows: list[Row], seen: dict[str, int], row: Row, line: int, problems: _Problems) -> None:
    if row.id in seen:
        problems.add(line, _('id {id} appears twice (first on line {seen})').format(id=_short(row.id), seen=seen[row.id]))
    elif len(rows) >= LIMITS.items:
        problems.add(line, _('a list holds at most {items} items').format(items=f"{LIMITS.items:,}"))
    else:
        seen[row.id] = line
        rows.append(row)


def _list(lines, problems: _Problems) -> Pasted:
    rows: list[Row] = []
    seen: dict[str, int] = {}
    for n, line in lines:
        parts = line.split("\t")
        try:
            doc = _id(parts[0])
            grade = _grade(parts[1]) if len(parts) > 1 else None
            label = _label(" ".join(parts[2:])) if len(parts) > 2 else None
        except ValueError as err:
            problems.add(n, str(err))
            continue
        _add(rows, seen, _row(doc, grade, label), n, problems)
    return Pasted("list", tuple(rows), problems=problems.all())


def _csv(text: str, first: int, delimiter: str, names: list[str], problems: _Problems) -> Pasted:
    def column(choices):
        return next((names.index(c) for c in choices if c in names), None)

    at_id, at_grade, at_label = column(ID_COLUMNS), column(GRADE_COLUMNS), column(LABEL_COLUMNS)
    body = text.splitlines()[first:]  # the lines after the header
    reader = csv.reader(io.StringIO("\n".join(body)), delimiter=delimiter, strict=True)
    rows: list[Row] = []
    seen: dict[str, int] = {}
    while True:
        start = first + reader.line_num + 1
        try:
            record = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            problems.add(start, _('not valid CSV ({err})').format(err=err))
            break  # the reader cannot resume after a broken quote
        if not "".join(record).strip():
            continue
        if len(record) != len(names):
            problems.add(start, _('expected {n} fields ({names}), found {n2}').format(n=len(names), names=delimiter.join(names), n2=len(record)))
            continue
        try:
            doc = _id(record[at_id])
            grade = _grade(record[at_grade]) if at_grade is not None else None
            label = _label(record[at_label]) if at_label is not None else None
        except ValueError as err:
            problems.add(start, str(err))
            continue
        _add(rows, seen, _row(doc, grade, label), start, problems)
    return Pasted("csv", tuple(rows), problems=problems.all())


def _trec(lines, problems: _Problems) -> Pasted:
    query = None
    retrieved: list[tuple[str, float]] = []
    judged: dict[str, int] = {}
    seen_run: dict[str, int] = {}
    seen_qrels: dict[str, int] = {}
    for n, line in lines:
        f = line.split()
        is_run = len(f) >= 6 and f[1] == "Q0"
        if not is_run and len(f) != 4:
            problems.add(n, _("expected 'qid Q0 doc rank score tag' or 'qid 0 doc grade', found {n} fields").format(n=len(f)))
            continue
        if query is None:
            query = f[0]
        elif f[0] != query:
            problems.add(n, _('query {f} is not {query}: paste the lines of one query').format(f=_short(f[0]), query=_short(query)))
            continue
        try:
            doc = _id(f[2])
            if is_run:
                score = float(f[4]) if len(f[4]) <= 40 else math.nan
                if not math.isfinite(score):
                    raise ValueError(_('score {f} is not a finite number').format(f=_short(f[4], 12)))
            else:
                grade = _grade(f[3], unjudged=False)
        except ValueError as err:
            problems.add(n, str(err))
            continue
        seen = seen_run if is_run else seen_qrels
        if doc in seen:
            problems.add(n, _('document {doc} appears twice (first on line {seen})').format(doc=_short(doc), seen=seen[doc]))
        elif is_run and len(retrieved) >= LIMITS.items:
            problems.add(n, _('a ranking holds at most {items} items').format(items=f"{LIMITS.items:,}"))
        elif is_run:
            seen[doc] = n
            retrieved.append((doc, score))
        else:
            seen[doc] = n
            judged[doc] = grade
    if not retrieved and judged:
        problems.add(min(seen_qrels.values()), _('qrels lines but no run line (qid Q0 doc rank score tag): nothing is ranked'))
        return Pasted("trec", (), query=query, problems=problems.all())
    # trec_eval's order: score descending, ties by doc id descending (two stable sorts)
    retrieved.sort(key=lambda pair: pair[0], reverse=True)
    retrieved.sort(key=lambda pair: pair[1], reverse=True)
    ranking = tuple(Row(doc, judged.get(doc)) for doc, _ in retrieved)
    tray = tuple(Row(doc, g) for doc, g in judged.items() if g > 0 and doc not in seen_run)
    if len(tray) > LIMITS.items:
        problems.note(_("{n} relevant documents not retrieved: the first {most} are kept").format(
            n=f"{len(tray):,}", most=f"{LIMITS.items:,}"))
        tray = tray[: LIMITS.items]
    return Pasted("trec", ranking, tray, query, problems.all())


def parse(text: str) -> Pasted:
    """Read pasted text (see the module's description); :class:`PasteError` when nothing can be read."""
    if not isinstance(text, str):
        raise PasteError(_('expected text, got {name}').format(name=type(text).__name__))
    if len(text) > MAX_CHARS:
        raise PasteError(_('the text has {n} characters: at most {MAX_CHARS} can be read').format(n=f"{len(text):,}", MAX_CHARS=f"{MAX_CHARS:,}"))
    text = text.lstrip("\ufeff")  # a byte-order mark from a spreadsheet's export
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if len(lines) > MAX_LINES:
        raise PasteError(_('the text has {n} lines: at most {MAX_LINES} can be read').format(n=f"{len(lines):,}", MAX_LINES=f"{MAX_LINES:,}"))
    data = [(n, line) for n, line in lines if not _is_comment(line)]  # '#' comments: TREC lines only
    if not data:
        raise PasteError(_('nothing to read: paste one id per line, a CSV with a header, or TREC run and qrels lines'))
    problems = _Problems()
    header = _header(lines[0][1])
    if header:
        pasted = _csv(text, lines[0][0], *header, problems)
    elif _is_trec(data[0][1]):
        pasted = _trec(data, problems)
    else:
        pasted = _list(lines, problems)  # every line is data: an id may start with a '#'

    if not pasted.ranking:
        raise PasteError(_('nothing could be read') + (": " + "; ".join(pasted.problems) if pasted.problems else
                                                    " (a header but no rows)"))
    return pasted


def to_query(pasted: Pasted, query: Query) -> Query:
    """``query`` with its ranking replaced by what was pasted.

    A list or a CSV that gives no grade (or no label) for an id keeps the one ``query`` has
    for it (so a list of ids reorders the results), else grade 0 and the id as label; the
    tray keeps the documents that are not in the new ranking. TREC lines replace everything:
    the grades are the qrels' (0 when a retrieved document has none), the tray is the judged
    relevant documents the run missed, the query is named after its qid. The AutoRAG study notes' groups
    are dropped (they name the old ids).

    >>> q = Query("q", (Item("a", "A", 2), Item("b", "B", 0)), (Item("c", "C", 1),))
    >>> new = to_query(parse("b\\t1\\nc\\nz\\na\\t?"), q)
    >>> [(i.id, i.label, i.grade) for i in new.ranking], new.tray
    ([('b', 'B', 1), ('c', 'C', 1), ('z', 'z', 0), ('a', 'A', None)], ())
    """
    known = {item.id: item for item in (*query.ranking, *query.tray)}
    trec = pasted.format == "trec"

    def item(row: Row) -> Item:
        old = known.get(row.id)
        grade = None if row.unjudged else row.grade if row.grade is not None else (
            0 if trec or old is None else old.grade)
        label = row.label if row.label is not None else (old.label if old else row.id)
        return Item(row.id, label, grade)

    ranking = tuple(item(row) for row in pasted.ranking)
    if trec:
        name = (pasted.query or query.name)[: LIMITS.name_chars]
        return Query(name, ranking, tuple(item(row) for row in pasted.tray), None)
    taken = {row.id for row in pasted.ranking}
    return Query(query.name, ranking, tuple(i for i in query.tray if i.id not in taken), None)
