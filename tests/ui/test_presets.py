"""ranklab_ui.core.presets: presets are files in assets/presets, read with the permalink's checks."""

import json
import shutil

import pytest
from streamlit.testing.v1 import AppTest

from ranklab_ui.core import codec, presets
from ranklab_ui.core.model import Example, Item, Query
from ranklab_ui.core.validation import ExampleError

GOOD = {"title": "Two documents", "source": "a teacher's own", "version": 1, "k": 1, "mode": "graded",
        "queries": [{"name": "mine", "ranking": [["a", "A doc", 2], ["b", "B doc", "?"]],
                     "not_retrieved": [["c", "C doc", 1]]}]}


def write(folder, name, data):
    path = folder / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_the_shipped_presets_are_the_files_in_assets():
    files = sorted(p.name for p in presets.FOLDER.glob("*.json"))
    assert files == ["10-cat.json", "20-white-cat.json", "30-three-queries.json", "40-dcg.json", "50-grouped.json"]
    assert list(presets.PRESETS) == ["cat", "white-cat", "three-queries", "dcg", "grouped"]
    assert presets.PROBLEMS == []


def test_cat_preset_is_the_pinecone_notebooks_list():
    cat = presets.build_preset("cat")
    # the Pinecone notebook: eight images, the cat in a box (relevant) at ranks 2, 4, 5 and 7; k = 2, binary
    assert [item.grade for item in cat.query.ranking] == [0, 1, 0, 1, 1, 0, 1, 0]
    assert (cat.k, cat.mode, cat.query.name) == (2, "binary", "cat in the box")


def test_a_teachers_file_is_a_preset(tmp_path):
    write(tmp_path, "60-mine.json", GOOD)
    found, problems = presets.load_presets(tmp_path)
    assert problems == [] and list(found) == ["mine"]
    p = found["mine"]
    assert (p.title, p.source, p.k, p.mode) == ("Two documents", "a teacher's own", 1, "graded")
    assert p.queries == (Query("mine", (Item("a", "A doc", 2), Item("b", "B doc", None)), (Item("c", "C doc", 1),)),)


def test_files_are_listed_in_name_order_and_a_name_is_taken_once(tmp_path):
    write(tmp_path, "20-b.json", GOOD)
    write(tmp_path, "10-a.json", GOOD)
    write(tmp_path, "b.json", GOOD)
    found, problems = presets.load_presets(tmp_path)
    assert list(found) == ["a", "b"]
    assert problems == ["preset file b.json: the name 'b' is taken by an earlier file; left out"]


@pytest.mark.parametrize("text, words", [
    ('{"title": "x",\n "k": 2,,}', "not valid JSON (line 2"),
    ("[1, 2]", "expected an object"),
    (json.dumps({**GOOD, "title": ""}), "title: empty text"),
    (json.dumps({**GOOD, "mode": "b"}), "the preset's mode is neither binary nor graded"),
    (json.dumps({**GOOD, "version": 2}), "the preset has version 2"),
    (json.dumps({**GOOD, "colour": "red"}), "the preset holds an unknown field 'colour'"),
    (json.dumps({**GOOD, "k": 0}), "k must be a whole number"),
    (json.dumps({**GOOD, "queries": [{"name": "q", "ranking": [["a", "A", 11]]}]}), "grade 11 is not allowed"),
    (json.dumps({**GOOD, "queries": [{"name": "q", "ranking": [["a", "A", 1], ["a", "B", 0]]}]}), "appears twice"),
    (json.dumps({**GOOD, "queries": [{"name": "q", "ranked": []}]}), "query 1 of the preset is malformed"),
    ("\udcff", "cannot be read"),
])
def test_a_broken_file_is_left_out_with_its_name_and_why(tmp_path, text, words):
    write(tmp_path, "10-good.json", GOOD)
    path = tmp_path / "20-broken.json"
    if text == "\udcff":
        path.write_bytes(b"\xff\xfe{")  # not UTF-8
    else:
        path.write_text(text, encoding="utf-8")
    found, problems = presets.load_presets(tmp_path)
    assert list(found) == ["good"]
    assert len(problems) == 1 and problems[0].startswith("preset file 20-broken.json: ")
    assert words in problems[0] and problems[0].endswith("this preset is left out")
    with pytest.raises(ExampleError, match="20-broken.json"):
        presets.read_preset(path)


def test_a_preset_file_and_a_link_hold_the_same_example():
    ex = presets.build_preset("grouped")
    data = json.loads((presets.FOLDER / "50-grouped.json").read_text(encoding="utf-8"))
    about = {"title": data.pop("title"), "source": data.pop("source")}
    assert about["title"] == presets.PRESETS["grouped"].title
    assert codec.from_data(data, codec.FILE) == ex == codec.decode(codec.encode(ex))


def test_without_any_preset_the_app_starts_with_an_empty_query(tmp_path, monkeypatch):
    found, problems = presets.load_presets(tmp_path)
    assert found == {} and problems == ["no preset could be read from " + tmp_path.name
                                        + "/: the app starts with an empty query"]
    monkeypatch.setattr(presets, "PRESETS", found)
    assert presets.default_example() == (None, Example((Query("query 1"),)))


def test_a_broken_preset_file_warns_in_the_app_and_the_others_load(tmp_path, monkeypatch):
    for path in presets.FOLDER.glob("*.json"):
        shutil.copy(path, tmp_path)
    write(tmp_path, "60-broken.json", {**GOOD, "queries": [{"name": "q", "ranking": [["a", "A", 99]]}]})
    found, problems = presets.load_presets(tmp_path)
    monkeypatch.setattr(presets, "PRESETS", found)
    monkeypatch.setattr(presets, "PROBLEMS", problems)
    app = str(presets.FOLDER.parents[1] / "app.py")
    at = AppTest.from_file(app, default_timeout=60)
    at.run()
    assert not at.exception
    warned = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "preset file 60-broken.json: query 1 'q', ranking, position 1: grade 99 is not allowed" in warned
    assert at.session_state["state.example"] == presets.build_preset("cat")  # the default preset still loads
    at.run()
    assert not at.warning  # said once per session


def test_the_readmes_preset_example_is_a_valid_preset(tmp_path):
    import re

    readme = (presets.FOLDER.parents[1] / "docs" / "the-app.md").read_text(encoding="utf-8")
    block = re.search(r"\*\*Adding a preset\.\*\*.*?```json\n(.*?)```", readme, re.S).group(1)
    p = presets.read_preset(write(tmp_path, "60-my-example.json", block))
    assert presets.preset_name(tmp_path / "60-my-example.json") == "my-example"
    assert (p.title, p.k, p.mode) == ("My example", 3, "graded")
    assert [i.grade for i in p.queries[0].ranking] == [2, 0, None] and p.queries[0].tray[0].grade == 1


def test_a_preset_files_text_is_shown_as_plain_text(tmp_path, monkeypatch):
    write(tmp_path, "10-hostile.json", {**GOOD, "title": "**bold** [x](http://e)", "source": "<b>me</b>"})
    found, problems = presets.load_presets(tmp_path)
    assert problems == []
    monkeypatch.setattr(presets, "PRESETS", found)
    at = AppTest.from_file(str(presets.FOLDER.parents[1] / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception and at.session_state["state.preset"] == "hostile"
    caption = next(c.value for c in at.caption if c.value.startswith("Loaded: "))
    assert "\\*\\*bold\\*\\* \\[x\\]" in caption and "\\<b\\>me\\<\\/b\\>" in caption
