"""Generic checks of what a page draws, run in the browser: text cut in its box, text past the
viewport's right edge, characters drawn as an empty box (no font has them).

Nothing here names a page or an element: each check walks every rendered element that holds
text of its own.
"""

from .helpers import st_js

# Text cut by a box that clips it (overflow hidden or clip, an ellipsis), and text past the
# viewport's right edge. For each element holding text of its own, the text's laid-out extent (a
# Range over its text nodes: with an ellipsis the text is still laid out whole) is compared with
# the nearest ancestors that clip; a scroller (overflow auto or scroll) is not a cut, and text
# past the right edge inside a scroller that ends within the viewport can be scrolled to. Each
# finding: {"text", "why", "testid"}. Hidden elements, and those in a closed sidebar, are not
# on the screen and are skipped. Called with {paper: true}: nothing scrolls on paper, so a
# scroller cuts as a clipping box does.
CUT_TEXT = st_js(r"""
(arg) => {
  const root = arg && arg.nodeType ? arg : null, paper = !!(arg && arg.paper);
  const out = [];
  const width = document.documentElement.clientWidth;
  const PAGE = ["stMain", "stAppViewContainer", "stApp", "stMainBlockContainer"];
  const closedSidebar = (el) => {
    const side = el.closest(ST.SIDEBAR);
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
    const testid = (el.closest(ST.ANY) || el).getAttribute(ST.ATTRIBUTE) || "";
    let found = null, scrolls = false, unseen = false;
    for (let a = el, depth = 0; a && a !== document.body && depth < 8; a = a.parentElement, depth++) {
      const s = getComputedStyle(a);
      if (PAGE.includes(a.getAttribute(ST.ATTRIBUTE))) break;
      if (!paper && ["auto", "scroll"].includes(s.overflowX)) { scrolls = true; break; }  // the reader can scroll to it
      if (!["hidden", "clip", ...(paper ? ["auto", "scroll"] : [])].includes(s.overflowX)) continue;
      const box = a.getBoundingClientRect();
      if (box.width < 2 || box.height < 2) { unseen = true; break; }  // a box of a pixel or less: for screen readers only
      if (r.right > box.right + 1 || r.left < box.left - 1) {
        found = `cut: text ${Math.round(r.left)}..${Math.round(r.right)} in a box ${Math.round(box.left)}..${Math.round(box.right)}`;
        break;
      }
    }
    for (let a = el.parentElement; !scrolls && !paper && a && a !== document.body; a = a.parentElement) {
      if (PAGE.includes(a.getAttribute(ST.ATTRIBUTE))) break;  // the page itself: a reader never scrolls it sideways
      scrolls = ["auto", "scroll"].includes(getComputedStyle(a).overflowX) && a.getBoundingClientRect().right <= width + 1;
    }
    if (!found && !scrolls && !unseen && r.right > width + 1 && r.left < width) found = `past the right edge: ${Math.round(r.right)} > ${width}`;
    if (found) out.push({text, why: found, testid});
  }
  return out;
}
""")

# Characters drawn as an empty box: each distinct character of the page's visible text (and of
# its SVG text) is drawn on a canvas in its element's font and compared with a code point no
# font has (U+10FFFD), which the browser draws as the missing-glyph box. An identical drawing
# means no font had the character. Each finding: {"char", "code", "text", "testid"}.
EMPTY_GLYPHS = st_js(r"""
(root) => {
  const seen = new Map();
  const canvas = document.createElement("canvas");
  canvas.width = 48; canvas.height = 48;
  const ctx = canvas.getContext("2d", {willReadFrequently: true});
  const draw = (font, ch) => {
    ctx.clearRect(0, 0, 48, 48);
    ctx.font = font; ctx.fillStyle = "#000"; ctx.textBaseline = "middle";
    ctx.fillText(ch, 4, 24);
    return ctx.getImageData(0, 0, 48, 48).data.join(",");
  };
  const walker = document.createTreeWalker(root || document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || ["SCRIPT", "STYLE", "NOSCRIPT"].includes(el.tagName)) continue;
    const cs = getComputedStyle(el);
    if (cs.display === "none" || cs.visibility === "hidden") continue;
    if (cs.fontFamily.includes("Material")) continue;  // icon names, drawn as ligatures
    for (const ch of new Set(Array.from(n.textContent))) {
      const code = ch.codePointAt(0);
      if (code < 0x2000 || /\s/u.test(ch) || (code >= 0xfe00 && code <= 0xfe0f) || code === 0x200d) continue;
      const font = `${cs.fontStyle} ${cs.fontWeight} 32px ${cs.fontFamily}`;
      const key = font + "|" + ch;
      if (seen.has(key)) continue;
      const empty = draw(font, ch) === draw(font, String.fromCodePoint(0x10fffd));
      seen.set(key, empty ? {char: ch, code: "U+" + code.toString(16).toUpperCase(), text: n.textContent.trim().slice(0, 60),
                             testid: (el.closest(ST.ANY) || el).getAttribute(ST.ATTRIBUTE) || ""} : null);
    }
  }
  return [...seen.values()].filter(Boolean);
}
""")

# Text a read-only canvas table cuts. st.dataframe is drawn on a canvas (glide-data-grid): each cell on one
# line, ended by an ellipsis at its column's edge, and the columns past the canvas's right edge
# hidden until the reader scrolls it sideways (on paper, never). The texts are in the hidden table
# the grid keeps for screen readers; each is measured in the grid's font. A finding: a text wider
# than the widest column the canvas gives (its visible width, at most 500 px, less the cell's
# padding), or prose (words, or a run of CJK or Hangul) in a canvas that hides columns past its
# edge. Called with {paper: true}: every canvas table is a finding, for Chromium prints the
# drawing the canvas made for the screen, which the page's margin cuts (the grid does not draw
# itself again for the paper's width). Each finding: {"text", "why", "testid"}.
CANVAS_CUT = st_js(r"""
(arg) => {
  const root = arg && arg.nodeType ? arg : null, paper = !!(arg && arg.paper);
  const out = [];
  const MAX_COLUMN = 500, PADDING = 16;  // Streamlit's widest auto-sized column; glide's 8 px each side
  const canvas = document.createElement("canvas");
  const ctx = canvas.getContext("2d");
  const prose = (t) => /\S\s+\S/u.test(t) || /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{4,}/u.test(t);
  for (const grid of (root || document.body).querySelectorAll(ST.DATAFRAME)) {
    const box = grid.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;
    const scroller = grid.querySelector(".dvn-scroller");
    const shown = scroller ? scroller.clientWidth : box.width;
    const hides = scroller && scroller.scrollWidth > scroller.clientWidth + 1;
    if (paper) {
      out.push({text: [...grid.querySelectorAll("[role='columnheader']")].map((h) => h.textContent).join(", ").slice(0, 60),
                testid: "stDataFrame", why: "a canvas table on paper: printed as drawn for the screen, cut at the page's margin"});
      continue;
    }
    const all = [...grid.querySelectorAll("[role='gridcell']")];
    if (all.some((c) => c.getAttribute("aria-readonly") === "false")) continue;  // an editor: its cells open whole
    ctx.font = `14px ${getComputedStyle(grid).fontFamily}`;
    const cells = all.map((c) => c.textContent.trim()).filter(Boolean);
    const widest = cells.map((t) => [t, ctx.measureText(t).width]).sort((a, b) => b[1] - a[1])[0];
    if (widest && widest[1] + PADDING > Math.min(MAX_COLUMN, shown)) {
      out.push({text: widest[0].slice(0, 60), testid: "stDataFrame",
                why: `canvas cell cut: text ${Math.round(widest[1])} px in a column of at most ${Math.round(Math.min(MAX_COLUMN, shown) - PADDING)}`});
      continue;
    }
    const words = cells.find(prose);
    if (hides && words) {
      out.push({text: words.slice(0, 60), testid: "stDataFrame",
                why: `prose in a canvas that hides columns past its edge: ${scroller.scrollWidth} px in ${scroller.clientWidth}`});
    }
  }
  return out;
}
""")
