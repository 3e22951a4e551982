"""Every page with AppTest: no exception, the seed's numbers, edits, presets, permalinks."""

import pytest

from ranklab_ui.core import codec, presets
from ranklab_ui.session import keys

from .conftest import (
    PAGES,
    charts,
    drawn,
    edit,
    editor_data,
    example,
    grade,
    k_slider,
    links_shown,
    metrics_shown,
    move,
    new_app,
    to_tray,
)

# the Pinecone notebook, cat in the box (relevant at 2, 4, 5, 7 of 8)
RECALL = [0, .25, .25, .5, .75, .75, 1, 1]
PRECISION = [0, .5, .33, .5, .6, .5, .57, .5]
# the Pinecone notebook, white cat in the box: grades 0, 4, 1, 3, 4, 1, 3, 2
NDCG = [0, .39, .38, .46, .58, .6, .67, .73]


@pytest.mark.parametrize("preset", list(presets.PRESETS))
def test_every_page_runs_on_every_preset(preset):
    at = new_app()
    at.run()
    at.selectbox(key=drawn(at, keys.preset("playground"))).set_value(preset).run()
    assert example(at) == presets.build_preset(preset)
    for page in PAGES:
        at.switch_page(page)
        at.run()
        assert not at.exception, (page, at.exception)
        assert not at.error, (page, [e.value for e in at.error])


def test_cat_in_the_box_precision_and_recall_at_every_k(app):
    app.switch_page("app_pages/lesson_precision_recall.py")
    app.run()
    for k in range(1, 9):
        k_slider(app, "lesson_pr").set_value(k).run()
        shown = metrics_shown(app)
        assert round(float(shown[f"R@{k}"]), 2) == RECALL[k - 1]
        assert round(float(shown[f"P@{k}"]), 2) == PRECISION[k - 1]
        app.run()  # AppTest keeps only what a fragment rerun drew; the browser keeps the page


def test_a_new_k_on_a_lesson_shows_the_measures_at_k(app):
    """The slider lives in the lesson body's fragment (AppTest reruns the whole script for a
    widget of a fragment; tests/browser/test_k_runs_browser.py checks in Chromium that a new k
    is one run of the body, the header not sent again)."""
    app.switch_page("app_pages/lesson_precision_recall.py")
    app.run()
    assert [t.value for t in app.title] == ["Precision, recall and F1 at k"]
    k_slider(app, "lesson_pr").set_value(4).run()
    assert round(float(metrics_shown(app)["P@4"]), 2) == PRECISION[3]


def test_white_cat_ndcg_at_every_k(app):
    app.selectbox(key=drawn(app, keys.preset("playground"))).set_value("white-cat").run()
    app.switch_page("app_pages/lesson_dcg.py")
    app.run()
    for k in range(1, 9):
        k_slider(app, "lesson_dcg").set_value(k).run()
        assert round(float(metrics_shown(app)[f"nDCG@{k}"]), 2) == NDCG[k - 1]
        app.run()  # AppTest keeps only what a fragment rerun drew; the browser keeps the page


def test_confusion_matrix_at_k_2_is_the_seeds(app):
    app.switch_page("app_pages/lesson_precision_recall.py")
    app.run()
    cells = next(data for spec, data in charts(app) if "confusion" in str(spec.get("title", "")))
    # the Pinecone notebook: top 2 predicted positive → 1 TP, 1 FP, 3 FN, 3 TN
    assert dict(zip(cells["cell"], cells["count"], strict=True)) == {"TP": 1, "FP": 1, "FN": 3, "TN": 3}


def test_editing_a_grade_changes_the_values(app):
    assert links_shown(app)["Precision@2"] == "0.5"
    grade(app, 1, 1)                              # the cat at rank 1 becomes relevant
    assert not app.exception and not app.error
    shown = links_shown(app)
    assert shown["Precision@2"] == "1"            # 2 of the top 2
    assert shown["Recall@2"] == "0.4"             # 2 of now 5 relevant
    assert shown["RR@2"] == "1"
    assert example(app).query.ranking[0].grade == 1
    app.switch_page("app_pages/lesson_average_precision.py")  # the other pages see the edit
    app.run()
    k_slider(app, "lesson_ap").set_value(8).run()
    # AP = (1/1 + 2/2 + 3/4 + 4/5 + 5/7) / 5
    assert metrics_shown(app)["AP@8 (divided by R = 5)"] == f"{(1 + 1 + 3 / 4 + 4 / 5 + 5 / 7) / 5:.4f}"


def test_the_run_that_applies_an_edit_shows_it_everywhere(app):
    """The editor's events are applied before the page is drawn (its callback): the very run
    that applies an edit shows it in the preset note, the k slider, the editor and the measures."""
    assert any(c.value.startswith("Loaded: ") for c in app.caption)

    def change(ranking, tray):
        ranking[0][2] = 3
        ranking.append(["n1", "new", 2])

    edit(app, change)
    assert editor_data(app)["ranking"][0] == ["1", "🐱 cat", 3] and editor_data(app)["ranking"][-1] == ["n1", "new", 2]
    assert k_slider(app, "playground").max == 9                                     # 8 items + the new one
    assert any(c.value.startswith("Started from: ") and "(edited since)" in c.value for c in app.caption)
    # binary: relevant at 1, 2 (the Pinecone notebook's #2 is a hit), 4, 5, 7, 9 -> P@2 = 2/2, R@2 = 2/6
    assert links_shown(app)["Precision@2"] == "1" and links_shown(app)["Recall@2"] == "0.3333"


def test_graded_mode_uses_the_grades(app):
    grade(app, 2, 3)
    app.switch_page("app_pages/lesson_dcg.py")
    app.run()
    k_slider(app, "lesson_dcg").set_value(2).run()
    assert metrics_shown(app)["DCG@2"] == f"{1 / 1.5849625007211562:.4f}"   # binary: gain 1 at rank 2
    app.button_group(key=drawn(app, keys.mode("lesson_dcg"))).set_value("graded").run()
    # graded: gain 3 at rank 2 → 3 / log2(3); the ideal puts 3 first, then the three 1s
    assert example(app).mode == "graded"
    assert metrics_shown(app)["DCG@2"] == f"{3 / 1.5849625007211562:.4f}"
    assert metrics_shown(app)["IDCG@2"] == f"{3 + 1 / 1.5849625007211562:.4f}"


def test_moving_an_item_up(app):
    move(app, 2, 1)                              # Alt+↑ on rank 2
    assert [i.id for i in example(app).query.ranking][:2] == ["2", "1"]
    assert links_shown(app)["RR@2"] == "1"
    assert [row[0] for row in editor_data(app)["ranking"]][:2] == ["2", "1"]


def test_moving_to_the_tray_keeps_it_in_r(app):
    to_tray(app, 2)                              # Delete on rank 2
    q = example(app).query
    assert [i.id for i in q.tray] == ["2"] and len(q.ranking) == 7
    assert links_shown(app)["Recall@2"] == "0"   # top 2 is now 1, 3: neither relevant; R still 4
    assert editor_data(app)["tray"] == [["2", "🐱📦 cat in a box", 1]]


def test_adding_and_removing_results(app):
    edit(app, lambda ranking, tray: ranking.append(["n1", "new cat", 1]))
    q = example(app).query
    assert len(q.ranking) == 9 and q.ranking[-1].label == "new cat" and q.ranking[-1].id == "n1"
    edit(app, lambda ranking, tray: ranking.pop(0))   # Shift+Delete on rank 1
    assert [i.id for i in example(app).query.ranking][0] == "2"
    assert "1" not in {i.id for i in (*example(app).query.ranking, *example(app).query.tray)}


def test_a_permalink_restores_the_example():
    wanted = presets.build_preset("dcg")
    at = new_app(ex=codec.encode(wanted))
    at.run()
    assert not at.exception
    assert example(at) == wanted
    from math import log2

    dcg = 3 + 2 / log2(3) + 3 / 2 + 0 + 1 / log2(6) + 2 / log2(7)            # 6.861
    idcg = 3 + 3 / log2(3) + 3 / 2 + 2 / log2(5) + 2 / log2(6) + 2 / log2(7)  # 8.740 (3, 3, 3, 2, 2, 2)
    assert float(links_shown(at)["nDCG@6"]) == pytest.approx(dcg / idcg, abs=5e-5)  # Wikipedia's DCG example: 0.785


def test_the_url_follows_the_example(app):
    app.selectbox(key=drawn(app, keys.preset("playground"))).set_value("three-queries").run()
    assert codec.decode(app.query_params["ex"]) == presets.build_preset("three-queries")


def test_many_queries_writes_out_mrr_and_map(app):
    app.selectbox(key=drawn(app, keys.preset("playground"))).set_value("three-queries").run()
    app.switch_page("app_pages/many_queries.py")
    app.run()
    latex = [e.value for e in app.latex]
    # the Pinecone notebook: MRR = (1/2 + 1 + 1/5) / 3; MAP = (0.5429 + 0.6679 + 0.225) / 3
    assert any(r"\frac{1}{3}\left(0.5 + 1 + 0.2\right) = 0.5667" in t for t in latex)
    assert any("0.5429 + 0.6679 + 0.225" in t and "0.4786" in t for t in latex)


def test_grouped_preset_shows_the_autorag_study_notes_values(app):
    app.selectbox(key=drawn(app, keys.preset("playground"))).set_value("grouped").run()
    shown = metrics_shown(app)
    # the AutoRAG study notes: recall 1/2, precision 2/4, MAP 5/12 over [[test-1, test-2], [test-3]]
    assert shown["R@4 (groups)"] == "0.5" and shown["P@4 (groups)"] == "0.5"
    assert shown["MAP@4 (groups)"] == "0.4167"
    app.selectbox(key=keys.query("playground")).set_value(1).run()
    assert metrics_shown(app)["MRR@4 (groups)"] == "0.375"   # (1/2 + 1/4) / 2


def test_compare_refuses_a_gzip_bomb_and_reads_a_file_near_the_cap(monkeypatch):
    import gzip

    import metrics.io

    limit = 100_000
    monkeypatch.setattr(metrics.io, "APP_MAX_BYTES", limit)
    at = new_app()
    at.run()
    at.switch_page("app_pages/compare.py").run()
    at.radio(key="compare.source").set_value("Upload qrels and two runs").run()
    qrels = "".join(f"q{q} 0 d{q}_{d} 1\n" for q in range(20) for d in range(3))
    line = "q{q} Q0 d{q}_{d} {d} {s} sys\n"
    run = "".join(line.format(q=q, d=d, s=100 - d) for q in range(20) for d in range(300))
    while len(run.encode()) > limit - 100:   # just under the cap once decompressed
        run = run[: run.rindex("\n", 0, len(run) - 1) + 1]
    at.file_uploader(key="compare.upload.0").set_value(("qrels.txt", qrels.encode(), "text/plain"))
    at.file_uploader(key="compare.upload.1").set_value(("a.txt.gz", gzip.compress(run.encode()), "application/gzip"))
    at.file_uploader(key="compare.upload.2").set_value(("b.txt", run.encode(), "text/plain"))
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert len(at.dataframe) >= 1
    bomb = gzip.compress(run.encode() + b" " * (50 * limit))
    at.file_uploader(key="compare.upload.1").set_value(("bomb.txt.gz", bomb, "application/gzip")).run()
    assert not at.exception
    message = " ".join(e.value for e in at.error).replace("\\", "")
    assert "run A" in message and "bomb.txt.gz" in message and "decompressed" in message, message
