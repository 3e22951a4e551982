"""The scripts the app puts into its own page with ``st.html``: Streamlit cleans that HTML
with DOMPurify first, which drops a whole ``<script>`` whose text holds "<" followed by a
letter, "/" or "!" (its guard against markup hidden in text). A script dropped so fails
silently: the page works, without it."""

import re

import pytest

from ranklab_ui.widgets import editors


@pytest.mark.parametrize("script", [editors._EDITS_FIRST], ids=["edits_first"])
def test_a_page_script_holds_nothing_the_sanitiser_drops(script):
    assert script.startswith("<script>") and script.endswith("</script>")
    body = script.removeprefix("<script>").removesuffix("</script>")
    assert not re.search(r"<[/\w!]", body), re.search(r".{0,30}<[/\w!].{0,30}", body).group(0)

