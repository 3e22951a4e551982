"""``ranklab evaluate --threads N``: chunks of a streamed run parsed and evaluated on N threads
give exactly the numbers of one thread (and of the whole-file path), whatever N."""

from __future__ import annotations

import functools
import random

import pytest

from metrics.batch import evaluate_batch, evaluate_stream
from metrics.cli import EXIT_USAGE, main
from metrics.io import read_qrels, read_run
from metrics.io.stream import RunStream

MEASURES = "AP nDCG@10 P@5 Bpref RR R@100 NumRelRet"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("threads")
    rnd = random.Random(5)
    run, qrels = folder / "run.txt", folder / "qrels.txt"
    with open(run, "w") as f:
        for q in range(120):
            for r in range(rnd.randint(1, 80)):
                f.write(f"q{q} Q0 d{rnd.randrange(300)}x{r} {r + 1} {rnd.randrange(50) / 10} t\n")
    with open(qrels, "w") as f:
        for q in range(130):  # ten judged queries the run lacks
            for d in rnd.sample(range(300), 15):
                f.write(f"q{q} 0 d{d}x{rnd.randrange(80)} {rnd.randrange(-1, 3)}\n")
    return str(qrels), str(run)


@pytest.mark.parametrize("missing", ["skip", "zero"])
def test_any_number_of_threads_gives_the_numbers_of_one(files, missing):
    qrels_path, run_path = files
    qrels = read_qrels(qrels_path)
    whole = evaluate_batch(qrels, read_run(run_path), MEASURES, missing=missing)
    for threads in (1, 2, 3, 8):
        chunks = RunStream(run_path, block_size=2048, parse_workers=threads)  # dozens of chunks
        e = evaluate_stream(qrels, chunks, MEASURES, missing=missing, threads=threads)
        assert e.per_query == whole.per_query  # exactly, in the same order
        assert list(e.per_query) == list(whole.per_query)
        assert e.aggregate == whole.aggregate
        assert (e.missing_from_run, e.missing_from_qrels) == (whole.missing_from_run, whole.missing_from_qrels)


def test_the_command_prints_the_same_with_one_thread_or_many(files, capsys, monkeypatch):
    qrels, run = files
    monkeypatch.setattr("metrics.cli.evaluate.RunStream", functools.partial(RunStream, block_size=2048))
    outputs = []
    for threads in ("1", "2", "5"):
        assert main(["evaluate", qrels, run, "--stream", "--threads", threads, "-q", "-m", MEASURES]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0].count("\n") > 120 * 7


def test_an_error_in_a_chunk_surfaces_once_with_its_line(files, tmp_path, capsys, monkeypatch):
    qrels, run = files
    bad = tmp_path / "bad.txt"
    lines = open(run).read().splitlines(keepends=True)
    middle = len(lines) // 2
    lines.insert(middle, lines[middle - 1])  # line `middle` again as line middle + 1: retrieved twice
    bad.write_text("".join(lines))
    monkeypatch.setattr("metrics.cli.evaluate.RunStream", functools.partial(RunStream, block_size=2048))
    assert main(["evaluate", qrels, str(bad), "--stream", "--threads", "4"]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:{middle}: " in err and f"(lines {middle} and {middle + 1})" in err
    assert err.count("ranklab: error:") == 1 and "Traceback" not in err


@pytest.mark.parametrize("value", ["0", "-2", "257", "many"])
def test_bad_thread_counts_are_usage_errors(files, value, capsys):
    qrels, run = files
    with pytest.raises(SystemExit) as exit_:
        main(["evaluate", qrels, run, "--threads", value])
    assert exit_.value.code == EXIT_USAGE
    assert "--threads" in capsys.readouterr().err
