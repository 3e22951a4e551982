"""axe-core in Chromium: the Playground and the presenter view, light and dark, at 1280x800 and
1024x768. No serious or critical finding may be in the ranking editor (axe reads its open shadow
root), and none anywhere else in the page but those Streamlit's own widgets make (ALLOWED).

axe-core comes from npm (``package.json``, pinned in ``package-lock.json``): ``make test`` and
``make test-all`` install it with ``npm ci`` when npm is there (``.ci/run`` installs Debian's
nodejs and npm). Without it the test is skipped, unless RANKLAB_REQUIRE_BROWSER=1 (CI): then it
fails. Every finding, of any impact, is written to ``test-artifacts/axe_<page>_<scheme>_<width>.json``.
"""

from __future__ import annotations

import json
import os

import pytest

from .helpers import ARTIFACTS, ROOT, drawn, need_browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SEVERE = {"serious", "critical"}

# Findings in Streamlit's own widgets, which Ranklab neither draws nor styles: (axe rule, a
# Streamlit test id the element is in) -> why it is Streamlit's.
ALLOWED = {
    ("list", "stSidebarNavItems"): "Streamlit's page navigation puts its section boxes (div) straight in its <ul>",
    ("listitem", "stSidebarNavItems"): "the same navigation: its <li> sit in those section boxes, not in the <ul>",
    ("color-contrast", "stButtonGroup"): "st.segmented_control draws its chosen option in the theme's primary colour "
                                         "on a tint of it, under AA's 4.5:1",
    ("color-contrast", "stCaptionContainer"): "st.caption's grey on the theme's light background, under 4.5:1",
}

# Every violation, with whether each element is in the ranking editor (a shadow root holding a
# listbox: the editor's lists) and the Streamlit test ids of the boxes around it.
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations'], elementRef: true});
  const around = (e) => {
    const ids = [];
    for (let n = e; n; ) {
      if (n.dataset && n.dataset.testid) ids.push(n.dataset.testid);
      const root = n.getRootNode();
      n = n.parentElement || (root instanceof ShadowRoot ? root.host : null);
    }
    return ids;
  };
  const inEditor = (e) => {
    const root = e.getRootNode();
    return root instanceof ShadowRoot && !!root.querySelector('[role=listbox]');
  };
  return result.violations.map(v => ({
    rule: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: JSON.stringify(n.target), html: n.html.slice(0, 300),
                              why: n.failureSummary, editor: inEditor(n.element), around: around(n.element)}))}));
}"""

PAGES = {"playground": "/", "presenter": "/?view=present"}


def need_axe() -> None:
    """Skip without node_modules/axe-core, or fail where RANKLAB_REQUIRE_BROWSER=1 (CI)."""
    need_browser()
    if not AXE.exists():
        reason = (f"{AXE.relative_to(ROOT)} is missing (`npm ci --no-audit --no-fund` in the checkout, "
                  "or `make test-all`) — the accessibility test needs axe-core")
        if os.environ.get("RANKLAB_REQUIRE_BROWSER") == "1":
            pytest.fail(reason + "; RANKLAB_REQUIRE_BROWSER=1 forbids skipping")
        pytest.skip(reason)


def allowed(rule: str, node: dict) -> bool:
    return not node["editor"] and any((rule, testid) in ALLOWED for testid in node["around"])


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768)], ids=["1280", "1024"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", list(PAGES))
def test_no_serious_finding_in_the_editor_or_in_what_ranklab_draws(server, browser, name, scheme, size):
    need_axe()
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, color_scheme=scheme)
    page = context.new_page()
    try:
        page.goto(server + PAGES[name])
        drawn(page)
        options = page.get_by_role("listbox").first.get_by_role("option")
        options.first.wait_for()
        assert options.count() == 8   # the first preset's eight results: the editor is drawn
        page.add_script_tag(path=str(AXE))
        found = page.evaluate(RUN_AXE)
    finally:
        context.close()
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"axe_{name}_{scheme}_{size[0]}.json").write_text(json.dumps(found, indent=1, ensure_ascii=False))
    severe = [(v["rule"], v["impact"], n) for v in found if v["impact"] in SEVERE for n in v["nodes"]]
    in_editor = [f"{rule} ({impact}): {n['html']} — {n['why']}" for rule, impact, n in severe if n["editor"]]
    elsewhere = [f"{rule} ({impact}) in {n['around'][:3]}: {n['html']} — {n['why']}"
                 for rule, impact, n in severe if not n["editor"] and not allowed(rule, n)]
    assert not in_editor, "in the ranking editor:\n" + "\n".join(in_editor)
    assert not elsewhere, "in the page:\n" + "\n".join(elsewhere)
