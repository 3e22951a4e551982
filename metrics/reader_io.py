"""Reader (QA) files: a SQuAD 2.0 dataset, and predictions as JSON or JSON Lines.

* **Gold**: SQuAD 1.1/2.0 JSON, ``{"data": [{"paragraphs": [{"qas": [{"id", "question",
  "answers": [{"text", "answer_start"}], "is_impossible"}]}]}]}``. A question with
  ``"is_impossible": true`` (or no answer) is unanswerable.
* **Predictions, JSON** (SQuAD's own form): ``{"qid": "answer", ...}``; ``""`` or ``null``
  abstain. A value may also be a list of answers, best first.
* **Predictions, JSON Lines** (for top-k): one object per line, ``{"id": "qid", "answers":
  ["best", "second", ...]}``, optionally ``"retrieved": false`` for a question whose
  retriever missed every relevant passage (left out of the reader metrics, as in Haystack).

Every error names the file and the line (``file:line: ...``) or the question
(``file: qid ...``); nothing here raises anything but ``ValueError``/``TypeError`` for bad
content, and ``OSError`` for a file that cannot be read.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import _check
from .reader import ReaderEvaluation, evaluate_reader

__all__ = ["ReaderGold", "ReaderPredictions", "read_squad", "read_predictions",
           "evaluate_files"]

JSONL_SUFFIXES = (".jsonl", ".ndjson")


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


def _read_text(path) -> tuple[str, str]:
    name = str(path)
    data = Path(path).read_bytes()  # OSError (missing, directory, permission) passes through
    try:
        return name, data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ValueError(f"{name}:{line}: not UTF-8 text (byte {data[err.start]:#04x})") from None


class _DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _pairs(items):
    seen = {}
    for key, value in items:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


def _load_json(name: str, text: str, *, line_offset: int = 0):
    """Parse JSON; errors as ``file:line:col`` messages; a key written twice is an error."""
    try:
        return json.loads(text, object_pairs_hook=_pairs)
    except json.JSONDecodeError as err:
        raise ValueError(f"{name}:{err.lineno + line_offset}:{err.colno}: malformed JSON: "
                         f"{err.msg}") from None
    except _DuplicateKey as err:
        hits = list(re.finditer(re.escape(json.dumps(err.key)) + r"\s*:", text))
        line = text.count("\n", 0, hits[1].start()) + 1 + line_offset if len(hits) > 1 else None
        where = f"{name}:{line}" if line else name
        raise ValueError(f"{where}: key {_check._short(err.key)} appears twice") from None


_JSON_STRING = r'"(?:[^"\\\n]|\\.)*"'
_KEY = re.compile(rf"({_JSON_STRING})\s*:")
_ID = re.compile(rf'"id"\s*:\s*({_JSON_STRING})')


def _lines_of(text: str, pattern: re.Pattern) -> dict[str, list[int]]:
    """Lines of the occurrences of each JSON string captured by ``pattern``, in one pass.

    >>> _lines_of('{"a": 1,\\n "b": {"a": 2}}', _KEY)
    {'a': [1, 2], 'b': [2]}
    """
    out: dict[str, list[int]] = {}
    line, pos = 1, 0
    for m in pattern.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        try:
            value = json.loads(m.group(1))
        except ValueError:
            continue
        out.setdefault(value, []).append(line)
    return out


def read_squad(path) -> ReaderGold:
    """Read a SQuAD 1.1/2.0 dataset file into gold answers per question id.

    Gold answers are kept as written (normalisation happens when scoring); a question with
    ``"is_impossible": true`` must have no ``answers`` (SQuAD 2.0 keeps the would-be
    answers under ``plausible_answers``, which are ignored).
    """
    name, text = _read_text(path)
    doc = _load_json(name, text)
    if not isinstance(doc, dict) or not isinstance(doc.get("data"), list):
        raise ValueError(f"{name}:1: not a SQuAD dataset: expected an object with a \"data\" "
                         "list (SQuAD 1.1/2.0 JSON)")
    answers: dict[str, list[str]] = {}
    questions: dict[str, str] = {}
    lines: dict[str, int] = {}
    id_lines = _lines_of(text, _ID)
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
                at = f"{name}:{line}: {qid}" if line else f"{name}: {qid}"
                if qid in answers:
                    raise ValueError(f"{at}: question id appears twice (first at line "
                                     f"{lines.get(qid) or '?'})")
                question = qa.get("question", "")
                if not isinstance(question, str):
                    raise ValueError(f"{at}: \"question\" must be a string, got "
                                     f"{_check._short(question)}")
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
                    golds.append(ans["text"])
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


def _answer_list(value, at: str) -> list[str | None]:
    if value is None or isinstance(value, str):
        return [value]
    if isinstance(value, list):
        for j, item in enumerate(value):
            if item is not None and not isinstance(item, str):
                raise ValueError(f"{at}: answer {j + 1} must be a string or null, got "
                                 f"{_check._short(item)} ({type(item).__name__})")
        return list(value)
    raise ValueError(f"{at}: the answer must be a string, null or a list of strings, got "
                     f"{_check._short(value)} ({type(value).__name__})")


def _read_predictions_json(name: str, text: str) -> ReaderPredictions:
    doc = _load_json(name, text)
    if not isinstance(doc, dict):
        raise ValueError(f"{name}:1: predictions must be a JSON object {{\"qid\": \"answer\"}}, "
                         f"got a {type(doc).__name__}")
    answers, lines = {}, {}
    key_lines = _lines_of(text, _KEY)
    for qid, value in doc.items():
        line = key_lines.get(qid, [0])[0]
        at = f"{name}:{line}: {qid}" if line else f"{name}: {qid}"
        answers[qid] = _answer_list(value, at)
        lines[qid] = line
    return ReaderPredictions(name, answers, {}, lines, "json")


def _read_predictions_jsonl(name: str, text: str) -> ReaderPredictions:
    answers, retrieved, lines = {}, {}, {}
    for n, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        obj = _load_json(name, raw, line_offset=n - 1)
        if not isinstance(obj, dict):
            raise ValueError(f"{name}:{n}: expected an object {{\"id\": ..., \"answers\": [...]}}, "
                             f"got {_check._short(obj)}")
        qid = obj.get("id")
        if not isinstance(qid, str) or not qid:
            raise ValueError(f"{name}:{n}: \"id\" must be a non-empty string, got "
                             f"{_check._short(qid)}")
        at = f"{name}:{n}: {qid}"
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
            raise ValueError(f"{at}: unknown field {unknown[0]!r} (expected id, answers, retrieved)")
    if not answers:
        raise ValueError(f"{name}: no predictions in the file")
    return ReaderPredictions(name, answers, retrieved, lines, "jsonl")


def read_predictions(path, *, format: str = "auto") -> ReaderPredictions:
    """Read predictions: a JSON object ``{qid: answer}`` or JSON Lines with ranked answers.

    ``format="auto"`` reads ``.jsonl``/``.ndjson`` files as JSON Lines and anything else as
    JSON, falling back to JSON Lines when the file holds one object per line.
    """
    format = _check.choice(format, "format", ("auto", "json", "jsonl"))
    name, text = _read_text(path)
    if format == "auto":
        if name.lower().endswith(JSONL_SUFFIXES):
            format = "jsonl"
        else:
            try:
                json.loads(text)
                format = "json"
            except json.JSONDecodeError as err:
                first = text.lstrip().split("\n", 1)[0]
                format = "jsonl" if err.msg == "Extra data" and first.rstrip().endswith("}") else "json"
    if format == "jsonl":
        return _read_predictions_jsonl(name, text)
    return _read_predictions_json(name, text)


def evaluate_files(gold_path, pred_path, *, k: int | None = None, unit: str = "token",
                   format: str = "auto") -> tuple[ReaderEvaluation, ReaderGold, ReaderPredictions]:
    """Read a SQuAD dataset and predictions and compute the twelve reader metrics.

    Every question of the dataset needs a prediction (``""`` or ``[]`` abstains) and every
    prediction a question; otherwise the error names the file, the line and the question.
    """
    gold = read_squad(gold_path)
    preds = read_predictions(pred_path, format=format)
    for qid in preds.answers:
        if qid not in gold.answers:
            line = preds.lines.get(qid)
            raise ValueError(f"{preds.path}:{line}: {qid}: not a question of {gold.path}" if line
                             else f"{preds.path}: {qid}: not a question of {gold.path}")
    absent = [q for q in gold.answers if q not in preds.answers]
    if absent:
        more = f" ({len(absent) - 1} more question(s) have none)" if len(absent) > 1 else ""
        raise ValueError(f"{preds.path}: {absent[0]}: no prediction for this question "
                         f"({gold.path}:{gold.lines.get(absent[0]) or '?'}){more}; "
                         "write \"\" (or [] in JSON Lines) to abstain")
    retrieved = None
    if preds.retrieved:
        retrieved = {q: preds.retrieved.get(q, True) for q in gold.answers}
    ev = evaluate_reader(gold.answers, preds.answers, k=k, unit=unit, retrieved=retrieved)
    return ev, gold, preds
