// The ranking editor: one query's ranked list and its tray, edited in the browser.
//
// An edit is applied here, in the frame of the key or pointer event, then sent at once as an
// event: the whole lists, the version of the lists it was made on, and a sequence number. Every
// event the server has not yet processed is sent again with the next, so none is lost when the
// server reads two requests as one. The server applies an event only to the version it was made
// on; a change it makes itself (a preset, a paste, a link) is a new version, which this editor
// adopts. A reply older than the latest edit made here is not shown. No timer orders anything:
// docs/editing.md states the rule, ranklab_ui/core/snapshots.py applies it.
//
// Ids and labels are user text: they are only ever set as textContent.

// One editor per widget key (data.id: the frontend's own key is new each time), kept when
// Streamlit draws the component anew in another element (it does when something above it on the
// page appears or goes, such as a caption or a message): a new editor forgot the events the
// server had not processed yet, and numbered its next edit as one of them, which the server then
// took for done; it also showed the last refusal again.
const editors = new Map();
const MOVE_START = 6; // pixels a pointer travels before a press becomes a drag
const EDGE = 40; // pixels from an edge where a drag scrolls

export default function mount(component) {
  const { parentElement, data, setStateValue } = component;
  const key = (data && data.id) || parentElement;
  let editor = editors.get(key);
  if (!editor) {
    editor = new Editor(parentElement);
    editors.set(key, editor);
  } else if (editor.root !== parentElement) {
    editor.root = parentElement;
    parentElement.appendChild(editor.box);
  }
  editor.post = (events) => setStateValue("events", events);
  editor.receive(data || {});
}

const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
};

// A template is split at its {names} once: a row's name is filled for every row an edit renumbers.
const templates = new Map();
const fill = (template, values) => {
  const text = String(template);
  let parts = templates.get(text);
  if (!parts) {
    parts = text.split(/\{(\w+)\}/);
    templates.set(text, parts);
  }
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 2) out += (parts[i] in values ? String(values[parts[i]]) : `{${parts[i]}}`) + parts[i + 1];
  return out;
};

const rowsOf = (items) => items.map((i) => [i.id, i.label, i.grade]);
const itemsOf = (rows) => (Array.isArray(rows) ? rows : []).map((r) => ({ id: String(r[0]), label: String(r[1]), grade: r[2] === null ? null : Number(r[2]) }));
const sameLists = (a, b) => JSON.stringify([rowsOf(a.ranking), rowsOf(a.tray)]) === JSON.stringify([rowsOf(b.ranking), rowsOf(b.tray)]);
const copyLists = (lists) => ({ ranking: lists.ranking.slice(), tray: lists.tray.slice() });

// Put ``rows`` (row elements, in their order) in ``list``, and nothing else. The rows that stay
// where they are are a longest run of rows whose order did not change; only the others are
// moved, so a row moved or sent to the tray is one move in the DOM, not one for every row after it.
// ``pinned`` (the focused row) is one of those that stay: a row moved in the DOM loses the focus.
function place(list, rows, pinned) {
  const wanted = new Set(rows);
  for (const child of [...list.children]) if (!wanted.has(child)) child.remove();
  const was = new Map();
  [...list.children].forEach((child, i) => was.set(child, i));
  let places = rows.map((row) => (was.has(row) ? was.get(row) : -1));
  const p = rows.indexOf(pinned);
  if (p >= 0 && places[p] >= 0) {
    // the rows that cannot stay in order with it move: then every longest run holds it
    const at = places[p];
    places = places.map((v, i) => (i === p || (i < p ? v < at : v > at) ? v : -1));
  }
  const stay = steady(places);
  let next = null;
  for (let i = rows.length - 1; i >= 0; i -= 1) {
    if (!stay[i]) move(list, rows[i], next);
    next = rows[i];
  }
}

// Put ``row`` in ``list`` before ``next``. A row already in the page is moved with moveBefore
// where the browser has it: the row keeps the focus, so nothing is blurred and focused again
// (each of which makes Chromium lay the whole page out at once).
function move(list, row, next) {
  if (row.isConnected && typeof list.moveBefore === "function") {
    try {
      list.moveBefore(row, next);
      return;
    } catch {
      // not movable that way (another root): moved as a new node below
    }
  }
  list.insertBefore(row, next);
}

// Which of ``places`` (a row's place before, -1 for a new row) form a longest increasing run
// (patience sorting: n log n).
function steady(places) {
  const tails = []; // tails[j]: the index of the last place of the best run of length j + 1
  const before = new Array(places.length).fill(-1);
  places.forEach((v, i) => {
    if (v < 0) return;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (places[tails[mid]] < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) before[i] = tails[lo - 1];
    tails[lo] = i;
  });
  const stay = new Array(places.length).fill(false);
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = before[i]) stay[i] = true;
  return stay;
}

class Editor {
  constructor(root) {
    this.root = root;
    this.version = null; // the version of the lists shown (the server's, or the one edited on)
    this.seq = 0; // the last sequence number used
    this.pending = []; // events sent and not yet processed by the server
    this.lists = { ranking: [], tray: [] };
    this.undoSteps = []; // the lists after each undo step this editor can take itself, next first
    this.redoSteps = [];
    this.undoCount = 0; // steps of history there are to undo and to redo
    this.redoCount = 0;
    this.depth = 50;
    this.waiting = 0; // the sequence number of an undo or redo the server takes, until its reply
    this.noticeSeq = 0;
    this.focusId = null;
    this.tabbed = null; // the id of the row Tab reaches
    this.rows = new Map(); // id -> its row element
    this.drag = null;
    this.build();
  }

  // ------------------------------------------------------------------ the DOM, once

  build() {
    const box = el("div", "rle");
    this.box = box;
    const bar = el("div", "bar");
    this.undoButton = el("button", "act undo");
    this.redoButton = el("button", "act redo");
    this.undoButton.type = this.redoButton.type = "button";
    this.undoButton.addEventListener("click", () => this.step("undo"));
    this.redoButton.addEventListener("click", () => this.step("redo"));
    this.hint = el("span", "hint");
    // "add a result" beside undo and redo: the actions on the lists in one row, over them
    this.addButton = el("button", "act add");
    this.addButton.type = "button";
    this.addButton.addEventListener("click", () => this.addItem());
    bar.append(this.undoButton, this.redoButton, this.addButton, this.hint);
    this.notice = el("div", "notice");
    this.notice.setAttribute("role", "alert");
    this.notice.hidden = true;
    this.noticeText = el("span", "notice-text");
    const close = el("button", "notice-close", "×");
    close.type = "button";
    close.addEventListener("click", () => {
      this.notice.hidden = true;
    });
    this.closeButton = close;
    this.notice.append(this.noticeText, close);
    this.live = el("div", "live");
    this.live.setAttribute("aria-live", "polite");
    this.live.setAttribute("role", "status");
    this.rankingTitle = el("div", "title");
    this.rankingTitle.id = "rle-ranking-title";
    this.ranking = el("ol", "list ranking");
    this.trayTitle = el("div", "title");
    this.trayTitle.id = "rle-tray-title";
    this.tray = el("ul", "list tray");
    for (const [list, title] of [[this.ranking, this.rankingTitle], [this.tray, this.trayTitle]]) {
      list.setAttribute("role", "listbox");
      list.setAttribute("aria-labelledby", title.id);
      list.addEventListener("keydown", (e) => this.onKey(e));
      list.addEventListener("pointerdown", (e) => this.onPointerDown(e));
      list.addEventListener("focusin", (e) => {
        const row = e.target.closest && e.target.closest("li.item");
        if (row) this.setFocus(row.dataset.id, false);
      });
    }
    // what an empty list says stands after it, not in it: a listbox holds options only
    // (editor.css shows it in the list's box while the list is empty)
    this.rankingEmpty = el("p", "empty");
    this.trayEmpty = el("p", "empty");
    this.rankingBox = el("div", "part");
    this.rankingBox.append(this.rankingTitle, this.ranking, this.rankingEmpty);
    this.trayBox = el("div", "part");
    this.trayBox.append(this.trayTitle, this.tray, this.trayEmpty);
    const lists = el("div", "lists");
    lists.append(this.rankingBox, this.trayBox);
    box.append(bar, this.notice, this.live, lists);
    this.root.appendChild(box);
  }

  // ------------------------------------------------------------------ from the server

  receive(data) {
    // the same texts keep the same object: a row drawn with them is not drawn again
    const texts = JSON.stringify(data.texts || {});
    if (texts !== this.textsJson) {
      this.textsJson = texts;
      this.texts = data.texts || {};
    }
    this.k = Number(data.k) || 1;
    this.mode = data.mode === "binary" ? "binary" : "graded";
    this.gradeMax = Number(data.grade_max) || 10;
    this.labelChars = Number(data.label_chars) || 200;
    this.depth = Number(data.depth) || 50;
    this.most = Number(data.most) || 1000;
    this.box.dataset.layout = data.layout === "across" ? "across" : "rows";
    if (data.height) this.box.style.setProperty("--rle-height", `${Number(data.height)}px`);
    const processed = Number(data.processed) || 0;
    this.pending = this.pending.filter((e) => e.seq > processed);
    this.seq = Math.max(this.seq, processed);
    if (this.waiting && processed >= this.waiting) this.waiting = 0;
    const version = Number(data.version);
    // a new version (a change made on the server) is shown at once; the same version only
    // once the server has processed every edit made here (else it is older than what is shown)
    if (this.version === null || version !== this.version || this.pending.length === 0) {
      this.version = version;
      this.lists = { ranking: itemsOf(data.ranking), tray: itemsOf(data.tray) };
      this.undoSteps = (data.undo || []).map((s) => ({ ranking: itemsOf(s[0]), tray: itemsOf(s[1]) }));
      this.redoSteps = (data.redo || []).map((s) => ({ ranking: itemsOf(s[0]), tray: itemsOf(s[1]) }));
      this.undoCount = Number(data.undo_count) || 0;
      this.redoCount = Number(data.redo_count) || 0;
    }
    const notice = data.notice;
    if (notice && Number(notice.seq) > this.noticeSeq) {
      this.noticeSeq = Number(notice.seq);
      this.showNotice(String(notice.text));
    }
    this.render();
  }

  // ------------------------------------------------------------------ edits

  // Apply new lists here and send them: one step, as undo sees it.
  commit(lists, focusId, said) {
    if (this.waiting) {
      this.refuse(this.texts.waiting);
      return;
    }
    if (sameLists(lists, this.lists)) return;
    this.undoSteps.unshift(copyLists(this.lists));
    this.undoSteps.length = Math.min(this.undoSteps.length, this.depth);
    this.redoSteps = [];
    this.undoCount = Math.min(this.undoCount + 1, this.depth);
    this.redoCount = 0;
    this.lists = lists;
    if (focusId !== undefined) this.focusId = focusId;
    this.send({ op: "set", ranking: rowsOf(lists.ranking), tray: rowsOf(lists.tray) });
    this.notice.hidden = true;
    this.render();
    // the row edited stays in sight (moved down past the end of the list shown, say)
    const row = this.focusedRow();
    if (row) this.reveal(row);
    if (said) this.say(said);
  }

  send(event) {
    this.seq += 1;
    this.pending.push({ seq: this.seq, base: this.version, ...event });
    this.post(this.pending.slice());
    return this.seq;
  }

  step(op) {
    if (this.waiting) {
      this.refuse(this.texts.waiting);
      return;
    }
    const steps = op === "undo" ? this.undoSteps : this.redoSteps;
    const other = op === "undo" ? this.redoSteps : this.undoSteps;
    const can = (op === "undo" ? this.undoCount : this.redoCount) > 0;
    if (steps.length > 0) {
      const to = steps.shift();
      other.unshift(copyLists(this.lists));
      this.lists = to;
      this.undoCount += op === "undo" ? -1 : 1;
      this.redoCount += op === "undo" ? 1 : -1;
      this.send({ op, ranking: rowsOf(to.ranking), tray: rowsOf(to.tray) });
      this.notice.hidden = true;
      this.render();
      this.say(op === "undo" ? this.texts.undone : this.texts.redone);
    } else if (can) {
      // a step that changes more than these lists (a preset, the mode): the server takes it,
      // and until its reply an edit here would be made on a list about to be replaced
      this.waiting = this.send({ op });
      this.render();
      this.say(this.texts.waiting);
    } else {
      this.say(op === "undo" ? this.texts.nothing_undo : this.texts.nothing_redo);
    }
  }

  find(id) {
    for (const where of ["ranking", "tray"]) {
      const n = this.lists[where].findIndex((i) => i.id === id);
      if (n >= 0) return { where, n, item: this.lists[where][n] };
    }
    return null;
  }

  topGrade() {
    let top = 3;
    for (const i of [...this.lists.ranking, ...this.lists.tray]) if (i.grade !== null && i.grade > top) top = i.grade;
    return Math.min(top, this.gradeMax);
  }

  nextGrade(grade) {
    if (grade === null) return 0;
    if (this.mode === "binary") return grade >= 1 ? 0 : 1;
    return grade < this.topGrade() ? grade + 1 : 0;
  }

  setGrade(id, grade) {
    const at = this.find(id);
    if (!at) return;
    if (grade !== null && (grade < 0 || grade > this.gradeMax)) {
      this.refuse(fill(this.texts.grade_limit, { most: this.gradeMax }));
      return;
    }
    const lists = copyLists(this.lists);
    lists[at.where][at.n] = { ...at.item, grade };
    this.commit(lists, id, this.described(lists, id));
  }

  setLabel(id, label) {
    const at = this.find(id);
    if (!at || at.item.label === label) return;
    const lists = copyLists(this.lists);
    lists[at.where][at.n] = { ...at.item, label };
    this.commit(lists, id, this.described(lists, id));
  }

  // Move item ``id`` to position ``to`` of list ``where`` (to: a position in that list as it
  // is without the item).
  moveTo(id, where, to) {
    const at = this.find(id);
    if (!at) return;
    if (where !== at.where && this.lists[where].length >= this.most) {
      this.refuse(fill(this.texts.too_many, { most: this.most }));
      return;
    }
    const lists = copyLists(this.lists);
    const [item] = lists[at.where].splice(at.n, 1);
    const n = Math.max(0, Math.min(to, lists[where].length));
    lists[where].splice(n, 0, item);
    this.commit(lists, id, this.described(lists, id));
  }

  remove(id) {
    const at = this.find(id);
    if (!at) return;
    const lists = copyLists(this.lists);
    lists[at.where].splice(at.n, 1);
    const near = lists[at.where][Math.min(at.n, lists[at.where].length - 1)];
    this.commit(lists, near ? near.id : null, fill(this.texts.removed, { label: at.item.label || at.item.id }));
  }

  addItem() {
    if (this.lists.ranking.length >= this.most) {
      this.refuse(fill(this.texts.too_many, { most: this.most }));
      return;
    }
    const used = new Set([...this.lists.ranking, ...this.lists.tray].map((i) => i.id));
    let n = 1;
    while (used.has(`d${n}`)) n += 1;
    const id = `d${n}`;
    const lists = copyLists(this.lists);
    lists.ranking.push({ id, label: "", grade: 0 });
    this.commit(lists, id, this.described(lists, id));
    this.editLabel(id);
  }

  described(lists, id) {
    const n = lists.ranking.findIndex((i) => i.id === id);
    const item = n >= 0 ? lists.ranking[n] : lists.tray.find((i) => i.id === id);
    if (!item) return "";
    const values = { rank: n + 1, grade: item.grade === null ? "?" : item.grade, label: item.label || item.id };
    return fill(n >= 0 ? this.texts.said : this.texts.said_tray, values);
  }

  say(text) {
    // the same text twice is still read out: the region is emptied first
    this.live.textContent = "";
    this.live.textContent = text || "";
  }

  refuse(text) {
    this.showNotice(text);
    this.say(text);
  }

  showNotice(text) {
    this.noticeText.textContent = text;
    this.notice.hidden = false;
  }

  // ------------------------------------------------------------------ keyboard

  order() {
    return [...this.lists.ranking, ...this.lists.tray].map((i) => i.id);
  }

  // One row is reached by Tab (tabIndex 0), the others by the arrows: only the two rows whose
  // tabIndex changes are written, so a focus in a list of a thousand costs what it does in ten.
  setFocus(id, move = true) {
    this.focusId = id;
    const row = this.rows.get(id);
    const before = this.rows.get(this.tabbed);
    if (before && before !== row) before.tabIndex = -1;
    if (row && row.tabIndex !== 0) row.tabIndex = 0;
    this.tabbed = id;
    if (move && row) {
      row.focus({ preventScroll: true });
      this.reveal(row);
    }
  }

  // The focused row is scrolled into view in the next frame, which lays the page out anyway:
  // scrolled in the event, the whole page was laid out once more before the frame.
  reveal(row) {
    const first = !this.revealing;
    this.revealing = row;
    if (!first) return;
    requestAnimationFrame(() => {
      const to = this.revealing;
      this.revealing = null;
      if (to && to.isConnected) to.scrollIntoView({ block: "nearest", inline: "nearest" });
    });
  }

  onKey(e) {
    if (e.target.tagName === "INPUT") return;
    const row = e.target.closest && e.target.closest("li.item");
    if (!row) return;
    const id = row.dataset.id;
    const at = this.find(id);
    if (!at) return;
    const key = e.key;
    const mod = e.ctrlKey || e.metaKey;
    let done = true;
    if (mod && (key === "z" || key === "Z") && !e.shiftKey) this.step("undo");
    else if (mod && ((key === "z" || key === "Z") && e.shiftKey || key === "y" || key === "Y")) this.step("redo");
    else if (mod) done = false;
    else if (e.altKey && (key === "ArrowUp" || key === "ArrowDown")) {
      const to = at.n + (key === "ArrowUp" ? -1 : 1);
      if (to >= 0 && to < this.lists[at.where].length) this.moveTo(id, at.where, to);
    } else if (e.altKey) done = false;
    else if (key === "ArrowUp" || key === "ArrowDown") {
      const order = this.order();
      const n = order.indexOf(id) + (key === "ArrowUp" ? -1 : 1);
      if (n >= 0 && n < order.length) this.setFocus(order[n]);
    } else if (key === "Home") this.moveTo(id, at.where, 0);
    else if (key === "End") this.moveTo(id, at.where, this.lists[at.where].length);
    else if ((key === "Delete" || key === "Backspace") && e.shiftKey) this.remove(id);
    else if (key === "Delete" || key === "Backspace") {
      const to = at.where === "ranking" ? "tray" : "ranking";
      this.moveTo(id, to, this.lists[to].length);
    } else if (/^[0-9]$/.test(key)) this.setGrade(id, Number(key));
    else if (key === "?") this.setGrade(id, null);
    else if (key === " ") this.setGrade(id, this.nextGrade(at.item.grade));
    else if (key === "Enter" || key === "F2") this.editLabel(id);
    else done = false;
    if (done) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  editLabel(id) {
    const row = this.rows.get(id);
    const at = this.find(id);
    if (!row || !at) return;
    const label = row.querySelector(".label");
    const input = el("input", "label-input");
    input.type = "text";
    input.value = at.item.label;
    input.maxLength = this.labelChars;
    input.setAttribute("aria-label", fill(this.texts.label_of, { id }));
    let open = true;
    const close = (keep) => {
      if (!open) return;
      open = false;
      input.remove();
      label.hidden = false;
      if (keep) this.setLabel(id, input.value);
      this.setFocus(id);
    };
    input.addEventListener("keydown", (e) => {
      e.stopPropagation();
      if (e.key === "Enter") {
        e.preventDefault();
        close(true);
      } else if (e.key === "Escape") {
        e.preventDefault();
        close(false);
      }
    });
    input.addEventListener("blur", () => close(true));
    input.addEventListener("pointerdown", (e) => e.stopPropagation());
    label.hidden = true;
    label.after(input);
    input.focus();
    input.select();
  }

  // ------------------------------------------------------------------ pointer and touch

  onPointerDown(e) {
    if (e.button !== 0 || e.target.tagName === "INPUT") return;
    const row = e.target.closest && e.target.closest("li.item");
    if (!row) return;
    const onGrade = !!e.target.closest(".grade");
    const onHandle = !!e.target.closest(".handle");
    // a finger drags by the handle only: elsewhere it scrolls the page
    if (e.pointerType !== "mouse" && !onHandle && !onGrade) return;
    const id = row.dataset.id;
    const start = { x: e.clientX, y: e.clientY };
    const drag = { id, row, start, moving: false, pointer: e.pointerId, onGrade };
    this.drag = drag;
    row.setPointerCapture(e.pointerId);
    if (onHandle) e.preventDefault();
    // The pointer is followed on the window, not on the row: a reply drawn during the drag
    // moves the row back to its place in the DOM, and a row moved loses the pointer's capture
    // (its own listeners then never heard the release: the drop was lost, the row left lifted).
    const move = (m) => {
      if (m.pointerId !== drag.pointer) return;
      if (!drag.moving && Math.hypot(m.clientX - start.x, m.clientY - start.y) < MOVE_START) return;
      if (!drag.moving) this.startDrag(drag);
      m.preventDefault();
      this.dragTo(drag, m.clientX, m.clientY);
    };
    const stop = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", end);
      window.removeEventListener("pointercancel", cancel);
      this.drag = null;
    };
    const end = (u) => {
      if (u.pointerId !== drag.pointer) return;
      stop();
      if (drag.moving) {
        // dropped where the person last saw it: where the last move put it. Placed again from
        // the pointer only when a reply drew the lists since (that puts the row back in its
        // place); placed again otherwise, it would be placed against the layout its own last
        // move shifted (a row put in the tray moves the tray up), and could land elsewhere.
        const [parent, next] = drag.placed || [];
        if (drag.row.parentNode !== parent || drag.row.nextSibling !== next) this.dragTo(drag, u.clientX, u.clientY);
        this.drop(drag);
      } else if (drag.onGrade) {
        const at = this.find(id);
        if (at) this.setGrade(id, this.nextGrade(at.item.grade));
      } else this.setFocus(id);
    };
    const cancel = (c) => {
      if (c.pointerId !== drag.pointer) return;
      stop();
      if (drag.moving) this.endDrag(drag);
      this.render();
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", cancel);
  }

  startDrag(drag) {
    drag.moving = true;
    drag.row.classList.add("dragging");
    this.box.classList.add("is-dragging");
  }

  endDrag(drag) {
    drag.row.classList.remove("dragging");
    this.box.classList.remove("is-dragging");
  }

  // The row follows the pointer through the lists: it is put where it would be dropped.
  dragTo(drag, x, y) {
    if (y > window.innerHeight - EDGE) window.scrollBy(0, 12);
    else if (y < EDGE) window.scrollBy(0, -12);
    const across = this.box.dataset.layout === "across";
    let list = null;
    // over a list's part (its title, the list, what an empty list says): that list
    for (const [part, over] of [[this.rankingBox, this.ranking], [this.trayBox, this.tray]]) {
      const r = part.getBoundingClientRect();
      if (y >= r.top - 8 && y <= r.bottom + 8 && x >= r.left - 8 && x <= r.right + 8) list = over;
    }
    if (!list) return;
    const others = [...list.children].filter((c) => c.classList.contains("item") && c !== drag.row);
    let before = null;
    for (const other of others) {
      const r = other.getBoundingClientRect();
      const ahead = across
        ? y < r.top || (y <= r.bottom && x < r.left + r.width / 2)
        : y < r.top + r.height / 2;
      if (ahead) {
        before = other;
        break;
      }
    }
    if (before ? drag.row.nextSibling !== before || drag.row.parentNode !== list : drag.row.parentNode !== list || list.lastElementChild !== drag.row) {
      list.insertBefore(drag.row, before);
      // a node moved in the DOM loses the pointer's capture: without it the next moves and the
      // release go to whatever is under the pointer, and the drop is never seen
      if (!drag.row.hasPointerCapture(drag.pointer)) drag.row.setPointerCapture(drag.pointer);
    }
    drag.placed = [drag.row.parentNode, drag.row.nextSibling];
  }

  drop(drag) {
    this.endDrag(drag);
    const list = drag.row.parentNode;
    // The row's list, not the page, says where it is: while Streamlit draws the component anew
    // in another element, the editor is out of the page a moment with its lists as they were.
    if ((list !== this.ranking && list !== this.tray) || !this.find(drag.id)) {
      // a new version without this result came during the drag: nothing to drop, and the
      // person is told so (the row they hold leaves the list as it is drawn again)
      this.refuse(this.texts.gone);
      this.render();
      return;
    }
    const where = list === this.tray ? "tray" : "ranking";
    const ids = [...list.children].filter((c) => c.classList.contains("item")).map((c) => c.dataset.id);
    const to = ids.indexOf(drag.id);
    const at = this.find(drag.id);
    if (at && to >= 0 && !(at.where === where && at.n === to)) this.moveTo(drag.id, where, to);
    else this.render();
    this.setFocus(drag.id);
  }

  // ------------------------------------------------------------------ drawing

  render() {
    const t = this.texts;
    this.undoButton.textContent = t.undo || "Undo";
    this.redoButton.textContent = t.redo || "Redo";
    this.undoButton.disabled = this.undoCount === 0;
    this.redoButton.disabled = this.redoCount === 0;
    this.undoButton.title = t.undo_help || "";
    this.redoButton.title = t.redo_help || "";
    this.hint.textContent = t.keys || "";
    this.closeButton.setAttribute("aria-label", t.close || "close");
    this.rankingTitle.textContent = t.ranking || "";
    this.trayTitle.textContent = t.tray || "";
    this.addButton.textContent = t.add || "+";
    this.box.classList.toggle("waiting", !!this.waiting);
    // the version of the lists shown: what an edit made now is made on (the model check reads it)
    this.box.dataset.version = String(this.version);
    // moving a focused row in the DOM takes the focus away: where it was is read first
    const focused = this.focusedRow();
    const hadFocus = focused !== null;
    // A focused row that changes lists (Delete) goes to its new list first, keeping the focus
    // (move), or taking it again where the browser cannot move a node with its focus: before the
    // other rows change, when the layout that a focus moved asks for at once costs little.
    const moving = focused && this.find(focused.dataset.id);
    const into = moving && (moving.where === "ranking" ? this.ranking : this.tray);
    if (into && focused.parentNode !== into) {
      move(into, focused, into.children[moving.n] || null);
      if (this.focusedRow() !== focused) focused.focus({ preventScroll: true });
      this.reveal(focused);
    }
    const n = this.lists.ranking.length;
    const k = Math.max(1, Math.min(this.k, n));
    const seen = new Set();
    const ids = this.order();
    if (this.focusId === null || !ids.includes(this.focusId)) this.focusId = ids.length ? ids[0] : null;
    for (const [where, list] of [["ranking", this.ranking], ["tray", this.tray]]) {
      const items = this.lists[where];
      const rows = items.map((item, i) => {
        seen.add(item.id);
        const row = this.row(item.id);
        this.draw(row, item, where === "ranking" ? i + 1 : null, where === "ranking" && i + 1 === k && k < n, where === "ranking" && i + 1 > k);
        return row;
      });
      place(list, rows, focused);
    }
    this.rankingEmpty.textContent = t.empty_ranking || "";
    this.trayEmpty.textContent = t.empty_tray || "";
    for (const id of [...this.rows.keys()]) if (!seen.has(id)) this.rows.delete(id);
    const now = this.focusedRow();
    this.setFocus(this.focusId, hadFocus && (now === null || now.dataset.id !== this.focusId));
  }

  focusedRow() {
    const active = "activeElement" in this.root ? this.root.activeElement : document.activeElement;
    const row = active && active.closest ? active.closest("li.item") : null;
    return row && this.box.contains(row) ? row : null;
  }

  row(id) {
    let row = this.rows.get(id);
    if (row) return row;
    row = el("li", "item");
    row.dataset.id = id;
    row.setAttribute("role", "option");
    row.tabIndex = -1;
    // The row's own text reads as its accessible name does, in the same order: the grade, the
    // label, "id" and the id (speech input and axe's label-in-name check compare the two). The
    // rank, which the name says as "rank N", is drawn from data-rank by editor.css. The spaces
    // between the parts are text too, so the words do not run together.
    const rank = el("span", "rank");
    rank.setAttribute("aria-hidden", "true");
    const grade = el("span", "grade");
    grade.setAttribute("aria-hidden", "true");
    const text = el("span", "text");
    const label = el("span", "label");
    const ref = el("span", "ref");
    const word = el("span", "ref-word");
    const ident = el("span", "ident");
    ref.append(word, " ", ident);
    text.append(label, " ", ref);
    const handle = el("span", "handle", "⠿");
    handle.setAttribute("aria-hidden", "true");
    row.append(rank, grade, " ", text, " ", handle);
    row.parts = { rank, grade, label, word, ident };
    row.drawn = {};
    this.rows.set(id, row);
    return row;
  }

  draw(row, item, rank, cut, past) {
    const p = row.parts;
    const d = row.drawn;
    const grade = item.grade === null ? "?" : String(item.grade);
    const t = this.texts;
    // a row drawn as it is already (most rows, after an edit of one) is left alone
    if (d.texts === t && d.rank === rank && d.grade === grade && d.label === item.label && d.id === item.id && d.cut === cut && d.past === past) return;
    if (d.rank !== rank) p.rank.dataset.rank = rank === null ? "·" : String(rank);
    if (d.grade !== grade) {
      p.grade.textContent = grade;
      p.grade.dataset.grade = item.grade === null ? "u" : String(Math.min(item.grade, 10));
    }
    if (d.label !== item.label || d.texts !== t) {
      p.label.textContent = item.label || t.no_label || "";
      p.word.textContent = t.id || "id";
    }
    if (d.id !== item.id) p.ident.textContent = item.id;
    if (d.cut !== cut) {
      row.classList.toggle("cut", cut);
      row.dataset.cut = cut ? `k = ${rank}` : "";
    }
    if (d.past !== past) row.classList.toggle("past", past);
    const name = fill(rank === null ? t.said_tray : t.said, { rank, grade, label: item.label || t.no_label || item.id }) + `, ${t.id || "id"} ${item.id}` + (cut ? `, ${fill(t.cut, { k: rank })}` : "");
    if (d.name !== name) row.setAttribute("aria-label", name);
    row.drawn = { rank, grade, label: item.label, id: item.id, cut, past, name, texts: t };
  }
}
