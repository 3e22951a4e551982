"""``ranklab reader GOLD PRED``: the twelve reader (QA) metrics of the PIAF QA notes (Haystack's), from files."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys

from ..explain import num
from ..qa import MAX_FILE_BYTES, PER_QUESTION, READER_METRICS, UNITS, evaluate_files, shown_id

EXAMPLES = f"""\
examples:
  ranklab reader assets/reader/dev.json assets/reader/predictions.json
  ranklab reader assets/reader/dev.json assets/reader/predictions_topk.jsonl -k 3
  ranklab reader dev.json preds.jsonl -k 5 --format json --per-question
  ranklab reader dev.json preds.json --unit char          F1 over characters (PIAF QA notes)

GOLD is a SQuAD 1.1/2.0 dataset (JSON). PRED is SQuAD's predictions JSON {{"qid": "answer"}}
(one answer per question: top-1 = top-k) or JSON Lines {{"id": "qid", "answers": [best, ...]}}
with "retrieved": false for questions whose retriever failed (left out, as in Haystack).
An empty answer, null or "no answer" abstains: right on an unanswerable question only.

Either file may be gzip-compressed (.gz); each may hold at most {MAX_FILE_BYTES // 2**20} MiB (decompressed).
In JSON Lines, a line whose first non-blank character is # is a comment.

exit codes: 0 success; 1 bad input data (malformed JSON, missing question, non-string
answer, a file too large); 2 bad usage (bad option); 3 a file that cannot be read;
130 interrupted.
"""


def _k(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"k must be a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"k must be a positive integer, got {value}")
    return value


NAME = "reader"
HELP = "reader (QA) metrics: EM, F1, accuracy, top-1/top-k, has_answer"
DESCRIPTION = "The twelve reader metrics of the PIAF QA notes (Haystack's) for a SQuAD-style QA dataset."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("gold", metavar="GOLD", help="SQuAD 1.1/2.0 dataset JSON")
    p.add_argument("pred", metavar="PRED", help="predictions: JSON {qid: answer} or JSON Lines")
    p.add_argument("-k", type=_k, default=None, metavar="K",
                   help="topk metrics use the first K answers (default: all given)")
    p.add_argument("--unit", choices=UNITS, default="token",
                   help="F1 over tokens (SQuAD, default) or characters (the PIAF QA notes' prose)")
    p.add_argument("--format", choices=("table", "json", "csv"), default="table",
                   help="output format (default: table)")
    p.add_argument("--pred-format", choices=("auto", "json", "jsonl"), default="auto",
                   help="predictions file format (default: by extension, then by content)")
    p.add_argument("-q", "--per-question", action="store_true",
                   help="also print the six scores of every question")


def _value(x) -> str:
    return num(x, fixed=True, none="undefined")


def run(args) -> None:
    ev, gold, preds = evaluate_files(args.gold, args.pred, k=args.k, unit=args.unit,
                                     format=args.pred_format)
    for line in ev.warnings:
        print(f"ranklab: warning: {line}", file=sys.stderr)
    c = ev.counts
    k_text = "all" if args.k is None else str(args.k)
    if args.format == "json":
        out = {"gold": gold.path, "predictions": preds.path, "k": args.k, "unit": args.unit,
               "counts": c, "metrics": ev.metrics}
        if args.per_question:
            out["per_question"] = ev.per_question
        json.dump(out, sys.stdout, indent=2, allow_nan=False)
        print()
    elif args.format == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["qid", "metric", "value"])
        for name in READER_METRICS:
            v = ev.metrics[name]
            w.writerow(["all", name, "" if v is None else repr(v)])
        if args.per_question:
            for qid, row in ev.per_question.items():
                for name in PER_QUESTION:
                    w.writerow([qid, name, repr(row[name])])
        sys.stdout.write(buf.getvalue())
    else:
        width = max(map(len, READER_METRICS))
        print(f"questions {c['questions']}, correct retrievals {c['correct_retrievals']} "
              f"(answerable {c['has_answer']}, unanswerable {c['no_answer']}), "
              f"k = {k_text}, F1 over {args.unit}s")
        for name in READER_METRICS:
            print(f"{name:<{width}}  {_value(ev.metrics[name])}")
        if args.per_question:
            print()
            shown = {qid: shown_id(qid) for qid in ev.per_question}
            qw = max(5, *(len(q) for q in shown.values()))
            print(f"{'qid':<{qw}}  answerable  retrieved  " + "  ".join(PER_QUESTION))
            for qid, row in ev.per_question.items():
                cells = "  ".join(f"{row[n]:>{len(n)}.4f}" for n in PER_QUESTION)
                print(f"{shown[qid]:<{qw}}  {'yes' if row['answerable'] else 'no':<10}  "
                      f"{'yes' if row['retrieved'] else 'no':<9}  {cells}")
