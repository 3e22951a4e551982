"""The compare page with several systems and fusion (AppTest). Oracles: scipy.stats for the p-values,
hand-computed RRF values for the fused run."""

from __future__ import annotations

import pytest

from tests.app.conftest import tables
from tests.app.test_teach_pages import open_page, texts

stats = pytest.importorskip("scipy.stats")
MANY_SAMPLE = "Several systems: the sample collection"
MANY_UPLOAD = "Several systems: upload qrels and runs"


def _frame(at, column):
    return next(df for df in tables(at, numbers=True) if column in df.columns)


def test_sample_collection_three_systems_with_fusion():
    at = open_page("compare")
    at.radio(key="compare.source").set_value(MANY_SAMPLE).run()
    assert not at.exception and not at.error
    systems = _frame(at, "95% CI low").set_index("system")
    assert list(systems.index) == ["BM25", "TF"]
    assert systems.loc["BM25", "95% CI low"] < systems.loc["BM25", "mean"] < systems.loc["BM25", "95% CI high"]
    assert len(at.get("vega_lite_chart")) >= 3           # means with CIs, sorted deltas, power curve
    at.checkbox(key="compare.fuse.on").check().run()
    assert not at.exception and not at.error
    pairs = _frame(at, "pair")
    assert len(pairs) == 3 and any("fused (rrf)" in p for p in pairs["pair"])
    assert "superscript letter" in texts(at.code)


def test_uploaded_runs_agree_with_scipy():
    q = "".join(f"t{i} 0 d{i} 1\n" for i in range(6)).encode()
    a = "".join(f"t{i} Q0 d{i} 1 2 a\n" for i in range(6)).encode()                       # RR 1 everywhere
    b = "".join(f"t{i} Q0 x 1 2 b\nt{i} Q0 d{i} 2 1 b\n" for i in range(6)).encode()        # RR 1/2
    c = "".join(f"t{i} Q0 x 1 3 c\n" + ("" if i % 2 else f"t{i} Q0 d{i} 2 1 c\n") for i in range(6)).encode()
    at = open_page("compare")
    at.radio(key="compare.source").set_value(MANY_UPLOAD).run()
    assert at.info
    at.file_uploader(key="compare.many.qrels").set_value(("qrels.txt", q, "text/plain"))
    at.file_uploader(key="compare.many.runs").set_value([("a.txt", a, "text/plain"), ("b.txt", b, "text/plain"),
                                                          ("c.txt", c, "text/plain")])
    at.run()
    assert not at.exception and not at.error, texts(at.error)
    at.text_input(key="compare.many.measures").set_value("RR").run()
    assert not at.exception and not at.error, texts(at.error)
    assert "only 6 topics" in texts(at.warning)
    pairs = _frame(at, "pair").set_index("pair")
    rr = {"a": [1.0] * 6, "b": [0.5] * 6, "c": [0.5 if i % 2 == 0 else 0.0 for i in range(6)]}
    want = stats.ttest_rel(rr["c"], rr["b"]).pvalue
    assert pairs.loc["c − b", "p t-test"] == pytest.approx(want, abs=5e-5)  # shown with 4 decimals
    assert pairs.loc["c − a", "delta"] == pytest.approx(-0.75)


def test_upload_errors_keep_the_page():
    at = open_page("compare")
    at.radio(key="compare.source").set_value(MANY_UPLOAD).run()
    at.file_uploader(key="compare.many.qrels").set_value(("qrels.txt", b"t1 0 d1 1\n", "text/plain"))
    at.file_uploader(key="compare.many.runs").set_value([("a.txt", b"t1 Q0 d1 1 2 a\n", "text/plain"),
                                                          ("b.txt", b"t1 Q0 d1 1 nan b\n<script>", "text/plain")])
    at.run()
    assert not at.exception and "b.txt" in texts(at.error)


def test_fusion_method_choice_reaches_the_table():
    """The fused run the page adds is metrics.fusion's (hand-checked in tests/metrics/test_fusion.py), evaluated
    like any run: its AP mean equals pytrec_eval's on the same fused run."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    from pathlib import Path

    from metrics import fusion
    from metrics import io as metrics_io

    at = open_page("compare")
    at.radio(key="compare.source").set_value(MANY_SAMPLE).run()
    at.checkbox(key="compare.fuse.on").check().run()
    at.selectbox(key="compare.fuse.method").set_value("combmnz").run()
    at.selectbox(key="compare.fuse.norm").set_value("zscore").run()
    assert not at.exception and not at.error
    systems = _frame(at, "95% CI low").set_index("system")
    assert "fused (combmnz)" in systems.index
    folder = Path(__file__).resolve().parents[2] / "assets" / "collection"
    qrels = metrics_io.read_qrels(folder / "qrels.txt").to_dict()
    runs = [metrics_io.read_run(folder / f"run_{n}.txt").to_dict() for n in ("bm25", "tf")]
    fused = fusion.fuse(runs, method="combmnz", norm="zscore")
    per = pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(fused)
    want = sum(per.get(q, {}).get("map", 0.0) for q in qrels) / len(qrels)
    assert systems.loc["fused (combmnz)", "mean"] == pytest.approx(want, abs=5e-5)


def test_the_captions_state_the_settings_metrics_used(monkeypatch):
    """The captions read metrics' defaults instead of repeating them: with 1,000 sign patterns
    the randomization test enumerates every pattern up to 9 queries (2^9 = 512 <= 1,000 < 2^10),
    and the caption of the two-system page says so."""
    from metrics import stats as metrics_stats

    monkeypatch.setattr(metrics_stats, "ROUNDS", 1000)
    at = open_page("compare")
    assert not at.exception and not at.error
    assert "at most 9 queries, else 1,000 seeded draws" in texts(at.caption)
    at.radio(key="compare.source").set_value(MANY_SAMPLE).run()
    assert not at.exception and not at.error
    # compare_systems ran with its own defaults: 10,000 resamples and rounds (2^13 = 8,192 <= 10,000)
    caption = texts(at.caption)
    assert "10,000 resamples, seed 0" in caption and "up to 13 topics, else 10,000 seeded ones" in caption
    assert "exact without ties up to 50 topics" in caption


def test_both_upload_forms_refuse_a_file_over_the_limit(monkeypatch):
    """The two systems' uploads and the several systems' uploads pass the same check
    (ranklab_ui.widgets.files.read_upload): over the limit, the file is named with its size."""
    from tests.app.test_file_inputs import shown

    monkeypatch.setattr("ranklab_ui.widgets.files.MAX_UPLOAD_MB", 0)
    at = open_page("compare")
    at.radio(key="compare.source").set_value("Upload qrels and two runs").run()
    for i, name in enumerate(("qrels.txt", "a.txt", "b.txt")):
        at.file_uploader(key=f"compare.upload.{i}").set_value((name, b"q1 0 d1 1\n", "text/plain"))
    at.run()
    assert not at.exception
    assert [shown(e.value) for e in at.error] == ["qrels (qrels.txt): 0.0 MB is too large (at most 0 MB)."]
    at.radio(key="compare.source").set_value(MANY_UPLOAD).run()
    at.file_uploader(key="compare.many.qrels").set_value(("judged.txt", b"q1 0 d1 1\n", "text/plain"))
    at.file_uploader(key="compare.many.runs").set_value([("a.txt", b"q1 Q0 d1 1 2 a\n", "text/plain"),
                                                          ("b.txt", b"q1 Q0 d1 1 1 b\n", "text/plain")])
    at.run()
    assert not at.exception
    assert [shown(e.value) for e in at.error] == ["judged.txt: 0.0 MB is too large (at most 0 MB)."]
