// pencilbox playground: vanilla JavaScript, no build step, no external files.
// Views: Suguru (the Interactive Suguru Playground manual's features and more), Path, Sudoku.
// Every solve, count, check and deduction is done by pencilbox's JSON API: the server's
// (`pencilbox serve`), or the same API compiled to WebAssembly and run in a Web Worker (the
// static build, scripts/build-web.sh), as config.js says.
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';
const server = { puzzles: {}, limits: {} };
let view = 'suguru';

// ---------------------------------------------------------------- helpers

// Where the API runs (config.js): `server` (`pencilbox serve`, over fetch) or `worker` (the
// static build: the WebAssembly module in a Web Worker, no server).
const CONFIG = Object.assign({ api: 'server' }, window.PENCILBOX || {});

// The WebAssembly API in a Web Worker (static build). Requests queue in the worker and are
// answered in order; restart() terminates the worker (a long solve really stops), fails every
// request in flight, and starts a fresh worker with the module already compiled.
class WorkerApi {
  constructor(script) {
    this.script = script;
    this.module = null;
    this.pending = new Map();
    this.seq = 0;
    this.start();
  }

  start() {
    const w = new Worker(this.script);
    let started = false;
    this.worker = w;
    this.ready = new Promise((resolve, reject) => {
      w.onmessage = (ev) => {
        const m = ev.data;
        if (m.type === 'ready') {
          started = true;
          this.module = m.module;
          this.version = m.version;
          if (!performance.getEntriesByName('pencilbox:worker-ready').length) performance.mark('pencilbox:worker-ready');
          resolve();
        } else if (m.type === 'failed') {
          reject(new Error(`cannot start the WebAssembly solver: ${m.error}`));
        } else if (m.type === 'answer') {
          const p = this.pending.get(m.id);
          this.pending.delete(m.id);
          if (p) p.resolve(m);
          // A panic trapped the instance: replace it (its message is in the console).
          if (m.dead && this.worker === w) this.restart();
        }
      };
      // A worker that fails after it started is replaced; one that cannot start (its script
      // or the module missing) is not, and every request says why.
      w.onerror = (ev) => {
        ev.preventDefault();
        const e = new Error(`the WebAssembly solver failed: ${ev.message || 'worker error'}`);
        reject(e);
        if (started && this.worker === w) this.restart(e);
      };
    });
    // A failed start is reported to the requests that wait for it.
    this.ready.catch(() => {});
    w.postMessage({ type: 'init', module: this.module });
  }

  // Ends the current worker and every request in flight (rejected with `why`, by default as
  // stopped), then starts a fresh one.
  restart(why) {
    this.worker.terminate();
    const err = why || new DOMException('stopped', 'AbortError');
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.start();
  }

  async call(path, body, signal) {
    if (signal && signal.aborted) throw new DOMException('stopped', 'AbortError');
    await this.ready;
    // Stopped while the worker was still starting.
    if (signal && signal.aborted) throw new DOMException('stopped', 'AbortError');
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (signal) signal.addEventListener('abort', () => { if (this.pending.has(id)) this.restart(); }, { once: true });
      this.worker.postMessage({ type: 'call', id, route: path, body: body === undefined ? '' : JSON.stringify(body) });
    });
  }
}

const workerApi = CONFIG.api === 'worker' ? new WorkerApi(CONFIG.worker || 'worker.js') : null;

// One request to the API, on whichever transport: resolves to {ok, status, data}.
async function request(path, body, signal) {
  if (workerApi) {
    const m = await workerApi.call(path, body, signal);
    let data;
    try { data = JSON.parse(m.body); } catch (_) { data = { error: `the solver answered ${m.status}` }; }
    return { ok: m.status >= 200 && m.status < 300, status: m.status, data };
  }
  const init = body === undefined ? { method: 'GET' } : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
  if (signal) init.signal = signal;
  const res = await fetch(path, init);
  let data;
  try { data = await res.json(); } catch (_) { data = { error: `the server answered HTTP ${res.status}` }; }
  return { ok: res.ok, status: res.status, data };
}

// The signal of the action run() is running: its Stop button aborts the request.
let actionSignal = null;

async function api(path, body) {
  const res = await request(path, body, actionSignal);
  if (!res.ok) throw new Error(res.data.error || `HTTP ${res.status}`);
  return res.data;
}

function svg(tag, attrs, parent, text) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  if (parent) parent.appendChild(el);
  return el;
}

function setStatus(text, cls) {
  const s = $('status');
  s.textContent = text || '';
  s.className = 'status' + (cls ? ' ' + cls : '');
}

function setMessages(items) {
  const ul = $('messages');
  ul.innerHTML = '';
  for (const it of items) {
    const li = document.createElement('li');
    li.textContent = it.text;
    if (it.cls) li.className = it.cls;
    ul.appendChild(li);
  }
}

// Runs an API action with its button disabled; errors go to the status line and messages.
// An action still running after 300 ms shows a progress line (with the time it has run) and a
// Stop button, which aborts its request: the server's job is cancelled, or the browser's
// worker is terminated and replaced.
async function run(btn, fn) {
  if (btn) btn.disabled = true;
  document.body.style.cursor = 'progress';
  const ctl = new AbortController();
  const what = btn ? btn.textContent.trim() : 'working';
  const t0 = performance.now();
  const where = workerApi ? 'working in this browser' : 'waiting for the server';
  const tick = () => {
    $('busy-text').textContent = `${what}: ${where}… ${((performance.now() - t0) / 1000).toFixed(1)} s`;
  };
  let ticker = null;
  const timer = setTimeout(() => {
    tick();
    ticker = setInterval(tick, 100);
    $('busy').hidden = false;
  }, 300);
  $('busy-cancel').onclick = () => ctl.abort();
  actionSignal = ctl.signal;
  try {
    await fn();
  } catch (e) {
    const text = ctl.signal.aborted ? `${what}: stopped` : e.message;
    setStatus(text, ctl.signal.aborted ? 'warn' : 'bad');
    setMessages([{ text, cls: ctl.signal.aborted ? 'warn' : 'bad' }]);
  } finally {
    clearTimeout(timer);
    clearInterval(ticker);
    if (actionSignal === ctl.signal) actionSignal = null;
    $('busy').hidden = true;
    if (btn) btn.disabled = false;
    document.body.style.cursor = '';
  }
}

// The setter's map (/api/forced, the same as `pencilbox forced`): what is the same in every
// solution, each fact given, implied by the rules alone (with the rules) or only by search.
// Cells the rules or the search settle are listed; Path links are counted, not listed.
async function showForced(body) {
  const res = await api('/api/forced', body);
  if (res.status === 'none') {
    const text = 'this puzzle has no solution: nothing is forced';
    setStatus(text, 'bad');
    setMessages([{ text, cls: 'bad' }, ...(res.reason ? [{ text: res.reason, cls: 'bad' }] : [])]);
    return;
  }
  const facts = res.forced || [];
  const n = (by) => facts.filter((f) => f.by === by).length;
  const head = res.status === 'unique' ? 'exactly one solution, so everything is forced'
    : res.status === 'several' ? 'several solutions' : 'the time limit stopped the search';
  const summary = `${head}: ${facts.length} of ${res.places} facts are the same in every solution `
    + `(${n('given')} given, ${n('rules')} by the rules alone, ${n('search')} only by search)`;
  const cls = res.status === 'several' || !res.complete ? 'warn' : 'good';
  setStatus(summary, cls);
  const cells = facts.filter((f) => f.by !== 'given' && cellOf(f.at));
  const items = cells.slice(0, 60).map((f) => ({
    text: `${f.at} = ${f.value}: ${f.by === 'rules' ? 'rules (' + (ruleNames(f).join(', ') || 'the puzzle\'s sizes') + ')' : 'only by search'}`,
  }));
  if (cells.length > items.length) items.push({ text: `... and ${cells.length - items.length} more` });
  if (!res.complete) items.push({ text: `${(res.undecided || []).length} undecided when the time ran out`, cls: 'warn' });
  setMessages([{ text: summary, cls }, ...items]);
}

// The rules of a forced fact for people: the techniques' names, else the engine's rule ids.
function ruleNames(f) {
  return (f.techniques || []).length ? f.techniques.map((t) => t.name) : (f.rules || []);
}

// "r3c4" -> [2, 3] (0-based), or null.
function cellOf(name) {
  const m = /^r(\d+)c(\d+)$/.exec(String(name).trim());
  return m ? [Number(m[1]) - 1, Number(m[2]) - 1] : null;
}

function timing(stats) {
  if (!stats) return '';
  const ms = (stats.elapsed_us || 0) / 1000;
  return `${ms < 10 ? ms.toFixed(2) : ms.toFixed(0)} ms, ${stats.nodes} nodes`;
}

function cellSize(rows, cols, maxPx) {
  return Math.max(14, Math.min(64, Math.floor(maxPx / Math.max(rows, cols))));
}

// Which cell of a board is under a pointer event.
function cellAt(svgEl, ev, geom) {
  const r = svgEl.getBoundingClientRect();
  const x = (ev.clientX - r.left) * (geom.width / r.width) - geom.x0;
  const y = (ev.clientY - r.top) * (geom.height / r.height) - geom.y0;
  const c = Math.floor(x / geom.cs);
  const rr = Math.floor(y / geom.cs);
  if (rr < 0 || c < 0 || rr >= geom.rows || c >= geom.cols) return null;
  return [rr, c];
}

// A toggle button's state, shown (class `active`) and told (aria-pressed).
function press(id, on) {
  $(id).classList.toggle('active', on);
  $(id).setAttribute('aria-pressed', String(on));
}

function tokens(text) {
  return text.split(/\s+/).filter((t) => t.length > 0);
}

function intToken(tok, what) {
  if (!/^-?\d+$/.test(tok || '')) throw new Error(`${what}: expected a whole number, found "${tok === undefined ? 'end of text' : tok}"`);
  return Number(tok);
}

// Eight clearly different pastel hues; touching regions get different ones (regionColours).
const PALETTE = ['#fbd5dc', '#d4e4fb', '#d3f2dc', '#fdf0c2', '#e4dcfb', '#fde0c8', '#cdf0f4', '#e7e9ed'];

// ---------------------------------------------------------------- play: history, pad, saving

// PLAY[view] is what the view-independent parts below need of a view: its snapshot for undo
// (`take`/`put`), whether the grid is complete and was filled by the solver, the verify request
// of the automatic "Solved!", the puzzle's text and the player's progress for saving and
// sharing, and the number pad's digits. The views fill it in (sgPlay, ptPlay, sdPlay).
const PLAY = {};

// Undo and redo: one history per view, cleared when a new puzzle is loaded (forget).
const HIST = { suguru: { undo: [], redo: [] }, path: { undo: [], redo: [] }, sudoku: { undo: [], redo: [] } };
const HISTORY_MAX = 300;

// Takes a snapshot before a change (or records `before`, taken earlier); a new change drops
// what could be redone.
function record(v, before = PLAY[v].take()) {
  const h = HIST[v];
  h.undo.push(before);
  if (h.undo.length > HISTORY_MAX) h.undo.shift();
  h.redo = [];
}

function forget(v) { HIST[v] = { undo: [], redo: [] }; }

function undo(v = view) { travel(v, 'undo', 'redo', 'undone', 'nothing to undo'); }
function redo(v = view) { travel(v, 'redo', 'undo', 'redone', 'nothing to redo'); }

function travel(v, from, to, done, none) {
  const h = HIST[v];
  if (!h[from].length) { setStatus(none, 'warn'); return; }
  h[to].push(PLAY[v].take());
  PLAY[v].put(h[from].pop());
  setStatus(done, '');
  setMessages([]);
  $('board').classList.remove('is-solved');
  VIEWS[v].render();
  changed(v);
}

// After every change of a grid: the progress is saved and, when the grid is complete, the
// server verifies it for the automatic "Solved!" (both a moment later, once per burst). A grid
// the solver (Solve, Autocomplete) completed is not the player's: no "Solved!" for it.
const EDITS = { suguru: 0, path: 0, sudoku: 0 };
const BY_SOLVER = { suguru: false, path: false, sudoku: false };
// The EDITS stamp of the grid the player last pressed Check on: its answer stands.
const CHECKED = { suguru: -1, path: -1, sudoku: -1 };
const settleTimer = {};

function changed(v, bySolver = false) {
  EDITS[v]++;
  BY_SOLVER[v] = bySolver;
  $('board').classList.remove('is-solved');
  clearTimeout(settleTimer[v]);
  settleTimer[v] = setTimeout(() => { saveProgress(v); autoCheck(v); }, 200);
}

async function autoCheck(v) {
  const p = PLAY[v];
  if (!p || !p.complete() || BY_SOLVER[v]) return;
  const stamp = EDITS[v];
  let res;
  try {
    const r = await request('/api/verify', p.verifyBody());
    if (!r.ok) return;
    res = r.data;
  } catch (_) { return; }
  if (view !== v || EDITS[v] !== stamp || CHECKED[v] === stamp) return;
  if (res.valid) {
    setStatus('Solved!', 'good');
    setMessages([{ text: 'Solved! Every rule holds.', cls: 'good' }]);
    $('board').classList.add('is-solved');
  } else {
    setStatus('the grid is complete, but a rule is broken: press Check to see where', 'warn');
  }
}

// Saved progress: localStorage, one entry per puzzle keyed by its givens (the puzzle's text),
// and the last puzzle of each view, so that a reload opens it again with the progress.
function textKey(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return `${h.toString(16)}-${text.length}`;
}

function storage() {
  try { return window.localStorage; } catch (_) { return null; }
}

function saveProgress(v) {
  const st = storage();
  if (!st) return;
  const p = PLAY[v];
  try {
    st.setItem(`pencilbox:last:${v}`, JSON.stringify({ text: p.text(), mode: p.mode() }));
    st.setItem(`pencilbox:progress:${v}:${textKey(p.text())}`, JSON.stringify(p.progress()));
  } catch (_) { /* storage full or disabled: the game goes on without saving */ }
}

// Puts the saved progress of the puzzle just loaded back; true if there was some.
function restoreProgress(v) {
  const st = storage();
  if (!st) return false;
  try {
    const saved = st.getItem(`pencilbox:progress:${v}:${textKey(PLAY[v].text())}`);
    return saved ? PLAY[v].setProgress(JSON.parse(saved)) : false;
  } catch (_) { return false; }
}

function lastPuzzle(v) {
  const st = storage();
  try { return st ? JSON.parse(st.getItem(`pencilbox:last:${v}`) || 'null') : null; } catch (_) { return null; }
}

// Loads a puzzle text into a view (Play Mode), restores its saved progress, and clears the
// history: every way of opening a puzzle goes through here.
function openPuzzle(v, text, progress) {
  VIEWS[v].load(text);
  forget(v);
  let restored = false;
  if (progress) restored = PLAY[v].setProgress(progress);
  else restored = restoreProgress(v);
  if (v === 'suguru') $('sg-level').value = '';
  return restored;
}

// Share links: `/#VIEW&t=TEXT&p=PROGRESS`, both base64url; the progress is optional.
const b64 = (s) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const unb64 = (s) => atob(s.replace(/-/g, '+').replace(/_/g, '/'));

function shareLink(withProgress) {
  const p = PLAY[view];
  let link = `${location.origin}${location.pathname}#${view}&t=${b64(p.text())}`;
  if (withProgress) link += `&p=${b64(JSON.stringify(p.progress()))}`;
  return link;
}

// The view name and share parameters of the address's hash.
function hashParts() {
  const [name, ...rest] = location.hash.slice(1).split('&');
  const params = {};
  for (const kv of rest) { const i = kv.indexOf('='); if (i > 0) params[kv.slice(0, i)] = kv.slice(i + 1); }
  return { name, params };
}

// The server's limits (GET /api/limits): the page refuses, with the reason, any size the server
// would refuse, instead of changing it silently.
const limits = { max_side: 60, max_cells: 2500, generate: { min_side: 2, max_side: 12 }, families: {} };

function sideLimit(family) {
  const own = limits.families[family]?.max_side || limits.max_side;
  return Math.min(own, limits.max_side);
}

// The size in the view's Rows and Columns inputs, or null after saying why it cannot be used.
function askedSize(pfx, min, max, who) {
  const out = [];
  for (const [id, what] of [[`${pfx}-rows`, 'rows'], [`${pfx}-cols`, 'columns']]) {
    const raw = String($(id).value).trim();
    const v = Number(raw);
    if (!/^\d+$/.test(raw) || v < min || v > max) {
      const text = `${who} takes ${min} to ${max} ${what}; ${raw === '' ? `the ${what} field is empty or not a number` : `"${raw}" is not allowed here`}`;
      setStatus(text, 'bad');
      setMessages([{ text, cls: 'bad' }]);
      return null;
    }
    out.push(v);
  }
  if (out[0] * out[1] > limits.max_cells) {
    const text = `${out[0]}×${out[1]} is ${out[0] * out[1]} cells; this server takes at most ${limits.max_cells} cells`;
    setStatus(text, 'bad');
    setMessages([{ text, cls: 'bad' }]);
    return null;
  }
  return out;
}

// The on-screen number pad: the digits of the puzzle's range, Pencil, Erase, Undo and Redo,
// for touch screens (and mice). Rebuilt only when the range changes.
let padKey = '';

function padRender() {
  const p = PLAY[view];
  if (!p) return;
  const pad = p.pad();
  const key = `${view}:${pad.digits.join(',')}:${pad.pencil}:${pad.typing}`;
  $('pad-pencil').hidden = !pad.pencil;
  $('pad-pencil').setAttribute('aria-pressed', String(pad.pencil && pad.pencilOn));
  $('pad-pencil').classList.toggle('active', pad.pencil && pad.pencilOn);
  $('pad-erase').textContent = pad.eraseLabel || 'Erase';
  if (key === padKey) return;
  padKey = key;
  const box = $('pad-digits');
  box.innerHTML = '';
  box.hidden = pad.digits.length === 0;
  for (const d of pad.digits) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'pad-btn digit';
    b.dataset.digit = String(d);
    b.textContent = pad.label ? pad.label(d) : String(d);
    b.setAttribute('aria-label', `${pad.typing ? 'type' : 'enter'} ${b.textContent}`);
    b.onclick = () => { PLAY[view].digit(d); };
    box.appendChild(b);
  }
}

function padInit() {
  $('pad-erase').onclick = () => PLAY[view].erase();
  $('pad-pencil').onclick = () => { PLAY[view].togglePencil(); padRender(); };
  $('undo').onclick = () => undo();
  $('redo').onclick = () => redo();
  // Pad buttons must not take the focus from the board (keys keep working after a tap).
  $('pad').addEventListener('pointerdown', (e) => { if (e.target.closest('button')) e.preventDefault(); });
}

// The board as an ARIA grid, the same in every view: #board (which takes the focus and the
// keys) is the grid, the SVG and its layers are presentation, the cell rectangles of each row
// go into a `row` group and each is a `gridcell` named "r3c1: 5" (or "empty"); everything
// else drawn in `g` (lines, numbers, marks) is hidden from assistive technology, since the
// cells' names say it. Call it once the board is drawn; `sel` is the selected cell or null.
function gridRoles(root, g, cols, value, sel) {
  root.setAttribute('role', 'none');
  g.setAttribute('role', 'none');
  const rects = [...g.children].filter((el) => el.matches('rect.cell-bg[data-cell]'));
  for (const el of g.children) if (!el.matches('rect.cell-bg')) el.setAttribute('aria-hidden', 'true');
  for (const el of root.children) if (el !== g) el.setAttribute('aria-hidden', 'true');
  const after = rects.length ? rects[rects.length - 1].nextSibling : null;
  for (let i = 0; i < rects.length; i += cols) {
    const row = svg('g', { role: 'row' });
    for (const rect of rects.slice(i, i + cols)) {
      rect.setAttribute('role', 'gridcell');
      rect.id = `cell-${rect.dataset.cell}`;
      const rc = cellOf(rect.dataset.cell);
      rect.setAttribute('aria-label', `${rect.dataset.cell}: ${value(rc[0] * cols + rc[1])}`);
      row.appendChild(rect);
    }
    g.insertBefore(row, after);
  }
  gridSelect(root, sel === null || sel === undefined ? null : `r${Math.floor(sel / cols) + 1}c${(sel % cols) + 1}`);
}

// The selected cell of the grid: its aria-selected, and the grid's aria-activedescendant (a
// screen reader announces the cell the arrow keys move to).
function gridSelect(root, name) {
  const board = $('board');
  for (const el of root.querySelectorAll('[aria-selected="true"]')) el.removeAttribute('aria-selected');
  const cell = name ? root.querySelector(`#cell-${name}`) : null;
  if (cell) {
    cell.setAttribute('aria-selected', 'true');
    board.setAttribute('aria-activedescendant', cell.id);
  } else {
    board.removeAttribute('aria-activedescendant');
  }
}

// ---------------------------------------------------------------- Suguru

// The region board plays every region family whose text is `[keyword] m n`, hints, labels:
// Suguru (no keyword) and Ripple Effect (`ripple m n`); `family` is the server's family name.
const sg = {
  family: 'suguru',
  m: 6, n: 6,
  label: [], given: [], value: [],
  mode: 'play', tool: 'fill', sel: 0,
  bad: new Set(), hint: new Set(), diff: new Set(), solved: new Set(),
  drawing: null, typed: { cell: -1, at: 0 },
  levels: [], geom: null, pencil: [], pencilMode: false,
};

// Undo: a snapshot of the grid taken before each change (see record()).
function sgSnapshot() { record('suguru'); }

function sgReset(m, n) {
  forget('suguru');
  sg.m = m; sg.n = n;
  sg.label = new Array(m * n).fill(0);
  sg.given = new Array(m * n).fill(0);
  sg.value = new Array(m * n).fill(0);
  sg.pencil = new Array(m * n).fill(0);
  sg.sel = 0;
  sgClearMarks();
}

// The verifiers' rules that say "this cell is empty": not a broken rule while a grid is
// being solved, so Check lists them only on request ("Check also lists empty cells").
const EMPTY_RULES = new Set(['empty', 'empty-cell']);

// Reports a /api/verify answer for any family. Broken rules come first: each cell they name
// goes into `bad` (at `index(row, col)`), and `more(broken)` adds cells the family finds itself
// (Sudoku's duplicates in a row, column or box). Empty cells are listed (and returned, to be
// outlined) only when the player asked for them. `line(v)` words one violation.
function reportCheck(res, bad, index, praise, line = (v) => (v.message.startsWith(v.at) ? v.message : `${v.at}: ${v.message}`), more = () => []) {
  CHECKED[view] = EDITS[view];
  const showEmpty = $('show-empty').checked;
  const broken = res.violations.filter((v) => !EMPTY_RULES.has(v.rule));
  const empty = res.violations.filter((v) => EMPTY_RULES.has(v.rule));
  for (const v of broken) {
    const rc = cellOf(v.at);
    if (rc) bad.add(index(rc[0], rc[1]));
  }
  for (const c of more(broken)) bad.add(c);
  const empties = new Set();
  if (showEmpty) {
    for (const v of empty) {
      const rc = cellOf(v.at);
      if (rc) empties.add(index(rc[0], rc[1]));
    }
  }
  const emptyItems = showEmpty ? empty.map((v) => ({ text: line(v), cls: 'warn' }))
    : empty.length ? [{ text: `${plural(empty.length, 'empty cell')} not listed (tick "Check also lists empty cells")` }] : [];
  if (res.valid) {
    setStatus(praise, 'good');
    setMessages([{ text: praise, cls: 'good' }]);
  } else if (!broken.length) {
    const text = `no rule is broken so far; ${plural(empty.length, 'cell')} still empty`;
    setStatus(text, 'good');
    setMessages([{ text, cls: 'good' }, ...emptyItems]);
  } else {
    const first = line(broken[0]);
    const rest = broken.length > 1 ? ` (and ${plural(broken.length - 1, 'more broken rule')})` : '';
    setStatus(`${first}${rest}`, 'bad');
    setMessages([...broken.map((v) => ({ text: line(v), cls: 'bad' })), ...emptyItems]);
  }
  return empties;
}

// "1 cell", "3 cells".
function plural(k, word) { return `${k} ${word}${k === 1 ? '' : 's'}`; }

// Draws the marks of a board (cells at `index = row * cols + col`, side `cs`) into `g`: the
// solver's differences, hint cells, empty cells asked for, and broken rules. A broken cell
// gets a tint, a thick border and a "!" badge (not colour alone), and its cell rectangle says
// aria-invalid.
function drawMarks(g, cols, cs, marks, cells = g) {
  const at = (c) => [(c % cols) * cs, Math.floor(c / cols) * cs];
  const name = (c) => `r${Math.floor(c / cols) + 1}c${(c % cols) + 1}`;
  for (const c of marks.diff || []) { const [x, y] = at(c); svg('rect', { x, y, width: cs, height: cs, class: 'diffcell' }, g); }
  for (const c of marks.hint || []) { const [x, y] = at(c); svg('rect', { x, y, width: cs, height: cs, class: 'hintcell', 'data-hint': name(c) }, g); }
  for (const c of marks.empty || []) { const [x, y] = at(c); svg('rect', { x: x + 3, y: y + 3, width: cs - 6, height: cs - 6, class: 'emptycell', 'data-empty': name(c) }, g); }
  for (const c of marks.bad || []) {
    const [x, y] = at(c);
    svg('rect', { x: x + 1.5, y: y + 1.5, width: cs - 3, height: cs - 3, class: 'badcell', 'data-bad': name(c) }, g);
    const r = Math.max(5, cs * 0.14);
    svg('circle', { cx: x + cs - r - 2, cy: y + r + 2, r, class: 'bad-badge' }, g);
    svg('text', { x: x + cs - r - 2, y: y + r + 2.5, class: 'bad-icon', 'font-size': Math.round(r * 1.5) }, g, '!');
  }
  for (const c of marks.bad || []) {
    const rect = cells.querySelector(`rect.cell-bg[data-cell="${name(c)}"]`);
    if (rect) rect.setAttribute('aria-invalid', 'true');
  }
}

function sgClearMarks() {
  sg.bad = new Set(); sg.hint = new Set(); sg.diff = new Set(); sg.empty = new Set();
}

// Regions as the server normalises them: connected parts of equal labels, numbered 1.. in
// row-major order of first appearance.
function sgRegions() {
  const { m, n, label } = sg;
  const id = new Array(m * n).fill(0);
  const size = [0];
  let next = 0;
  for (let s = 0; s < m * n; s++) {
    if (id[s]) continue;
    next++;
    size.push(0);
    const stack = [s];
    id[s] = next;
    while (stack.length) {
      const c = stack.pop();
      size[next]++;
      const r = Math.floor(c / n), k = c % n;
      for (const [dr, dk] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const rr = r + dr, kk = k + dk;
        if (rr < 0 || kk < 0 || rr >= m || kk >= n) continue;
        const d = rr * n + kk;
        if (!id[d] && label[d] === label[c]) { id[d] = next; stack.push(d); }
      }
    }
  }
  return { id, size, count: next };
}

function sgNumber(c) { return sg.given[c] || sg.value[c]; }

function sgText() {
  const { m, n } = sg;
  const reg = sgRegions();
  const lines = [sg.family === 'suguru' ? `${m} ${n}` : `${sg.family} ${m} ${n}`];
  for (let r = 0; r < m; r++) lines.push(sg.given.slice(r * n, r * n + n).join(' '));
  for (let r = 0; r < m; r++) lines.push(reg.id.slice(r * n, r * n + n).join(' '));
  return lines.join('\n') + '\n';
}

function sgSolutionText() {
  const rows = [];
  for (let r = 0; r < sg.m; r++) {
    const row = [];
    for (let c = 0; c < sg.n; c++) row.push(sgNumber(r * sg.n + c));
    rows.push(row.join(' '));
  }
  return rows.join('\n') + '\n';
}

function sgLoad(text) {
  let t = tokens(text);
  // A keyword header (`ripple 6 6`) names the family; plain `m n` is Suguru.
  const family = /^[a-z]+$/.test(t[0] || '') ? t[0] : 'suguru';
  if (family !== 'suguru') {
    if (!REGION_FAMILIES.includes(family)) throw new Error(`"${family}" is not a region puzzle this board plays (${REGION_FAMILIES.join(', ')})`);
    t = t.slice(1);
  }
  const m = intToken(t[0], 'rows'), n = intToken(t[1], 'columns');
  const maxSide = server.limits.max_side || 60;
  if (m < 1 || n < 1 || m > maxSide || n > maxSide) throw new Error(`the grid must be 1 to ${maxSide} rows and columns, found ${m}×${n}`);
  if (t.length < 2 + 2 * m * n) throw new Error(`expected ${m * n} hints and ${m * n} region labels after "${m} ${n}", found ${t.length - 2} numbers`);
  const hints = [], labels = [];
  for (let i = 0; i < m * n; i++) {
    const h = intToken(t[2 + i], `hint ${i + 1}`);
    if (h < 0 || h > 999) throw new Error(`hint ${i + 1} is ${h}: hints are 0 (empty) to 999`);
    hints.push(h);
  }
  for (let i = 0; i < m * n; i++) labels.push(intToken(t[2 + m * n + i], `region label ${i + 1}`));
  sgReset(m, n);
  sgSetFamily(family);
  sg.given = hints;
  sg.label = labels;
  sg.solved = new Set();
  $('sg-rows').value = m; $('sg-cols').value = n;
}

// Greedy colouring of the regions (in number order) so that touching regions differ.
function regionColours(reg, m, n) {
  const near = Array.from({ length: reg.count + 1 }, () => new Set());
  for (let c = 0; c < m * n; c++) {
    const r = Math.floor(c / n), k = c % n;
    for (const [dr, dk] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
      const rr = r + dr, kk = k + dk;
      if (rr >= m || kk < 0 || kk >= n) continue;
      const a = reg.id[c], b = reg.id[rr * n + kk];
      if (a !== b) { near[a].add(b); near[b].add(a); }
    }
  }
  const colour = new Array(reg.count + 1).fill(-1);
  for (let id = 1; id <= reg.count; id++) {
    const used = new Set([...near[id]].map((x) => colour[x]));
    let k = (id * 7) % PALETTE.length;
    for (let t = 0; t < PALETTE.length && used.has(k); t++) k = (k + 1) % PALETTE.length;
    colour[id] = k;
  }
  return colour;
}

function sgRender() {
  if (view !== 'suguru') return;
  const { m, n } = sg;
  const cs = cellSize(m, n, 560);
  const pad = 4;
  const W = n * cs + 2 * pad, H = m * cs + 2 * pad;
  sg.geom = { cs, x0: pad, y0: pad, rows: m, cols: n, width: W, height: H };
  const board = $('board');
  board.innerHTML = '';
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, id: 'sg-svg', 'data-puzzle': 'suguru' }, board);
  root.style.maxWidth = `${W}px`; // CSSOM, allowed by the page's Content-Security-Policy
  const reg = sgRegions();
  const colour = regionColours(reg, m, n);
  const g = svg('g', { transform: `translate(${pad},${pad})` }, root);
  for (let c = 0; c < m * n; c++) {
    const r = Math.floor(c / n), k = c % n;
    svg('rect', {
      x: k * cs, y: r * cs, width: cs, height: cs, class: 'cell-bg',
      fill: PALETTE[colour[reg.id[c]]],
      'data-cell': `r${r + 1}c${k + 1}`, 'data-region': reg.id[c],
    }, g);
  }
  drawMarks(g, n, cs, { diff: sg.diff, hint: sg.hint, empty: sg.empty, bad: sg.bad });
  for (let r = 1; r < m; r++) svg('line', { x1: 0, y1: r * cs, x2: n * cs, y2: r * cs, class: 'grid-line' }, g);
  for (let k = 1; k < n; k++) svg('line', { x1: k * cs, y1: 0, x2: k * cs, y2: m * cs, class: 'grid-line' }, g);
  // Region borders, kept by edge ("v" right of a cell, "h" below it) so that a drag redraws
  // only the edges around the cells it changes (sgDrawCell).
  sg.edges = new Map();
  sg.edgeLayer = svg('g', { class: 'region-lines' }, g);
  for (let r = 0; r < m; r++) {
    for (let k = 0; k < n; k++) {
      const c = r * n + k;
      if (k + 1 < n && reg.id[c] !== reg.id[c + 1]) sgEdge(`v${c}`, true);
      if (r + 1 < m && reg.id[c] !== reg.id[c + n]) sgEdge(`h${c}`, true);
    }
  }
  svg('rect', { x: 0, y: 0, width: n * cs, height: m * cs, class: 'outer' }, g);
  if (sg.sel !== null && sg.sel < m * n && sg.tool === 'fill') {
    svg('rect', { x: (sg.sel % n) * cs + 2, y: Math.floor(sg.sel / n) * cs + 2, width: cs - 4, height: cs - 4, class: 'sel', rx: 3 }, g);
  }
  for (let c = 0; c < m * n; c++) {
    const v = sgNumber(c);
    if (!v) continue;
    const cls = sg.given[c] ? 'given' : (sg.solved.has(c) ? 'solved' : 'entry');
    svg('text', {
      x: (c % n) * cs + cs / 2, y: Math.floor(c / n) * cs + cs / 2 + 1,
      class: `num ${cls}`, 'font-size': Math.round(cs * (v >= 100 ? 0.36 : v >= 10 ? 0.46 : 0.56)),
    }, g, String(v));
  }
  // Pencil marks: the player's own candidates, small and grey-blue, in a 3×3 (or 4×4) block.
  const top = Math.max(1, ...reg.size.slice(1));
  const sub = top > 9 ? 4 : 3;
  for (let c = 0; c < m * n; c++) {
    const marks = sg.pencil[c];
    if (!marks || sgNumber(c) || cs < 24) continue;
    const step = cs / sub;
    for (let d = 1; d <= PENCIL_MAX; d++) {
      if (!(marks & (1 << d))) continue;
      const a = Math.floor((d - 1) / sub), b = (d - 1) % sub;
      svg('text', { x: (c % n) * cs + step * b + step / 2, y: Math.floor(c / n) * cs + step * a + step / 2 + 1, class: 'cand pencil', 'font-size': Math.max(8, Math.round(step * 0.72)), 'data-pencil': `r${Math.floor(c / n) + 1}c${(c % n) + 1}:${d}` }, g, String(d));
    }
  }
  $('board-sub').textContent = `${m}×${n}, ${plural(reg.count, 'region')} · ${sg.mode === 'play' ? 'Play Mode' : 'Creative Mode'}`;
  gridRoles(root, g, n, (c) => (sgNumber(c) ? String(sgNumber(c)) : 'empty'), sg.tool === 'fill' ? sg.sel : null);
  padRender();
  root.addEventListener('pointerdown', sgPointerDown);
  root.addEventListener('pointermove', sgPointerMove);
  root.addEventListener('pointerup', sgPointerUp);
  root.addEventListener('pointercancel', sgPointerUp);
}

function sgPointerDown(ev) {
  const rc = cellAt(ev.currentTarget, ev, sg.geom);
  if (!rc) return;
  const c = rc[0] * sg.n + rc[1];
  $('board').focus({ preventScroll: true });
  if (sg.tool === 'region' && sg.mode === 'creative') {
    sgSnapshot();
    $('sg-level').value = '';
    const label = Math.max(0, ...sg.label) + 1;
    sg.drawing = { label };
    sg.label[c] = label;
    sgClearMarks();
    sg.solved = new Set();
    sgRender();
    // The board was redrawn once, at the press; the drag keeps this drawing and its colour.
    sg.drawing.fill = $('sg-svg').querySelector(`rect.cell-bg[data-cell="r${rc[0] + 1}c${rc[1] + 1}"]`).getAttribute('fill');
    try { $('sg-svg').setPointerCapture(ev.pointerId); } catch (_) { /* pointer already released */ }
    return;
  }
  sg.sel = c;
  sg.typed = { cell: -1, at: 0 };
  sgRender();
}

// Shows or hides the region border of one edge (`v<c>`: right of cell c, `h<c>`: below it).
function sgEdge(key, on) {
  const have = sg.edges.get(key);
  if (!on) { if (have) { have.remove(); sg.edges.delete(key); } return; }
  if (have) return;
  const { cs } = sg.geom;
  const c = Number(key.slice(1)), r = Math.floor(c / sg.n), k = c % sg.n;
  const line = key[0] === 'v'
    ? svg('line', { x1: (k + 1) * cs, y1: r * cs, x2: (k + 1) * cs, y2: (r + 1) * cs, class: 'region-line' }, sg.edgeLayer)
    : svg('line', { x1: k * cs, y1: (r + 1) * cs, x2: (k + 1) * cs, y2: (r + 1) * cs, class: 'region-line' }, sg.edgeLayer);
  sg.edges.set(key, line);
}

// A drag that draws a region changes one cell at a time: only that cell's colour and its four
// borders are redrawn (borders by label; the full redraw at the end of the drag settles
// regions a drag split in two, and the colours).
function sgDrawCell(c, fill) {
  const { n, m } = sg;
  const rect = $('sg-svg').querySelector(`rect.cell-bg[data-cell="r${Math.floor(c / n) + 1}c${(c % n) + 1}"]`);
  if (rect) rect.setAttribute('fill', fill);
  const r = Math.floor(c / n), k = c % n;
  if (k + 1 < n) sgEdge(`v${c}`, sg.label[c] !== sg.label[c + 1]);
  if (k > 0) sgEdge(`v${c - 1}`, sg.label[c] !== sg.label[c - 1]);
  if (r + 1 < m) sgEdge(`h${c}`, sg.label[c] !== sg.label[c + n]);
  if (r > 0) sgEdge(`h${c - n}`, sg.label[c] !== sg.label[c - n]);
}

function sgPointerMove(ev) {
  if (!sg.drawing) return;
  const rc = cellAt(ev.currentTarget, ev, sg.geom);
  if (!rc) return;
  const c = rc[0] * sg.n + rc[1];
  if (sg.label[c] === sg.drawing.label) return;
  sg.label[c] = sg.drawing.label;
  sgDrawCell(c, sg.drawing.fill);
}

function sgPointerUp() {
  if (!sg.drawing) return;
  sg.drawing = null;
  sgRender();
  setStatus(plural(sgRegions().count, 'region'), '');
  changed('suguru');
}

function sgSetNumber(c, v) {
  if (sg.mode === 'play') {
    if (sg.given[c]) { setStatus('given numbers are fixed in Play Mode (switch to Creative Mode to change them)', 'warn'); return; }
    if (sg.value[c] === v && !(v === 0 && sg.pencil[c])) return;
    sgSnapshot();
    sg.value[c] = v;
    if (v === 0) sg.pencil[c] = 0;
  } else {
    sgSnapshot();
    sg.given[c] = v;
    sg.value[c] = 0;
    $('sg-level').value = '';
  }
  sg.solved.delete(c);
  sgClearMarks();
  sgRender();
  changed('suguru');
}

// The largest digit a pencil mark can hold (a bit of a 32-bit mask).
const PENCIL_MAX = 16;

function sgTogglePencil(c, d) {
  if (sgNumber(c)) { setStatus('pencil marks go in empty cells', 'warn'); return; }
  if (d < 1 || d > PENCIL_MAX) { setStatus(`pencil marks hold 1 to ${PENCIL_MAX}`, 'warn'); return; }
  sgSnapshot();
  sg.pencil[c] ^= 1 << d;
  sgRender();
  changed('suguru');
}

function sgKey(ev) {
  const { m, n } = sg;
  const moves = { ArrowUp: -n, ArrowDown: n, ArrowLeft: -1, ArrowRight: 1 };
  if (ev.key in moves) {
    const c = sg.sel ?? 0;
    const r = Math.floor(c / n), k = c % n;
    const nr = r + (ev.key === 'ArrowUp' ? -1 : ev.key === 'ArrowDown' ? 1 : 0);
    const nk = k + (ev.key === 'ArrowLeft' ? -1 : ev.key === 'ArrowRight' ? 1 : 0);
    if (nr >= 0 && nk >= 0 && nr < m && nk < n) sg.sel = nr * n + nk;
    sg.typed = { cell: -1, at: 0 };
    if (sg.tool !== 'fill') sgSetTool('fill');
    sgRender();
    return true;
  }
  if (sg.sel === null) return false;
  const c = sg.sel;
  if (/^[0-9]$/.test(ev.key)) {
    const d = Number(ev.key);
    const now = Date.now();
    const cur = sgNumber(c);
    // Digits typed quickly into the same cell build a number of up to three digits.
    if (sg.pencilMode && sg.mode === 'play') { sgTogglePencil(c, d); return true; }
    const v = (sg.typed.cell === c && now - sg.typed.at < 1200 && cur > 0 && cur < 100) ? cur * 10 + d : d;
    sg.typed = { cell: c, at: now };
    sgSetNumber(c, v);
    return true;
  }
  if (ev.key === 'Backspace' || ev.key === 'Delete' || ev.key === ' ') {
    sg.typed = { cell: -1, at: 0 };
    sgSetNumber(c, 0);
    return true;
  }
  return false;
}

function sgSetMode(mode) {
  sg.mode = mode;
  press('sg-play', mode === 'play');
  press('sg-creative', mode === 'creative');
  $('sg-draw').hidden = mode === 'play';
  $('sg-clear-regions').hidden = mode === 'play';
  if (mode === 'play') {
    sgSetTool('fill');
  }
  if (view === 'suguru') setStatus(mode === 'play' ? 'Play Mode: fill the empty cells' : 'Creative Mode: draw regions and place hints', '');
  sgRender();
}

function sgSetTool(tool) {
  sg.tool = tool;
  press('sg-draw', tool === 'region');
  press('sg-fill', tool === 'fill');
  $('board').style.cursor = tool === 'region' ? 'crosshair' : 'pointer';
}

async function sgCheck() {
  const res = await api('/api/verify', { puzzle: sg.family, text: sgText(), solution: sgSolutionText() });
  sgClearMarks();
  // The verifier's messages are the manual's sentences with r3c1 names ("r3c1 shares a number
  // with ..."); a message about another cell gets its own cell in front.
  sg.empty = reportCheck(res, sg.bad, (r, c) => r * sg.n + c, 'your configuration is correct, well done.',
    (v) => (v.message.startsWith(`${v.at} `) ? v.message : `${v.at}: ${v.message}`));
  sgRender();
}

// A given larger than its region can never stand: the puzzle has no solution (said as such,
// with the cells marked, rather than the parser's complaint about the text). Returns true if
// it reported one.
function sgImpossibleGivens() {
  const reg = sgRegions();
  const over = [];
  for (let c = 0; c < sg.m * sg.n; c++) if (sg.given[c] > reg.size[reg.id[c]]) over.push(c);
  if (!over.length) return false;
  sgClearMarks();
  for (const c of over) sg.bad.add(c);
  const name = (c) => `r${Math.floor(c / sg.n) + 1}c${(c % sg.n) + 1}`;
  const lines = over.map((c) => `${name(c)} holds ${sg.given[c]}, but its region has ${plural(reg.size[reg.id[c]], 'cell')}`);
  setStatus('this puzzle has no solution...', 'bad');
  setMessages([{ text: 'this puzzle has no solution...', cls: 'bad summary' }, ...lines.map((text) => ({ text, cls: 'bad' }))]);
  sgRender();
  return true;
}

async function sgSolve() {
  if (sgImpossibleGivens()) return;
  const res = await api('/api/solve', { puzzle: sg.family, text: sgText() });
  sgClearMarks();
  if (res.status === 'solved') {
    sgSnapshot();
    sg.solved = new Set();
    res.solution.forEach((row, r) => row.forEach((v, k) => {
      const c = r * sg.n + k;
      if (!sg.given[c]) { sg.value[c] = v; sg.solved.add(c); }
    }));
    setStatus('solved', 'good');
    setMessages([{ text: `solved by the ${res.algorithm} solver (${timing(res.stats)})`, cls: 'good' }]);
    changed('suguru', true);
  } else if (res.status === 'unsolvable') {
    setStatus('this puzzle has no solution...', 'bad');
    const items = [{ text: 'this puzzle has no solution...', cls: 'bad summary' }];
    if (res.reason) items.push({ text: res.reason, cls: 'bad' });
    setMessages(items);
  } else {
    setStatus('the time limit was reached before a solution was found', 'warn');
    setMessages([{ text: `stopped by the time limit (${timing(res.stats)})`, cls: 'bad' }]);
  }
  sgRender();
}

// Uniqueness check, shared by the three views: describes a count answer.
function describeCount(res) {
  if (res.count === 0) return { text: 'this puzzle has no solution...', cls: 'bad', extra: res.reason };
  if (res.count === 1 && res.complete) return { text: 'this puzzle has exactly one solution', cls: 'good' };
  if (res.interrupted) return { text: `the time limit stopped the count at ${res.count} solution(s)`, cls: 'warn' };
  return { text: `this puzzle has more than one solution; two of them differ at ${(res.differences || []).join(', ')}`, cls: 'bad' };
}

async function sgUnique() {
  if (sgImpossibleGivens()) return;
  const res = await api('/api/count', { puzzle: sg.family, text: sgText(), limit: 2 });
  sgClearMarks();
  const d = describeCount(res);
  for (const name of res.differences || []) {
    const rc = cellOf(name);
    if (rc) sg.diff.add(rc[0] * sg.n + rc[1]);
  }
  setStatus(d.text, d.cls);
  setMessages([{ text: d.text, cls: d.cls }, ...(d.extra ? [{ text: d.extra, cls: 'bad' }] : [])]);
  sgRender();
}

async function sgLoadLevels() {
  let res;
  try { res = await api('/api/levels'); } catch (_) { return; }
  sg.levels = (res.levels || []).filter((l) => l.puzzle === 'suguru');
  const sel = $('sg-level');
  const groups = new Map();
  sg.levels.forEach((l, i) => {
    if (!groups.has(l.difficulty)) {
      const og = document.createElement('optgroup');
      og.label = l.difficulty[0].toUpperCase() + l.difficulty.slice(1);
      groups.set(l.difficulty, og);
      sel.appendChild(og);
    }
    const o = document.createElement('option');
    o.value = String(i);
    o.textContent = `${l.name} (${l.rows}×${l.cols})`;
    groups.get(l.difficulty).appendChild(o);
  });
}

function sgPickLevel() {
  const i = $('sg-level').value;
  if (i === '') return;
  const l = sg.levels[Number(i)];
  sgLoad(l.text);
  sgSetMode('play');
  const restored = restoreProgress('suguru');
  changed('suguru');
  sgRender();
  if (view !== 'suguru') return;
  const uniq = l.unique ? ', exactly one solution' : '';
  setStatus(`${l.name}: ${l.rows}×${l.cols}, ${l.difficulty}${uniq}${restored ? ' (your progress is restored)' : ''}`, '');
  setMessages([]);
}

async function sgGenerate() {
  const difficulty = $('sg-gen-level').hidden ? undefined : $('sg-gen-level').value;
  const size = askedSize('sg', limits.generate.min_side, limits.generate.max_side, 'the generator');
  if (!size) return;
  const [rows, cols] = size;
  const seed = Math.floor(Math.random() * 2 ** 31);
  const res = await api('/api/generate', { puzzle: sg.family, rows, cols, difficulty, seed });
  sgLoad(res.text);
  $('sg-level').value = '';
  sgSetMode('play');
  changed('suguru');
  setStatus(`a new ${difficulty ? `${difficulty} ` : ''}${rows}×${cols} puzzle (seed ${seed})`, 'good');
  setMessages([{ text: `generated with seed ${seed}${res.unique ? '; exactly one solution' : ''}`, cls: 'good' }]);
}

// The region families the board plays (those the server offers among these).
const REGION_FAMILIES = ['suguru', 'ripple'];
const REGION_TITLES = { suguru: 'Suguru', ripple: 'Ripple Effect' };

// Switches the rules of the region board: the title, and the buttons the family's server
// features allow (the levels are Suguru's; hints, explanations and generate are every family's
// that has them).
function sgSetFamily(family) {
  sg.family = family;
  $('sg-family').value = family;
  const has = (f) => (server.puzzles[family]?.features || []).includes(f);
  teachButtons('sg', family);
  $('sg-level').parentElement.hidden = !has('levels');
  $('sg-generate').hidden = !has('generate');
  const levels = server.puzzles[family]?.difficulties || [];
  const sel = $('sg-gen-level');
  sel.hidden = !has('generate') || levels.length === 0;
  if ([...sel.options].map((o) => o.value).join() !== levels.join()) {
    sel.innerHTML = '';
    for (const d of levels) {
      const o = document.createElement('option');
      o.value = d; o.textContent = d;
      sel.appendChild(o);
    }
  }
  if (view === 'suguru') $('board-title').textContent = REGION_TITLES[family] || family;
}

PLAY.suguru = {
  take: () => JSON.stringify({ family: sg.family, m: sg.m, n: sg.n, label: sg.label, given: sg.given, value: sg.value, pencil: sg.pencil, solved: [...sg.solved] }),
  put(snap) {
    const st = JSON.parse(snap);
    if (st.family !== sg.family) sgSetFamily(st.family);
    Object.assign(sg, { m: st.m, n: st.n, label: st.label, given: st.given, value: st.value, pencil: st.pencil, solved: new Set(st.solved) });
    if (sg.sel >= sg.m * sg.n) sg.sel = 0;
    $('sg-rows').value = sg.m; $('sg-cols').value = sg.n;
    sgClearMarks();
  },
  complete: () => sg.m * sg.n > 0 && sg.given.every((g, c) => g || sg.value[c]),
  verifyBody: () => ({ puzzle: sg.family, text: sgText(), solution: sgSolutionText() }),
  text: () => sgText(),
  mode: () => sg.mode,
  progress: () => ({ value: sg.value, pencil: sg.pencil }),
  setProgress(p) {
    const N = sg.m * sg.n;
    if (!p || !Array.isArray(p.value) || p.value.length !== N) return false;
    sg.value = p.value.map((v, c) => (sg.given[c] ? 0 : Math.max(0, Math.min(999, Math.floor(Number(v) || 0)))));
    sg.pencil = Array.isArray(p.pencil) && p.pencil.length === N ? p.pencil.map((x, c) => (sg.given[c] ? 0 : Number(x) >>> 0)) : new Array(N).fill(0);
    sg.solved = new Set();
    return sg.value.some((x) => x) || sg.pencil.some((x) => x);
  },
  pad() {
    const reg = sgRegions();
    const top = Math.max(1, ...reg.size.slice(1));
    if (top <= PENCIL_MAX) {
      return { digits: Array.from({ length: top }, (_, i) => i + 1), pencil: sg.mode === 'play', pencilOn: sg.pencilMode };
    }
    // Regions too large for one button per number: the pad types digits, as the keyboard does.
    return { digits: [1, 2, 3, 4, 5, 6, 7, 8, 9, 0], typing: true, pencil: false };
  },
  digit(d) {
    if (sg.sel === null) { setStatus('tap a cell first', 'warn'); return; }
    if (sg.tool !== 'fill') sgSetTool('fill');
    if (sg.pencilMode && sg.mode === 'play') sgTogglePencil(sg.sel, d);
    else if (PLAY.suguru.pad().typing) sgKey({ key: String(d) });
    else sgSetNumber(sg.sel, d);
  },
  erase() { if (sg.sel !== null) sgSetNumber(sg.sel, 0); },
  togglePencil() {
    sg.pencilMode = !sg.pencilMode;
    setStatus(sg.pencilMode ? 'Pencil: digits toggle small candidates in the empty cell' : 'digits fill the cell', '');
    sgRender();
  },
};
function sgInit() {
  sgReset(6, 6);
  $('sg-family').onchange = () => {
    sgSnapshot();
    sgSetFamily($('sg-family').value);
    sgClearMarks();
    sg.solved = new Set();
    setStatus(`${REGION_TITLES[sg.family]}: ${sg.family === 'ripple' ? 'regions hold 1 to their size; two equal numbers N in a row or column keep at least N cells between them' : 'regions hold 1 to their size; touching cells differ'}`, '');
    setMessages([]);
    sgRender();
  };
  $('sg-play').onclick = () => sgSetMode('play');
  $('sg-creative').onclick = () => sgSetMode('creative');
  $('sg-draw').onclick = () => { sgSetTool('region'); setStatus('press and drag over cells to draw a region', ''); sgRender(); };
  $('sg-fill').onclick = () => { sgSetTool('fill'); setStatus('click a cell and type a number', ''); sgRender(); };
  $('sg-resize').onclick = () => {
    const size = askedSize('sg', 1, sideLimit(sg.family), 'a grid');
    if (!size) return;
    const [m, n] = size;
    sgReset(m, n);
    sg.solved = new Set();
    $('sg-level').value = '';
    sgSetMode('creative');
    setMessages([]);
  };
  $('sg-check').onclick = (e) => run(e.currentTarget, sgCheck);
  $('sg-solve').onclick = (e) => run(e.currentTarget, sgSolve);
  $('sg-unique').onclick = (e) => run(e.currentTarget, sgUnique);
  $('sg-forced').onclick = (e) => run(e.currentTarget, () => showForced({ puzzle: sg.family, text: sgText() }));
  teachInit('sg');
  $('sg-generate').onclick = (e) => run(e.currentTarget, sgGenerate);
  $('sg-clear-regions').onclick = () => {
    sgSnapshot();
    sg.label.fill(0); sgClearMarks(); sg.solved = new Set(); $('sg-level').value = '';
    setStatus('all regions removed', ''); setMessages([]); sgRender(); changed('suguru');
  };
  $('sg-empty').onclick = () => {
    sgSnapshot();
    if (sg.mode === 'creative') { sg.given.fill(0); $('sg-level').value = ''; }
    sg.value.fill(0); sg.pencil.fill(0); sg.solved = new Set(); sgClearMarks();
    setStatus(sg.mode === 'creative' ? 'all cells emptied' : 'your numbers were removed (the givens stay)', '');
    setMessages([]);
    sgRender();
    changed('suguru');
  };
  $('sg-level').onchange = sgPickLevel;
  $('sg-undo').onclick = () => undo('suguru');
  $('sg-redo').onclick = () => redo('suguru');
  sgSetTool('fill');
  sgSetMode('creative');
}

// ---------------------------------------------------------------- Path

const pt = {
  m: 6, n: 6, a: [5, 0], b: [5, 5], row: [], col: [], route: [], xs: [], segs: [], lineFrom: null,
  mode: 'play', tool: 'path', solved: false, selClue: null, bad: new Set(), diff: new Set(), hint: new Set(), hintLinks: [], edits: 0, visited: false,
  drag: false, geom: null, empty: new Set(), tapSel: null, touch: null, badClues: new Set(),
};

function ptReset(m, n) {
  forget('path');
  pt.tapSel = null; pt.badClues = new Set();
  pt.edits++;
  pt.m = m; pt.n = n;
  pt.a = [m - 1, 0]; pt.b = [m - 1, n - 1];
  pt.row = new Array(m).fill(-1); pt.col = new Array(n).fill(-1);
  pt.route = []; pt.xs = []; pt.segs = []; pt.lineFrom = null; pt.solved = false; pt.bad = new Set(); pt.diff = new Set(); pt.hint = new Set(); pt.hintLinks = []; pt.selClue = null;
}

const ptIdx = (r, c) => r * pt.n + c;
const ptNear = (x, y) => Math.abs(Math.floor(x / pt.n) - Math.floor(y / pt.n)) + Math.abs((x % pt.n) - (y % pt.n)) === 1;

// Loose lines (the Lines tool): links drawn away from the path, kept as [a, b] with a < b. A
// cell holds at most two lines (a door one, its other line being the door), and the path takes
// over a loose line as soon as its end reaches it (ptAbsorb).
function ptLinesAt(i) {
  let k = pt.segs.filter(([a, b]) => a === i || b === i).length;
  const at = pt.route.indexOf(i);
  if (at >= 0) k += (at > 0 ? 1 : 0) + (at + 1 < pt.route.length ? 1 : 0);
  const door = i === ptIdx(pt.a[0], pt.a[1]) || i === ptIdx(pt.b[0], pt.b[1]);
  return k + (door ? 1 : 0);
}
function ptAbsorb() {
  const A = ptIdx(pt.a[0], pt.a[1]);
  if (!pt.route.length && pt.segs.some(([a, b]) => a === A || b === A)) pt.route = [A];
  for (let grew = true; grew && pt.route.length;) {
    grew = false;
    const last = pt.route[pt.route.length - 1];
    if (last === ptIdx(pt.b[0], pt.b[1]) && pt.route.length > 1) return;
    const k = pt.segs.findIndex(([a, b]) => a === last || b === last);
    if (k < 0) return;
    const [a, b] = pt.segs[k];
    const next = a === last ? b : a;
    pt.segs.splice(k, 1);
    if (pt.route.includes(next)) continue;
    pt.route.push(next);
    grew = true;
  }
}
// The cells on loose lines.
const ptLooseCells = () => [...new Set(pt.segs.flat())];
const ptOnEdge = (r, c) => r === 0 || c === 0 || r === pt.m - 1 || c === pt.n - 1;

function ptText() {
  return `${pt.m} ${pt.n}\n${pt.a[0] + 1} ${pt.a[1] + 1}\n${pt.b[0] + 1} ${pt.b[1] + 1}\n\n${pt.row.join(' ')}\n${pt.col.join(' ')}\n`;
}

// The answer-file form of the drawn path: each path cell points to the next, door B holds "u".
function ptSolutionText() {
  const dirs = new Array(pt.m * pt.n).fill('0');
  pt.route.forEach((c, i) => {
    if (i + 1 < pt.route.length) {
      const d = pt.route[i + 1] - c;
      dirs[c] = d === pt.n ? 'd' : d === -pt.n ? 'u' : d === 1 ? 'r' : 'l';
    } else {
      dirs[c] = 'u';
    }
  });
  const rows = [];
  for (let r = 0; r < pt.m; r++) rows.push(dirs.slice(r * pt.n, r * pt.n + pt.n).join(' '));
  return `${pt.m} ${pt.n}\n${pt.a[0] + 1} ${pt.a[1] + 1}\n${pt.b[0] + 1} ${pt.b[1] + 1}\n\n${rows.join('\n')}\n`;
}

// Follows a direction grid (rows of 0dlru) from door A.
function ptRouteFrom(rows) {
  const grid = rows.map((r) => String(r).replace(/\s+/g, ''));
  const route = [];
  let [r, c] = pt.a;
  const seen = new Set();
  while (r >= 0 && c >= 0 && r < pt.m && c < pt.n && !seen.has(ptIdx(r, c))) {
    const i = ptIdx(r, c);
    seen.add(i);
    route.push(i);
    if (r === pt.b[0] && c === pt.b[1]) break;
    const d = grid[r][c];
    if (d === 'd') r++; else if (d === 'u') r--; else if (d === 'l') c--; else if (d === 'r') c++; else break;
  }
  return route;
}

function ptLoad(text) {
  const t = tokens(text);
  const m = intToken(t[0], 'rows'), n = intToken(t[1], 'columns');
  const max = Math.min(PATH_MAX_SIDE, sideLimit('path'));
  if (m < 1 || n < 1 || m > max || n > max) throw new Error(`the playground draws Path grids of 1 to ${max} rows and columns, found ${m}×${n}`);
  if (t.length < 6 + m + n) throw new Error(`expected the doors, ${m} row clues and ${n} column clues after "${m} ${n}"`);
  const door = (i, name) => {
    const r = intToken(t[i], `${name} row`) - 1, c = intToken(t[i + 1], `${name} column`) - 1;
    if (r < 0 || c < 0 || r >= m || c >= n) throw new Error(`${name} (${r + 1}, ${c + 1}) is outside the ${m}×${n} grid`);
    return [r, c];
  };
  const a = door(2, 'door A'), b = door(4, 'door B');
  const row = [], col = [];
  for (let i = 0; i < m; i++) row.push(intToken(t[6 + i], `row clue ${i + 1}`));
  for (let i = 0; i < n; i++) col.push(intToken(t[6 + m + i], `column clue ${i + 1}`));
  ptReset(m, n);
  Object.assign(pt, { a, b, row, col });
  $('pt-rows').value = m; $('pt-cols').value = n;
}

function ptRender() {
  if (view !== 'path') return;
  const { m, n } = pt;
  const cs = cellSize(m + 1, n + 1, 540);
  const pad = 16;
  const x0 = pad + cs, y0 = pad + cs;
  const W = x0 + n * cs + pad + cs * 0.5, H = y0 + m * cs + pad + cs * 0.5;
  pt.geom = { cs, x0, y0, rows: m, cols: n, width: W, height: H };
  const board = $('board');
  board.innerHTML = '';
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, id: 'pt-svg', 'data-puzzle': 'path' }, board);
  root.style.maxWidth = `${W}px`; // CSSOM, allowed by the page's Content-Security-Policy
  const used = { row: new Array(m).fill(0), col: new Array(n).fill(0) };
  for (const c of [...pt.route, ...ptLooseCells().filter((c) => !pt.route.includes(c))]) { used.row[Math.floor(c / n)]++; used.col[c % n]++; }
  // clues
  const clueClass = (clue, k) => clue < 0 ? 'none' : k === clue ? 'ok' : k > clue ? 'over' : '';
  for (let r = 0; r < m; r++) {
    const box = svg('rect', { x: x0 - cs, y: y0 + r * cs, width: cs, height: cs, class: 'clue-box' + (pt.selClue && pt.selClue.kind === 'row' && pt.selClue.i === r ? ' sel' : ''), 'data-clue': `row${r + 1}` }, root);
    box.addEventListener('pointerdown', (e) => { e.stopPropagation(); ptSelectClue('row', r); });
    svg('text', { x: x0 - cs / 2, y: y0 + r * cs + cs / 2, class: 'clue ' + clueClass(pt.row[r], used.row[r]), 'font-size': Math.round(cs * 0.45) }, root, pt.row[r] < 0 ? '·' : String(pt.row[r]));
  }
  for (let c = 0; c < n; c++) {
    const box = svg('rect', { x: x0 + c * cs, y: y0 - cs, width: cs, height: cs, class: 'clue-box' + (pt.selClue && pt.selClue.kind === 'col' && pt.selClue.i === c ? ' sel' : ''), 'data-clue': `col${c + 1}` }, root);
    box.addEventListener('pointerdown', (e) => { e.stopPropagation(); ptSelectClue('col', c); });
    svg('text', { x: x0 + c * cs + cs / 2, y: y0 - cs / 2, class: 'clue ' + clueClass(pt.col[c], used.col[c]), 'font-size': Math.round(cs * 0.45) }, root, pt.col[c] < 0 ? '·' : String(pt.col[c]));
  }
  const g = svg('g', { transform: `translate(${x0},${y0})` }, root);
  for (let r = 0; r < m; r++) {
    for (let c = 0; c < n; c++) {
      svg('rect', { x: c * cs, y: r * cs, width: cs, height: cs, fill: (r + c) % 2 ? '#f7f9fb' : '#ffffff', class: 'cell-bg', 'data-cell': `r${r + 1}c${c + 1}` }, g);
    }
  }
  drawMarks(g, n, cs, { diff: pt.diff, hint: pt.hint, empty: pt.empty, bad: pt.bad });
  for (let r = 1; r < m; r++) svg('line', { x1: 0, y1: r * cs, x2: n * cs, y2: r * cs, class: 'grid-line' }, g);
  for (let c = 1; c < n; c++) svg('line', { x1: c * cs, y1: 0, x2: c * cs, y2: m * cs, class: 'grid-line' }, g);
  svg('rect', { x: 0, y: 0, width: n * cs, height: m * cs, class: 'outer' }, g);
  // Doors: the door cells are tinted and badged, and the path leaves the grid through a gap
  // in the outer border next to them.
  const doorEdge = ([r, c]) => {
    if (c === 0) return [[0, r * cs + cs / 2], [0, r * cs + cs * 0.2, 0, r * cs + cs * 0.8]];
    if (c === n - 1) return [[n * cs, r * cs + cs / 2], [n * cs, r * cs + cs * 0.2, n * cs, r * cs + cs * 0.8]];
    if (r === 0) return [[c * cs + cs / 2, 0], [c * cs + cs * 0.2, 0, c * cs + cs * 0.8, 0]];
    return [[c * cs + cs / 2, m * cs], [c * cs + cs * 0.2, m * cs, c * cs + cs * 0.8, m * cs]];
  };
  for (const [d, name] of [[pt.a, 'A'], [pt.b, 'B']]) {
    svg('rect', { x: d[1] * cs + 1, y: d[0] * cs + 1, width: cs - 2, height: cs - 2, class: 'door-cell' }, g);
    const [, gap] = doorEdge(d);
    svg('line', { x1: gap[0], y1: gap[1], x2: gap[2], y2: gap[3], class: 'door-gap' }, g);
    const rad = Math.max(6, cs * 0.16);
    svg('circle', { cx: d[1] * cs + rad + 3, cy: d[0] * cs + rad + 3, r: rad, class: 'door' }, g);
    svg('text', { x: d[1] * cs + rad + 3, y: d[0] * cs + rad + 4, class: 'door-label', 'font-size': Math.max(8, Math.round(rad * 1.2)) }, g, name);
  }
  const centre = (i) => [(i % n) * cs + cs / 2, Math.floor(i / n) * cs + cs / 2];
  if (pt.route.length) {
    const pts = [doorEdge(pt.a)[0], ...pt.route.map(centre)];
    const last = pt.route[pt.route.length - 1];
    if (last === ptIdx(pt.b[0], pt.b[1])) pts.push(doorEdge(pt.b)[0]);
    svg('polyline', { points: pts.map((p) => p.join(',')).join(' '), class: 'path-line' + (pt.solved ? ' solved' : ''), 'stroke-width': Math.max(3, cs * 0.18) }, g);
  }
  // Loose lines (the Lines tool), drawn as the path is.
  for (const [a, b] of pt.segs) {
    const [x1, y1] = centre(a), [x2, y2] = centre(b);
    svg('line', { x1, y1, x2, y2, class: 'path-line loose', 'stroke-width': Math.max(3, cs * 0.18), 'data-line': `${ptName(a)}-${ptName(b)}` }, g);
  }
  if (pt.lineFrom !== null) svg('rect', { x: (pt.lineFrom % n) * cs + 2, y: Math.floor(pt.lineFrom / n) * cs + 2, width: cs - 4, height: cs - 4, rx: 3, class: 'sel tap-sel' }, g);
  // Cells the player marked unused (Mark ✕): a cross.
  for (const c of pt.xs) {
    const [x, y] = centre(c), d = cs * 0.22;
    svg('line', { x1: x - d, y1: y - d, x2: x + d, y2: y + d, class: 'cross-mark', 'data-x': ptName(c) }, g);
    svg('line', { x1: x - d, y1: y + d, x2: x + d, y2: y - d, class: 'cross-mark' }, g);
  }
  // The links a hint or an explained step concludes are lines: dashed between the cell centres.
  for (const [a, b] of pt.hintLinks) {
    const [x1, y1] = centre(a), [x2, y2] = centre(b);
    svg('line', { x1, y1, x2, y2, class: 'hint-link' }, g);
  }
  // The cell a tap selected: the next tap on a neighbour toggles the link between them.
  if (pt.tapSel !== null) svg('rect', { x: (pt.tapSel % n) * cs + 2, y: Math.floor(pt.tapSel / n) * cs + 2, width: cs - 4, height: cs - 4, rx: 3, class: 'sel tap-sel', 'data-tap': `r${Math.floor(pt.tapSel / n) + 1}c${(pt.tapSel % n) + 1}` }, g);
  for (const name of pt.badClues) {
    const box = root.querySelector(`rect.clue-box[data-clue="${name}"]`);
    if (box) { box.classList.add('bad-clue'); box.setAttribute('aria-invalid', 'true'); }
  }
  const len = pt.route.length;
  $('board-sub').textContent = `${m}×${n} · path of ${len} cell${len === 1 ? '' : 's'} · ${pt.mode === 'play' ? 'Play Mode' : 'Creative Mode'}`;
  const onPath = new Set(pt.route);
  const crossed = new Set(pt.xs), loose = new Set(ptLooseCells());
  gridRoles(root, g, n, (c) => (onPath.has(c) ? 'on the path' : loose.has(c) ? 'on a loose line' : crossed.has(c) ? 'marked unused' : 'empty'), pt.lineFrom ?? pt.tapSel ?? (pt.route.length ? pt.route[pt.route.length - 1] : null));
  // The clues, drawn outside the grid, are told with each cell: "row clue 2, column clue 3".
  const clue = (k) => (k < 0 ? 'none' : String(k));
  for (const rect of g.querySelectorAll('rect.cell-bg[data-cell]')) {
    const [r, c] = cellOf(rect.dataset.cell);
    rect.setAttribute('aria-description', `row clue ${clue(pt.row[r])}, column clue ${clue(pt.col[c])}`);
  }
  padRender();
  root.addEventListener('pointerdown', ptPointerDown);
  root.addEventListener('pointermove', ptPointerMove);
  root.addEventListener('pointerup', ptPointerUp);
  root.addEventListener('pointercancel', () => { pt.drag = false; pt.touch = null; });
}

function ptSelectClue(kind, i) {
  if (pt.mode !== 'creative') { setStatus('clues are fixed in Play Mode (switch to Creative Mode to edit them)', 'warn'); return; }
  pt.selClue = { kind, i, typedAt: 0 };
  setStatus(`type the ${kind === 'row' ? 'row' : 'column'} ${i + 1} clue; Backspace removes it`, '');
  ptRender();
  $('board').focus({ preventScroll: true });
}

function ptClearMarks() {
  pt.bad = new Set(); pt.diff = new Set(); pt.hint = new Set(); pt.hintLinks = [];
  pt.empty = new Set(); pt.badClues = new Set();
}

function ptChanged(bySolver = false) {
  pt.edits++; pt.solved = false;
  ptAbsorb();
  // A cell the path (or a loose line) now runs through is no longer marked unused.
  if (pt.xs.length) {
    const loose = new Set(ptLooseCells());
    pt.xs = pt.xs.filter((c) => !pt.route.includes(c) && !loose.has(c));
  }
  ptClearMarks();
  changed('path', bySolver);
}

// Extends or shortens the path towards cell (r, c), one orthogonal step at a time.
function ptStepTo(r, c) {
  const target = ptIdx(r, c);
  for (let guard = 0; guard < pt.m + pt.n; guard++) {
    const last = pt.route[pt.route.length - 1];
    if (last === target) return;
    const lr = Math.floor(last / pt.n), lc = last % pt.n;
    let nr = lr, nc = lc;
    if (lr !== r && lc !== c) return; // only straight moves
    if (r > lr) nr++; else if (r < lr) nr--; else if (c > lc) nc++; else nc--;
    const next = ptIdx(nr, nc);
    if (pt.route.length > 1 && pt.route[pt.route.length - 2] === next) pt.route.pop();
    else if (!pt.route.includes(next) && ptLinesAt(next) < 2) { pt.route.push(next); ptAbsorb(); }
    else return;
  }
}

// A gesture (a drag, a tap, a key) is one undo step: the grid before it is remembered and
// recorded when the gesture changed something.
let ptGesture = null;
function ptBegin() { ptGesture = PLAY.path.take(); }
function ptEnd() {
  if (ptGesture === null) return;
  const before = ptGesture;
  ptGesture = null;
  if (PLAY.path.take() !== before) record('path', before);
}

const ptName = (k) => `r${Math.floor(k / pt.n) + 1}c${(k % pt.n) + 1}`;

function ptPointerDown(ev) {
  const rc = cellAt(ev.currentTarget, ev, pt.geom);
  pt.selClue = null;
  if (!rc) { ptRender(); return; }
  const [r, c] = rc;
  $('board').focus({ preventScroll: true });
  if (pt.mode === 'creative' && (pt.tool === 'a' || pt.tool === 'b')) {
    if (!ptOnEdge(r, c)) { setStatus('doors are cells on the edge of the grid', 'warn'); return; }
    record('path');
    pt[pt.tool] = [r, c];
    pt.route = []; pt.segs = [];
    ptChanged();
    ptRender();
    return;
  }
  const i = ptIdx(r, c);
  if (pt.tool === 'x') {
    ptToggleCross(i);
    return;
  }
  if (pt.tool === 'line') {
    // Lines: a drag toggles the line between each cell and the next it enters; a tap on a
    // neighbour of the last cell tapped (or dragged to) toggles the line between them.
    pt.lineTap = { prev: pt.lineFrom, at: i, moved: false };
    pt.lineFrom = i;
    pt.drag = true;
    ptBegin();
    try { ev.currentTarget.setPointerCapture(ev.pointerId); } catch (_) { /* released */ }
    ptRender();
    return;
  }
  if (ev.pointerType === 'touch') {
    // Touch: a tap selects a cell and a tap on a neighbour toggles their link (ptTap); a
    // drag draws as the mouse does, once it leaves the first cell.
    pt.touch = { start: i, moved: false };
    ev.currentTarget.setPointerCapture(ev.pointerId);
    return;
  }
  pt.tapSel = null;
  ptBegin();
  if (!ptPress(i)) { ptGesture = null; return; }
  pt.drag = true;
  try { $('pt-svg').setPointerCapture(ev.pointerId); } catch (_) { /* released */ }
}

// A press on cell i: on the path it shortens the path to i, elsewhere it extends the path
// straight towards i; an empty path starts at door A.
function ptPress(i) {
  const r = Math.floor(i / pt.n), c = i % pt.n;
  if (!pt.route.length) {
    if (r !== pt.a[0] || c !== pt.a[1]) { setStatus('start the path at door A', 'warn'); return false; }
    pt.route = [i];
  } else {
    const at = pt.route.indexOf(i);
    if (at >= 0) pt.route = pt.route.slice(0, at + 1);
    else ptStepTo(r, c);
  }
  ptChanged();
  ptRender();
  return true;
}

function ptPointerMove(ev) {
  const rc = cellAt(ev.currentTarget, ev, pt.geom);
  if (!rc) return;
  if (pt.tool === 'line') {
    const i = ptIdx(rc[0], rc[1]);
    if (!pt.drag || pt.lineFrom === null || i === pt.lineFrom || !ptNear(pt.lineFrom, i)) return;
    if (pt.lineTap) pt.lineTap.moved = true;
    ptToggleLoose(pt.lineFrom, i);
    pt.lineFrom = i;
    ptRender();
    return;
  }
  if (pt.touch && !pt.touch.moved) {
    if (ptIdx(rc[0], rc[1]) === pt.touch.start) return;
    pt.touch.moved = true;
    pt.tapSel = null;
    ptBegin();
    if (!ptPress(pt.touch.start)) { pt.touch = null; ptGesture = null; return; }
    pt.drag = true;
  }
  if (!pt.drag) return;
  const before = pt.route.join(',');
  ptStepTo(rc[0], rc[1]);
  if (pt.route.join(',') === before) return;
  ptChanged();
  ptRender();
  try { $('pt-svg').setPointerCapture(ev.pointerId); } catch (_) { /* released */ }
}

function ptPointerUp() {
  pt.drag = false;
  if (pt.tool === 'line') {
    const t = pt.lineTap;
    pt.lineTap = null;
    if (t && !t.moved && t.prev !== null && ptNear(t.prev, t.at)) { ptToggleLoose(t.prev, t.at); ptRender(); }
    ptEnd();
    return;
  }
  const t = pt.touch;
  pt.touch = null;
  if (t && !t.moved) ptTap(t.start);
  ptEnd();
}

// Tap-to-tap drawing: a tap selects a cell; a tap on a neighbour of the selected cell toggles
// the link between the two and selects the neighbour, so taps along a row draw it.
function ptTap(i) {
  const sel = pt.tapSel;
  const near = sel !== null && Math.abs(Math.floor(sel / pt.n) - Math.floor(i / pt.n)) + Math.abs((sel % pt.n) - (i % pt.n)) === 1;
  if (near) {
    ptBegin();
    ptToggleLink(sel, i);
    ptEnd();
    pt.tapSel = i;
  } else {
    pt.tapSel = sel === i ? null : i;
  }
  ptRender();
}

// Lines: toggles the line x–y. A line of the path cuts the path there (the part beyond stays as
// a loose piece); a loose line goes; a new line is loose unless it continues the path's end
// (then the path takes it).
function ptToggleLoose(x, y) {
  const [a, b] = x < y ? [x, y] : [y, x];
  const k = pt.segs.findIndex(([p, q]) => p === a && q === b);
  const ix = pt.route.indexOf(x), iy = pt.route.indexOf(y);
  if (k >= 0) {
    pt.segs.splice(k, 1);
  } else if (ix >= 0 && iy >= 0 && Math.abs(ix - iy) === 1) {
    // Cut the path there: the part beyond the cut stays on the board as a loose piece.
    const tail = pt.route.slice(Math.max(ix, iy));
    for (let k = 0; k + 1 < tail.length; k++) pt.segs.push([Math.min(tail[k], tail[k + 1]), Math.max(tail[k], tail[k + 1])]);
    pt.route = pt.route.slice(0, Math.min(ix, iy) + 1);
    if (pt.route.length === 1) pt.route = [];
  } else if (ptLinesAt(x) >= 2 || ptLinesAt(y) >= 2) {
    setStatus(`${ptName(ptLinesAt(x) >= 2 ? x : y)} already has its lines`, 'warn');
    return;
  } else {
    pt.segs.push([a, b]);
  }
  ptChanged();
  setStatus('', '');
}

// Mark ✕: toggles the mark "the path does not use this cell" (not on a cell of the path).
function ptToggleCross(i) {
  if (pt.route.includes(i)) { setStatus(`${ptName(i)} is on the path`, 'warn'); return; }
  ptBegin();
  const had = pt.xs.includes(i);
  pt.xs = had ? pt.xs.filter((c) => c !== i) : [...pt.xs, i].sort((a, b) => a - b);
  ptChanged();
  ptEnd();
  setStatus(`${ptName(i)} ${had ? 'unmarked' : 'marked unused'}`, '');
  ptRender();
}

// Toggles the link x–y: a link of the path is removed (the path ends before it); a new link
// continues the path from its end (or starts it at door A).
function ptToggleLink(x, y) {
  const ix = pt.route.indexOf(x), iy = pt.route.indexOf(y);
  if (ix >= 0 && iy >= 0 && Math.abs(ix - iy) === 1) {
    pt.route = pt.route.slice(0, Math.min(ix, iy) + 1);
    if (pt.route.length === 1) pt.route = [];
    ptChanged();
    setStatus(`link ${ptName(x)}–${ptName(y)} removed`, '');
    return;
  }
  const A = ptIdx(pt.a[0], pt.a[1]);
  const route = pt.route.length ? pt.route : (x === A || y === A ? [A] : []);
  if (!route.length) { setStatus('the path starts at door A: tap door A, then its neighbour', 'warn'); return; }
  const last = route[route.length - 1];
  const next = last === x ? y : last === y ? x : -1;
  if (next < 0) { setStatus(`a new link continues the path from its end, ${ptName(last)}`, 'warn'); return; }
  if (route.includes(next)) { setStatus(`${ptName(next)} is already on the path`, 'warn'); return; }
  pt.route = [...route, next];
  ptChanged();
  setStatus('', '');
}

// Sets the selected clue (Creative Mode) to d, or to the number typed so far with d appended
// when `typing`; a clue larger than its row or column is refused, not changed.
function ptSetClue(d, typing) {
  const arr = pt.selClue.kind === 'row' ? pt.row : pt.col;
  const i = pt.selClue.i;
  const max = pt.selClue.kind === 'row' ? pt.n : pt.m;
  const now = Date.now();
  const cur = arr[i];
  let v = d;
  if (typing && now - pt.selClue.typedAt < 1200 && cur >= 0 && cur * 10 + v <= max) v = cur * 10 + v;
  pt.selClue.typedAt = now;
  const what = `${pt.selClue.kind === 'row' ? 'row' : 'column'} ${i + 1}`;
  if (v > max) { setStatus(`${what} has ${max} cells: a clue of ${v} cannot be met, so it is not set`, 'bad'); return; }
  arr[i] = v;
  ptChanged();
  ptRender();
}

function ptKey(ev) {
  ptBegin();
  const used = ptKeyInner(ev);
  ptEnd();
  return used;
}

function ptKeyInner(ev) {
  if (pt.selClue) {
    const arr = pt.selClue.kind === 'row' ? pt.row : pt.col;
    const i = pt.selClue.i;
    if (/^[0-9]$/.test(ev.key)) { ptSetClue(Number(ev.key), true); return true; }
    if (ev.key === 'Backspace' || ev.key === 'Delete' || ev.key === '-') { arr[i] = -1; ptChanged(); ptRender(); return true; }
    if (ev.key === 'Escape') { pt.selClue = null; ptRender(); return true; }
  }
  const dir = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[ev.key];
  if (pt.tool === 'x' || pt.tool === 'line') {
    // Lines and Mark ✕ by keyboard: the arrows move a cursor (from door A); in Lines, Shift
    // with an arrow draws or erases the line to the next cell; x or Space toggles ✕.
    const at = pt.lineFrom ?? pt.tapSel ?? ptIdx(pt.a[0], pt.a[1]);
    if (dir) {
      const r = Math.floor(at / pt.n) + dir[0], c = at % pt.n + dir[1];
      if (r < 0 || c < 0 || r >= pt.m || c >= pt.n) return true;
      const next = ptIdx(r, c);
      if (pt.tool === 'line' && ev.shiftKey) ptToggleLoose(at, next);
      if (pt.tool === 'line') pt.lineFrom = next; else pt.tapSel = next;
      ptRender();
      return true;
    }
    if (pt.tool === 'x' && (ev.key === 'x' || ev.key === 'X' || ev.key === ' ')) { ptToggleCross(at); pt.tapSel = at; ptRender(); return true; }
    return false;
  }
  if (dir) {
    pt.tapSel = null;
    if (!pt.route.length) { pt.route = [ptIdx(pt.a[0], pt.a[1])]; ptChanged(); ptRender(); return true; }
    const last = pt.route[pt.route.length - 1];
    const r = Math.floor(last / pt.n) + dir[0], c = last % pt.n + dir[1];
    if (r >= 0 && c >= 0 && r < pt.m && c < pt.n) { ptStepTo(r, c); ptChanged(); ptRender(); }
    return true;
  }
  if (ev.key === 'Backspace') { pt.route.pop(); ptChanged(); ptRender(); return true; }
  return false;
}

function ptSetMode(mode) {
  pt.mode = mode;
  press('pt-play', mode === 'play');
  press('pt-creative', mode === 'creative');
  $('pt-tool-a').hidden = mode === 'play';
  $('pt-tool-b').hidden = mode === 'play';
  if (mode === 'play') ptSetTool('path');
  pt.selClue = null;
  if (view === 'path') setStatus(mode === 'play' ? 'drag from door A to door B' : 'click a clue to type it, or place the doors', '');
  ptRender();
}

function ptSetTool(tool) {
  pt.tool = tool;
  press('pt-tool-path', tool === 'path');
  press('pt-tool-x', tool === 'x');
  press('pt-tool-line', tool === 'line');
  pt.lineFrom = null;
  press('pt-tool-a', tool === 'a');
  press('pt-tool-b', tool === 'b');
}

// Check. A finished path (it reaches door B) goes to the server's verifier. An unfinished one
// is judged only by what is already wrong: a row or column holding more path cells than its
// clue (the path drawn here is always connected, from door A, and never visits a cell twice).
async function ptCheck() {
  ptClearMarks();
  if (!pt.route.length && !pt.segs.length) { setStatus('draw a path first, starting at door A', 'warn'); setMessages([]); ptRender(); return; }
  const B = ptIdx(pt.b[0], pt.b[1]);
  if (pt.route.length && pt.route[pt.route.length - 1] === B && pt.segs.length) {
    const text = `the path reaches door B, but ${plural(pt.segs.length, 'loose line')} ${pt.segs.length === 1 ? 'is' : 'are'} not part of it`;
    for (const c of ptLooseCells()) pt.bad.add(c);
    setStatus(text, 'bad');
    setMessages([{ text, cls: 'bad' }]);
    ptRender();
    return;
  }
  if (pt.route.length && pt.route[pt.route.length - 1] === B) {
    const res = await api('/api/verify', { puzzle: 'path', text: ptText(), solution: ptSolutionText() });
    ptClearMarks();
    reportCheck(res, pt.bad, ptIdx, 'your path is correct, well done.', undefined, (broken) => ptClueCells(broken.map((v) => v.at)));
    ptRender();
    return;
  }
  const over = [];
  for (const [kind, clues, lineOf] of [['row', pt.row, (c) => Math.floor(c / pt.n)], ['column', pt.col, (c) => c % pt.n]]) {
    clues.forEach((clue, k) => {
      const cells = [...pt.route, ...ptLooseCells().filter((c) => !pt.route.includes(c))].filter((c) => lineOf(c) === k);
      if (clue >= 0 && cells.length > clue) over.push({ at: `${kind} ${k + 1}`, message: `${kind} ${k + 1} has ${cells.length} path cells, its clue is ${clue}` });
    });
  }
  for (const c of ptClueCells(over.map((v) => v.at))) pt.bad.add(c);
  const loose = pt.segs.length ? ` (and ${plural(pt.segs.length, 'loose line')})` : '';
  const todo = `the path has ${plural(pt.route.length, 'cell')}${loose} and has not reached door B yet`;
  if (!over.length) {
    setStatus(`nothing is wrong so far; ${todo}`, 'good');
    setMessages([{ text: `nothing is wrong so far; ${todo}`, cls: 'good' }]);
  } else {
    const rest = over.length > 1 ? ` (and ${plural(over.length - 1, 'more broken rule')})` : '';
    setStatus(`${over[0].message}${rest}`, 'bad');
    setMessages([...over.map((v) => ({ text: v.message, cls: 'bad' })), { text: todo }]);
  }
  ptRender();
}

// The path cells of the rows and columns named like "row 2" / "column 3" (their clue boxes are
// marked too).
function ptClueCells(names) {
  const out = [];
  for (const name of names) {
    const m = /^(row|column) (\d+)$/.exec(name);
    if (!m) continue;
    const k = Number(m[2]) - 1;
    pt.badClues.add(`${m[1] === 'row' ? 'row' : 'col'}${k + 1}`);
    for (const c of pt.route) if ((m[1] === 'row' ? Math.floor(c / pt.n) : c % pt.n) === k) out.push(c);
  }
  return out;
}

async function ptSolve() {
  const res = await api('/api/solve', { puzzle: 'path', text: ptText() });
  ptClearMarks();
  if (res.status === 'solved') {
    record('path');
    pt.route = ptRouteFrom(res.solution);
    pt.segs = []; pt.xs = [];
    ptChanged(true);
    pt.solved = true;
    setStatus('solved', 'good');
    setMessages([{ text: `solved by the ${res.algorithm} solver (${timing(res.stats)})`, cls: 'good' }]);
  } else if (res.status === 'unsolvable') {
    setStatus('this puzzle has no solution...', 'bad');
    setMessages([{ text: 'this puzzle has no solution...', cls: 'bad summary' }, ...(res.reason ? [{ text: res.reason, cls: 'bad' }] : [])]);
  } else {
    setStatus('the time limit was reached before a solution was found', 'warn');
  }
  ptRender();
}

async function ptUnique() {
  const res = await api('/api/count', { puzzle: 'path', text: ptText(), limit: 2 });
  ptClearMarks();
  const d = describeCount(res);
  for (const name of res.differences || []) {
    const rc = cellOf(name);
    if (rc) pt.diff.add(ptIdx(rc[0], rc[1]));
  }
  setStatus(d.text, d.cls);
  setMessages([{ text: d.text, cls: d.cls }, ...(d.extra ? [{ text: d.extra, cls: 'bad' }] : [])]);
  ptRender();
}

// A random puzzle from the server's generator (pencilbox_pathpuzzle::generate): a random
// self-avoiding path between two doors, clues removed while the solution stays unique.
// With `auto` (the first visit of the view), the answer is dropped if the player started
// editing meanwhile.
async function ptRandom(auto) {
  const size = askedSize('pt', limits.generate.min_side, limits.generate.max_side, 'the generator');
  if (!size) return;
  const [m, n] = size;
  const seed = Math.floor(Math.random() * 2 ** 31);
  const stamp = pt.edits;
  const res = await api('/api/generate', { puzzle: 'path', rows: m, cols: n, settings: { clues: 50 }, seed });
  if (auto === true && pt.edits !== stamp) return;
  ptLoad(res.text);
  ptSetMode('play');
  changed('path');
  const hidden = pt.row.concat(pt.col).filter((x) => x < 0).length;
  setStatus(`a new ${m}×${n} puzzle with exactly one solution`, 'good');
  setMessages([{ text: `generated with seed ${seed}: ${hidden} clue(s) hidden, exactly one solution`, cls: 'good' }]);
}

// The largest Path grid the board draws (a drawing limit of the page, below the server's).
const PATH_MAX_SIDE = 30;

PLAY.path = {
  take: () => JSON.stringify({ m: pt.m, n: pt.n, a: pt.a, b: pt.b, row: pt.row, col: pt.col, route: pt.route, xs: pt.xs, segs: pt.segs }),
  put(snap) {
    Object.assign(pt, JSON.parse(snap));
    pt.tapSel = null; pt.selClue = null; pt.solved = false;
    $('pt-rows').value = pt.m; $('pt-cols').value = pt.n;
    ptClearMarks();
  },
  complete: () => pt.route.length > 0 && pt.route[pt.route.length - 1] === ptIdx(pt.b[0], pt.b[1]),
  verifyBody: () => ({ puzzle: 'path', text: ptText(), solution: ptSolutionText() }),
  text: () => ptText(),
  mode: () => pt.mode,
  progress: () => ({ route: pt.route, xs: pt.xs, segs: pt.segs }),
  // A saved path is taken only if it is one from door A through neighbouring cells, each once.
  setProgress(p) {
    const route = p && Array.isArray(p.route) ? p.route.map(Number) : null;
    if (!route || !route.length || route[0] !== ptIdx(pt.a[0], pt.a[1])) return false;
    const seen = new Set();
    for (let k = 0; k < route.length; k++) {
      const c = route[k];
      if (!Number.isInteger(c) || c < 0 || c >= pt.m * pt.n || seen.has(c)) return false;
      if (k > 0) {
        const b = route[k - 1];
        if (Math.abs(Math.floor(b / pt.n) - Math.floor(c / pt.n)) + Math.abs((b % pt.n) - (c % pt.n)) !== 1) return false;
      }
      seen.add(c);
    }
    pt.route = route;
    const xs = p && Array.isArray(p.xs) ? p.xs.map(Number) : [];
    pt.xs = xs.filter((c) => Number.isInteger(c) && c >= 0 && c < pt.m * pt.n && !seen.has(c));
    pt.segs = [];
    for (const l of p && Array.isArray(p.segs) ? p.segs : []) {
      const [x, y] = Array.isArray(l) ? l.map(Number) : [];
      if (Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y < pt.m * pt.n && x < y && ptNear(x, y) && ptLinesAt(x) < 2 && ptLinesAt(y) < 2) pt.segs.push([x, y]);
    }
    return true;
  },
  pad() {
    if (pt.mode === 'creative') {
      const top = Math.max(pt.m, pt.n);
      return { digits: top <= 16 ? Array.from({ length: top + 1 }, (_, i) => i) : [1, 2, 3, 4, 5, 6, 7, 8, 9, 0], typing: top > 16, pencil: false, eraseLabel: 'Erase' };
    }
    return { digits: [], pencil: false, eraseLabel: 'Erase last cell' };
  },
  digit(d) {
    if (!pt.selClue) { setStatus('tap a clue above or beside the grid first (Creative Mode)', 'warn'); return; }
    ptBegin();
    ptSetClue(d, PLAY.path.pad().typing);
    ptEnd();
  },
  erase() {
    ptBegin();
    if (pt.selClue) { (pt.selClue.kind === 'row' ? pt.row : pt.col)[pt.selClue.i] = -1; ptChanged(); } else if (pt.route.length) { pt.route.pop(); ptChanged(); }
    ptEnd();
    ptRender();
  },
  togglePencil() {},
};

function ptInit() {
  ptReset(6, 6);
  $('pt-play').onclick = () => ptSetMode('play');
  $('pt-creative').onclick = () => ptSetMode('creative');
  $('pt-tool-path').onclick = () => { ptSetTool('path'); setStatus('drag from door A to draw the path', ''); };
  $('pt-tool-line').onclick = () => { ptSetTool('line'); setStatus('drag (or tap a cell, then its neighbour) to draw or erase lines anywhere; the path takes a line its end reaches', ''); };
  $('pt-tool-x').onclick = () => { ptSetTool('x'); setStatus('tap the cells the path does not use to mark them ✕ (again to unmark)', ''); };
  $('pt-tool-a').onclick = () => { ptSetTool('a'); setStatus('click an edge cell to place door A', ''); };
  $('pt-tool-b').onclick = () => { ptSetTool('b'); setStatus('click an edge cell to place door B', ''); };
  $('pt-resize').onclick = () => {
    const size = askedSize('pt', 2, Math.min(PATH_MAX_SIDE, sideLimit('path')), 'the Path board');
    if (!size) return;
    const [m, n] = size;
    ptReset(m, n);
    ptSetMode('creative');
    setMessages([]);
  };
  $('pt-check').onclick = (e) => run(e.currentTarget, ptCheck);
  $('pt-solve').onclick = (e) => run(e.currentTarget, ptSolve);
  $('pt-unique').onclick = (e) => run(e.currentTarget, ptUnique);
  $('pt-forced').onclick = (e) => run(e.currentTarget, () => showForced({ puzzle: 'path', text: ptText() }));
  $('pt-random').onclick = (e) => run(e.currentTarget, ptRandom);
  teachInit('pt');
  $('pt-clear').onclick = () => {
    if (pt.route.length || pt.xs.length || pt.segs.length) record('path');
    pt.route = []; pt.xs = []; pt.segs = []; pt.lineFrom = null; pt.tapSel = null; ptChanged(); setStatus('path and marks cleared', ''); setMessages([]); ptRender();
  };
  ptSetTool('path');
  pt.mode = 'creative';
  press('pt-play', false);
  press('pt-creative', true);
}

// ---------------------------------------------------------------- Sudoku

const sd = {
  n: 9, br: 3, bc: 3, given: [], value: [], pencil: [], elim: [], removed: [],
  mode: 'value', showCands: false, sel: 0, empty: new Set(), bad: new Set(), diff: new Set(), solved: new Set(), focusDigit: 0, edits: 0, visited: false, hint: new Set(),
  geom: null,
};
const BOXES = { 4: [2, 2], 6: [2, 3], 8: [2, 4], 9: [3, 3], 12: [3, 4], 16: [4, 4] };
const SYMBOLS = '123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const sym = (v) => SYMBOLS[v - 1];

function sdReset(n) {
  forget('sudoku');
  sd.edits++;
  sd.n = n; [sd.br, sd.bc] = BOXES[n];
  const N = n * n;
  sd.given = new Array(N).fill(0); sd.value = new Array(N).fill(0);
  sd.pencil = new Array(N).fill(0); sd.elim = new Array(N).fill(0); sd.removed = new Array(N).fill(0);
  sd.bad = new Set(); sd.diff = new Set(); sd.solved = new Set(); sd.sel = 0;
  const digit = $('sd-digit');
  digit.innerHTML = '';
  for (let d = 1; d <= n; d++) { const o = document.createElement('option'); o.value = d; o.textContent = sym(d); digit.appendChild(o); }
}

const sdNumber = (i) => sd.given[i] || sd.value[i];
const sdText = (withEntries) => Array.from({ length: sd.n * sd.n }, (_, i) => {
  const v = withEntries ? sdNumber(i) : sd.given[i];
  return v ? sym(v) : '.';
}).join('') + '\n';
const sdSolutionText = () => Array.from({ length: sd.n * sd.n }, (_, i) => (sdNumber(i) ? sym(sdNumber(i)) : '.')).join('') + '\n';

function sdPeers(i) {
  const { n, br, bc } = sd;
  const r = Math.floor(i / n), c = i % n;
  const out = new Set();
  for (let k = 0; k < n; k++) { out.add(r * n + k); out.add(k * n + c); }
  const r0 = r - (r % br), c0 = c - (c % bc);
  for (let a = 0; a < br; a++) for (let b = 0; b < bc; b++) out.add((r0 + a) * n + c0 + b);
  out.delete(i);
  return out;
}

// Candidates of an empty cell: digits no filled peer holds, less eliminations already made.
function sdCandidates(i) {
  if (sdNumber(i)) return 0;
  let mask = (1 << (sd.n + 1)) - 2;
  for (const p of sdPeers(i)) { const v = sdNumber(p); if (v) mask &= ~(1 << v); }
  return mask & ~sd.elim[i];
}

function sdLoad(text) {
  // One line of n² symbols, or a grid of lines (symbols separated by spaces or not).
  const cells = [...text.replace(/\s+/g, '')];
  const N = cells.length;
  const n = Math.round(Math.sqrt(N));
  if (n * n !== N || !BOXES[n]) throw new Error(`a Sudoku has 16, 36, 64, 81, 144 or 256 cells (one symbol each, "." for empty); found ${N}`);
  const vals = cells.map((ch, i) => {
    if (ch === '.' || ch === '0') return 0;
    const v = SYMBOLS.indexOf(ch.toUpperCase()) + 1;
    if (v < 1 || v > n) throw new Error(`cell ${i + 1}: "${ch}" is not a digit of a ${n}×${n} Sudoku`);
    return v;
  });
  sdReset(n);
  sd.given = vals;
  $('sd-size').value = String(n);
}

// The Sudoku board is built once per size and cell size (sdBuild), then updated in place: a
// keystroke updates only the cells whose number or candidates changed (each cell's content is
// one group, updated by sdDrawCell when its key changes), the selection and its peers move,
// and the marks layer is redrawn (a few cells). A 16×16 grid with every candidate shown
// rebuilt in ~87 ms a keystroke; in place it takes ~2.5 ms (BENCHMARKS.md, "Playground
// redraws").
function sdRender() {
  if (view !== 'sudoku') return;
  const cs = cellSize(sd.n, sd.n, 560);
  const L = sd.layers;
  if (!L || L.n !== sd.n || L.cs !== cs || !L.root.isConnected) sdBuild(cs);
  sdUpdate();
}

function sdBuild(cs) {
  const { n, br, bc } = sd;
  const pad = 4;
  const W = n * cs + 2 * pad;
  sd.geom = { cs, x0: pad, y0: pad, rows: n, cols: n, width: W, height: W };
  const board = $('board');
  board.innerHTML = '';
  const root = svg('svg', { viewBox: `0 0 ${W} ${W}`, id: 'sd-svg', 'data-puzzle': 'sudoku' }, board);
  root.style.maxWidth = `${W}px`; // CSSOM, allowed by the page's Content-Security-Policy
  const g = svg('g', { transform: `translate(${pad},${pad})` }, root);
  for (let i = 0; i < n * n; i++) {
    const r = Math.floor(i / n), c = i % n;
    const boxShade = (Math.floor(r / br) + Math.floor(c / bc)) % 2 ? '#f7f9fb' : '#ffffff';
    svg('rect', { x: c * cs, y: r * cs, width: cs, height: cs, fill: boxShade, class: 'cell-bg', 'data-cell': `r${r + 1}c${c + 1}` }, g);
  }
  const peers = svg('g', { class: 'peers' }, g);
  const marks = svg('g', { class: 'marks' }, g);
  const lines = svg('g', {}, g);
  for (let k = 1; k < n; k++) {
    svg('line', { x1: 0, y1: k * cs, x2: n * cs, y2: k * cs, class: k % br ? 'grid-line' : 'box-line' }, lines);
    svg('line', { x1: k * cs, y1: 0, x2: k * cs, y2: n * cs, class: k % bc ? 'grid-line' : 'box-line' }, lines);
  }
  svg('rect', { x: 0, y: 0, width: n * cs, height: n * cs, class: 'outer' }, lines);
  const sel = svg('rect', { x: 0, y: 0, width: cs - 4, height: cs - 4, rx: 3, class: 'sel' }, g);
  const content = svg('g', {}, g);
  const cells = Array.from({ length: n * n }, () => svg('g', {}, content));
  gridRoles(root, g, n, () => 'empty', null);
  sd.layers = {
    n, cs, root, peers, marks, sel, cells,
    rects: [...root.querySelectorAll('rect.cell-bg')],
    keys: new Array(n * n).fill(''), labels: new Array(n * n).fill(''), parts: [], selAt: undefined,
  };
  root.addEventListener('pointerdown', (ev) => {
    const rc = cellAt(ev.currentTarget, ev, sd.geom);
    if (!rc) return;
    sd.sel = rc[0] * n + rc[1];
    $('board').focus({ preventScroll: true });
    sdRender();
  });
}

// Every cell's computed candidates in one pass over the rows, columns and boxes (0 for a
// filled cell): digits no filled peer holds, less eliminations already made.
function sdAllCandidates() {
  const { n, br, bc } = sd;
  const row = new Array(n).fill(0), col = new Array(n).fill(0), box = new Array(n).fill(0);
  const boxOf = (r, c) => Math.floor(r / br) * (n / bc) + Math.floor(c / bc);
  for (let i = 0; i < n * n; i++) {
    const v = sdNumber(i);
    if (!v) continue;
    const r = Math.floor(i / n), c = i % n;
    row[r] |= 1 << v; col[c] |= 1 << v; box[boxOf(r, c)] |= 1 << v;
  }
  const all = (1 << (n + 1)) - 2;
  return Array.from({ length: n * n }, (_, i) => {
    if (sdNumber(i)) return 0;
    const r = Math.floor(i / n), c = i % n;
    return all & ~(row[r] | col[c] | box[boxOf(r, c)]) & ~sd.elim[i];
  });
}

function sdUpdate() {
  const { n } = sd;
  const L = sd.layers;
  const { cs } = L;
  // The selection and its row, column and box.
  if (L.selAt !== sd.sel) {
    L.selAt = sd.sel;
    L.peers.replaceChildren();
    if (sd.sel !== null) {
      for (const i of sdPeers(sd.sel)) svg('rect', { x: (i % n) * cs, y: Math.floor(i / n) * cs, width: cs, height: cs, class: 'peer' }, L.peers);
      L.sel.setAttribute('x', (sd.sel % n) * cs + 2);
      L.sel.setAttribute('y', Math.floor(sd.sel / n) * cs + 2);
    }
    L.sel.style.display = sd.sel === null ? 'none' : '';
    gridSelect(L.root, sd.sel === null ? null : `r${Math.floor(sd.sel / n) + 1}c${(sd.sel % n) + 1}`);
  }
  for (const rect of L.root.querySelectorAll('rect.cell-bg[aria-invalid]')) rect.removeAttribute('aria-invalid');
  L.marks.replaceChildren();
  drawMarks(L.marks, n, cs, { diff: sd.diff, hint: sd.hint, empty: sd.empty, bad: sd.bad }, L.root);
  // The cells whose content changed.
  const selVal = sd.sel !== null ? sdNumber(sd.sel) : 0;
  const cands = sd.showCands ? sdAllCandidates() : null;
  for (let i = 0; i < n * n; i++) {
    const v = sdNumber(i);
    const cls = v ? (sd.given[i] ? 'given' : sd.solved.has(i) ? 'solved' : 'entry') : '';
    const under = v && v === selVal && !sd.given[i];
    const marks = v ? 0 : sd.pencil[i] || (cands ? cands[i] : 0);
    const removed = v ? 0 : sd.removed[i];
    const shown = marks | removed;
    const focus = shown & (1 << sd.focusDigit) ? sd.focusDigit : 0;
    const key = v ? `${v}${cls}${under ? '_' : ''}` : shown && cs >= 24 ? `c${shown}:${removed}:${focus}:${sd.pencil[i] ? 1 : 0}` : '';
    const label = v ? sym(v) : 'empty';
    if (L.labels[i] !== label) { L.labels[i] = label; L.rects[i].setAttribute('aria-label', `r${Math.floor(i / n) + 1}c${(i % n) + 1}: ${label}`); }
    if (L.keys[i] === key) continue;
    L.keys[i] = key;
    sdDrawCell(i, v, cls, under, key ? shown : 0, removed, focus);
  }
  const filled = sd.given.filter((x) => x).length;
  $('board-sub').textContent = `${n}×${n}, ${sd.br}×${sd.bc} boxes · ${filled} givens`;
  padRender();
}

// Redraws one cell in place. Its texts are made once and then switched: a number, and one
// text per candidate digit (with a strike line for an eliminated one); a text not shown has
// class "off" and display none, so that a keystroke that takes a candidate from 45 peers
// changes 45 attributes instead of remaking 700 texts.
function sdDrawCell(i, v, cls, under, shown, removed, focus) {
  const { n } = sd;
  const L = sd.layers;
  const { cs } = L;
  const r = Math.floor(i / n), c = i % n;
  const cell = L.cells[i];
  const parts = L.parts[i] || (L.parts[i] = { num: null, cand: [], strike: [] });
  const show = (el, cl) => {
    if (el.getAttribute('class') !== cl) el.setAttribute('class', cl);
    if (cl === 'off') el.setAttribute('display', 'none'); else el.removeAttribute('display');
  };
  if (v) {
    if (!parts.num) parts.num = svg('text', { x: c * cs + cs / 2, y: r * cs + cs / 2 + 1, 'font-size': Math.round(cs * 0.58) }, cell);
    parts.num.textContent = sym(v);
    show(parts.num, `num ${cls}`);
    if (under) parts.num.setAttribute('text-decoration', 'underline'); else parts.num.removeAttribute('text-decoration');
  } else if (parts.num) {
    show(parts.num, 'off');
  }
  const sub = Math.ceil(Math.sqrt(n));
  const step = cs / sub;
  for (let d = 1; d <= n; d++) {
    const bit = 1 << d;
    const gone = removed & bit;
    if (!(shown & bit)) {
      if (parts.cand[d]) show(parts.cand[d], 'off');
      if (parts.strike[d]) show(parts.strike[d], 'off');
      continue;
    }
    const a = Math.floor((d - 1) / sub), b = (d - 1) % sub;
    const x = c * cs + step * b + step / 2, y = r * cs + step * a + step / 2;
    if (!parts.cand[d]) parts.cand[d] = svg('text', { x, y: y + 1, 'font-size': Math.max(8, Math.round(step * 0.72)) }, cell, sym(d));
    const t = parts.cand[d];
    show(t, 'cand' + (gone ? ' removed' : d === focus ? ' focus' : sd.pencil[i] ? ' pencil' : ' auto'));
    if (gone) t.setAttribute('data-cand', `r${r + 1}c${c + 1}:${d}`); else t.removeAttribute('data-cand');
    if (gone && !parts.strike[d]) parts.strike[d] = svg('line', { x1: x - step * 0.35, y1: y + step * 0.35, x2: x + step * 0.35, y2: y - step * 0.35 }, cell);
    if (parts.strike[d]) show(parts.strike[d], gone ? 'cand strike' : 'off');
  }
}

function sdChanged() {
  sd.edits++;
  sd.hint = new Set();
  sd.bad = new Set(); sd.diff = new Set(); sd.focusDigit = 0;
  // Shown Nishio eliminations stay eliminated after the next change.
  sd.removed = sd.removed.map(() => 0);
}

function sdSet(i, v) {
  if (sd.mode === 'given') {
    record('sudoku');
    sd.given[i] = v; sd.value[i] = 0; sd.elim.fill(0);
  } else {
    if (sd.given[i]) { setStatus('givens are fixed (choose "Givens" to change them)', 'warn'); return; }
    if (sd.value[i] === v && !(v === 0 && sd.pencil[i])) return;
    record('sudoku');
    sd.value[i] = v;
    if (v === 0) sd.pencil[i] = 0;
  }
  sd.solved.delete(i);
  sdChanged();
  sdRender();
  changed('sudoku');
}

function sdKey(ev) {
  const n = sd.n;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[ev.key];
  if (moves) {
    const i = sd.sel ?? 0;
    const r = Math.min(n - 1, Math.max(0, Math.floor(i / n) + moves[0]));
    const c = Math.min(n - 1, Math.max(0, i % n + moves[1]));
    sd.sel = r * n + c;
    sdRender();
    return true;
  }
  if (sd.sel === null) return false;
  const v = SYMBOLS.indexOf(ev.key.toUpperCase()) + 1;
  if (ev.key.length === 1 && v >= 1 && v <= n) {
    if (sd.mode === 'cand' && !sdNumber(sd.sel)) {
      record('sudoku');
      if (!sd.pencil[sd.sel]) sd.pencil[sd.sel] = 0;
      sd.pencil[sd.sel] ^= 1 << v;
      sdRender();
      changed('sudoku');
    } else {
      sdSet(sd.sel, v);
    }
    return true;
  }
  if (ev.key === 'Backspace' || ev.key === 'Delete' || ev.key === '0' || ev.key === '.') {
    if (sd.mode === 'cand') {
      if (sd.pencil[sd.sel]) { record('sudoku'); sd.pencil[sd.sel] = 0; sdRender(); changed('sudoku'); }
    } else sdSet(sd.sel, 0);
    return true;
  }
  return false;
}

function sdSetMode(mode) {
  sd.mode = mode;
  for (const [id, m] of [['sd-mode-given', 'given'], ['sd-mode-value', 'value'], ['sd-mode-cand', 'cand']]) press(id, m === mode);
  if (view === 'sudoku') padRender();
  if (view === 'sudoku') setStatus({ given: 'type the puzzle\'s givens', value: 'fill in digits', cand: 'type digits to toggle your pencil marks' }[mode], '');
}

const sdSettings = () => ({ block: `${sd.br}x${sd.bc}` });

async function sdCheck() {
  const res = await api('/api/verify', { puzzle: 'sudoku', text: sdText(false), solution: sdSolutionText(), settings: sdSettings() });
  sdChanged();
  sd.empty = reportCheck(res, sd.bad, (r, c) => r * sd.n + c, 'your grid is correct, well done.', undefined, sdUnitClashes);
  sdRender();
}

// The cells behind the verifier's row, column and block violations ("row 2 holds 7 twice"):
// in each named unit, the cells whose digit occurs more than once there.
function sdUnitClashes(broken) {
  const { n, br, bc } = sd;
  const out = [];
  for (const v of broken) {
    const m = /^(row|column|block|box) (\d+)$/.exec(v.at);
    if (!m) continue;
    const k = Number(m[2]) - 1;
    let cells;
    if (m[1] === 'row') cells = Array.from({ length: n }, (_, j) => k * n + j);
    else if (m[1] === 'column') cells = Array.from({ length: n }, (_, j) => j * n + k);
    else {
      const perRow = n / bc;
      const r0 = Math.floor(k / perRow) * br, c0 = (k % perRow) * bc;
      cells = [];
      for (let a = 0; a < br; a++) for (let b = 0; b < bc; b++) cells.push((r0 + a) * n + c0 + b);
    }
    const count = new Map();
    for (const i of cells) if (sdNumber(i)) count.set(sdNumber(i), (count.get(sdNumber(i)) || 0) + 1);
    for (const i of cells) if (sdNumber(i) && count.get(sdNumber(i)) > 1) out.push(i);
  }
  return out;
}

async function sdSolve() {
  const res = await api('/api/solve', { puzzle: 'sudoku', text: sdText(false), settings: sdSettings() });
  sdChanged();
  if (res.status === 'solved') {
    record('sudoku');
    sd.solved = new Set();
    res.solution.forEach((row, r) => row.forEach((v, c) => {
      const i = r * sd.n + c;
      if (!sd.given[i]) { sd.value[i] = v; sd.solved.add(i); }
    }));
    setStatus('solved', 'good');
    setMessages([{ text: `solved by the ${res.algorithm} solver (${timing(res.stats)})`, cls: 'good' }]);
    changed('sudoku', true);
  } else if (res.status === 'unsolvable') {
    setStatus('this puzzle has no solution...', 'bad');
    setMessages([{ text: 'this puzzle has no solution...', cls: 'bad summary' }, ...(res.reason ? [{ text: res.reason, cls: 'bad' }] : [])]);
  } else {
    setStatus('the time limit was reached before a solution was found', 'warn');
  }
  sdRender();
}

async function sdUnique() {
  const res = await api('/api/count', { puzzle: 'sudoku', text: sdText(false), limit: 2, settings: sdSettings() });
  sdChanged();
  const d = describeCount(res);
  for (const name of res.differences || []) {
    const rc = cellOf(name);
    if (rc) sd.diff.add(rc[0] * sd.n + rc[1]);
  }
  setStatus(d.text, d.cls);
  setMessages([{ text: d.text, cls: d.cls }, ...(d.extra ? [{ text: d.extra, cls: 'bad' }] : [])]);
  sdRender();
}

// One step of the explained deductive solver that the page does not know yet.
async function sdStep() {
  const candidates = Array.from({ length: sd.n * sd.n }, (_, i) => (sdNumber(i) ? 1 << sdNumber(i) : sdCandidates(i)));
  const res = await api('/api/step', { puzzle: 'sudoku', text: sdText(true), candidates, settings: sdSettings() });
  if (res.rule) record('sudoku');
  sdChanged();
  if (!res.rule) {
    setStatus(res.message, 'warn');
    setMessages([{ text: res.message, cls: 'bad' }]);
    sdRender();
    return;
  }
  for (const { cell, digit } of res.placed) {
    const rc = cellOf(cell);
    const i = rc[0] * sd.n + rc[1];
    if (!sd.given[i]) { sd.value[i] = digit; sd.solved.add(i); sd.hint.add(i); }
  }
  for (const { cell, digit } of res.eliminated) {
    const rc = cellOf(cell);
    const i = rc[0] * sd.n + rc[1];
    sd.removed[i] |= 1 << digit;
    sd.elim[i] |= 1 << digit;
  }
  setStatus(`${res.rule}: ${res.text}`, 'good');
  setMessages([{ text: res.text, cls: 'good' }, { text: `rule: ${res.rule}` }]);
  sdRender();
}

async function sdNishio() {
  const digit = Number($('sd-digit').value);
  // The candidates: what the filled cells leave, less earlier eliminations.
  const candidates = Array.from({ length: sd.n * sd.n }, (_, i) => (sdNumber(i) ? 1 << sdNumber(i) : sdCandidates(i)));
  const res = await api('/api/nishio', { puzzle: 'sudoku', text: sdText(true), digit, candidates, settings: sdSettings() });
  record('sudoku');
  sdChanged();
  sd.focusDigit = digit;
  for (const name of res.removed) {
    const rc = cellOf(name);
    if (!rc) continue;
    const i = rc[0] * sd.n + rc[1];
    sd.removed[i] |= 1 << digit;
    sd.elim[i] |= 1 << digit;
  }
  const k = res.removed.length;
  const text = k ? `Nishio on digit ${sym(digit)} removes ${res.removed.join(', ')}` : `Nishio on digit ${sym(digit)} removes nothing`;
  setStatus(text, k ? 'good' : '');
  const items = [{ text, cls: k ? 'good' : '' }];
  if (res.placements !== undefined && res.placements !== null) items.push({ text: `${res.placements} valid placement(s) of digit ${sym(digit)} in its ${res.candidates} candidate cells` });
  setMessages(items);
  sdRender();
}

// A random puzzle from the server's generator (pencilbox_sudoku_nishio::generate): a random
// full grid, givens removed in random order while the solution stays unique.
async function sdRandom(auto) {
  const n = sd.n;
  if (n > limits.generate.max_side) {
    const text = `the generator makes Sudoku up to ${limits.generate.max_side}×${limits.generate.max_side}; a ${n}×${n} puzzle can be typed in (Givens) or imported`;
    setStatus(text, 'bad');
    setMessages([{ text, cls: 'bad' }]);
    return;
  }
  const seed = Math.floor(Math.random() * 2 ** 31);
  const stamp = sd.edits;
  const res = await api('/api/generate', { puzzle: 'sudoku', size: n, seed });
  if (auto === true && sd.edits !== stamp) return;
  sdLoad(res.text);
  sdSetMode('value');
  changed('sudoku');
  const givens = sd.given.filter((x) => x).length;
  setStatus(`a new ${n}×${n} puzzle with ${givens} givens and exactly one solution`, 'good');
  setMessages([{ text: `generated with seed ${seed}; every given is needed for uniqueness`, cls: 'good' }]);
  sdRender();
}

PLAY.sudoku = {
  take: () => JSON.stringify({ n: sd.n, given: sd.given, value: sd.value, pencil: sd.pencil, elim: sd.elim, solved: [...sd.solved] }),
  put(snap) {
    const st = JSON.parse(snap);
    if (st.n !== sd.n) { const keep = HIST.sudoku; sdReset(st.n); HIST.sudoku = keep; $('sd-size').value = String(st.n); }
    Object.assign(sd, { given: st.given, value: st.value, pencil: st.pencil, elim: st.elim, solved: new Set(st.solved) });
    sdChanged();
  },
  complete: () => sd.given.every((g, i) => g || sd.value[i]),
  verifyBody: () => ({ puzzle: 'sudoku', text: sdText(false), solution: sdSolutionText(), settings: sdSettings() }),
  text: () => sdText(false),
  mode: () => sd.mode,
  progress: () => ({ value: sd.value, pencil: sd.pencil }),
  setProgress(p) {
    const N = sd.n * sd.n;
    if (!p || !Array.isArray(p.value) || p.value.length !== N) return false;
    sd.value = p.value.map((v, i) => { const d = Math.floor(Number(v) || 0); return sd.given[i] || d < 0 || d > sd.n ? 0 : d; });
    sd.pencil = Array.isArray(p.pencil) && p.pencil.length === N ? p.pencil.map((x, i) => (sd.given[i] ? 0 : Number(x) >>> 0)) : new Array(N).fill(0);
    sd.solved = new Set();
    return sd.value.some((x) => x) || sd.pencil.some((x) => x);
  },
  pad: () => ({ digits: Array.from({ length: sd.n }, (_, i) => i + 1), label: sym, pencil: true, pencilOn: sd.mode === 'cand' }),
  digit(d) { if (sd.sel === null) { setStatus('tap a cell first', 'warn'); return; } sdKey({ key: sym(d) }); },
  erase() { if (sd.sel !== null) sdKey({ key: 'Backspace' }); },
  togglePencil() { sdSetMode(sd.mode === 'cand' ? 'value' : 'cand'); },
};

function sdInit() {
  sdReset(9);
  $('sd-size').onchange = () => { sdReset(Number($('sd-size').value)); sdSetMode('given'); sdRender(); setMessages([]); };
  $('sd-new').onclick = () => { sdReset(Number($('sd-size').value)); sdSetMode('given'); sdRender(); setMessages([]); };
  $('sd-mode-given').onclick = () => sdSetMode('given');
  $('sd-mode-value').onclick = () => sdSetMode('value');
  $('sd-mode-cand').onclick = () => sdSetMode('cand');
  $('sd-show-cands').onchange = (e) => { sd.showCands = e.currentTarget.checked; sdRender(); };
  $('sd-check').onclick = (e) => run(e.currentTarget, sdCheck);
  $('sd-solve').onclick = (e) => run(e.currentTarget, sdSolve);
  $('sd-unique').onclick = (e) => run(e.currentTarget, sdUnique);
  $('sd-forced').onclick = (e) => run(e.currentTarget, () => showForced({ puzzle: 'sudoku', text: sdText(false), settings: sdSettings() }));
  $('sd-random').onclick = (e) => run(e.currentTarget, sdRandom);
  $('sd-nishio').onclick = (e) => run(e.currentTarget, sdNishio);
  $('sd-step').onclick = (e) => run(e.currentTarget, sdStep);
  teachInit('sd');
  $('sd-empty').onclick = () => {
    record('sudoku');
    if (sd.mode === 'given') sd.given.fill(0);
    sd.value.fill(0); sd.pencil.fill(0); sd.elim.fill(0); sd.solved = new Set(); sdChanged();
    setStatus(sd.mode === 'given' ? 'all cells emptied' : 'your digits were removed (the givens stay)', '');
    setMessages([]); sdRender(); changed('sudoku');
  };
  sd.mode = 'given';
  for (const [id, m] of [['sd-mode-given', 'given'], ['sd-mode-value', 'value'], ['sd-mode-cand', 'cand']]) press(id, m === 'given');
}

// ---------------------------------------------------------------- hints and explanations

// Every view asks the same two routes: /api/hint at three levels (nudge: where to look; rule:
// which rule applies there; answer: the conclusion, which "Apply hint" writes into the grid)
// and /api/explain (the steps a person would take, rated). TEACH[view] says what the view
// sends and how it shows cells, links and conclusions.

// A Path link "r2c3-r2c4" -> the indices of its two cells (on the Path grid), or null.
function linkOf(name) {
  const parts = String(name).split('-');
  if (parts.length !== 2) return null;
  const a = cellOf(parts[0]), b = cellOf(parts[1]);
  return a && b ? [a, b] : null;
}

// The board cells of explainer places: a cell "r2c3" or both cells of a link "r2c3-r2c4".
function placeCells(names) {
  const out = [];
  for (const name of names || []) {
    const rc = cellOf(name);
    if (rc) out.push(rc);
    else { const l = linkOf(name); if (l) out.push(l[0], l[1]); }
  }
  return out;
}

// The drawn path as entries for the hint (the answer format: each cell of the path points to
// the next; its last cell says nothing; x: a cell marked unused), so the hint starts from the
// player's lines and marks and names the wrong ones.
function ptEntries() {
  const dirs = new Array(pt.m * pt.n).fill('0');
  for (const c of pt.xs) dirs[c] = 'x';
  // Loose lines: each chain walked from an end (not door B, whose mark is not a line), each
  // cell pointing to the next; a closed loop from any cell.
  const arrow = (from, to) => { const d = to - from; return d === pt.n ? 'd' : d === -pt.n ? 'u' : d === 1 ? 'r' : 'l'; };
  const left = pt.segs.map(([a, b]) => [a, b]);
  const B = ptIdx(pt.b[0], pt.b[1]);
  const degree = (c) => left.filter(([a, b]) => a === c || b === c).length;
  while (left.length) {
    const ends = [...new Set(left.flat())].filter((c) => degree(c) === 1);
    let cur = ends.find((c) => c !== B) ?? left[0][0];
    for (let k; (k = left.findIndex(([a, b]) => a === cur || b === cur)) >= 0;) {
      const [a, b] = left.splice(k, 1)[0];
      const next = a === cur ? b : a;
      dirs[cur] = arrow(cur, next);
      cur = next;
    }
  }
  for (let k = 0; k + 1 < pt.route.length; k++) {
    const d = pt.route[k + 1] - pt.route[k];
    dirs[pt.route[k]] = d === pt.n ? 'd' : d === -pt.n ? 'u' : d === 1 ? 'r' : 'l';
  }
  const rows = [];
  for (let r = 0; r < pt.m; r++) rows.push(dirs.slice(r * pt.n, r * pt.n + pt.n).join(' '));
  return rows.join('\n') + '\n';
}

const TEACH = {
  sg: {
    hintBody: () => ({ puzzle: sg.family, text: sgText(), solution: sgSolutionText() }),
    explainBody: () => ({ puzzle: sg.family, text: sgText() }),
    mark(cells) {
      sgClearMarks();
      for (const [r, c] of cells) sg.hint.add(r * sg.n + c);
      sgRender();
    },
    wrong(cells) {
      for (const [r, c] of cells) sg.bad.add(r * sg.n + c);
      sgRender();
    },
    // The placed numbers of empty cells (a wrong entry is left for Check to find).
    applicable: (h) => (h.placed || []).filter((f) => {
      const rc = cellOf(f.cell);
      return rc && !sgNumber(rc[0] * sg.n + rc[1]);
    }),
    apply(h) {
      sgSnapshot();
      for (const f of this.applicable(h)) {
        const rc = cellOf(f.cell);
        sg.value[rc[0] * sg.n + rc[1]] = Number(f.value);
      }
      sgRender();
      changed('suguru');
    },
  },
  pt: {
    hintBody: () => ({ puzzle: 'path', text: ptText(), solution: ptEntries() }),
    explainBody: () => ({ puzzle: 'path', text: ptText() }),
    mark(cells, placed) {
      pt.hint = new Set(cells.map(([r, c]) => ptIdx(r, c)));
      pt.hintLinks = (placed || []).filter((f) => f.value === 'line').map((f) => linkOf(f.cell)).filter(Boolean)
        .map(([a, b]) => [ptIdx(a[0], a[1]), ptIdx(b[0], b[1])]);
      ptRender();
    },
    wrong(cells) {
      for (const [r, c] of cells) pt.bad.add(ptIdx(r, c));
      ptRender();
    },
    // What a hint adds to the board: its lines not drawn yet (as loose lines, which the path
    // takes where its end reaches them) and its unused cells not marked yet (as ✕).
    applicable: (h) => (h.placed || []).filter((f) => {
      if (f.value === 'line') {
        const l = linkOf(f.cell);
        if (!l) return false;
        const [x, y] = [ptIdx(l[0][0], l[0][1]), ptIdx(l[1][0], l[1][1])];
        const ix = pt.route.indexOf(x), iy = pt.route.indexOf(y);
        const onPath = ix >= 0 && iy >= 0 && Math.abs(ix - iy) === 1;
        return !onPath && !pt.segs.some(([a, b]) => a === Math.min(x, y) && b === Math.max(x, y));
      }
      if (f.value === 'unused') {
        const rc = cellOf(f.cell);
        return rc && !pt.xs.includes(ptIdx(rc[0], rc[1]));
      }
      return false;
    }),
    apply(h) {
      const add = this.applicable(h);
      if (!add.length) return;
      record('path');
      for (const f of add) {
        if (f.value === 'line') {
          const [p, q] = linkOf(f.cell).map(([r, c]) => ptIdx(r, c));
          if (ptLinesAt(p) < 2 && ptLinesAt(q) < 2) pt.segs.push([Math.min(p, q), Math.max(p, q)]);
        } else {
          const [r, c] = cellOf(f.cell);
          const i = ptIdx(r, c);
          if (!pt.route.includes(i) && !ptLooseCells().includes(i)) pt.xs = [...pt.xs, i].sort((a, b) => a - b);
        }
        ptAbsorb();
      }
      ptChanged();
      ptRender();
    },
  },
  sd: {
    hintBody: () => ({ puzzle: 'sudoku', text: sdText(false), solution: sdSolutionText(), settings: sdSettings() }),
    explainBody: () => ({ puzzle: 'sudoku', text: sdText(false), settings: sdSettings() }),
    mark(cells) {
      sd.hint = new Set(cells.map(([r, c]) => r * sd.n + c));
      sdRender();
    },
    wrong(cells) {
      for (const [r, c] of cells) sd.bad.add(r * sd.n + c);
      sdRender();
    },
    applicable: (h) => [
      ...(h.placed || []).filter((f) => { const rc = cellOf(f.cell); return rc && !sdNumber(rc[0] * sd.n + rc[1]); }),
      ...(h.removed || []).filter((f) => { const rc = cellOf(f.cell); return rc && sdCandidates(rc[0] * sd.n + rc[1]) & (1 << Number(f.value)); }),
    ],
    apply(h) {
      record('sudoku');
      for (const f of h.placed || []) {
        const rc = cellOf(f.cell);
        const i = rc[0] * sd.n + rc[1];
        if (!sdNumber(i)) sd.value[i] = Number(f.value);
      }
      for (const f of h.removed || []) {
        const rc = cellOf(f.cell);
        const i = rc[0] * sd.n + rc[1];
        sd.elim[i] |= 1 << Number(f.value);
        sd.removed[i] |= 1 << Number(f.value);
      }
      sdRender();
      changed('sudoku');
    },
  },
};
let lastHint = null; // { pfx, hint } of the last answer shown, for "Apply hint"

// Shows the hint buttons of a view when its family's server has the features.
function teachButtons(pfx, family) {
  const has = (f) => (server.puzzles[family]?.features || []).includes(f);
  for (const level of ['nudge', 'rule', 'answer']) $(`${pfx}-hint-${level}`).hidden = !has('hint-levels');
  $(`${pfx}-explain`).hidden = !has('explain');
  $(`${pfx}-hint-apply`).hidden = true;
}

async function askHint(pfx, level) {
  const t = TEACH[pfx];
  $(`${pfx}-hint-apply`).hidden = true;
  lastHint = null;
  const res = await api('/api/hint', { ...t.hintBody(), level });
  if (!res.text) {
    t.mark([], []);
    // A position without solutions: the entries the solution does not have are marked.
    const wrong = placeCells((res.wrong || []).map((f) => f.cell));
    if (wrong.length) t.wrong(wrong);
    setStatus(res.message || 'no hint', 'warn');
    setMessages([{ text: res.message || 'no hint', cls: 'bad' }]);
    return;
  }
  t.mark(placeCells(res.cells), level === 'answer' ? res.placed : []);
  const items = [{ text: res.text, cls: 'good' }];
  if (res.rule) items.push({ text: `rule: ${res.rule.name} (level ${res.rule.level})` });
  if (level === 'answer' && t.applicable(res).length) {
    lastHint = { pfx, hint: res };
    $(`${pfx}-hint-apply`).hidden = false;
    items.push({ text: 'press Apply hint to write it into the grid' });
  }
  setStatus(res.text, 'good');
  setMessages(items);
}

function applyHint(pfx) {
  if (!lastHint || lastHint.pfx !== pfx) return;
  const h = lastHint.hint;
  TEACH[pfx].apply(h);
  lastHint = null;
  $(`${pfx}-hint-apply`).hidden = true;
  TEACH[pfx].mark(placeCells(h.cells), []);
  setStatus(`applied: ${h.text}`, 'good');
}

function closeExplain() {
  $('explain-panel').hidden = true;
  $('explain-steps').innerHTML = '';
}

function ratingText(r) {
  if (!r || !r.hardest) return 'rating 0.0: nothing to deduce';
  const per = (r.steps_per_level || []).map((c) => `level ${c.level}: ${c.steps}`).join(', ');
  const guesses = r.guesses ? `; ${r.guesses} guess(es)` : '';
  return `rating ${r.score.toFixed(1)} (hardest: ${r.hardest.name}, level ${r.hardest.level}; steps ${per}${guesses})`;
}

async function showExplain(pfx) {
  const t = TEACH[pfx];
  const res = await api('/api/explain', t.explainBody());
  const ol = $('explain-steps');
  ol.innerHTML = '';
  res.steps.forEach((s, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.step = String(i);
    b.setAttribute('aria-pressed', 'false');
    const name = document.createElement('span');
    name.className = 'rule-name';
    name.textContent = s.name;
    const lvl = document.createElement('span');
    lvl.className = 'level';
    lvl.textContent = `level ${s.level}`;
    b.append(name, lvl);
    if (s.guess) {
      const g = document.createElement('span');
      g.className = 'guess';
      g.textContent = 'guess';
      b.append(g);
    }
    const text = document.createElement('div');
    text.className = 'step-text';
    text.textContent = s.text;
    b.append(text);
    b.onclick = () => {
      for (const o of ol.querySelectorAll('button[aria-pressed="true"]')) o.setAttribute('aria-pressed', 'false');
      b.setAttribute('aria-pressed', 'true');
      t.mark(placeCells(s.cells), s.placed);
      setStatus(`step ${i + 1}: ${s.name}: ${s.text}`, 'good');
    };
    li.append(b);
    ol.append(li);
  });
  const status = { solved: 'solved by these steps', stalled: 'the rules stall here', 'no solution': 'no solution', timeout: 'stopped by the time limit' }[res.status] || res.status;
  const shown = res.truncated ? ` (the first ${res.steps.length} shown)` : '';
  $('explain-sub').textContent = `${res.steps_total} step(s)${shown}: ${status}. Click a step to see its cells.`;
  $('explain-rating').textContent = ratingText(res.rating);
  $('explain-panel').hidden = false;
  $('explain-panel').scrollIntoView({ block: 'nearest' });
  setStatus(`${res.steps_total} explained step(s), ${ratingText(res.rating)}`, res.status === 'solved' ? 'good' : 'warn');
}

function teachInit(pfx) {
  for (const level of ['nudge', 'rule', 'answer']) {
    $(`${pfx}-hint-${level}`).onclick = (e) => run(e.currentTarget, () => askHint(pfx, level));
  }
  $(`${pfx}-hint-apply`).onclick = () => applyHint(pfx);
  $(`${pfx}-explain`).onclick = (e) => run(e.currentTarget, () => showExplain(pfx));
}

// ---------------------------------------------------------------- views, dialogs, keys

const VIEWS = {
  suguru: { title: 'Suguru', render: sgRender, key: sgKey, text: sgText, load: (t) => { sgLoad(t); sgSetMode('play'); } },
  path: { title: 'Path puzzle', render: ptRender, key: ptKey, text: ptText, load: (t) => { ptLoad(t); ptSetMode('play'); } },
  sudoku: { title: 'Sudoku', render: sdRender, key: sdKey, text: () => sdText(false), load: (t) => { sdLoad(t); sdSetMode('value'); } },
};

const KEY_HINTS = {
  suguru: 'Keys: arrows move · 1–9 fill · Backspace clears · Ctrl+Z undo · Ctrl+Shift+Z redo · <kbd>?</kbd> guide',
  path: 'Keys: arrows draw from door A · Backspace takes the last cell back · Lines: arrows move, Shift+arrow draws · Mark ✕: arrows move, x marks · Ctrl+Z undo · Ctrl+Shift+Z redo · <kbd>?</kbd> guide',
  sudoku: 'Keys: arrows move · 1–9 (A–G) fill · Backspace clears · Ctrl+Z undo · Ctrl+Shift+Z redo · <kbd>?</kbd> guide',
};

function showView(name) {
  view = name;
  for (const v of Object.keys(VIEWS)) {
    $(`controls-${v}`).hidden = v !== name;
    $(`tab-${v}`).classList.toggle('active', v === name);
    $(`tab-${v}`).setAttribute('aria-selected', String(v === name));
  }
  $('board-title').textContent = name === 'suguru' ? REGION_TITLES[sg.family] : VIEWS[name].title;
  $('keys-hint').innerHTML = KEY_HINTS[name];
  $('board').classList.remove('is-solved');
  setStatus('', '');
  setMessages([]);
  closeExplain();
  VIEWS[name].render();
  // The first visit of Path or Sudoku opens the last puzzle played there (with its progress),
  // else a fresh generated puzzle.
  const has = (p, f) => (server.puzzles[p]?.features || []).includes(f);
  const first = (name === 'path' && !pt.visited) || (name === 'sudoku' && !sd.visited);
  if (first && server.ready) {
    if (name === 'path') pt.visited = true; else sd.visited = true;
    const last = lastPuzzle(name);
    if (last && resumeLast(name, last)) { /* resumed */ } else if (has(name, 'generate')) run(null, () => (name === 'path' ? ptRandom(true) : sdRandom(true)));
  }
  if (location.hash.split('&')[0] !== `#${name}` || location.hash.includes('&')) history.replaceState(null, '', `${location.pathname}#${name}`);
}

// Opens the last puzzle of a view (saved by saveProgress) with its progress; false if it no
// longer loads.
function resumeLast(v, last) {
  try {
    const restored = openPuzzle(v, last.text);
    if (last.mode === 'creative') (v === 'suguru' ? sgSetMode : v === 'path' ? ptSetMode : () => {})('creative');
    if (v === 'sudoku' && last.mode === 'given') sdSetMode('given');
    VIEWS[v].render();
    const text = restored ? 'welcome back: your last puzzle, with your progress' : 'welcome back: your last puzzle';
    setStatus(text, '');
    return true;
  } catch (_) {
    return false;
  }
}

function ioNote(text, isError) {
  $('io-error').textContent = text;
  $('io-error').className = isError ? 'error' : 'note';
}

function openIo() {
  $('io-text').value = VIEWS[view].text();
  ioNote('', false);
  $('io-url').hidden = view === 'path';
  $('io').showModal();
}

// A puzz.link URL, JSON or the file format -> the file format of the view's family, read by
// the server (the puzzle crates' own readers) when it is not the file format already.
async function puzzleText(v, text) {
  const url = text.match(/^\s*[^\s]*\?(suguru|ripple|sudoku)\//);
  if (/^\s*(\{|https?:)/.test(text) || url) {
    // A URL names its family; the region board plays Suguru and Ripple Effect alike.
    const puzzle = v === 'suguru' ? (url && REGION_FAMILIES.includes(url[1]) ? url[1] : sg.family) : v;
    return (await api('/api/convert', { puzzle, text, to: 'text' })).text;
  }
  return text;
}

function initDialogs() {
  $('guide-btn').onclick = () => $('guide').showModal();
  for (const id of ['sg-export', 'pt-export', 'sd-export']) $(id).onclick = openIo;
  $('io-close').onclick = () => $('io').close();
  $('io-load').onclick = async () => {
    try {
      const text = await puzzleText(view, $('io-text').value);
      const restored = openPuzzle(view, text);
      $('io').close();
      setStatus('', '');
      setMessages([{ text: restored ? 'puzzle loaded, with your saved progress' : 'puzzle loaded', cls: 'good' }]);
      VIEWS[view].render();
      changed(view);
    } catch (e) {
      ioNote(e.message, true);
    }
  };
  $('io-url').onclick = async () => {
    try {
      const res = await api('/api/convert', { puzzle: view === 'suguru' ? sg.family : view, text: VIEWS[view].text(), to: 'url' });
      $('io-text').value = res.text;
      ioNote('a puzz.link URL of this puzzle', false);
    } catch (e) {
      ioNote(e.message, true);
    }
  };
  $('io-share').onclick = () => {
    const withProgress = $('io-share-progress').checked;
    $('io-text').value = shareLink(withProgress);
    ioNote(withProgress ? 'a link to this puzzle with your progress: open it anywhere to go on' : 'a link to this puzzle (givens only)', false);
  };
  $('io-copy').onclick = async () => {
    try { await navigator.clipboard.writeText($('io-text').value); ioNote('copied', false); } catch (_) {
      $('io-text').select(); document.execCommand('copy'); ioNote('copied', false);
    }
  };
  $('io-download').onclick = () => {
    const blob = new Blob([$('io-text').value], { type: 'text/plain' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = view === 'suguru' ? 'puzzle.in' : view === 'path' ? 'puzzle.txt' : 'sudoku.txt';
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
}

function onKey(ev) {
  if (document.querySelector('dialog[open]')) return;
  const tag = (ev.target.tagName || '').toLowerCase();
  if (tag === 'input' || tag === 'select' || tag === 'textarea') return;
  if (ev.ctrlKey || ev.metaKey) {
    const k = ev.key.toLowerCase();
    if (k === 'z' && !ev.shiftKey) { undo(); ev.preventDefault(); return; }
    if ((k === 'z' && ev.shiftKey) || k === 'y') { redo(); ev.preventDefault(); return; }
  }
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === '?') { $('guide').showModal(); ev.preventDefault(); return; }
  if (VIEWS[view].key(ev)) ev.preventDefault();
}

async function loadFeatures() {
  try {
    const res = await api('/api/puzzles');
    server.limits = res.limits || {};
    for (const p of res.puzzles) server.puzzles[p.name] = p;
    Object.assign(limits, await api('/api/limits'));
  } catch (e) {
    setStatus(workerApi ? e.message : `cannot reach the pencilbox server: ${e.message}`, 'bad');
    return;
  }
  server.ready = true;
  const has = (p, f) => (server.puzzles[p]?.features || []).includes(f);
  $('sg-family-row').hidden = REGION_FAMILIES.filter((f) => server.puzzles[f]).length < 2;
  sgSetFamily(sg.family);
  $('sd-nishio-row').hidden = !has('sudoku', 'nishio');
  $('sd-step').hidden = !has('sudoku', 'step');
  teachButtons('pt', 'path');
  teachButtons('sd', 'sudoku');
  if (has('suguru', 'levels')) await sgLoadLevels();
  // What to open: a puzz.link URL (`/?url=`), a share link (`#view&t=..&p=..`), the last
  // puzzle of the view, or the view's first puzzle (the first bundled level; a generated one).
  if (await openFromAddress()) return;
  if (view === 'suguru') {
    const last = lastPuzzle('suguru');
    if (last && resumeLast('suguru', last)) return;
    if (sg.levels.length && !sg.given.some((x) => x) && !sg.label.some((x) => x)) {
      $('sg-level').value = '0';
      sgPickLevel();
    }
  } else {
    showView(view);
  }
}

// `/?url=PUZZ_LINK_URL` and `#VIEW&t=TEXT&p=PROGRESS`: true if the address opened a puzzle.
async function openFromAddress() {
  const query = new URLSearchParams(location.search);
  const { name, params } = hashParts();
  try {
    if (query.get('url')) {
      const url = query.get('url');
      const fam = (url.match(/\?([a-z]+)\//) || [])[1];
      const v = fam === 'sudoku' ? 'sudoku' : REGION_FAMILIES.includes(fam) ? 'suguru' : null;
      if (!v) throw new Error(`this playground opens puzz.link URLs of ${REGION_FAMILIES.join(', ')} and sudoku; "${fam || url}" is not one`);
      if (v === 'suguru') sgSetFamily(fam);
      const text = await puzzleText(v, url);
      if (v === 'path') pt.visited = true;
      if (v === 'sudoku') sd.visited = true;
      showView(v);
      const restored = openPuzzle(v, text);
      VIEWS[v].render();
      changed(v);
      setStatus(`opened ${url}${restored ? ' (with your saved progress)' : ''}`, 'good');
      history.replaceState(null, '', `${location.pathname}#${v}`);
      return true;
    }
    if (params.t && VIEWS[name]) {
      const text = unb64(decodeURIComponent(params.t));
      const progress = params.p ? JSON.parse(unb64(decodeURIComponent(params.p))) : null;
      if (name === 'path') pt.visited = true;
      if (name === 'sudoku') sd.visited = true;
      showView(name);
      const restored = openPuzzle(name, text, progress);
      VIEWS[name].render();
      changed(name);
      setStatus(`opened a shared puzzle${restored ? ' with its progress' : ''}`, 'good');
      return true;
    }
  } catch (e) {
    setStatus(`the address does not open a puzzle: ${e.message}`, 'bad');
    setMessages([{ text: `the address does not open a puzzle: ${e.message}`, cls: 'bad' }]);
  }
  return false;
}

window.addEventListener('DOMContentLoaded', async () => {
  sgInit(); ptInit(); sdInit(); initDialogs(); padInit();
  $('explain-close').onclick = closeExplain;
  for (const v of Object.keys(VIEWS)) $(`tab-${v}`).onclick = () => showView(v);
  document.addEventListener('keydown', onKey);
  // A share link or a view's address opened in the same tab changes only the hash.
  window.addEventListener('hashchange', async () => {
    if (!server.ready || await openFromAddress()) return;
    const { name } = hashParts();
    if (VIEWS[name] && name !== view) showView(name);
  });
  const start = hashParts().name || 'suguru';
  view = VIEWS[start] ? start : 'suguru';
  for (const v of Object.keys(VIEWS)) $(`controls-${v}`).hidden = v !== view;
  VIEWS[view].render();
  performance.mark('pencilbox:first-board');
  // The static build's service worker: every file cached, so the page works offline and
  // installs as an app (not under `pencilbox serve`, whose config names none).
  if (CONFIG.serviceWorker && 'serviceWorker' in navigator) {
    navigator.serviceWorker.register(CONFIG.serviceWorker).catch((e) => console.warn(`no offline copy: ${e.message}`));
  }
  await loadFeatures();
  document.body.dataset.ready = 'true';
  performance.mark('pencilbox:ready');
});
