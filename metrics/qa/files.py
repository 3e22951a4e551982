"""QA files: a SQuAD 2.0 dataset, and predictions as JSON or JSON Lines.

* **Gold**: SQuAD 1.1/2.0 JSON, ``{"data": [{"paragraphs": [{"qas": [{"id", "question",
  "answers": [{"text", "answer_start"}], "is_impossible"}]}]}]}``. A question with
  ``"is_impossible": true`` (or no answer) is unanswerable.
* **Predictions, JSON** (SQuAD's own form): ``{"qid": "answer", ...}``; ``""`` or ``null``
  abstain. A value may also be a list of answers, best first.
* **Predictions, JSON Lines** (for top-k): one object per line, ``{"id": "qid", "answers":
  ["best", "second", ...]}``, optionally ``"retrieved": false`` for a question whose
  retriever missed every relevant passage (left out of the reader metrics, as in Haystack).
  A line whose first non-blank character is ``#`` is a comment.

Each reader takes a path, or the file's bytes with the ``name`` to show for it (an upload),
read by the same code with the same limits. Any of them may be gzip-compressed (a name
ending in ``.gz``). Lines end with ``\\n``,
``\\r\\n`` or ``\\r``; a UTF-8 byte order mark is skipped. A file may hold at most
:data:`MAX_FILE_BYTES` (after decompression) and the evaluation at most
:data:`MAX_COMPARISONS` comparisons of a predicted answer with a gold answer.

Every error names the file and the line (``file:line: ...``) or the question
(``file: qid ...``); nothing here raises anything but ``ValueError``/``TypeError`` for bad
content, and ``OSError`` for a file that cannot be read. Untrusted text is only parsed with
:func:`json.loads` (nesting too deep for it is a ``ValueError`` too) and scanned in linear
time: no regular expression here can backtrack.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from json.decoder import scanstring

from .. import _check
from ..io.source import read_bytes, readable
from .scores import ReaderEvaluation, comparisons, evaluate_reader

__all__ = ["ReaderGold", "ReaderPredictions", "read_squad", "read_predictions",
           "evaluate_files", "shown_id", "MAX_FILE_BYTES", "MAX_COMPARISONS"]

JSONL_SUFFIXES = (".jsonl", ".ndjson")
MAX_FILE_BYTES = 128 * 2**20     # 3 x SQuAD 2.0's train set (40 MiB); bounds memory, .gz included
MAX_COMPARISONS = 10_000_000     # predicted x gold answers compared: bounds a file's work
MAX_DEPTH_SHOWN = 500            # nesting reported as too deep when json.loads gives up
MAX_ID_SHOWN = 60                # longer (or unprintable) question ids are quoted and cut


@dataclass(frozen=True)
class ReaderGold:
    """Gold answers read from a SQuAD file: ``answers[qid]`` (``[]`` when unanswerable),
    ``questions[qid]`` (the question text) and ``lines[qid]`` (where the id is written)."""

    path: str
    answers: dict[str, list[str]]
    questions: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class ReaderPredictions:
    """Predicted answers, best first: ``answers[qid]``; ``retrieved[qid]`` when the file
    says whether retrieval was correct; ``lines[qid]`` where the question's entry is."""

    path: str
    answers: dict[str, list[str | None]]
    retrieved: dict[str, bool] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    format: str = "json"


def shown_id(qid: str) -> str:
    """A question id as it appears in a message: as written when short and printable,
    else quoted with its escapes and cut (a hostile id cannot flood or drive a terminal).

    >>> shown_id("pe-1"), shown_id("a\\x1b[2Jb"), len(shown_id("x" * 1000))
    ('pe-1', "'a\\\\x1b[2Jb'", 60)
    """
    if len(qid) <= MAX_ID_SHOWN and qid.isprintable():
        return qid
    return _check._short(qid, MAX_ID_SHOWN)


def _line_breaks(data: bytes) -> int:
    """Line breaks in ``data``: ``\\n``, ``\\r\\n`` and a lone ``\\r`` each count once."""
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")


def _read_text(source, name: str | None) -> tuple[str, str]:
    """The name to show and the file's text (UTF-8, BOM skipped, every line break made
    ``\\n``), at most :data:`MAX_FILE_BYTES` (gunzipped in blocks when the name ends in
    ``.gz``, stopping at the limit); OSError (missing, directory, permission) passes through."""
    file = readable(source, name)
    name = str(source) if name is None else name  # a path as the user wrote it
    data = read_bytes(file, MAX_FILE_BYTES)  # FileFormatError (a ValueError) past the limit
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = _line_breaks(data[: err.start]) + 1
        raise ValueError(f"{name}:{line}: not UTF-8 text (byte {data[err.start]:#04x})") from None
    if "\r" in text:
        # outside strings a CR is whitespace, inside one it is an error either way (JSON
        # strings cannot hold a raw line break): one form of line break gives line numbers
        # as editors show them
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return name, text


# --------------------------------------------------------------------------- scanning

_WS = re.compile(r"[ \t\n\r]*")       # one character class: cannot backtrack
_BRACKETS = re.compile(r"[\[\]{}]")


def _scan(text: str):
    """Walk JSON text once, in linear time: yield ``(kind, line, value, depth, keys)``.

    ``kind`` is ``"open"`` for ``[``/``{`` (``depth`` counts it), ``"key"`` for an object
    key, ``"string"`` for any other string, ``"gap"`` for the text between two strings
    (``value`` is its ``(start, end)``); ``keys`` is the set of keys seen so far in the
    innermost object (None in an array). Valid JSON is walked to its end; invalid text
    up to the first string that does not parse. Strings are read by the ``json`` module's
    own scanner, so a quote inside a string never starts a new one.

    >>> [(k, line, v, d) for k, line, v, d, _ in _scan('{"a": [1,\\n "b\\\\"c"], "d": {}}')
    ...  if k != "gap"]
    [('open', 1, '{', 1), ('key', 1, 'a', 1), ('open', 1, '[', 2), ('string', 2, 'b"c', 2), ('key', 2, 'd', 1), ('open', 2, '{', 2)]
    """
    stack: list[set | None] = []
    line, counted, pos, n = 1, 0, 0, len(text)
    while pos < n:
        quote = text.find('"', pos)
        gap_end = n if quote < 0 else quote
        line += text.count("\n", counted, pos)
        counted = pos
        yield "gap", line, (pos, gap_end), len(stack), None
        for m in _BRACKETS.finditer(text, pos, gap_end):
            line += text.count("\n", counted, m.start())
            counted = m.start()
            if m.group() in "[{":
                stack.append(set() if m.group() == "{" else None)
                yield "open", line, m.group(), len(stack), stack[-1]
            elif stack:
                stack.pop()
        if quote < 0:
            return
        line += text.count("\n", counted, quote)
        counted = quote
        try:
            value, pos = scanstring(text, quote + 1)
        except ValueError:  # an unterminated string or a raw control character
            return
        colon = _WS.match(text, pos).end()
        keys = stack[-1] if stack else None
        if colon < n and text[colon] == ":":
            yield "key", line, value, len(stack), keys
            if keys is not None:
                keys.add(value)
        else:
            yield "string", line, value, len(stack), keys


def _top_key_lines(text: str) -> dict[str, int]:
    """The line of each key of the outermost object (the first, if written twice).

    >>> _top_key_lines('{"a": 1,\\n "b": {"a": 2, "c": 3}}')
    {'a': 1, 'b': 2}
    """
    out: dict[str, int] = {}
    for kind, line, value, depth, _ in _scan(text):
        if kind == "key" and depth == 1:
            out.setdefault(value, line)
    return out


def _id_lines(text: str) -> dict[str, list[int]]:
    """The lines of each string written as the value of an ``"id"`` key, in order.

    ``text`` must be valid JSON. Then a ``"id"`` whose first quote does not follow a
    backslash is the string ``id`` itself: a quote inside a string is escaped, an opening
    quote never follows a backslash, and a closing quote followed by ``id"`` would not be
    JSON. So the ids are found with ``str.find``, in one pass over the text, not by
    reading every string.

    >>> text = '[{"id": "q1"},\\n {"id": 5, "q1\\\\"id": "q2"}, {"id":\\n"q1"}]'
    >>> json.loads(text)[1]  # the key q1"id is not an "id"
    {'id': 5, 'q1"id': 'q2'}
    >>> _id_lines(text)
    {'q1': [1, 3]}
    """
    out: dict[str, list[int]] = {}
    line, counted, pos = 1, 0, 0
    while (at := text.find('"id"', pos)) >= 0:
        pos = at + 4
        if at and text[at - 1] == "\\":
            continue
        colon = _WS.match(text, pos).end()
        if not text.startswith(":", colon):
            continue
        quote = _WS.match(text, colon + 1).end()
        if not text.startswith('"', quote):
            continue
        try:
            value, pos = scanstring(text, quote + 1)
        except ValueError:
            return out
        line += text.count("\n", counted, quote)
        counted = quote
        out.setdefault(value, []).append(line)
    return out


def _duplicate_line(text: str) -> int | None:
    """The line where a key is written a second time in one object."""
    for kind, line, value, _, keys in _scan(text):
        if kind == "key" and keys is not None and value in keys:
            return line
    return None


def _number_line(text: str, digits: str) -> int | None:
    """The line of the first number written ``digits`` (outside strings).

    >>> _number_line('{"a": "123",\\n "b": 123}', "123")
    2
    """
    for kind, line, value, _, _ in _scan(text):
        if kind == "gap":
            at = text.find(digits, *value)
            if at >= 0:
                return line + text.count("\n", value[0], at)
    return None


def _too_deep_line(text: str) -> int:
    """The first line nested deeper than MAX_DEPTH_SHOWN (else the deepest one)."""
    deepest, where = 0, 1
    for kind, line, _, depth, _ in _scan(text):
        if kind == "open" and depth > deepest:
            deepest, where = depth, line
            if depth > MAX_DEPTH_SHOWN:
                break
    return where


class _DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


class _LongNumber(ValueError):
    def __init__(self, digits: str):
        super().__init__(digits)
        self.digits = digits


def _int(digits: str) -> int:
    if len(digits) > 4_000:  # Python refuses to convert more than 4,300 digits
        raise _LongNumber(digits)
    return int(digits)


def _pairs(items):
    seen = {}
    for key, value in items:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


def _load_json(name: str, text: str, *, line: int | None = None):
    """Parse JSON (the whole file, or its line ``line``); errors as ``file:line:col``
    messages; a key written twice in one object is an error."""
    offset = line - 1 if line else 0
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_int=_int)
    except json.JSONDecodeError as err:
        raise ValueError(f"{name}:{err.lineno + offset}:{err.colno}: malformed JSON: "
                         f"{err.msg}") from None
    except _DuplicateKey as err:
        at = _duplicate_line(text)
        where = f"{name}:{at + offset}" if at else name
        raise ValueError(f"{where}: key {_check._short(err.key)} appears twice") from None
    except RecursionError:
        raise ValueError(f"{name}:{_too_deep_line(text) + offset}: JSON nested too deeply "
                         f"(more than {MAX_DEPTH_SHOWN} levels of [ and {{)") from None
    except _LongNumber as err:
        at = _number_line(text, err.digits)
        where = f"{name}:{at + offset}" if at else name
        raise ValueError(f"{where}: a number of {len(err.digits.lstrip('-')):,} digits: too long "
                         "(at most 4,000)") from None


def _valid_text(value: str, at: str, what: str) -> str:
    """``value`` unless it holds a lone surrogate (``"\\ud800"``), which is no character."""
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as err:
            raise ValueError(f"{at}: {what} holds {value[err.start]!r}, half of a surrogate "
                             "pair: not a character") from None
    return value


# --------------------------------------------------------------------------- gold

def read_squad(source, *, name: str | None = None) -> ReaderGold:
    """Read a SQuAD 1.1/2.0 dataset file into gold answers per question id.

    Gold answers are kept as written (normalisation happens when scoring); a question with
    ``"is_impossible": true`` must have no ``answers`` (SQuAD 2.0 keeps the would-be
    answers under ``plausible_answers``, which are ignored). ``source`` is a path, or the
    file's bytes with the ``name`` that messages show.

    >>> data = b'''{"data": [{"paragraphs": [{"qas": [
    ...   {"id": "q1", "question": "Who won?", "answers": [{"text": "Denver Broncos"}]},
    ...   {"id": "q2", "question": "Why?", "answers": [], "is_impossible": true}]}]}]}'''
    >>> gold = read_squad(data, name="dev.json")
    >>> gold.answers, gold.lines  # q1 is written on line 2, q2 on line 3
    ({'q1': ['Denver Broncos'], 'q2': []}, {'q1': 2, 'q2': 3})
    >>> read_squad(data.replace(b'"Why?"', b'7'), name="dev.json")
    Traceback (most recent call last):
    ...
    ValueError: dev.json:3: q2: "question" must be a string, got 7
    """
    name, text = _read_text(source, name)
    doc = _load_json(name, text)
    if not isinstance(doc, dict) or not isinstance(doc.get("data"), list):
        raise ValueError(f"{name}:1: not a SQuAD dataset: expected an object with a \"data\" "
                         "list (SQuAD 1.1/2.0 JSON)")
    answers: dict[str, list[str]] = {}
    questions: dict[str, str] = {}
    lines: dict[str, int] = {}
    id_lines = _id_lines(text)
    seen_count: dict[str, int] = {}
    for a, article in enumerate(doc["data"]):
        where = f"data[{a}]"
        if not isinstance(article, dict) or not isinstance(article.get("paragraphs"), list):
            raise ValueError(f"{name}: {where}: expected an object with a \"paragraphs\" list")
        for p, paragraph in enumerate(article["paragraphs"]):
            pwhere = f"{where}.paragraphs[{p}]"
            if not isinstance(paragraph, dict) or not isinstance(paragraph.get("qas"), list):
                raise ValueError(f"{name}: {pwhere}: expected an object with a \"qas\" list")
            for i, qa in enumerate(paragraph["qas"]):
                qwhere = f"{pwhere}.qas[{i}]"
                if not isinstance(qa, dict):
                    raise ValueError(f"{name}: {qwhere}: expected a question object")
                qid = qa.get("id")
                if not isinstance(qid, str) or not qid:
                    raise ValueError(f"{name}: {qwhere}: \"id\" must be a non-empty string, got "
                                     f"{_check._short(qid)}")
                seen = id_lines.get(qid, [])
                line = seen[min(seen_count.get(qid, 0), len(seen) - 1)] if seen else 0
                seen_count[qid] = seen_count.get(qid, 0) + 1
                at = f"{name}:{line}: {shown_id(qid)}" if line else f"{name}: {shown_id(qid)}"
                _valid_text(qid, at, "the question id")
                if qid in answers:
                    raise ValueError(f"{at}: question id appears twice (first at line "
                                     f"{lines.get(qid) or '?'})")
                question = qa.get("question", "")
                if not isinstance(question, str):
                    raise ValueError(f"{at}: \"question\" must be a string, got "
                                     f"{_check._short(question)}")
                _valid_text(question, at, "the question")
                raw = qa.get("answers", [])
                if not isinstance(raw, list):
                    raise ValueError(f"{at}: \"answers\" must be a list, got {_check._short(raw)}")
                golds = []
                for j, ans in enumerate(raw):
                    if not isinstance(ans, dict) or "text" not in ans:
                        raise ValueError(f"{at}: answers[{j}] must be an object with a \"text\"")
                    if not isinstance(ans["text"], str):
                        raise ValueError(f"{at}: answers[{j}].text must be a string, got "
                                         f"{_check._short(ans['text'])} "
                                         f"({type(ans['text']).__name__})")
                    golds.append(_valid_text(ans["text"], at, f"answers[{j}].text"))
                impossible = qa.get("is_impossible", False)
                if not isinstance(impossible, bool):
                    raise ValueError(f"{at}: \"is_impossible\" must be true or false, got "
                                     f"{_check._short(impossible)}")
                if impossible and golds:
                    raise ValueError(f"{at}: \"is_impossible\" is true but {len(golds)} "
                                     "answer(s) are given (SQuAD 2.0 puts them under "
                                     "\"plausible_answers\")")
                answers[qid], questions[qid], lines[qid] = golds, question, line
    if not answers:
        raise ValueError(f"{name}: no questions in the dataset")
    return ReaderGold(name, answers, questions, lines)


# --------------------------------------------------------------------------- predictions

def _answer_list(value, at: str) -> list[str | None]:
    if value is None:
        return [None]
    if isinstance(value, str):
        return [_valid_text(value, at, "the answer")]
    if isinstance(value, list):
        for j, item in enumerate(value):
            if item is not None and not isinstance(item, str):
                raise ValueError(f"{at}: answer {j + 1} must be a string or null, got "
                                 f"{_check._short(item)} ({type(item).__name__})")
            if item is not None:
                _valid_text(item, at, f"answer {j + 1}")
        return list(value)
    raise ValueError(f"{at}: the answer must be a string, null or a list of strings, got "
                     f"{_check._short(value)} ({type(value).__name__})")


def _read_predictions_json(name: str, text: str) -> ReaderPredictions:
    doc = _load_json(name, text)
    if not isinstance(doc, dict):
        raise ValueError(f"{name}:1: predictions must be a JSON object {{\"qid\": \"answer\"}}, "
                         f"got a {type(doc).__name__}")
    answers, lines = {}, {}
    key_lines = _top_key_lines(text)
    for qid, value in doc.items():
        line = key_lines.get(qid, 0)
        at = f"{name}:{line}: {shown_id(qid)}" if line else f"{name}: {shown_id(qid)}"
        if not qid:
            raise ValueError(f"{at}: a question id must not be empty")
        _valid_text(qid, at, "the question id")
        answers[qid] = _answer_list(value, at)
        lines[qid] = line
    return ReaderPredictions(name, answers, {}, lines, "json")


def _is_comment(line: str) -> bool:
    stripped = line.lstrip()
    return stripped.startswith("#")


def _read_predictions_jsonl(name: str, text: str) -> ReaderPredictions:
    answers, retrieved, lines = {}, {}, {}
    for n, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip() or _is_comment(raw):
            continue
        obj = _load_json(name, raw, line=n)
        if not isinstance(obj, dict):
            raise ValueError(f"{name}:{n}: expected an object {{\"id\": ..., \"answers\": [...]}}, "
                             f"got {_check._short(obj)}")
        qid = obj.get("id")
        if not isinstance(qid, str) or not qid:
            raise ValueError(f"{name}:{n}: \"id\" must be a non-empty string, got "
                             f"{_check._short(qid)}")
        at = f"{name}:{n}: {shown_id(qid)}"
        _valid_text(qid, at, "the question id")
        if qid in answers:
            raise ValueError(f"{at}: question id appears twice (first at line {lines[qid]})")
        if "answers" not in obj:
            raise ValueError(f"{at}: missing \"answers\" (a list of answers, best first)")
        answers[qid] = _answer_list(obj["answers"], at)
        lines[qid] = n
        if "retrieved" in obj:
            if not isinstance(obj["retrieved"], bool):
                raise ValueError(f"{at}: \"retrieved\" must be true or false, got "
                                 f"{_check._short(obj['retrieved'])}")
            retrieved[qid] = obj["retrieved"]
        unknown = sorted(set(obj) - {"id", "answers", "retrieved"})
        if unknown:
            raise ValueError(f"{at}: unknown field {_check._short(unknown[0])} "
                             "(expected id, answers, retrieved)")
    if not answers:
        raise ValueError(f"{name}: no predictions in the file (only blank or # comment lines)")
    return ReaderPredictions(name, answers, retrieved, lines, "jsonl")


_NON_BLANK = re.compile(r"[^ \t\n\r]")


def _sniff(text: str) -> str:
    """``"jsonl"`` when the first non-blank line is a ``#`` comment or a whole JSON object
    followed by more lines (or one JSON Lines record on its own), else ``"json"``.

    Only the first line is parsed, so a big JSON file is not parsed twice.

    >>> _sniff('{"q1": "a"}'), _sniff('{"id": "q1", "answers": []}'), _sniff('# x\\n{')
    ('json', 'jsonl', 'jsonl')
    >>> _sniff('{"id": "q1", "answers": []}\\n{"id": "q2", "answers": []}'), _sniff('{\\n"q1": ""}')
    ('jsonl', 'json')
    """
    start = _WS.match(text).end()
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    first = text[start:end]
    if first.startswith("#"):
        return "jsonl"
    try:
        obj = json.loads(first)
    except (ValueError, RecursionError):
        return "json"
    if not isinstance(obj, dict):
        return "json"
    if _NON_BLANK.search(text, end):
        return "jsonl"
    record = "id" in obj and "answers" in obj and set(obj) <= {"id", "answers", "retrieved"}
    return "jsonl" if record else "json"


def read_predictions(source, *, name: str | None = None, format: str = "auto") -> ReaderPredictions:
    """Read predictions: a JSON object ``{qid: answer}`` or JSON Lines with ranked answers.

    ``format="auto"`` reads ``.jsonl``/``.ndjson`` files (``.gz`` or not) as JSON Lines
    and anything else as JSON, unless its first line says it is JSON Lines (a ``#``
    comment, or an object followed by more lines). ``source`` is a path, or the file's
    bytes with the ``name`` that messages show (and whose suffix ``format="auto"`` reads).

    >>> preds = read_predictions(b'{"q1": "Broncos", "q2": ""}', name="preds.json")
    >>> preds.format, preds.answers
    ('json', {'q1': ['Broncos'], 'q2': ['']})
    >>> lines = b'{"id": "q1", "answers": ["Broncos", "Denver"]}\\n{"id": "q2", "answers": 5}'
    >>> read_predictions(lines, name="preds.jsonl")
    Traceback (most recent call last):
    ...
    ValueError: preds.jsonl:2: q2: the answer must be a string, null or a list of strings, got 5 (int)
    """
    format = _check.choice(format, "format", ("auto", "json", "jsonl"))
    name, text = _read_text(source, name)
    if format == "auto":
        plain = name.removesuffix(".gz").lower()
        format = "jsonl" if plain.endswith(JSONL_SUFFIXES) else _sniff(text)
    if format == "jsonl":
        return _read_predictions_jsonl(name, text)
    return _read_predictions_json(name, text)


# --------------------------------------------------------------------------- both

def evaluate_files(gold_path, pred_path, *, k: int | None = None, unit: str = "token",
                   format: str = "auto") -> tuple[ReaderEvaluation, ReaderGold, ReaderPredictions]:
    """Read a SQuAD dataset and predictions and compute the twelve reader metrics.

    Every question of the dataset needs a prediction (``""`` or ``[]`` abstains) and every
    prediction a question; otherwise the error names the file, the line and the question.
    At most :data:`MAX_COMPARISONS` (predicted answer, gold answer) pairs are scored.
    """
    k = _check.positive_int(k, "k")
    gold = read_squad(gold_path)
    preds = read_predictions(pred_path, format=format)
    for qid in preds.answers:
        if qid not in gold.answers:
            line = preds.lines.get(qid)
            raise ValueError(f"{preds.path}:{line}: {shown_id(qid)}: not a question of {gold.path}"
                             if line else
                             f"{preds.path}: {shown_id(qid)}: not a question of {gold.path}")
    absent = [q for q in gold.answers if q not in preds.answers]
    if absent:
        more = f" ({len(absent) - 1} more question(s) have none)" if len(absent) > 1 else ""
        raise ValueError(f"{preds.path}: {shown_id(absent[0])}: no prediction for this question "
                         f"({gold.path}:{gold.lines.get(absent[0]) or '?'}){more}; "
                         "write \"\" (or [] in JSON Lines) to abstain")
    pairs = comparisons(gold.answers, preds.answers, k=k)
    if pairs > MAX_COMPARISONS:
        raise ValueError(f"{preds.path}: {pairs:,} comparisons of a predicted with a gold answer "
                         f"is more than the {MAX_COMPARISONS:,} allowed: use -k to score fewer "
                         "answers per question, or split the files")
    retrieved = None
    if preds.retrieved:
        retrieved = {q: preds.retrieved.get(q, True) for q in gold.answers}
    ev = evaluate_reader(gold.answers, preds.answers, k=k, unit=unit, retrieved=retrieved)
    return ev, gold, preds
