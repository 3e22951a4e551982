// The model check's recorder (tests/browser/test_edit_model.py), installed in every page of
// the driver's browser context before the app's own scripts.
//
// It watches, never acts. For each key or pointer event that reaches the ranking editor it notes
// the lists the editor showed when the event came and the version they are (data-version): a
// listener on the window, in the capture phase, runs before the editor's. Right after the editor
// handled the event it notes the lists, the spoken status and the notice: a listener on the same
// element as the editor's (for a release, the window), added after it, runs after it, even when
// the editor stops the event going further. A notice shown while no event is being handled came
// with a reply of the server. So the model knows what each action was made on and what the
// editor did with it, without guessing from timings.
//
// model_driver.take_log() reads the log.

(() => {
  if (window.__rle) return;
  const rec = { log: [], n: 0, current: null, box: null, renders: 0 };
  window.__rle = rec;

  const push = (entry) => {
    rec.n += 1;
    entry.n = rec.n;
    entry.t = Math.round(performance.now());
    rec.log.push(entry);
    return entry;
  };

  const rowsOf = (list) => [...list.children].filter((c) => c.classList.contains("item")).map((row) => {
    const d = row.drawn || {};
    return [row.dataset.id, d.label === undefined ? null : d.label, d.grade === undefined ? null : d.grade];
  });

  const lists = (box) => ({
    ranking: rowsOf(box.querySelector("ol.list.ranking")),
    tray: rowsOf(box.querySelector("ul.list.tray")),
  });

  const noticeOf = (box) => {
    const notice = box.querySelector(".notice");
    return { shown: !notice.hidden, text: notice.querySelector(".notice-text").textContent };
  };

  const liveOf = (box) => box.querySelector(".live").textContent;

  const where = (box, row) => {
    if (!row) return null;
    const list = row.parentNode;
    const items = [...list.children].filter((c) => c.classList.contains("item"));
    return { list: list.classList.contains("tray") ? "tray" : "ranking", pos: items.indexOf(row), id: row.dataset.id };
  };

  // the entry of the event being handled gets what the editor did, read after its handler ran
  const after = (entry) => {
    if (!entry || entry.done) return;
    const box = rec.currentBox;
    entry.done = true;
    entry.after = lists(box);
    entry.live = liveOf(box);
    entry.notice = noticeOf(box);
    entry.waiting = box.classList.contains("waiting");
    entry.versionAfter = Number(box.dataset.version);
    if (rec.current === entry) rec.current = null;
  };

  function attach(box) {
    if (box.__rleWatched) return;
    box.__rleWatched = true;
    for (const list of box.querySelectorAll(".list")) {
      list.addEventListener("keydown", () => after(rec.current));
      list.addEventListener("pointerdown", () => {
        after(rec.current);
        // the editor listens for this press's release on the window: so does this, after it
        window.removeEventListener("pointerup", released);
        window.removeEventListener("pointercancel", released);
        window.addEventListener("pointerup", released);
        window.addEventListener("pointercancel", released);
      });
    }
    for (const button of box.querySelectorAll(".bar button")) button.addEventListener("click", () => after(rec.current));
    // every notice the editor shows, and every drawing of its lists (render sets the buttons' texts)
    const notice = box.querySelector(".notice");
    new MutationObserver(() => {
      const shown = noticeOf(box);
      push({ kind: "notice", shown: shown.shown, text: shown.text, during: rec.current ? rec.current.n : null });
    }).observe(notice, { attributes: true, attributeFilter: ["hidden"], childList: true, subtree: true, characterData: true });
    new MutationObserver(() => {
      rec.renders += 1;
    }).observe(box.querySelector(".bar .undo"), { childList: true });
  }

  // the editor a person sees: a run that draws the component anew may leave the one before in
  // the page a moment, hidden
  const findBox = () => {
    let found = null;
    for (const host of document.querySelectorAll("*")) {
      const box = host.shadowRoot && host.shadowRoot.querySelector(".rle");
      if (box && (!found || box.offsetParent !== null)) found = box;
    }
    if (found && found !== rec.box) {
      if (rec.box) push({ kind: "mounted", version: Number(found.dataset.version) });
      rec.box = found;
    }
    if (found) attach(found);
    return found;
  };
  rec.find = findBox;

  const focusedRow = (box) => {
    const a = box.getRootNode().activeElement;
    return where(box, a && a.closest ? a.closest("li.item") : null);
  };

  const capture = (e) => {
    const path = e.composedPath();
    const first = path[0];
    // the editor the event is in (the one shown, or one a run is replacing)
    const box = path.find((n) => n.classList && n.classList.contains("rle")) || rec.currentBox || findBox();
    if (box) attach(box);
    const inside = !!box && path.includes(box);
    const row = inside && first.closest ? first.closest("li.item") : null;
    const button = inside && first.closest ? first.closest(".bar button") : null;
    // what the editor acts on: a key or a press on a row (keys typed into a label's box are the
    // box's), the release of that press wherever it is, a click on a button of the bar
    let take;
    if (e.type === "pointerup" || e.type === "pointercancel") take = rec.press === e.pointerId;
    else if (e.type === "click") take = !!button;
    else take = !!row && first.tagName !== "INPUT";
    if (take) {
      if (rec.current && !rec.current.done) {
        rec.current.done = true;   // its handler was never seen to end: what it did is unknown
        rec.current = null;
      }
      if (e.type === "pointerdown") {
        rec.press = e.pointerId;
        rec.movedRenders = rec.renders;
      } else if (e.type !== "keydown" && e.type !== "click") rec.press = null;
      rec.currentBox = box;
      rec.current = push({
        kind: e.type,
        key: e.key || null,
        alt: !!e.altKey, ctrl: !!(e.ctrlKey || e.metaKey), shift: !!e.shiftKey,
        button: button ? (button.classList.contains("undo") ? "undo" : button.classList.contains("redo") ? "redo" : "other") : null,
        onGrade: !!(first.closest && first.closest(".grade")),
        at: where(box, row),
        before: lists(box),
        version: Number(box.dataset.version),
        renders: rec.renders,
        // the drawings of the lists seen at the press's last move (a release only)
        movedRenders: e.type === "pointerup" ? rec.movedRenders : null,
        dragging: !!box.querySelector("li.item.dragging"),
        focused: focusedRow(box),
      });
      return;
    }
    if (e.type !== "keydown" || inside) return;
    // a key that reached no row of the editor: on the k slider, or nowhere
    const slider = first.matches && first.matches("input[type='range']") ? first : null;
    push({
      kind: "key-elsewhere",
      key: e.key,
      slider: slider ? { value: Number(slider.value), min: Number(slider.min), max: Number(slider.max), shown: slider.offsetParent !== null } : null,
      tag: first.tagName || null,
    });
  };
  // the end of the editor's own handling of a release: its listener on the window was added
  // at the press, before this one is added again (a listener added during a dispatch waits)
  const released = () => after(rec.current);
  window.addEventListener("pointerup", released);
  window.addEventListener("pointercancel", released);
  // a drawing of the lists between a drag's last move and its release puts the row back where
  // the server has it; the editor then drops it where the pointer is (editor.js)
  window.addEventListener("pointermove", (e) => {
    if (rec.press === e.pointerId) rec.movedRenders = rec.renders;
  }, true);
  // the clicks the page got on a button, an option of a menu or a label, by their text: a press
  // and a release that land on two elements make no click, so the driver can tell a click the
  // page got from one it never got (the element moved under the pointer)
  rec.clicks = [];
  window.addEventListener("click", (e) => {
    const first = e.composedPath()[0];
    const target = first.closest ? first.closest("button, [role='option'], label") : null;
    if (target) rec.clicks.push(target.textContent.trim().slice(0, 120));
  }, true);
  // and where the last press and release of a mouse were, to say where a click was lost
  const described = (e) => {
    const first = e.composedPath()[0];
    const named = first.closest ? first.closest("button, [role='option'], label, textarea, input, summary") : null;
    const text = named ? named.textContent.trim().slice(0, 40) : "";
    return `${(named || first).tagName || "?"}${text ? ` "${text}"` : ""} at y=${Math.round(e.clientY)}`;
  };
  rec.pointer = {};
  for (const type of ["pointerdown", "pointerup"]) {
    window.addEventListener(type, (e) => { rec.pointer[type] = described(e); }, true);
  }
  for (const type of ["keydown", "pointerdown", "pointerup", "pointercancel", "click"]) {
    window.addEventListener(type, capture, true);
  }
})();
