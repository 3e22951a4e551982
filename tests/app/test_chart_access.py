"""Every chart is described for screen readers, and its numbers are a table away."""

import json

import pytest

from tests.app.conftest import PAGES, new_app, tables


def specs(at) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("vega_lite_chart")]


@pytest.mark.parametrize("page", PAGES)
def test_every_chart_has_a_description(page):
    at = new_app()
    at.run()
    at.switch_page(page).run()
    assert not at.exception
    found = specs(at)
    assert found
    for spec in found:
        assert spec.get("description", "").strip()


def test_the_data_table_shows_the_charts_numbers():
    at = new_app()
    at.run()
    assert not tables(at) or all("measure" not in d.columns for d in tables(at))
    at.toggle(key="charts.data").set_value(True).run()
    table = next(d for d in tables(at) if "measure" in d.columns)
    # the Pinecone notebook's cat: P, R and nDCG at k = 1..8; P@4 = 2/4, R@4 = 2/4 (R = 4)
    assert len(table) == 24 and list(table.columns) == ["k", "measure", "value"]
    row = table[(table["measure"] == "P") & (table["k"] == 4)]
    assert float(row["value"].iloc[0]) == 0.5
    row = table[(table["measure"] == "R") & (table["k"] == 4)]
    assert float(row["value"].iloc[0]) == 0.5
