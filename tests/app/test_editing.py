"""Editing the Playground's grid: every change typed is applied exactly, or refused with a message."""

from streamlit.testing.v1 import AppTest

from ranklab_ui.core import codec, model, presets
from ranklab_ui.session import state

from .conftest import edit, editor_key, errors, example


def test_a_grade_typed_back_is_applied(app):
    # 0 → 1 → 0 on rank 1: the second edit equals the editor's base
    # and was taken for "no change", so the example kept grade 1
    assert example(app).query.ranking[0].grade == 0
    edit(app, edited_rows={0: {"grade": "1"}})
    assert example(app).query.ranking[0].grade == 1
    edit(app, edited_rows={0: {"grade": "0"}})
    assert not errors(app)
    assert example(app).query.ranking[0].grade == 0
    # cat in the box again: relevant at 2 only among the top 2, P@2 = 1 / 2
    assert any("Precision@2 = **0.5**" in str(link.proto.label) for link in app.get("page_link"))


def test_a_grade_typed_back_as_the_browser_reports_it_is_applied(app):
    # the browser drops an edit that equals the grid's own value: 0 → 1 → 0 reaches the
    # server as an empty edited_rows, which read as "nothing changed" and lost the 0
    edit(app, edited_rows={0: {"grade": "1"}})
    assert example(app).query.ranking[0].grade == 1
    edit(app, edited_rows={})
    assert not errors(app)
    assert example(app).query.ranking[0].grade == 0
    # the measures are drawn after the grid applied it: P@2 = 1 / 2 (relevant at 2 only)
    assert any("Precision@2 = **0.5**" in str(link.proto.label) for link in app.get("page_link"))
    edit(app, edited_rows={0: {"grade": "1"}})     # and typed again: an edit once more
    assert example(app).query.ranking[0].grade == 1


def test_a_grade_typed_just_before_a_click_elsewhere_is_kept(app):
    # a grade typed and "↓ down" clicked a moment later reach the server in one run; the
    # button's callback runs first and started the grid afresh from the example without it
    at = app
    at.session_state[editor_key(at)] = {"edited_rows": {0: {"grade": "3"}}, "added_rows": [], "deleted_rows": []}
    at.button(key="playground.pick.0.down").click().run()
    assert not errors(at)
    q = example(at).query
    # rank 1 (the cat, typed 3) moved down to rank 2
    assert (q.ranking[0].id, q.ranking[1].id, q.ranking[1].grade) == ("2", "1", 3)
    at.button(key="playground.undo").click().run()   # undo takes back the move, keeps the grade
    q = example(at).query
    assert (q.ranking[0].id, q.ranking[0].grade) == ("1", 3)


def test_a_refused_grade_typed_just_before_a_click_elsewhere_is_reported_once(app):
    at = app
    at.session_state[editor_key(at)] = {"edited_rows": {0: {"grade": "11"}}, "added_rows": [], "deleted_rows": []}
    at.button(key="playground.pick.0.down").click().run()
    assert len(errors(at)) + len(at.warning) == 1
    q = example(at).query
    assert (q.ranking[0].id, q.ranking[1].id, q.ranking[1].grade) == ("2", "1", 0)


def test_an_added_row_gets_its_rank_and_id_in_the_grid(app):
    # the added row showed "None" for rank and id; the grid now starts
    # again from the example, whose new item has an id and a rank
    version = app.session_state["state.version"]
    edit(app, added_rows=[{"label": "new one", "grade": "2"}])
    assert not errors(app)
    q = example(app).query
    assert len(q.ranking) == 9 and q.ranking[8].label == "new one" and q.ranking[8].grade == 2
    assert q.ranking[8].id not in {item.id for item in q.ranking[:8]}
    assert app.session_state["state.version"] == version + 1  # a fresh grid, from the example
    assert not (app.session_state[editor_key(app)] if editor_key(app) in app.session_state else {}).get("added_rows")


def test_an_added_row_without_a_grade_is_unjudged(app):
    edit(app, added_rows=[{"label": "not judged yet"}])
    assert not errors(app)
    assert example(app).query.ranking[8].grade is None


def test_unjudged_grades_round_trip_through_the_link():
    ex = presets.build_preset("cat")
    q = ex.query
    items = (model.Item(q.ranking[0].id, q.ranking[0].label, None),) + q.ranking[1:]
    from dataclasses import replace

    changed = replace(ex, queries=(replace(q, ranking=items),))
    assert codec.decode(codec.encode(changed)) == changed


def test_the_preset_box_shows_the_preset_and_restore_loads_it_again(app):
    app.selectbox(key="playground.preset").set_value("white-cat").run()
    assert app.selectbox(key="playground.preset").value == "white-cat"   # not emptied after loading
    edit(app, edited_rows={0: {"grade": "9"}})
    assert any("(edited since)" in c.value for c in app.caption)
    app.button(key="state.restore.white-cat").click().run()
    assert example(app) == presets.build_preset("white-cat")
    assert any(c.value.startswith("Loaded: White cat") for c in app.caption)


def test_a_new_k_keeps_the_grid_and_its_edits(app):
    version = app.session_state["state.version"]
    app.slider(key="playground.k").set_value(5).run()
    assert example(app).k == 5
    assert app.session_state["state.version"] == version   # no new grid for a new k


def test_a_query_from_files_keeps_its_unjudged_documents_unjudged():
    import metrics
    from metrics.io import qrels_from_dict, run_from_dict
    from ranklab_ui.core.evaluation_view import query_example

    qrels = {"q": {"a": 1, "b": 0, "c": -1}}
    run = {"q": ["x", "a", "b", "c"]}   # x is in no qrels line, c is judged -1 (pooled, unjudged)
    ex = query_example(qrels_from_dict(qrels), run_from_dict(run), "q")
    assert [item.grade for item in ex.query.ranking] == [None, 1, 0, None]
    ranking, judgments = ex.query.inputs(ex.mode)
    # bpref: the relevant a (rank 2) has no judged non-relevant document above it, so 1;
    # had x been read as grade 0 it would be 1 - 1/1 = 0
    assert metrics.score("Bpref", ranking, judgments) == 1.0 == metrics.score("Bpref", run["q"], qrels["q"])


def test_an_address_lagging_behind_quick_edits_does_not_take_them_back(app, monkeypatch):
    # Quick actions outrun the address bar: the next rerun's request can still carry the link
    # written two runs ago. Read as a permalink, it took the example back (an edit was lost).
    edit(app, edited_rows={0: {"grade": "1"}})                # rank 1 relevant
    with_edit = app.query_params["ex"]
    app.slider(key="playground.k").set_value(4).run()         # k = 4: a newer link
    assert app.query_params["ex"] != with_edit
    before_edit = codec.encode(presets.build_preset("cat"))     # what the browser could still send
    app.query_params["ex"] = before_edit
    app.run()
    ex = example(app)
    assert ex.k == 4 and ex.query.ranking[0].grade == 1       # nothing taken back
    assert not errors(app)


def test_the_browsers_back_still_opens_an_earlier_link(app, monkeypatch):
    edit(app, edited_rows={0: {"grade": "1"}})
    earlier = app.query_params["ex"]
    app.slider(key="playground.k").set_value(4).run()
    # seconds later (past state.LAG_SECONDS), the address goes back one step: that is Back
    later = state.time.monotonic() + state.LAG_SECONDS + 1
    monkeypatch.setattr(state.time, "monotonic", lambda: later)
    app.query_params["ex"] = earlier
    app.run()
    ex = example(app)
    assert ex.k == 2 and ex.query.ranking[0].grade == 1


def test_the_preset_box_is_empty_for_an_example_from_a_link():
    from .conftest import new_app

    items = (model.Item("a", "A", 1), model.Item("b", "B", 0))
    at = new_app(ex=codec.encode(model.Example((model.Query("mine", items),), k=1)))
    at.run()
    assert not at.exception
    assert at.selectbox(key="playground.preset").value is None   # not "Cat in the box"


def test_a_long_list_picks_the_item_to_move_by_its_rank():
    from .conftest import new_app

    items = tuple(model.Item(f"d{i}", f"result {i}", i % 2) for i in range(1, 31))
    tray = (model.Item("x", "missed", 2),)
    at = new_app(ex=codec.encode(model.Example((model.Query("30 items", items, tray),), k=5, mode="graded")))
    at.run()
    assert not at.exception
    number = at.number_input(key="playground.pick.0.number")
    number.set_value(3).run()                         # result 3
    assert any(c.value.replace("\\", "").startswith("#3 · result 3 (grade 1)") for c in at.caption)
    at.button(key="playground.pick.0.down").click().run()
    ranking = [item.id for item in example(at).query.ranking]
    assert ranking[2:4] == ["d4", "d3"]               # result 3 moved from rank 3 to rank 4
    assert at.number_input(key="playground.pick.0.number").value == 4   # and stays picked
    # the tray: its one item goes back to the bottom of the ranking
    at.segmented_control(key="playground.pick.0.place").set_value("t").run()
    at.button(key="playground.pick.0.move").click().run()
    q = example(at).query
    assert q.ranking[-1].id == "x" and q.tray == ()


def _with_tray():
    from .conftest import new_app

    items = tuple(model.Item(f"d{i}", f"result {i}", i % 2) for i in range(1, 6))
    tray = (model.Item("x", "missed", 2), model.Item("y", "also missed", 1))
    at = new_app(ex=codec.encode(model.Example((model.Query("5 items", items, tray),), k=3, mode="graded")))
    at.run()
    assert not at.exception
    return at


def test_a_move_in_the_ranking_keeps_the_trays_grid_and_its_edit():
    # the tray's grid is built again in the browser only when its own rows changed (else every move
    # in the ranking would rebuild it); the ranking's grid starts afresh
    app = _with_tray()
    edit(app, edited_rows={0: {"grade": "3"}}, name="tray")
    assert not errors(app)
    tray_key, ranking_key = editor_key(app, name="tray"), editor_key(app)
    tray = example(app).query.tray
    assert [i.grade for i in tray] == [3, 1]
    app.button(key="playground.pick.0.down").click().run()          # rank 1 moves to rank 2
    q = example(app).query
    assert [i.id for i in q.ranking[:2]] == ["d2", "d1"] and q.tray == tray
    assert editor_key(app, name="tray") == tray_key                 # the same widget ...
    assert app.session_state[tray_key]["edited_rows"]               # ... still holding its edit
    assert editor_key(app) != ranking_key                           # the reordered rows: a new grid
    # a second tray edit on top of the kept one is applied to the tray as it is now
    edit(app, edited_rows={0: {"grade": "3"}, 1: {"grade": "0"}}, name="tray")
    assert not errors(app)
    assert [i.grade for i in example(app).query.tray] == [3, 0]
    assert [i.id for i in example(app).query.ranking[:2]] == ["d2", "d1"]


def test_a_move_into_the_tray_and_a_refused_value_start_both_grids_afresh():
    app = _with_tray()
    tray_key, ranking_key = editor_key(app, name="tray"), editor_key(app)
    app.button(key="playground.pick.0.move").click().run()          # rank 1 leaves for the tray
    assert [i.id for i in example(app).query.tray] == ["x", "y", "d1"]
    assert editor_key(app, name="tray") != tray_key and editor_key(app) != ranking_key
    tray_key, ranking_key = editor_key(app, name="tray"), editor_key(app)
    edit(app, edited_rows={0: {"grade": "-1"}})                     # refused: the grids start again
    assert errors(app)
    assert editor_key(app, name="tray") != tray_key and editor_key(app) != ranking_key


def _tile_app(example_code: str, rank: int) -> AppTest:
    """A page with one button whose click is a click on the strip's tile at ``rank``
    (AppTest cannot click inside a chart; the browser test does)."""
    def script(rank: int = 0):
        import streamlit as st

        from ranklab_ui import widgets
        from ranklab_ui.session import state

        st.button("tile", key="tile", on_click=widgets.cycle_grade, args=("playground", state.get_example().current, rank))

    at = AppTest.from_function(script, kwargs={"rank": rank}, default_timeout=30)
    at.query_params["ex"] = example_code
    at.run()
    assert not at.exception
    return at


def test_a_click_on_a_tile_steps_its_grade_and_wraps_at_the_top():
    items = (model.Item("a", "A", 3), model.Item("b", "B", 0), model.Item("c", "C", None))
    graded = codec.encode(model.Example((model.Query("q", items),), k=2, mode="graded"))
    at = _tile_app(graded, 1)
    grades = lambda: [i.grade for i in at.session_state["state.example"].query.ranking]  # noqa: E731
    at.button(key="tile").click().run()
    assert grades() == [0, 0, None]          # 3 is the top (at least 3): back to 0
    at.button(key="tile").click().run()
    assert grades() == [1, 0, None]
    at = _tile_app(graded, 3)
    at.button(key="tile").click().run()
    assert grades() == [3, 0, 0]             # unjudged becomes 0
    binary = codec.encode(model.Example((model.Query("q", items),), k=2, mode="binary"))
    at = _tile_app(binary, 1)
    at.button(key="tile").click().run()
    assert grades() == [0, 0, None]          # binary: relevant (3) -> not relevant
    at.button(key="tile").click().run()
    assert grades() == [1, 0, None]
    assert at.session_state["playground.tile_clicks"] == 2   # each click a fresh strip


def test_a_tile_click_the_browser_sends_again_counts_once():
    # the browser's next request, sent before the new strip reached it, carries the old strip's
    # selection again: the same (strip, rank) is one click; another tile of that strip is another
    def script():
        import streamlit as st

        from ranklab_ui.session import state
        from ranklab_ui.widgets import strip

        for name, rank in (("first", 1), ("again", 1), ("other", 2)):
            st.button(name, key=name, on_click=strip._tile_clicked,
                      args=("playground", state.get_example().current, "playground.strip.0", rank))

    items = (model.Item("a", "A", 0), model.Item("b", "B", 0))
    at = AppTest.from_function(script, default_timeout=30)
    at.query_params["ex"] = codec.encode(model.Example((model.Query("q", items),), k=2, mode="binary"))
    at.run()
    grades = lambda: [i.grade for i in at.session_state["state.example"].query.ranking]  # noqa: E731
    at.button(key="first").click().run()
    assert grades() == [1, 0]
    at.button(key="again").click().run()
    assert grades() == [1, 0]                # not 0 again: the same click, sent twice
    at.button(key="other").click().run()
    assert grades() == [1, 1]


def test_a_click_on_a_tile_that_is_gone_changes_nothing():
    items = (model.Item("a", "A", 1),)
    at = _tile_app(codec.encode(model.Example((model.Query("q", items),), k=1, mode="graded")), 5)
    at.button(key="tile").click().run()
    assert not at.exception
    assert [i.grade for i in at.session_state["state.example"].query.ranking] == [1]


def test_the_strip_reads_only_a_whole_rank_from_the_browser(monkeypatch):
    # the selection comes from the browser: anything but a whole number >= 1 is ignored
    from ranklab_ui import render
    from ranklab_ui.core import charts

    picked = []
    callback = render._picked_tile("strip", picked.append)
    bad_ranks = (0, -1, 1.5, float("nan"), float("inf"), "2", True, None, [1])
    events = [None, {}, {"selection": {}}, {"selection": {charts.TILE: []}}, {"selection": {charts.TILE: [5]}}]
    events += [{"selection": {charts.TILE: [{"rank": v}]}} for v in bad_ranks]
    for event in events:
        monkeypatch.setattr(render.st, "session_state", {"strip": event})
        callback()
    assert picked == []
    monkeypatch.setattr(render.st, "session_state", {"strip": {"selection": {charts.TILE: [{"rank": 3.0}]}}})
    callback()
    assert picked == [3]


def test_chart_clicks_from_the_browser_are_fuzzed(monkeypatch):
    # both chart callbacks (a point of the curve sets k, a tile gives the next grade) read a
    # value the browser sends: random events never raise and pass on only whole numbers >= 1
    import math
    import random

    from ranklab_ui import render
    from ranklab_ui.core import charts
    from ranklab_ui.session import state

    rng = random.Random(11)
    atoms = [0, 1, 2, 7, -3, 1.0, 2.5, float("nan"), float("inf"), -float("inf"), 1e308, 10**40, True, False,
             None, "", "3", "k", [], {}, [1], {"k": 2}]

    def value(depth: int = 0):
        if depth > 2 or rng.random() < .5:
            return rng.choice(atoms)
        if rng.random() < .5:
            return [value(depth + 1) for _ in range(rng.randrange(3))]
        return {rng.choice(["selection", "k", "rank", charts.PICK, charts.TILE]): value(depth + 1)
                for _ in range(rng.randrange(3))}

    picked, ks = [], []
    monkeypatch.setattr(state, "update", lambda **changes: ks.append(changes["k"]) or False)
    tile, k = render._picked_tile("c", picked.append), render._pick_k("c", "c.picks")
    for _ in range(3000):
        name = rng.choice([charts.PICK, charts.TILE])
        field = "k" if name == charts.PICK else "rank"
        shape = rng.randrange(3)
        event = (value() if shape == 0 else {"selection": value()} if shape == 1
                 else {"selection": {name: [{field: value()}]}})
        monkeypatch.setattr(render.st, "session_state", {"c": event})
        tile()
        k()
    for got in picked + ks:
        assert type(got) is int and got >= 1 and math.isfinite(got)
    assert picked and ks   # some events were well formed
