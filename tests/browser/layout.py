"""Generic checks of what a page draws, run in the browser: text cut in its box, text past the
viewport's right edge, characters drawn as an empty box (no font has them).

Nothing here names a page or an element: each check walks every rendered element that holds
text of its own.
"""

# Text cut by a box that clips it (overflow hidden or clip, an ellipsis), and text past the
# viewport's right edge. For each element holding text of its own, the text's laid-out extent (a
# Range over its text nodes: with an ellipsis the text is still laid out whole) is compared with
# the nearest ancestors that clip; a scroller (overflow auto or scroll) is not a cut. Each
# finding: {"text", "why", "testid"}. Hidden elements, and those in a closed sidebar, are not
# on the screen and are skipped.
CUT_TEXT = r"""
(root) => {
  const out = [];
  const width = document.documentElement.clientWidth;
  const closedSidebar = (el) => {
    const side = el.closest("[data-testid='stSidebar']");
    return side && side.getAttribute("aria-expanded") === "false";
  };
  for (const el of (root || document.body).querySelectorAll("*")) {
    const nodes = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
    if (!nodes.length || ["SCRIPT", "STYLE", "NOSCRIPT", "TITLE"].includes(el.tagName)) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === "hidden" || cs.display === "none" || closedSidebar(el)) continue;
    const range = document.createRange();
    range.setStartBefore(nodes[0]);
    range.setEndAfter(nodes[nodes.length - 1]);
    const r = range.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const text = nodes.map((n) => n.textContent).join("").trim().slice(0, 60);
    const testid = (el.closest("[data-testid]") || el).getAttribute("data-testid") || "";
    let found = null;
    for (let a = el, depth = 0; a && a !== document.body && depth < 8; a = a.parentElement, depth++) {
      const s = getComputedStyle(a);
      if (["auto", "scroll"].includes(s.overflowX)) break;  // the reader can scroll to it
      if (!["hidden", "clip"].includes(s.overflowX)) continue;
      const box = a.getBoundingClientRect();
      if (box.width < 2 || box.height < 2) break;  // a box of a pixel or less: for screen readers only
      if (r.right > box.right + 1 || r.left < box.left - 1) {
        found = `cut: text ${Math.round(r.left)}..${Math.round(r.right)} in a box ${Math.round(box.left)}..${Math.round(box.right)}`;
        break;
      }
    }
    if (!found && r.right > width + 1 && r.left < width) found = `past the right edge: ${Math.round(r.right)} > ${width}`;
    if (found) out.push({text, why: found, testid});
  }
  return out;
}
"""
