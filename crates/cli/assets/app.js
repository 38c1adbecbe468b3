// pencilbox playground: vanilla JavaScript, no build step, no external files.
//
// One board for every puzzle family. The page knows no genre: each family describes its board
// (`POST /api/board`, pencilbox_core::board): the givens (numbers, text such as `?`, pearls,
// a line's ends), region walls, clues outside the grid, doors in the frame, what a player
// enters (numbers 1..k, shading with dots, lines between cell centres and ✕ marks) and how a
// position is written as the family's text. The page draws that, lets the player enter it by
// touch, mouse or keyboard, and sends the position to the family's verifier, hints and
// explanations. Every family listed by `GET /api/puzzles` gets its tab.
//
// Every solve, count, check and deduction is done by pencilbox's JSON API: the server's
// (`pencilbox serve`), or the same API compiled to WebAssembly and run in a Web Worker (the
// static build, scripts/build-web.sh), as config.js says.
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';

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
let running = 0;

async function run(btn, fn) {
  if (btn) btn.disabled = true;
  running++;
  document.body.dataset.busy = 'true';
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
    running--;
    document.body.dataset.busy = String(running > 0);
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

// A toggle button's state, shown (class `active`) and told (aria-pressed).
function press(id, on) {
  $(id).classList.toggle('active', on);
  $(id).setAttribute('aria-pressed', String(on));
}

// "1 cell", "3 cells".
function plural(k, word) { return `${k} ${word}${k === 1 ? '' : 's'}`; }

// Uniqueness: describes a count answer.
function describeCount(res) {
  if (res.count === 0) return { text: 'this puzzle has no solution...', cls: 'bad', extra: res.reason };
  if (res.count === 1 && res.complete) return { text: 'this puzzle has exactly one solution', cls: 'good' };
  if (res.interrupted) return { text: `the time limit stopped the count at ${res.count} solution(s)`, cls: 'warn' };
  return { text: `this puzzle has more than one solution; two of them differ at ${(res.differences || []).join(', ')}`, cls: 'bad' };
}

// A Path-style link "r2c3-r2c4" -> its two cells [[r, c], [r, c]], or null.
function linkOf(name) {
  const parts = String(name).split('-');
  if (parts.length !== 2) return null;
  const a = cellOf(parts[0]), b = cellOf(parts[1]);
  return a && b ? [a, b] : null;
}

// Base64url of UTF-8 text, and back (share links).
const b64 = (s) => btoa(unescape(encodeURIComponent(s))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const unb64 = (s) => decodeURIComponent(escape(atob(s.replace(/-/g, '+').replace(/_/g, '/'))));

// A short stable key of a puzzle text (cyrb53): its saved progress.
function textKey(text) {
  const s = text.trim().replace(/\s+/g, ' ');
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36) + s.length.toString(36);
}

function storage() {
  try { return window.localStorage; } catch (_) { return null; }
}

// ---------------------------------------------------------------- families and games

// The families the API offers (GET /api/puzzles), in tab order, and their bundled levels.
const FAMILIES = {};
const ORDER = [];
const LEVELS = {};
const limits = { max_side: 60, max_cells: 2500, generate: { min_side: 2, max_side: 12 }, families: {} };
let ready = false;

// One game per family (its tab keeps it while another is open); G is the open one.
const GAMES = {};
let G = null;

// SVG user units per cell; the board is scaled to the screen (and zoomed) as a whole.
const U = 40;
let zoom = 1;

function newGame(family) {
  return {
    family, text: '', board: null, pos: null, undo: [], redo: [], sel: null, cursor: null,
    tool: null, pencil: false, marks: noMarks(), solved: false, bySolver: false, note: '',
    elapsed: 0, since: null, paused: false, edits: 0, levelName: '', creative: false,
  };
}

function noMarks() {
  return { bad: new Set(), hint: new Set(), diff: new Set(), empty: new Set(), hintLinks: [], clues: new Set() };
}

const B = () => G.board;
const cellKind = () => B().input.cells.kind; // 'number', 'shade' or 'none'
const nCells = () => B().rows * B().cols;
const cellName = (i) => `r${Math.floor(i / B().cols) + 1}c${(i % B().cols) + 1}`;

// The cell index of "r3c4" on the open board, or null.
function indexOf(name) {
  const rc = cellOf(name);
  if (!rc || rc[0] >= B().rows || rc[1] >= B().cols) return null;
  return rc[0] * B().cols + rc[1];
}

// The cells named by explainer places: a cell "r2c3", both cells of a link "r2c3-r2c4".
function placeCells(names) {
  const out = [];
  for (const name of names || []) {
    const i = indexOf(name);
    if (i !== null) { out.push(i); continue; }
    const l = linkOf(name);
    if (l) for (const [r, c] of l) if (r < B().rows && c < B().cols) out.push(r * B().cols + c);
  }
  return out;
}

const givenAt = (i) => B().givens[i];
const givenNumber = (i) => { const g = givenAt(i); return g && g.kind === 'number' ? g.value : 0; };
const maxAt = (i) => (B().max.length ? B().max[i] : 9);

// ---------------------------------------------------------------- positions

// What the player entered: numbers `v` and pencil marks `pm` (bit d = candidate d), shades
// `s` (0 nothing, 1 shaded, 2 dot: marked unshaded), lines `l` (edge ids: 2i the edge from
// cell i to its right neighbour, 2i+1 to the one below) and ✕ marks `x` (cells).
function emptyPos(b) {
  const n = b.rows * b.cols;
  const p = {};
  if (b.input.cells.kind === 'number') { p.v = new Array(n).fill(0); p.pm = new Array(n).fill(0); }
  if (b.input.cells.kind === 'shade') p.s = new Array(n).fill(0);
  if (b.input.lines) p.l = new Set();
  if (b.input.cross) p.x = new Set();
  return p;
}

function packPos(p) {
  const o = {};
  if (p.v) { o.v = p.v.slice(); if (p.pm.some(Boolean)) o.pm = p.pm.slice(); }
  if (p.s) o.s = p.s.join('');
  if (p.l) o.l = [...p.l].sort((a, b) => a - b);
  if (p.x) o.x = [...p.x].sort((a, b) => a - b);
  return o;
}

// A packed position read back for board `b`; whatever does not fit the board is dropped.
function unpackPos(b, o) {
  const p = emptyPos(b);
  const n = b.rows * b.cols;
  const int = (x, hi) => (Number.isInteger(x) && x >= 0 && x <= hi ? x : 0);
  if (!o || typeof o !== 'object') return p;
  if (p.v && Array.isArray(o.v) && o.v.length === n) {
    p.v = o.v.map((x, i) => (b.givens[i] ? 0 : int(x, b.max.length ? b.max[i] : 99)));
    if (Array.isArray(o.pm) && o.pm.length === n) p.pm = o.pm.map((x) => int(x, 2 ** 31 - 1));
  }
  if (p.s && typeof o.s === 'string' && o.s.length === n) p.s = [...o.s].map((ch) => int(Number(ch), 2));
  if (p.l && Array.isArray(o.l)) for (const e of o.l) if (Number.isInteger(e) && edgeValid(b, e)) p.l.add(e);
  if (p.x && Array.isArray(o.x)) for (const c of o.x) if (Number.isInteger(c) && c >= 0 && c < n) p.x.add(c);
  return p;
}

function edgeValid(b, e) {
  const i = e >> 1;
  if (i < 0 || i >= b.rows * b.cols) return false;
  return e & 1 ? i + b.cols < b.rows * b.cols : (i % b.cols) + 1 < b.cols;
}

// The edge between adjacent cells a and b, or null.
function edgeId(a, b) {
  const cols = B().cols;
  const [i, j] = a < b ? [a, b] : [b, a];
  if (j === i + 1 && (i % cols) + 1 < cols) return 2 * i;
  if (j === i + cols) return 2 * i + 1;
  return null;
}

function edgeCells(e) {
  const i = e >> 1;
  return e & 1 ? [i, i + B().cols] : [i, i + 1];
}

const N = 1, S = 2, E = 4, W = 8;

// The directions in which lines leave cell i.
function dirsOf(i, p = G.pos) {
  const { rows, cols } = B();
  const r = Math.floor(i / cols), c = i % cols;
  let d = 0;
  if (r > 0 && p.l.has(2 * (i - cols) + 1)) d |= N;
  if (r + 1 < rows && p.l.has(2 * i + 1)) d |= S;
  if (c + 1 < cols && p.l.has(2 * i)) d |= E;
  if (c > 0 && p.l.has(2 * (i - 1))) d |= W;
  return d;
}

const bits = (d) => (d & 1) + ((d >> 1) & 1) + ((d >> 2) & 1) + ((d >> 3) & 1);

// A cell's directions as a token of the line format (`ns`, `e`, `-`).
function dirToken(d) {
  if (!d) return '-';
  return (d & N ? 'n' : '') + (d & S ? 's' : '') + (d & E ? 'e' : '') + (d & W ? 'w' : '');
}

// The position as the family's text (Form): `answer` for the verifier (an answer grid),
// else the player's entries for hints (dots and ✕ marks included).
function positionText(answer) {
  const b = B(), p = G.pos;
  const tok = (i) => {
    if (b.form === 'numbers') return String(givenNumber(i) || (p.v ? p.v[i] : 0));
    if (b.form === 'shading') {
      const s = p.s[i];
      return s === 1 ? 'x' : (!answer && s === 2 ? 'o' : '-');
    }
    const d = p.l ? dirsOf(i) : 0;
    if (!d && !answer && p.x && p.x.has(i)) return 'x';
    return dirToken(d);
  };
  const rows = [];
  for (let r = 0; r < b.rows; r++) {
    const row = [];
    for (let c = 0; c < b.cols; c++) row.push(tok(r * b.cols + c));
    rows.push(row.join(' '));
  }
  return rows.join('\n') + '\n';
}

// Does the position say something (so the verifier has something to judge)?
function hasEntries() {
  const p = G.pos;
  if (p.v) return p.v.some(Boolean);
  if (p.s) return p.s.some(Boolean);
  return (p.l && p.l.size > 0) || (p.x && p.x.size > 0);
}

// Is the grid complete enough for the automatic check: every number cell filled; something
// shaded; some line drawn.
function looksComplete() {
  const p = G.pos;
  if (p.v) return p.v.every((v, i) => v || givenNumber(i));
  if (p.s) return p.s.some((s) => s === 1);
  return p.l && p.l.size > 0;
}

// Reads a position written in the family's form (a solution) into a fresh position.
function positionFrom(rows) {
  const b = B(), p = emptyPos(b);
  const toks = rows.flatMap((r) => (Array.isArray(r) ? r.map(String) : String(r).trim().split(/\s+/)));
  if (toks.length !== nCells()) throw new Error(`the solution has ${toks.length} cells, the board ${nCells()}`);
  toks.forEach((t, i) => {
    if (b.form === 'numbers') { if (!b.givens[i]) p.v[i] = Number(t) || 0; return; }
    if (b.form === 'shading') { p.s[i] = t === 'x' ? 1 : 0; return; }
    const { cols } = b;
    if (t.includes('e')) p.l.add(2 * i);
    if (t.includes('s')) p.l.add(2 * i + 1);
    if (t.includes('w') && i % cols > 0) p.l.add(2 * (i - 1));
    if (t.includes('n') && i >= cols) p.l.add(2 * (i - cols) + 1);
  });
  return p;
}

// ---------------------------------------------------------------- saving, history, timer

// Saved progress: localStorage, one entry per puzzle (keyed by its text) with the position,
// the timer and whether it was solved; the last puzzle of each family and the last tab.
// Saved at once after every change (and when the page is hidden), so nothing is lost.
function save() {
  const st = storage();
  if (!st || !G || !G.board) return;
  try {
    st.setItem(`pencilbox:last:${G.family}`, JSON.stringify({ text: G.text, level: G.levelName }));
    st.setItem(`pencilbox:pos:${G.family}:${textKey(G.text)}`, JSON.stringify({
      p: packPos(G.pos), t: Math.round(timerNow()), paused: G.paused, solved: G.solved, bySolver: G.bySolver,
    }));
    st.setItem('pencilbox:tab', G.family);
  } catch (_) { /* storage full or denied: the game goes on */ }
}

function savedFor(family, text) {
  const st = storage();
  if (!st) return null;
  try { return JSON.parse(st.getItem(`pencilbox:pos:${family}:${textKey(text)}`) || 'null'); } catch (_) { return null; }
}

function lastPuzzle(family) {
  const st = storage();
  if (!st) return null;
  try { return JSON.parse(st.getItem(`pencilbox:last:${family}`) || 'null'); } catch (_) { return null; }
}

const HISTORY_MAX = 300;
const snapshot = () => JSON.stringify({ p: packPos(G.pos), s: G.bySolver });

function record(before = snapshot()) {
  G.undo.push(before);
  if (G.undo.length > HISTORY_MAX) G.undo.shift();
  G.redo = [];
}

function travel(from, to, done, none) {
  if (!G || !G[from].length) { setStatus(none, ''); return; }
  G[to].push(snapshot());
  const snap = JSON.parse(G[from].pop());
  G.pos = unpackPos(B(), snap.p);
  G.bySolver = snap.s;
  G.marks = noMarks();
  hideApply();
  changed(G.bySolver);
  setStatus(done, '');
  setMessages([]);
}

const undo = () => travel('undo', 'redo', 'undone', 'nothing to undo');
const redo = () => travel('redo', 'undo', 'redone', 'nothing to redo');

// The timer: the time spent on the open puzzle, saved with it; it runs while the tab is
// visible, the puzzle unsolved and the timer not paused.
function timerNow() {
  if (!G) return 0;
  return G.elapsed + (G.since !== null ? performance.now() - G.since : 0);
}

function timerSync() {
  if (!G) return;
  const run = ready && G.board && !G.paused && !G.solved && !G.creative && document.visibilityState === 'visible';
  if (run && G.since === null) G.since = performance.now();
  if (!run && G.since !== null) { G.elapsed += performance.now() - G.since; G.since = null; }
  timerShow();
}

function clock(ms) {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? `${h}:` : ''}${mm}:${String(sec).padStart(2, '0')}`;
}

function timerShow() {
  const t = $('timer');
  if (!G) return;
  t.textContent = clock(timerNow());
  t.setAttribute('aria-pressed', String(G.paused));
  t.title = G.paused ? 'Paused: tap to go on' : 'Pause the timer (it is saved with your progress)';
  t.setAttribute('aria-label', `time ${clock(timerNow())}${G.paused ? ', paused' : ''}`);
  $('board-wrap').classList.toggle('paused', G.paused && !G.solved);
}

function togglePause() {
  if (!G || G.solved) return;
  G.paused = !G.paused;
  timerSync();
  save();
  setStatus(G.paused ? 'paused: tap the timer to go on' : 'go on', '');
}

// ---------------------------------------------------------------- changes and the automatic check

let settle = null;

// After every change of the position: marks of the old position go, the board is redrawn,
// the progress saved at once, and a complete grid is verified a moment later for "Solved!".
// A grid the solver completed is not the player's: no "Solved!" for it.
function changed(bySolver = false) {
  G.bySolver = bySolver;
  G.edits++;
  if (G.solved && !bySolver) { G.solved = false; $('board').classList.remove('is-solved'); }
  update();
  save();
  timerSync();
  clearTimeout(settle);
  if (!bySolver && looksComplete()) {
    const game = G, stamp = G.edits;
    settle = setTimeout(() => autoCheck(game, stamp), 150);
  }
}

async function autoCheck(game, stamp) {
  if (game !== G || stamp !== G.edits || G.bySolver) return;
  let res;
  try {
    res = await request('/api/verify', { puzzle: G.family, text: G.text, solution: positionText(true) });
  } catch (_) { return; }
  if (game !== G || stamp !== G.edits || !res.ok || !res.data.valid) return;
  solvedNow();
}

function solvedNow() {
  G.solved = true;
  G.marks = noMarks();
  timerSync();
  save();
  update();
  $('board').classList.add('is-solved');
  const text = `Solved! in ${clock(timerNow())}`;
  setStatus(text, 'good');
  setMessages([{ text: `${text}: every rule holds`, cls: 'good' }]);
}

// ---------------------------------------------------------------- drawing

// The board's geometry in user units: the grid's origin after the clue bands and the room
// the doors need, and the whole drawing's size.
function geometry() {
  const b = B();
  const pad = b.doors.length ? 0.75 : 0.12;
  const x0 = U * (pad + (b.left.length ? 1 : 0));
  const y0 = U * (pad + (b.top.length ? 1 : 0));
  return { x0, y0, width: x0 + b.cols * U + pad * U, height: y0 + b.rows * U + pad * U };
}

// The board's size on screen: fitted to the space between the heading and the dock (on a
// phone, the dock is fixed at the bottom), cells of at most 64 px, times the zoom.
function fitScale(geo) {
  const wrap = $('board-wrap');
  const availW = Math.max(120, wrap.clientWidth - 4);
  const dock = $('dock');
  const fixed = getComputedStyle(dock).position === 'fixed';
  const top = wrap.getBoundingClientRect().top + window.scrollY;
  const below = fixed ? dock.offsetHeight : dock.offsetHeight + 24;
  const availH = Math.max(220, window.innerHeight - top - below - 6);
  const s = Math.min(availW / geo.width, availH / geo.height, 64 / U);
  return Math.max(s, 12 / U);
}

let geo = null;

// Draws the board from its description: cells (an ARIA grid), grid lines and region walls,
// the frame with its doors, givens and clues; update() then draws the position on top.
function draw() {
  const root = $('board');
  root.innerHTML = '';
  if (!G || !G.board) return;
  const b = B();
  geo = geometry();
  const { x0, y0 } = geo;
  const s = svg('svg', { viewBox: `0 0 ${geo.width} ${geo.height}`, role: 'presentation' }, root);
  // Only the cells (the grid's rows) are for screen readers, which read each cell's name;
  // what is drawn over them is hidden from them.
  const layer = (cls) => svg('g', { class: cls, 'aria-hidden': 'true' }, s);
  const cells = svg('g', { class: 'l-cells' }, s);
  G.layers = {
    shades: layer('l-shades'), marks: layer('l-marks'), grid: layer('l-grid'), lines: layer('l-lines'),
    text: layer('l-text'), clues: layer('l-clues'), sel: layer('l-sel'),
  };
  const L = G.layers;
  G.rects = [];
  for (let r = 0; r < b.rows; r++) {
    const row = svg('g', { role: 'row' }, cells);
    for (let c = 0; c < b.cols; c++) {
      const i = r * b.cols + c;
      G.rects.push(svg('rect', {
        x: x0 + c * U, y: y0 + r * U, width: U, height: U, class: 'cell-bg',
        'data-cell': `r${r + 1}c${c + 1}`, role: 'gridcell', id: `cell-${i}`,
      }, row));
    }
  }
  // Thin grid lines, then the walls between regions, then the frame.
  let d = '';
  for (let r = 1; r < b.rows; r++) d += `M${x0} ${y0 + r * U}h${b.cols * U}`;
  for (let c = 1; c < b.cols; c++) d += `M${x0 + c * U} ${y0}v${b.rows * U}`;
  if (d) svg('path', { d, class: 'grid-line' }, L.grid);
  if (b.regions.length) {
    let w = '';
    for (let r = 0; r < b.rows; r++) {
      for (let c = 0; c < b.cols; c++) {
        const i = r * b.cols + c;
        if (c + 1 < b.cols && b.regions[i] !== b.regions[i + 1]) w += `M${x0 + (c + 1) * U} ${y0 + r * U}v${U}`;
        if (r + 1 < b.rows && b.regions[i] !== b.regions[i + b.cols]) w += `M${x0 + c * U} ${y0 + (r + 1) * U}h${U}`;
      }
    }
    if (w) svg('path', { d: w, class: 'wall' }, L.grid);
  }
  svg('rect', { x: x0, y: y0, width: b.cols * U, height: b.rows * U, class: 'outer' }, L.grid);
  for (const door of b.doors) drawDoor(door, L.grid);
  // Givens.
  b.givens.forEach((g, i) => {
    if (!g) return;
    const [cx, cy] = centre(i);
    if (g.kind === 'number' || g.kind === 'text') {
      const t = g.kind === 'number' ? String(g.value) : g.text;
      svg('text', { x: cx, y: cy, class: 'num given', 'font-size': t.length > 1 ? U * 0.5 : U * 0.62 }, L.text, t);
    } else if (g.kind === 'pearl') {
      svg('circle', { cx, cy, r: U * 0.3, class: `pearl ${g.black ? 'black' : 'white'}` }, L.text);
    } else if (g.kind === 'end') {
      svg('circle', { cx, cy, r: U * 0.22, class: 'given-end' }, L.text);
    }
  });
  // Clues outside the grid (boxes named col3 / row2, as the keyboard and the tests know them).
  b.top.forEach((t, c) => clueBox(`col${c + 1}`, x0 + c * U, y0 - U, t, L.clues));
  b.left.forEach((t, r) => clueBox(`row${r + 1}`, x0 - U, y0 + r * U, t, L.clues));
  // What the player entered, cell by cell: each cell's shade, number or pencil marks and ✕
  // drawn in a group of its own, redrawn only when that cell changes (a 16×16 grid full of
  // pencil marks has 4096 of them); the lines are one path, redrawn at every update.
  G.dyn = { text: svg('g', {}, L.text), cross: svg('g', {}, L.lines), line: svg('g', {}, L.lines) };
  G.parts = { shade: [], text: [], cross: [] };
  G.labels = [];
  layout();
  update();
  if (!performance.getEntriesByName('pencilbox:first-board').length) performance.mark('pencilbox:first-board');
}

function clueBox(name, x, y, text, g) {
  svg('rect', { x, y, width: U, height: U, class: 'clue-box', 'data-clue': name }, g);
  svg('text', { x: x + U / 2, y: y + U / 2, class: `clue${text ? '' : ' none'}`, 'font-size': text.length > 1 ? U * 0.46 : U * 0.55, 'data-clue-text': name }, g, text);
}

function centre(i) {
  const cols = B().cols;
  return [geo.x0 + (i % cols) * U + U / 2, geo.y0 + Math.floor(i / cols) * U + U / 2];
}

// A door: the frame opened at its cell's side, and its label outside.
function drawDoor(door, g) {
  const [r, c] = door.cell;
  const i = r * B().cols + c;
  const [cx, cy] = centre(i);
  const h = U / 2;
  const side = { n: [0, -1], s: [0, 1], e: [1, 0], w: [-1, 0] }[door.side] || [0, -1];
  const [ex, ey] = [cx + side[0] * h, cy + side[1] * h];
  const along = side[0] ? [0, 1] : [1, 0];
  svg('line', { x1: ex - along[0] * (h - 5), y1: ey - along[1] * (h - 5), x2: ex + along[0] * (h - 5), y2: ey + along[1] * (h - 5), class: 'door-gap' }, g);
  // The label goes beyond the clue band on that side, if any.
  const band = (door.side === 'n' && B().top.length) || (door.side === 'w' && B().left.length) ? U : 0;
  const lx = cx + side[0] * (U * 0.95 + band), ly = cy + side[1] * (U * 0.95 + band);
  svg('circle', { cx: lx, cy: ly, r: U * 0.25, class: 'door' }, g);
  svg('text', { x: lx, y: ly, class: 'door-label', 'font-size': U * 0.32 }, g, door.label);
}

const STAR = (() => {
  const pts = [];
  for (let k = 0; k < 10; k++) {
    const a = -Math.PI / 2 + (k * Math.PI) / 5;
    const r = k % 2 ? 0.16 : 0.38;
    pts.push(`${(r * Math.cos(a)).toFixed(3)},${(r * Math.sin(a)).toFixed(3)}`);
  }
  return pts;
})();

// Draws the position, the marks and the selection; names every cell for screen readers.
function update() {
  if (!G || !G.board || !G.layers) return;
  const b = B(), p = G.pos, L = G.layers;
  const shaded = b.input.cells.kind === 'shade' ? b.input.cells : null;
  G.dyn.line.innerHTML = '';
  L.marks.innerHTML = '';
  L.sel.innerHTML = '';
  const n = nCells();
  const solvedCls = G.bySolver ? ' solved' : '';
  for (let i = 0; i < n; i++) {
    const [cx, cy] = centre(i);
    const shade = p.s ? p.s[i] : 0;
    part('shade', i, shade ? `${shade}${solvedCls}` : '', L.shades, (g) => {
      if (shade === 1 && shaded.glyph === 'star') {
        svg('polygon', { points: STAR.map((pt) => { const [x, y] = pt.split(','); return `${cx + x * U},${cy + y * U}`; }).join(' '), class: `shade-star${solvedCls}` }, g);
      } else if (shade === 1) {
        svg('rect', { x: cx - U / 2 + 1, y: cy - U / 2 + 1, width: U - 2, height: U - 2, rx: shaded.glyph === 'snake' ? U * 0.22 : 0, class: `shade-${shaded.glyph === 'snake' ? 'snake' : 'block'}${solvedCls}` }, g);
      } else {
        svg('circle', { cx, cy, r: U * 0.09, class: 'dot' }, g);
      }
    });
    const value = p.v && !b.givens[i] ? p.v[i] : 0;
    const pm = p.pm && !b.givens[i] && !value ? p.pm[i] : 0;
    part('text', i, value ? `v${value}${solvedCls}` : pm ? `p${pm}` : '', G.dyn.text, (g) => {
      if (value) {
        const t = String(value);
        svg('text', { x: cx, y: cy, class: `num entry${solvedCls}`, 'font-size': t.length > 1 ? U * 0.5 : U * 0.6 }, g, t);
        return;
      }
      const k = maxAt(i) > 9 ? 4 : 3;
      for (let d = 1; d <= maxAt(i) && d < 32; d++) {
        if (!(pm >> d & 1)) continue;
        const col = (d - 1) % k, row = Math.floor((d - 1) / k);
        svg('text', { x: cx - U / 2 + (col + 0.5) * (U / k), y: cy - U / 2 + (row + 0.5) * (U / k), class: 'cand pencil', 'font-size': U / (k + 0.6) }, g, String(d));
      }
    });
    const crossed = p.x && p.x.has(i) && !(p.l && dirsOf(i));
    part('cross', i, crossed ? 'x' : '', G.dyn.cross, (g) => {
      const q = U * 0.18;
      svg('path', { d: `M${cx - q} ${cy - q}L${cx + q} ${cy + q}M${cx + q} ${cy - q}L${cx - q} ${cy + q}`, class: 'cross' }, g);
    });
  }
  if (p.l) {
    let d = '';
    for (const e of p.l) {
      const [a, c] = edgeCells(e);
      const [ax, ay] = centre(a), [bx, by] = centre(c);
      d += `M${ax} ${ay}L${bx} ${by}`;
    }
    // A door cell where a line ends: the line goes on through the door.
    for (const door of b.doors) {
      const i = door.cell[0] * b.cols + door.cell[1];
      if (bits(dirsOf(i)) !== 1) continue;
      const [cx, cy] = centre(i);
      const side = { n: [0, -1], s: [0, 1], e: [1, 0], w: [-1, 0] }[door.side] || [0, -1];
      d += `M${cx} ${cy}L${cx + side[0] * U * 0.6} ${cy + side[1] * U * 0.6}`;
    }
    if (d) svg('path', { d, class: `line-seg${solvedCls}` }, G.dyn.line);
  }
  drawMarks();
  if (G.sel !== null && G.sel < n) {
    const [cx, cy] = centre(G.sel);
    svg('rect', { x: cx - U / 2 + 1.5, y: cy - U / 2 + 1.5, width: U - 3, height: U - 3, class: 'sel' }, L.sel);
  }
  if (b.input.lines && G.cursor !== null && G.cursor !== G.sel && G.cursor < n && document.activeElement === $('board')) {
    const [cx, cy] = centre(G.cursor);
    svg('rect', { x: cx - U / 2 + 3, y: cy - U / 2 + 3, width: U - 6, height: U - 6, class: 'cursor' }, L.sel);
  }
  // Clues: a clue box marked by Check.
  for (const box of $('board').querySelectorAll('rect.clue-box')) box.classList.toggle('bad-clue', G.marks.clues.has(box.dataset.clue));
  // Names for screen readers: "r3c1: 5", "r2c2: star", "r1c4: line n s", "empty".
  for (let i = 0; i < n; i++) {
    const rect = G.rects[i];
    const label = `${cellName(i)}: ${describe(i)}`;
    if (G.labels[i] !== label) { rect.setAttribute('aria-label', label); G.labels[i] = label; }
    if (G.marks.bad.has(i)) rect.setAttribute('aria-invalid', 'true'); else rect.removeAttribute('aria-invalid');
    if (i === G.sel) rect.setAttribute('aria-selected', 'true'); else rect.removeAttribute('aria-selected');
  }
  const active = G.sel !== null ? G.sel : G.cursor;
  if (active !== null && active < n) $('board').setAttribute('aria-activedescendant', `cell-${active}`);
  else $('board').removeAttribute('aria-activedescendant');
  $('board').classList.toggle('is-solved', G.solved);
  padRender();
  subtitle();
}

// Draws one cell's part (`shade`, `text` or `cross`) in `layer` with `build`, when its `key`
// (what it shows; '' for nothing) differs from what is drawn.
function part(kind, i, key, layer, build) {
  const parts = G.parts[kind];
  const old = parts[i];
  if ((old ? old.key : '') === key) return;
  if (old) old.g.remove();
  parts[i] = null;
  if (!key) return;
  const g = svg('g', {}, layer);
  build(g);
  parts[i] = { key, g };
}

function describe(i) {
  const b = B(), p = G.pos, g = b.givens[i];
  const parts = [];
  if (g) parts.push(g.kind === 'number' ? String(g.value) : g.kind === 'text' ? g.text : g.kind === 'pearl' ? `${g.black ? 'black' : 'white'} pearl` : 'end');
  if (p.v && p.v[i] && !g) parts.push(String(p.v[i]));
  if (p.v && !p.v[i] && !g && p.pm[i]) parts.push(`pencil ${[...Array(32).keys()].filter((d) => p.pm[i] >> d & 1).join(' ')}`);
  if (p.s && p.s[i] === 1) parts.push(b.input.cells.yes);
  if (p.s && p.s[i] === 2) parts.push(`dot (${b.input.cells.no})`);
  if (p.l) { const d = dirsOf(i); if (d) parts.push(`line ${dirToken(d).split('').join(' ')}`); }
  if (p.x && p.x.has(i)) parts.push('✕');
  if (b.top.length || b.left.length) {
    const r = Math.floor(i / b.cols), c = i % b.cols;
    const clues = [];
    if (b.left[r]) clues.push(`row clue ${b.left[r]}`);
    if (b.top[c]) clues.push(`column clue ${b.top[c]}`);
    if (!parts.length) parts.push('empty');
    return `${parts.join(', ')}${clues.length ? ` (${clues.join(', ')})` : ''}`;
  }
  return parts.length ? parts.join(', ') : 'empty';
}

// The marks: the solver's differences, hint cells and links, empty cells asked for, broken
// rules (a tint, a dashed border and a "!" badge, not colour alone; aria-invalid).
function drawMarks() {
  const g = G.layers.marks, m = G.marks;
  const at = (i) => { const [cx, cy] = centre(i); return [cx - U / 2, cy - U / 2]; };
  for (const i of m.diff) { const [x, y] = at(i); svg('rect', { x, y, width: U, height: U, class: 'diffcell' }, g); }
  for (const i of m.hint) { const [x, y] = at(i); svg('rect', { x, y, width: U, height: U, class: 'hintcell', 'data-hint': cellName(i) }, g); }
  for (const i of m.empty) { const [x, y] = at(i); svg('rect', { x: x + 3, y: y + 3, width: U - 6, height: U - 6, class: 'emptycell', 'data-empty': cellName(i) }, g); }
  for (const [a, c, line] of m.hintLinks) {
    const [ax, ay] = centre(a), [bx, by] = centre(c);
    if (line) svg('line', { x1: ax, y1: ay, x2: bx, y2: by, class: 'hint-link' }, G.layers.sel);
    else {
      // A blank: a short bar across the edge.
      const mx = (ax + bx) / 2, my = (ay + by) / 2, q = U * 0.15;
      const vert = ay === by;
      svg('line', { x1: mx - (vert ? 0 : q), y1: my - (vert ? q : 0), x2: mx + (vert ? 0 : q), y2: my + (vert ? q : 0), class: 'hint-blank' }, G.layers.sel);
    }
  }
  for (const i of m.bad) {
    const [x, y] = at(i);
    svg('rect', { x: x + 1.5, y: y + 1.5, width: U - 3, height: U - 3, class: 'badcell', 'data-bad': cellName(i) }, g);
    const r = U * 0.13;
    svg('circle', { cx: x + U - r - 2, cy: y + r + 2, r, class: 'bad-badge' }, G.layers.sel);
    svg('text', { x: x + U - r - 2, y: y + r + 2.5, class: 'bad-icon', 'font-size': r * 1.5 }, G.layers.sel, '!');
  }
}

// The board's size on screen (after a layout change, a zoom or a new board).
function layout() {
  const s = $('board').querySelector('svg');
  if (!s || !geo) return;
  const k = fitScale(geo) * zoom;
  s.style.width = `${Math.round(geo.width * k)}px`;
  s.style.height = `${Math.round(geo.height * k)}px`;
}

function subtitle() {
  const b = B();
  let sub = `${b.rows}×${b.cols}`;
  if (b.regions.length && G.family !== 'sudoku') {
    const k = new Set(b.regions).size;
    sub += `, ${plural(k, 'region')}`;
  }
  if (G.levelName) sub += ` · ${G.levelName}`;
  if (G.creative) sub += ' · Creative Mode';
  $('board-sub').textContent = sub;
}

// ---------------------------------------------------------------- input: numbers

let typed = { i: -1, at: 0 };

function setNumber(i, d) {
  if (i === null || i === undefined) { setStatus('tap a cell first', 'warn'); return; }
  if (B().givens[i]) { setStatus(`${cellName(i)} is given`, 'warn'); return; }
  const p = G.pos;
  const max = maxAt(i);
  if (G.pencil && d) {
    if (d > max || d > 31) { setStatus(`${cellName(i)} takes 1 to ${max}`, 'warn'); return; }
    record();
    p.pm[i] ^= 1 << d;
    changed();
    return;
  }
  // Several digits typed in a row make one number (when the cell takes numbers above 9).
  const now = performance.now();
  let v = d;
  if (d && max > 9 && typed.i === i && now - typed.at < 1200 && p.v[i] && p.v[i] * 10 + d <= max) v = p.v[i] * 10 + d;
  typed = { i, at: now };
  if (v > max) { setStatus(`${cellName(i)} takes 1 to ${max}`, 'warn'); return; }
  if (p.v[i] === v && !p.pm[i]) { update(); return; }
  record();
  p.v[i] = v;
  if (!v) p.pm[i] = 0;
  changed();
}

// The pad offers the numbers the selected cell takes (every cell's, with none selected).
let padKey = '';
function padRender() {
  const numbers = G && G.board && cellKind() === 'number';
  $('pad').hidden = !numbers;
  if (!numbers) { padKey = ''; return; }
  const max = G.sel !== null ? maxAt(G.sel) : Math.max(...(B().max.length ? B().max : [9]));
  const key = `${G.family}:${max}`;
  press('pad-pencil', G.pencil);
  if (key === padKey) return;
  padKey = key;
  const box = $('pad-digits');
  box.innerHTML = '';
  for (let d = 1; d <= max; d++) {
    const btn = document.createElement('button');
    btn.className = 'pad-btn';
    btn.dataset.digit = String(d);
    btn.textContent = String(d);
    btn.onclick = () => setNumber(G.sel, d);
    box.append(btn);
  }
}

// ---------------------------------------------------------------- input: shading and lines

// The tools of the board's input: shading (cycle, shade, dot) or lines (line, ✕).
function toolsRender() {
  const box = $('tools');
  box.innerHTML = '';
  const b = B();
  const tools = [];
  if (b.input.cells.kind === 'shade') {
    const glyph = b.input.cells.glyph === 'star' ? '★' : '■';
    tools.push(['cycle', `Cycle ${glyph}•`, `a tap cycles a cell: ${b.input.cells.yes}, dot (${b.input.cells.no}), empty`]);
    tools.push(['shade', `${glyph} ${b.input.cells.yes}`, `taps and drags make ${b.input.cells.yes}s (again: empty)`]);
    tools.push(['dot', '• dot', `taps and drags mark cells ${b.input.cells.no} with a dot (again: empty)`]);
  }
  if (b.input.lines) {
    tools.push(['line', 'Line', 'drag between cell centres, tap an edge, or tap a cell then a neighbour']);
    if (b.input.cross) tools.push(['cross', '✕', 'taps mark cells no line uses (again: unmark)']);
  }
  if (!tools.some(([id]) => id === G.tool)) G.tool = tools.length ? tools[0][0] : null;
  for (const [id, label, title] of tools) {
    const btn = document.createElement('button');
    btn.className = 'tool-btn';
    btn.id = `tool-${id}`;
    btn.textContent = label;
    btn.title = title;
    btn.setAttribute('aria-pressed', String(G.tool === id));
    btn.onclick = () => { G.tool = id; toolsRender(); };
    box.append(btn);
  }
}

// The shade a tap gives cell i with the current tool.
function nextShade(i) {
  const s = G.pos.s[i];
  if (G.tool === 'shade') return s === 1 ? 0 : 1;
  if (G.tool === 'dot') return s === 2 ? 0 : 2;
  return (s + 1) % 3;
}

function setShade(i, v) {
  if (G.pos.s[i] === v) return false;
  G.pos.s[i] = v;
  return true;
}

// Toggles (or, with `want`, sets) the line between adjacent cells a and b; a cell holds at
// most two lines. Returns whether something changed.
function setLine(a, c, want) {
  const e = edgeId(a, c);
  if (e === null) return false;
  const has = G.pos.l.has(e);
  const on = want === undefined ? !has : want;
  if (on === has) return false;
  if (on) {
    if (bits(dirsOf(a)) >= 2 || bits(dirsOf(c)) >= 2) {
      setStatus('a cell holds at most two lines', 'warn');
      return false;
    }
    G.pos.l.add(e);
    if (G.pos.x) { G.pos.x.delete(a); G.pos.x.delete(c); }
  } else {
    G.pos.l.delete(e);
  }
  return true;
}

function toggleCross(i) {
  if (!G.pos.x) return false;
  if (dirsOf(i)) { setStatus(`a line passes ${cellName(i)}: no ✕ there`, 'warn'); return false; }
  if (G.pos.x.has(i)) G.pos.x.delete(i); else G.pos.x.add(i);
  return true;
}

const adjacent = (a, c) => edgeId(a, c) !== null;

// ---------------------------------------------------------------- pointer: taps, drags, pinch

// The cell under a pointer, from the board's bounding box at this moment (a layout change
// during a drag, such as a line of text wrapping above the board, moves the board; the
// next move is measured where it is now). Also the position within the cell (0..1).
function hit(ev) {
  const s = $('board').querySelector('svg');
  if (!s || !geo) return null;
  const r = s.getBoundingClientRect();
  const x = (ev.clientX - r.left) * (geo.width / r.width) - geo.x0;
  const y = (ev.clientY - r.top) * (geo.height / r.height) - geo.y0;
  const c = Math.floor(x / U), row = Math.floor(y / U);
  if (row < 0 || c < 0 || row >= B().rows || c >= B().cols) return { i: null, x, y };
  return { i: row * B().cols + c, fx: x / U - c, fy: y / U - row, x, y };
}

const pointers = new Map();
let gesture = null;
let pinch = null;

function onPointerDown(ev) {
  if (!G || !G.board || ev.button > 0) return;
  pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
  if (pointers.size === 2) { startPinch(); return; }
  if (pointers.size > 2) return;
  if (G.paused) { togglePause(); return; }
  $('board').focus({ preventScroll: true });
  const h = hit(ev);
  ev.preventDefault();
  try { ev.target.setPointerCapture && $('board').setPointerCapture(ev.pointerId); } catch (_) { /* not capturable */ }
  if (G.creative) { creativeDown(ev, h); return; }
  if (!h || h.i === null) return;
  const kind = cellKind();
  const before = snapshot();
  gesture = { id: ev.pointerId, before, last: h.i, start: h.i, moved: false, h, changed: false, mode: null };
  if (kind === 'number') {
    G.sel = h.i;
    update();
  } else if (kind === 'shade') {
    gesture.value = nextShade(h.i);
    gesture.changed = setShade(h.i, gesture.value);
    if (gesture.changed) update();
  }
}

function onPointerMove(ev) {
  if (pointers.has(ev.pointerId)) pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
  if (pinch) { movePinch(); return; }
  if (G && G.creative && creativeGesture) { creativeMove(ev); return; }
  if (!gesture || ev.pointerId !== gesture.id) return;
  const h = hit(ev);
  if (!h || h.i === null || h.i === gesture.last) return;
  const kind = cellKind();
  if (kind === 'number') { G.sel = h.i; gesture.last = h.i; update(); return; }
  if (kind === 'shade') {
    gesture.moved = true;
    if (setShade(h.i, gesture.value)) gesture.changed = true;
    gesture.last = h.i;
    update();
    return;
  }
  if (!B().input.lines || G.tool === 'cross') return;
  // Lines: step from the last cell toward the pointer's cell, one neighbour at a time.
  const cols = B().cols;
  let guard = 0;
  while (gesture.last !== h.i && guard++ < 200) {
    const a = gesture.last;
    const dr = Math.floor(h.i / cols) - Math.floor(a / cols), dc = (h.i % cols) - (a % cols);
    const next = Math.abs(dr) >= Math.abs(dc) ? a + Math.sign(dr) * cols : a + Math.sign(dc);
    if (gesture.mode === null) gesture.mode = G.pos.l.has(edgeId(a, next)) ? 'erase' : 'draw';
    if (setLine(a, next, gesture.mode === 'draw')) gesture.changed = true;
    gesture.last = next;
    gesture.moved = true;
  }
  G.sel = null;
  G.cursor = gesture.last;
  update();
}

function onPointerUp(ev) {
  pointers.delete(ev.pointerId);
  if (pinch) { if (pointers.size < 2) pinch = null; return; }
  if (G && G.creative && creativeGesture) { creativeUp(ev); return; }
  if (!gesture || ev.pointerId !== gesture.id) return;
  const g = gesture;
  gesture = null;
  if (ev.type === 'pointercancel') {
    if (g.changed) { const snap = JSON.parse(g.before); G.pos = unpackPos(B(), snap.p); update(); }
    return;
  }
  if (B().input.lines && !g.moved && cellKind() !== 'shade' && tapLines(g.h)) g.changed = true;
  if (g.changed) {
    record(g.before);
    G.marks = noMarks();
    hideApply();
    changed();
  } else {
    update();
  }
}

// A tap on a lines board: with ✕ it toggles the mark; a tap on the neighbour of the
// selected cell toggles the line between the two (so taps along a row draw it); a tap near
// an edge toggles the line across that edge; else it selects the cell. Returns whether the
// position changed.
function tapLines(h) {
  const i = h.i;
  const { cols, rows } = B();
  const r = Math.floor(i / cols), c = i % cols;
  G.cursor = i;
  if (G.tool === 'cross') return toggleCross(i);
  const sel = G.sel;
  if (sel !== null && sel !== i && adjacent(sel, i)) {
    G.sel = i;
    return setLine(sel, i);
  }
  const edges = [[h.fx, c > 0 ? i - 1 : null], [1 - h.fx, c + 1 < cols ? i + 1 : null], [h.fy, r > 0 ? i - cols : null], [1 - h.fy, r + 1 < rows ? i + cols : null]]
    .filter(([, j]) => j !== null).sort((a, b) => a[0] - b[0]);
  if (edges.length && edges[0][0] < 0.2) {
    G.sel = null;
    return setLine(i, edges[0][1]);
  }
  G.sel = sel === i ? null : i;
  return false;
}

function startPinch() {
  // A second finger: the first one's gesture is taken back; two fingers zoom and pan.
  if (gesture && gesture.changed) { const snap = JSON.parse(gesture.before); G.pos = unpackPos(B(), snap.p); update(); }
  gesture = null;
  const [a, b] = [...pointers.values()];
  const wrap = $('board-wrap');
  pinch = { d0: Math.hypot(a.x - b.x, a.y - b.y) || 1, z0: zoom, mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2, sl: wrap.scrollLeft, st: wrap.scrollTop };
}

function movePinch() {
  const [a, b] = [...pointers.values()];
  if (!a || !b) return;
  const d = Math.hypot(a.x - b.x, a.y - b.y) || 1;
  setZoom(pinch.z0 * d / pinch.d0, true);
  const wrap = $('board-wrap');
  wrap.scrollLeft = pinch.sl - ((a.x + b.x) / 2 - pinch.mx);
  wrap.scrollTop = pinch.st - ((a.y + b.y) / 2 - pinch.my);
}

function setZoom(z, quiet) {
  zoom = Math.min(6, Math.max(1, z));
  layout();
  $('board-wrap').classList.toggle('zoomed', zoom > 1.01);
  if (!quiet) setStatus(zoom > 1.01 ? `zoom ×${zoom.toFixed(1)}: drag with two fingers (or scroll) to pan` : 'the whole board', '');
}

// ---------------------------------------------------------------- keyboard

function onBoardKey(ev) {
  if (!G || !G.board) return false;
  const b = B();
  const k = ev.key;
  const cols = b.cols, rows = b.rows;
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (G.creative) return creativeKey(ev);
  if (arrows[k]) {
    const [dr, dc] = arrows[k];
    if (b.input.lines) {
      // The cursor starts at door A (or the first cell): the very first arrow draws from it.
      if (G.cursor === null) G.cursor = b.doors.length ? b.doors[0].cell[0] * cols + b.doors[0].cell[1] : 0;
      const a = G.cursor;
      const r = Math.floor(a / cols) + dr, c = (a % cols) + dc;
      if (r < 0 || c < 0 || r >= rows || c >= cols) return true;
      const next = r * cols + c;
      G.sel = null;
      if (!ev.shiftKey && G.tool !== 'cross') {
        const before = snapshot();
        G.cursor = next;
        if (setLine(a, next)) { record(before); G.marks = noMarks(); hideApply(); changed(); } else update();
      } else {
        G.cursor = next;
        update();
      }
      return true;
    }
    const cur = G.sel !== null ? G.sel : 0;
    const r = Math.min(rows - 1, Math.max(0, Math.floor(cur / cols) + dr));
    const c = Math.min(cols - 1, Math.max(0, (cur % cols) + dc));
    G.sel = G.sel === null ? 0 : r * cols + c;
    update();
    return true;
  }
  const kind = cellKind();
  if (kind === 'number') {
    if (/^[0-9]$/.test(k)) { setNumber(G.sel, Number(k)); return true; }
    if (/^[a-zA-Z]$/.test(k) && G.sel !== null && maxAt(G.sel) > 9) {
      const v = k.toUpperCase().charCodeAt(0) - 55;
      if (v >= 10 && v <= maxAt(G.sel)) { typed = { i: -1, at: 0 }; setNumber(G.sel, v); return true; }
    }
    if (k === 'Backspace' || k === 'Delete') { setNumber(G.sel, 0); return true; }
    if (k === 'p') { G.pencil = !G.pencil; padRender(); return true; }
    return false;
  }
  if (kind === 'shade') {
    const i = G.sel !== null ? G.sel : null;
    if (i === null) return false;
    const v = { x: 1, X: 1, o: 2, '.': 2, ' ': nextShadeCycle(i), Backspace: 0, Delete: 0 }[k];
    if (v === undefined) return false;
    const before = snapshot();
    if (setShade(i, v)) { record(before); G.marks = noMarks(); changed(); }
    return true;
  }
  if (b.input.lines && (k === 'x' || k === ' ')) {
    if (G.cursor === null) return false;
    const before = snapshot();
    if (toggleCross(G.cursor)) { record(before); changed(); }
    return true;
  }
  return false;
}

function nextShadeCycle(i) { return (G.pos.s[i] + 1) % 3; }

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
  if (tag === 'button' && (ev.key === ' ' || ev.key === 'Enter')) return;
  if (onBoardKey(ev)) ev.preventDefault();
}

function keysHint() {
  if (!G || !G.board) return '';
  const b = B();
  const common = 'Ctrl+Z undo · Ctrl+Shift+Z redo · <kbd>?</kbd> guide';
  if (G.creative) return `Creative: tap a cell and type its given (0 or Backspace clears) · drag over cells to draw a region · tap a clue and type it · ${common}`;
  if (b.input.cells.kind === 'number') return `Keys: arrows move · 1–9 fill${Math.max(...b.max) > 9 ? ' (A–Z or two digits above 9)' : ''} · Backspace clears · p pencil · ${common}`;
  if (b.input.cells.kind === 'shade') return `Keys: arrows move · x ${b.input.cells.yes} · o or . dot · Space cycles · Backspace clears · ${common}`;
  return `Keys: arrows draw from ${b.doors.length ? 'door A' : 'the cursor'} · Shift+arrow moves · x or Space ✕ · ${common}`;
}

// ---------------------------------------------------------------- opening puzzles

// Opens a puzzle text in a family's tab: its board from /api/board, the saved progress (or
// `progress`, from a share link), a fresh history. Returns whether progress came back.
async function openPuzzle(family, text, progress, levelName = '') {
  const res = await api('/api/board', { puzzle: family, text });
  const game = GAMES[family] || (GAMES[family] = newGame(family));
  if (G && G !== game) { timerSync(); save(); }
  if (G) { G.elapsed = timerNow(); G.since = null; }
  const same = game.board && game.text === text;
  game.text = text;
  game.board = res.board;
  game.levelName = levelName || (same ? game.levelName : '');
  game.undo = [];
  game.redo = [];
  game.marks = noMarks();
  game.sel = null;
  game.cursor = null;
  game.solved = false;
  game.paused = false;
  game.elapsed = 0;
  game.since = null;
  const saved = progress || savedFor(family, text);
  game.pos = unpackPos(res.board, saved && saved.p);
  game.bySolver = !!(saved && saved.bySolver);
  if (saved) {
    game.elapsed = Number(saved.t) || 0;
    game.paused = !!saved.paused;
    game.solved = !!saved.solved;
  }
  showGame(family);
  if (progress) save();
  return !!(saved && Object.keys(saved.p || {}).length && (hasEntriesOf(game)));
}

function hasEntriesOf(game) {
  const keep = G;
  G = game;
  const r = hasEntries();
  G = keep;
  return r;
}

// Shows the game of a family (its tab selected): the board, the tools, the buttons its
// family's features allow.
function showGame(family) {
  if (G && G.family !== family) { timerSync(); G.elapsed = timerNow(); G.since = null; save(); }
  G = GAMES[family];
  for (const t of $('tabs').querySelectorAll('.tab')) {
    const on = t.dataset.family === family;
    t.classList.toggle('active', on);
    t.setAttribute('aria-selected', String(on));
    if (on) t.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
  const info = FAMILIES[family] || {};
  $('board-title').textContent = info.title || family;
  const note = G.board && G.board.note;
  $('board-note').textContent = note || '';
  $('board-note').hidden = !note;
  features();
  if (G.board) { toolsRender(); draw(); }
  $('keys-hint').innerHTML = keysHint();
  $('board').classList.toggle('is-solved', !!G.solved);
  closeExplain();
  hideApply();
  timerSync();
  const hash = `#${family}`;
  if (location.hash !== hash && !/[?&]url=/.test(location.search)) history.replaceState(null, '', `${location.pathname}${hash}`);
  try { storage() && storage().setItem('pencilbox:tab', family); } catch (_) { /* ignore */ }
}

// The buttons of the open family: levels, generator sizes and difficulties, Creative.
function features() {
  const info = FAMILIES[G.family] || {};
  const has = (f) => (info.features || []).includes(f);
  for (const id of ['hint-nudge', 'hint-rule', 'hint-answer']) $(id).hidden = !has('hint-levels');
  $('explain').hidden = !has('explain');
  $('generate').hidden = !has('generate');
  $('gen-level-row').hidden = !has('generate') || !(info.generator && info.generator.difficulties.length);
  const sel = $('gen-level');
  sel.innerHTML = '';
  const order = ['easy', 'medium', 'hard'];
  const diffs = ((info.generator && info.generator.difficulties) || []).slice()
    .sort((a, b) => (order.indexOf(a) + 1 || 9) - (order.indexOf(b) + 1 || 9));
  for (const d of diffs) {
    const o = document.createElement('option');
    o.value = d;
    o.textContent = d[0].toUpperCase() + d.slice(1);
    sel.append(o);
  }
  if (diffs.includes('medium')) sel.value = 'medium';
  const levels = LEVELS[G.family] || [];
  $('level-row').hidden = !levels.length;
  const ls = $('level');
  ls.innerHTML = '<option value="">— choose a level —</option>';
  const groups = new Map();
  levels.forEach((l, i) => {
    if (!groups.has(l.difficulty)) {
      const og = document.createElement('optgroup');
      og.label = l.difficulty[0].toUpperCase() + l.difficulty.slice(1);
      groups.set(l.difficulty, og);
      ls.append(og);
    }
    const o = document.createElement('option');
    o.value = String(i);
    o.textContent = `${l.name} (${l.rows}×${l.cols})`;
    groups.get(l.difficulty).append(o);
  });
  const at = levels.findIndex((l) => l.text === G.text);
  ls.value = at >= 0 ? String(at) : '';
  const g = info.generator;
  if (g && G.board) {
    $('rows').value = String(Math.min(B().rows, g.max_side || 12));
    $('cols').value = String(Math.min(B().cols, g.max_side || 12));
  }
  $('mode-row').hidden = !(G.board && G.board.edit);
  creativeButtons();
}

// ---------------------------------------------------------------- actions

function hideApply() {
  lastHint = null;
  $('hint-apply').hidden = true;
}

function clearMarks() {
  G.marks = noMarks();
}

// The cells of a unit a verifier names: `row 3`, `column 2`, or `block 4` (also `box`,
// `region`: the board's regions in reading order of their first cells); [] for anything else.
function unitCells(at) {
  const b = B();
  const m = /^(row|column|block|box|region) (\d+)$/.exec(String(at));
  if (!m) return [];
  const k = Number(m[2]) - 1;
  const all = [...Array(nCells()).keys()];
  if (m[1] === 'row') return all.filter((i) => Math.floor(i / b.cols) === k);
  if (m[1] === 'column') return all.filter((i) => i % b.cols === k);
  const labels = [...new Set(b.regions)];
  return k < labels.length ? all.filter((i) => b.regions[i] === labels[k]) : [];
}

// The cells of `cells` whose number (given or entered) another of them holds too.
function repeatedIn(cells) {
  const value = (i) => givenNumber(i) || (G.pos.v ? G.pos.v[i] : 0);
  const count = new Map();
  for (const i of cells) if (value(i)) count.set(value(i), (count.get(value(i)) || 0) + 1);
  return cells.filter((i) => count.get(value(i)) > 1);
}

// The verifier's rules that say "this cell is empty": not a broken rule while a grid is being
// filled, so Check lists them only on request.
const EMPTY_RULES = new Set(['empty', 'empty-cell']);

async function check() {
  const res = await api('/api/verify', { puzzle: G.family, text: G.text, solution: positionText(true) });
  G.marks = noMarks();
  const line = (v) => (String(v.message).startsWith(v.at) ? v.message : `${v.at}: ${v.message}`);
  if (res.valid) {
    if (!G.bySolver && !G.solved) { solvedNow(); return; }
    const praise = 'your configuration is correct, well done.';
    update();
    setStatus(praise, 'good');
    setMessages([{ text: praise, cls: 'good' }]);
    return;
  }
  const numbers = B().form === 'numbers';
  const showEmpty = $('show-empty').checked;
  const broken = res.violations.filter((v) => !EMPTY_RULES.has(v.rule));
  const empty = res.violations.filter((v) => EMPTY_RULES.has(v.rule));
  for (const v of broken) {
    for (const i of placeCells([v.at])) G.marks.bad.add(i);
    // A row, column or block named for a number it holds twice (Sudoku): the cells of it.
    if (numbers) for (const i of repeatedIn(unitCells(v.at))) G.marks.bad.add(i);
    const m = /^(row|column) (\d+)$/.exec(v.at);
    if (m) G.marks.clues.add(`${m[1] === 'row' ? 'row' : 'col'}${m[2]}`);
  }
  if (showEmpty) for (const v of empty) for (const i of placeCells([v.at])) G.marks.empty.add(i);
  update();
  const emptyItems = showEmpty ? empty.map((v) => ({ text: line(v), cls: 'warn' }))
    : empty.length ? [{ text: `${plural(empty.length, 'empty cell')} not listed (tick "Check also lists empty cells")` }] : [];
  if (!broken.length) {
    const text = `no rule is broken so far; ${plural(empty.length, 'cell')} still empty`;
    setStatus(text, 'good');
    setMessages([{ text, cls: 'good' }, ...emptyItems]);
    return;
  }
  // Shading and lines: the verifier cannot tell a mistake from what is not drawn yet, the
  // hint from the entries can (when the puzzle has one solution): entries that are not in it
  // are mistakes, marked; with none, the grid is only unfinished.
  const m = numbers ? null : await mistakes();
  if (m && m.length) {
    G.marks = noMarks();
    for (const i of placeCells(m.map((f) => f.cell))) G.marks.bad.add(i);
    update();
    const list = m.slice(0, 8).map((f) => `${f.cell} ${f.value}`).join(', ') + (m.length > 8 ? ', …' : '');
    const text = `${plural(m.length, 'mistake')}: ${list} ${m.length === 1 ? 'is' : 'are'} not in the solution`;
    setStatus(text, 'bad');
    setMessages([{ text, cls: 'bad' }, ...broken.map((v) => ({ text: `not met: ${line(v)}`, cls: 'warn' }))]);
    return;
  }
  if (m) {
    G.marks = noMarks();
    update();
    const text = `not finished yet: no mistake so far (${plural(broken.length, 'rule')} not met yet)`;
    setStatus(text, 'good');
    setMessages([{ text, cls: 'good' }]);
    return;
  }
  // Without one solution to compare with (or numbers: a grid with empty cells breaks only
  // what its entries break), the rules as they stand.
  const unfinished = !numbers && !looksComplete();
  const cls = unfinished ? 'warn' : 'bad';
  const first = line(broken[0]);
  const rest = broken.length > 1 ? ` (and ${plural(broken.length - 1, 'more rule')} not met)` : '';
  setStatus(`${unfinished ? 'not solved yet: ' : ''}${first}${rest}`, cls);
  setMessages([...broken.map((v) => ({ text: line(v), cls })), ...emptyItems]);
}

// The player's entries that are not in the puzzle's only solution (the hint from the entries
// names them: `wrong`), [] when the entries fit it (the hint has a next step), or null when
// that cannot be told (no single solution, the time limit).
async function mistakes() {
  let h;
  try {
    h = await api('/api/hint', { puzzle: G.family, text: G.text, level: 'answer', solution: positionText(false) });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    return null;
  }
  if (h.wrong && h.wrong.length) return h.wrong;
  return h.text ? [] : null;
}

async function solve() {
  const res = await api('/api/solve', { puzzle: G.family, text: G.text });
  if (res.status !== 'solved') {
    const text = res.status === 'unsolvable' ? 'this puzzle has no solution...' : `the solver stopped: ${res.status}`;
    G.marks = noMarks();
    if (res.reason) for (const i of placeCells((res.reason.match(/r\d+c\d+/g) || []))) G.marks.bad.add(i);
    update();
    setStatus(text, 'bad');
    setMessages([{ text, cls: 'bad' }, ...(res.reason ? [{ text: res.reason, cls: 'bad' }] : [])]);
    return;
  }
  const rows = res.position ? res.position.trim().split('\n') : res.solution;
  const before = snapshot();
  const p = positionFrom(rows);
  // Dots and ✕ marks are kept where the solution leaves the cell empty.
  if (p.x && G.pos.x) for (const i of G.pos.x) if (!dirsOf(i, p)) p.x.add(i);
  if (p.s) G.pos.s.forEach((s, i) => { if (s === 2 && !p.s[i]) p.s[i] = 2; });
  record(before);
  G.pos = p;
  G.marks = noMarks();
  hideApply();
  changed(true);
  const text = `solved by the ${res.algorithm} algorithm (${timing(res.stats)})`;
  setStatus('solved', 'good');
  setMessages([{ text, cls: 'good' }]);
}

async function unique() {
  const res = await api('/api/count', { puzzle: G.family, text: G.text, limit: 2 });
  const d = describeCount(res);
  G.marks = noMarks();
  for (const i of placeCells(res.differences || [])) G.marks.diff.add(i);
  update();
  setStatus(d.text, d.cls);
  setMessages([{ text: d.text, cls: d.cls }, ...(d.extra ? [{ text: d.extra, cls: 'bad' }] : [])]);
}

// The setter's map (/api/forced, the same as `pencilbox forced`).
async function forced() {
  await showForced({ puzzle: G.family, text: G.text });
}

async function generate() {
  const info = FAMILIES[G.family];
  const g = info.generator;
  const rows = Number($('rows').value), cols = Number($('cols').value);
  const lo = g.min_side || 2, hi = g.max_side || 12;
  for (const [v, what] of [[rows, 'rows'], [cols, 'columns']]) {
    if (!Number.isInteger(v) || v < lo || v > hi) {
      setStatus(`the generator makes grids of ${lo} to ${hi} ${what}, not ${$(what === 'rows' ? 'rows' : 'cols').value}`, 'bad');
      return;
    }
  }
  if (g.max_cells && rows * cols > g.max_cells) {
    setStatus(`the ${info.title} generator makes grids of at most ${g.max_cells} cells, not ${rows}×${cols}`, 'bad');
    return;
  }
  const body = { puzzle: G.family, rows, cols, seed: Math.floor(Math.random() * 2 ** 31) };
  if (!$('gen-level-row').hidden && $('gen-level').value) body.difficulty = $('gen-level').value;
  // Path: the generator keeps every clue by default; half of them make a better puzzle.
  if ((g.settings || []).some((s) => s.key === 'clues')) body.settings = { clues: 50 };
  const res = await api('/api/generate', body);
  await openPuzzle(G.family, res.text, null, `generated (seed ${res.seed})`);
  $('level').value = '';
  const text = `a new ${body.difficulty ? `${body.difficulty} ` : ''}${rows}×${cols} puzzle (seed ${res.seed})`;
  setStatus(text, 'good');
  setMessages([{ text: `generated with seed ${res.seed}${res.unique ? '; exactly one solution' : ''}`, cls: 'good' }]);
}

async function pickLevel() {
  const i = $('level').value;
  if (i === '') return;
  const l = LEVELS[G.family][Number(i)];
  const restored = await openPuzzle(G.family, l.text, null, l.name);
  const uniq = l.unique ? ', exactly one solution' : '';
  setStatus(`${l.name}: ${l.rows}×${l.cols}, ${l.difficulty}${uniq}${restored ? ' (your progress is restored)' : ''}`, '');
  setMessages([]);
}

function clearEntries() {
  if (!hasEntries()) { setStatus('nothing to clear', ''); return; }
  record();
  G.pos = emptyPos(B());
  G.marks = noMarks();
  hideApply();
  G.elapsed = 0;
  G.since = null;
  changed();
  setStatus('your entries are cleared', '');
  setMessages([]);
}

// ---------------------------------------------------------------- hints and explanations

let lastHint = null;

async function askHint(level) {
  hideApply();
  const res = await api('/api/hint', { puzzle: G.family, text: G.text, level, solution: hasEntries() ? positionText(false) : undefined });
  G.marks = noMarks();
  if (!res.text) {
    // A position without solutions: the entries the solution does not have are marked.
    for (const i of placeCells((res.wrong || []).map((f) => f.cell))) G.marks.bad.add(i);
    for (const i of placeCells(res.cells || [])) G.marks.hint.add(i);
    update();
    setStatus(res.message || 'no hint', 'warn');
    setMessages([{ text: res.message || 'no hint', cls: 'bad' }]);
    return;
  }
  for (const i of placeCells(res.cells)) G.marks.hint.add(i);
  if (level === 'answer') markFacts(res.placed);
  update();
  const items = [{ text: res.text, cls: 'good' }];
  if (res.rule) items.push({ text: `rule: ${res.rule.name} (level ${res.rule.level})` });
  if (level === 'answer' && applicable(res).length) {
    lastHint = res;
    $('hint-apply').hidden = false;
    items.push({ text: 'press Apply to write it into the grid' });
  }
  setStatus(res.text, 'good');
  setMessages(items);
}

// The links of placed facts, shown on the board ("r2c3-r2c4": line or blank).
function markFacts(facts) {
  for (const f of facts || []) {
    const l = linkOf(f.cell);
    if (!l) continue;
    const [a, c] = l.map(([r, k]) => r * B().cols + k);
    G.marks.hintLinks.push([a, c, f.value === 'line']);
  }
}

// What a fact does to the position: a number, a shade, a line, a blank, a cell used or not.
function factChange(f) {
  const b = B(), p = G.pos;
  const i = indexOf(f.cell);
  if (i !== null) {
    if (p.v) {
      const d = Number(f.value);
      return Number.isInteger(d) && d > 0 && !b.givens[i] && !p.v[i] ? () => { p.v[i] = d; p.pm[i] = 0; } : null;
    }
    if (p.s) {
      const v = f.value === b.input.cells.yes ? 1 : f.value === b.input.cells.no ? 2 : null;
      return v !== null && p.s[i] !== v ? () => { p.s[i] = v; } : null;
    }
    if (p.x && f.value === 'unused' && !p.x.has(i) && !dirsOf(i)) return () => { p.x.add(i); };
    return null;
  }
  const l = linkOf(f.cell);
  if (!l || !p.l) return null;
  const [a, c] = l.map(([r, k]) => r * b.cols + k);
  const e = edgeId(a, c);
  if (e === null) return null;
  if (f.value === 'line' && !p.l.has(e)) return () => { setLine(a, c, true); };
  if (f.value === 'blank' && p.l.has(e)) return () => { p.l.delete(e); };
  return null;
}

// The hint's conclusions the board does not show yet (and, for numbers, the candidates it
// removes from the player's pencil marks).
function applicable(h) {
  const out = (h.placed || []).map(factChange).filter(Boolean);
  if (G.pos.pm) {
    for (const f of h.removed || []) {
      const i = indexOf(f.cell), d = Number(f.value);
      if (i !== null && G.pos.pm[i] >> d & 1) out.push(() => { G.pos.pm[i] &= ~(1 << d); });
    }
  }
  return out;
}

function applyHint() {
  if (!lastHint) return;
  const h = lastHint;
  const todo = applicable(h);
  hideApply();
  if (!todo.length) return;
  record();
  for (const f of todo) f();
  G.marks = noMarks();
  for (const i of placeCells(h.cells)) G.marks.hint.add(i);
  changed();
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

// A trial's chain, link by link on the board: the assumption, each fact with the rule that
// gave it, then the contradiction. The links so far are marked; the status line tells the
// current one.
function chainStepper(s, i) {
  const box = document.createElement('div');
  box.className = 'chain';
  box.hidden = true;
  const prev = document.createElement('button');
  prev.type = 'button';
  prev.className = 'chain-prev';
  prev.textContent = '◀';
  prev.title = 'Previous link of the chain';
  const next = document.createElement('button');
  next.type = 'button';
  next.className = 'chain-next';
  next.textContent = '▶';
  next.title = 'Next link of the chain';
  const at = document.createElement('span');
  at.className = 'chain-at';
  box.append(prev, at, next);
  const n = s.chain.length;
  // k = -1: the step itself; 0..n-1: the links; n: the contradiction.
  let k = -1;
  box.show = (to) => {
    k = Math.max(-1, Math.min(n, to));
    prev.disabled = k < 0;
    next.disabled = k >= n;
    if (k < 0) {
      at.textContent = `chain of ${n} link(s): press ▶`;
      return;
    }
    G.marks = noMarks();
    const upto = s.chain.slice(0, Math.min(k + 1, n));
    for (const c of placeCells(upto.map((l) => l.cell))) G.marks.hint.add(c);
    markFacts(upto.filter((l) => l.holds));
    update();
    if (k < n) {
      const l = s.chain[k];
      const fact = l.text || `${l.cell} ${l.holds ? '=' : '≠'} ${l.value}`;
      const why = l.rule === 'assume' ? 'assume' : l.rule.replace(/-/g, ' ');
      at.textContent = `${k + 1}/${n}: ${fact}`;
      setStatus(`step ${i + 1}, chain ${k + 1}/${n}: ${fact} (${why})`, 'good');
    } else {
      at.textContent = 'contradiction';
      setStatus(`step ${i + 1}, contradiction: ${s.contradiction || 'the rules fail'}`, 'warn');
    }
  };
  prev.onclick = (ev) => { ev.stopPropagation(); box.show(k - 1); };
  next.onclick = (ev) => { ev.stopPropagation(); box.show(k + 1); };
  return box;
}

async function showExplain() {
  const res = await api('/api/explain', { puzzle: G.family, text: G.text });
  const ol = $('explain-steps');
  ol.innerHTML = '';
  // Bookkeeping steps (a Path cell complete, a Suguru exclusion) are told with the step that
  // needs them (`folded_into`), not listed on their own.
  const folded = res.steps.map(() => []);
  res.steps.forEach((s) => { if (s.folded_into != null && folded[s.folded_into]) folded[s.folded_into].push(s); });
  let shownNo = 0;
  res.steps.forEach((s, i) => {
    if (s.folded_into != null && folded[s.folded_into]) return;
    const no = ++shownNo;
    const first = folded[i];
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
    if (first.length) {
      const f = document.createElement('div');
      f.className = 'step-folded';
      f.textContent = `first: ${first.map((x) => `${x.name} ${x.cells[0] || ''}: ${x.conclusion || x.text}`).join('; ')}`;
      b.append(f);
    }
    b.onclick = () => {
      for (const o of ol.querySelectorAll('button[aria-pressed="true"]')) o.setAttribute('aria-pressed', 'false');
      for (const o of ol.querySelectorAll('.chain')) o.hidden = true;
      b.setAttribute('aria-pressed', 'true');
      G.marks = noMarks();
      for (const x of [...first, s]) for (const c of placeCells(x.cells)) G.marks.hint.add(c);
      markFacts([...first.flatMap((x) => x.placed), ...s.placed]);
      update();
      setStatus(`step ${no}: ${s.name}: ${s.text}`, 'good');
      if (chain) { chain.hidden = false; chain.show(-1); }
    };
    li.append(b);
    const chain = s.chain && s.chain.length ? chainStepper(s, no - 1) : null;
    if (chain) li.append(chain);
    ol.append(li);
  });
  const status = { solved: 'solved by these steps', stalled: 'the rules stall here', 'no solution': 'no solution', timeout: 'stopped by the time limit' }[res.status] || res.status;
  const nFolded = res.steps.length - shownNo;
  const shown = res.truncated ? ` (the first ${res.steps.length} shown)` : '';
  const told = nFolded ? `, ${nFolded} bookkeeping step(s) told with the step that needs them` : '';
  $('explain-sub').textContent = `${res.steps_total - nFolded} step(s)${shown}${told}: ${status}. Tap a step to see its cells.`;
  $('explain-rating').textContent = ratingText(res.rating);
  $('explain-panel').hidden = false;
  setStatus(`${res.steps_total} explained step(s), ${ratingText(res.rating)}`, res.status === 'solved' ? 'good' : 'warn');
}

// ---------------------------------------------------------------- import, export, share

// Share links: `#FAMILY&t=TEXT&p=PROGRESS`, both base64url; the progress is optional.
function shareLink(withProgress) {
  let link = `${location.origin}${location.pathname}#${G.family}&t=${b64(G.text)}`;
  if (withProgress) link += `&p=${b64(JSON.stringify({ p: packPos(G.pos), t: Math.round(timerNow()) }))}`;
  return link;
}

function hashParts() {
  const [name, ...rest] = location.hash.replace(/^#/, '').split('&');
  const params = {};
  for (const kv of rest) { const k = kv.indexOf('='); if (k > 0) params[kv.slice(0, k)] = kv.slice(k + 1); }
  return { name, params };
}

function ioNote(text, isError) {
  $('io-error').textContent = text;
  $('io-error').className = isError ? 'error' : 'note';
}

// puzz.link's genre names where they differ from the family's.
const PUZZLINK = { mashu: 'masyu', masyu: 'masyu', pathpuzzle: 'path', sudoku: 'sudoku', suguru: 'suguru', ripple: 'ripple', hakyuu: 'ripple', starbattle: 'starbattle', nurikabe: 'nurikabe' };

// Reads a puzzle in any form its family reads (file format, JSON, puzz.link URL) as the file
// format: the family named by a URL, else `family`, else the first family that reads it.
async function readPuzzle(text, family) {
  const genre = (text.match(/\?([a-z]+)\//) || [])[1];
  const named = genre && (PUZZLINK[genre] || (FAMILIES[genre] ? genre : null));
  const tries = [...new Set([named, family, ...ORDER].filter((f) => f && FAMILIES[f]))];
  let first = null;
  for (const f of tries) {
    try {
      const res = await api('/api/convert', { puzzle: f, text, to: 'text' });
      return { family: f, text: res.text };
    } catch (e) {
      if (e.name === 'AbortError') throw e;
      if (!first) first = e;
      if (named && f === named) break;
    }
  }
  throw first || new Error('no family reads this puzzle');
}

function initDialogs() {
  $('guide-btn').onclick = () => $('guide').showModal();
  $('export').onclick = () => {
    $('io-text').value = G.text;
    ioNote('', false);
    $('io').showModal();
  };
  $('io-close').onclick = () => $('io').close();
  $('io-load').onclick = async () => {
    try {
      const r = await readPuzzle($('io-text').value, G.family);
      const restored = await openPuzzle(r.family, r.text);
      $('io').close();
      setStatus('', '');
      setMessages([{ text: restored ? 'puzzle loaded, with your saved progress' : 'puzzle loaded', cls: 'good' }]);
    } catch (e) {
      ioNote(e.message, true);
    }
  };
  $('io-url').onclick = async () => {
    try {
      const res = await api('/api/convert', { puzzle: G.family, text: G.text, to: 'url' });
      $('io-text').value = res.text;
      ioNote('a puzz.link-style URL of this puzzle', false);
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
    a.download = `${G.family}.txt`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
}

// `/?url=PUZZ_LINK_URL` and `#FAMILY&t=TEXT&p=PROGRESS`: true if the address opened a puzzle.
async function openFromAddress() {
  const query = new URLSearchParams(location.search);
  const { name, params } = hashParts();
  try {
    if (query.get('url')) {
      const url = query.get('url');
      const r = await readPuzzle(url, FAMILIES[name] ? name : null);
      const restored = await openPuzzle(r.family, r.text);
      setStatus(`opened ${url}${restored ? ' (with your saved progress)' : ''}`, 'good');
      history.replaceState(null, '', `${location.pathname}#${r.family}`);
      return true;
    }
    if (params.t && FAMILIES[name]) {
      const text = unb64(decodeURIComponent(params.t));
      const progress = params.p ? JSON.parse(unb64(decodeURIComponent(params.p))) : null;
      const restored = await openPuzzle(name, text, progress);
      history.replaceState(null, '', `${location.pathname}#${name}`);
      setStatus(`opened a shared puzzle${restored ? ' with its progress' : ''}`, 'good');
      return true;
    }
  } catch (e) {
    const text = `the address does not open a puzzle: ${e.message}`;
    setStatus(text, 'bad');
    setMessages([{ text, cls: 'bad' }]);
  }
  return false;
}

// The first puzzle of a tab: the last one played there (with its progress), else its first
// bundled level, else a generated one.
async function openTab(family) {
  if (GAMES[family] && GAMES[family].board) {
    showGame(family);
    setStatus('', '');
    setMessages([]);
    return;
  }
  GAMES[family] = GAMES[family] || newGame(family);
  showGame(family);
  setStatus('', '');
  setMessages([]);
  const last = lastPuzzle(family);
  if (last && last.text) {
    try {
      const restored = await openPuzzle(family, last.text, null, last.level || '');
      setStatus(restored ? 'welcome back: your last puzzle, with your progress' : 'welcome back: your last puzzle', '');
      return;
    } catch (_) { /* no longer readable: a fresh puzzle */ }
  }
  const levels = LEVELS[family] || [];
  if (levels.length) {
    $('level').value = '0';
    await pickLevel();
    return;
  }
  if ((FAMILIES[family].features || []).includes('generate')) {
    const g = FAMILIES[family].generator;
    const side = Math.min(6, g.default_size[0]);
    $('rows').value = String(side);
    $('cols').value = String(Math.min(6, g.default_size[1]));
    // The easiest difficulty: a tab's first puzzle comes quickly and surely.
    if ($('gen-level').options.length) $('gen-level').selectedIndex = 0;
    await run($('generate'), generate);
  }
}

async function loadFamilies() {
  try {
    const res = await api('/api/puzzles');
    Object.assign(limits, await api('/api/limits'));
    const lv = await api('/api/levels');
    for (const l of lv.levels || []) (LEVELS[l.puzzle] || (LEVELS[l.puzzle] = [])).push(l);
    const tabs = $('tabs');
    tabs.innerHTML = '';
    const list = res.puzzles.slice();
    // Suguru, the first family of the playground, first; the others in the API's order.
    list.sort((a, b) => (b.name === 'suguru') - (a.name === 'suguru'));
    for (const p of list) {
      FAMILIES[p.name] = p;
      ORDER.push(p.name);
      const t = document.createElement('button');
      t.className = 'tab';
      t.id = `tab-${p.name}`;
      t.dataset.family = p.name;
      t.setAttribute('role', 'tab');
      t.setAttribute('aria-selected', 'false');
      t.textContent = p.title.replace(/ puzzles$/, '');
      t.onclick = () => run(null, () => openTab(p.name));
      tabs.append(t);
    }
  } catch (e) {
    setStatus(workerApi ? e.message : `cannot reach the pencilbox server: ${e.message}`, 'bad');
    return false;
  }
  return true;
}

// ---------------------------------------------------------------- Creative Mode

// Creative Mode edits the puzzle itself, as the board's `edit` says the family allows: givens
// (numbers, texts such as `?`, pearls), regions drawn by dragging, clues outside the grid,
// doors on the frame, a new empty grid. The page edits a draft of the board and the family
// writes it as its text (`POST /api/compose`), which is then opened as any puzzle is.
let creativeGesture = null;

function draftOf(b) {
  return {
    rows: b.rows, cols: b.cols, givens: b.givens.map((g) => (g ? { ...g } : null)), regions: b.regions.slice(),
    top: b.top.slice(), left: b.left.slice(), doors: b.doors.map((d) => ({ ...d, cell: d.cell.slice() })),
  };
}

function setMode(creative) {
  if (creative && !(G.board && G.board.edit)) return;
  G.creative = creative;
  G.sel = null;
  G.selClue = null;
  G.ctool = G.ctool || creativeTools()[0][0];
  press('mode-play', !creative);
  press('mode-creative', creative);
  G.marks = noMarks();
  hideApply();
  creativeButtons();
  toolsRender();
  $('tools').hidden = creative;
  $('keys-hint').innerHTML = keysHint();
  timerSync();
  update();
  setStatus(creative ? 'Creative Mode: edit the puzzle itself' : 'Play Mode', '');
  setMessages([]);
}

function creativeTools() {
  const e = (G.board && G.board.edit) || {};
  const tools = [];
  if (e.numbers || (e.texts || []).length || e.pearls) tools.push(['given', e.pearls ? 'Pearls' : 'Givens', e.pearls ? 'a tap cycles a cell: white pearl, black pearl, none' : 'tap a cell, then type or tap its number']);
  if (e.ends) tools.push(['given', 'Ends', 'a tap cycles a cell: end, white circle, none']);
  if (e.regions) tools.push(['region', 'Draw Region', 'press and drag over cells to make a new region']);
  for (const d of e.doors || []) tools.push([`door-${d}`, `Door ${d}`, `tap a cell on the frame to put door ${d} there`]);
  return tools;
}

function creativeButtons() {
  const on = !!(G && G.creative);
  const box = $('creative-tools');
  box.innerHTML = '';
  box.hidden = !on;
  $('new-grid').hidden = !on;
  $('clear-regions').hidden = !on || !(G.board.edit && G.board.edit.regions);
  $('clear-givens').hidden = !on;
  $('clear').hidden = on;
  if (!on) return;
  for (const [id, label, title] of creativeTools()) {
    const btn = document.createElement('button');
    btn.className = 'tool-btn';
    btn.id = `ctool-${id}`;
    btn.textContent = label;
    btn.title = title;
    btn.setAttribute('aria-pressed', String(G.ctool === id));
    btn.onclick = () => { G.ctool = id; creativeButtons(); };
    box.append(btn);
  }
}

// Writes a draft as the family's text and opens it (in Creative Mode); edits queue, one at
// a time, in order. A draft the family refuses is said, and the puzzle stays as it was.
let composing = Promise.resolve();
function compose(edit, what) {
  const game = G;
  composing = composing.then(async () => {
    if (G !== game) return;
    const draft = draftOf(B());
    edit(draft);
    try {
      const res = await api('/api/compose', { puzzle: G.family, text: G.text, board: draft });
      if (res.text === G.text) { update(); return; }
      G.cundo = G.cundo || [];
      G.cundo.push(G.text);
      G.credo = [];
      await reopen(res.text);
      if (what) setStatus(what, '');
    } catch (e) {
      setStatus(e.message, 'bad');
      setMessages([{ text: e.message, cls: 'bad' }]);
      update();
    }
  });
  return composing;
}

// Opens an edited text in the open tab, staying in Creative Mode with the selection.
async function reopen(text) {
  const keep = { sel: G.sel, selClue: G.selClue, ctool: G.ctool, cundo: G.cundo, credo: G.credo };
  await openPuzzle(G.family, text, null, '');
  Object.assign(G, keep);
  G.creative = true;
  features();
  creativeButtons();
  $('tools').hidden = true;
  $('keys-hint').innerHTML = keysHint();
  update();
}

async function creativeTravel(from, to, done, none) {
  if (!G[from] || !G[from].length) { setStatus(none, ''); return; }
  G[to] = G[to] || [];
  G[to].push(G.text);
  const text = G[from].pop();
  const keep = [G.cundo, G.credo];
  await reopen(text);
  [G.cundo, G.credo] = keep;
  setStatus(done, '');
}

function creativeDown(ev, h) {
  const b = B();
  // A clue box outside the grid: select it to type its clue.
  const clue = ev.target.closest && ev.target.closest('[data-clue]');
  if (clue && b.edit.clues) {
    G.selClue = clue.dataset.clue;
    G.sel = null;
    update();
    setStatus(`${G.selClue.replace(/(\d+)$/, ' $1').replace('col', 'column')}: type its clue (Backspace clears)`, '');
    return;
  }
  if (!h || h.i === null) return;
  G.selClue = null;
  const tool = G.ctool;
  if (tool === 'region') {
    creativeGesture = { id: ev.pointerId, cells: [h.i] };
    G.sel = null;
    paintRegion([h.i]);
    return;
  }
  if (tool && tool.startsWith('door-')) {
    const label = tool.slice(5);
    const r = Math.floor(h.i / b.cols), c = h.i % b.cols;
    if (r && c && r + 1 < b.rows && c + 1 < b.cols) { setStatus('a door goes on a cell of the frame', 'warn'); return; }
    const side = c === 0 ? 'w' : c + 1 === b.cols ? 'e' : r === 0 ? 'n' : 's';
    compose((d) => {
      d.doors = d.doors.filter((x) => x.label !== label);
      d.doors.push({ cell: [r, c], side, label });
      d.doors.sort((x, y) => x.label.localeCompare(y.label));
    }, `door ${label} at ${cellName(h.i)}`);
    return;
  }
  G.sel = h.i;
  if (b.edit.pearls) {
    const g = b.givens[h.i];
    const next = !g ? { kind: 'pearl', black: false } : !g.black ? { kind: 'pearl', black: true } : null;
    compose((d) => { d.givens[h.i] = next; });
    return;
  }
  if (b.edit.ends) {
    const g = b.givens[h.i];
    const next = !g ? { kind: 'end' } : g.kind === 'end' ? { kind: 'pearl', black: false } : null;
    compose((d) => { d.givens[h.i] = next; });
    return;
  }
  update();
}

// While a region is drawn, the dragged cells are outlined; the region is made on release.
function paintRegion(cells) {
  G.layers.sel.querySelectorAll('.drawing').forEach((e) => e.remove());
  for (const i of cells) {
    const [cx, cy] = centre(i);
    svg('rect', { x: cx - U / 2 + 2, y: cy - U / 2 + 2, width: U - 4, height: U - 4, class: 'sel drawing' }, G.layers.sel);
  }
}

function creativeMove(ev) {
  if (ev.pointerId !== creativeGesture.id) return;
  const h = hit(ev);
  if (!h || h.i === null || creativeGesture.cells.includes(h.i)) return;
  creativeGesture.cells.push(h.i);
  paintRegion(creativeGesture.cells);
}

function creativeUp(ev) {
  if (ev.pointerId !== creativeGesture.id) return;
  const cells = creativeGesture.cells;
  creativeGesture = null;
  if (ev.type === 'pointercancel') { update(); return; }
  compose((d) => {
    const label = Math.max(0, ...d.regions) + 1;
    if (!d.regions.length) d.regions = new Array(d.rows * d.cols).fill(1);
    for (const i of cells) d.regions[i] = label;
  }, `a region of ${plural(cells.length, 'cell')}`);
}

let ctyped = { key: '', at: 0 };

// Types a given (or a clue): digits make a number (two digits in a row make one number
// when the puzzle takes them), `?` a text the family allows, Backspace or 0 clears.
function creativeType(k) {
  const b = B(), e = b.edit;
  const now = performance.now();
  const target = G.selClue ? `clue:${G.selClue}` : G.sel !== null ? `cell:${G.sel}` : null;
  if (!target) { setStatus('tap a cell (or a clue) first', 'warn'); return true; }
  let value;
  if (k === 'Backspace' || k === 'Delete' || k === '0' && !(ctyped.key === target && now - ctyped.at < 1200)) value = null;
  else if (/^[0-9]$/.test(k)) {
    const cur = G.selClue ? clueValue(G.selClue) : (b.givens[G.sel] && b.givens[G.sel].kind === 'number' ? b.givens[G.sel].value : 0);
    value = ctyped.key === target && now - ctyped.at < 1200 && cur ? cur * 10 + Number(k) : Number(k);
  } else if ((e.texts || []).includes(k) && !G.selClue) value = k;
  else return false;
  ctyped = { key: target, at: now };
  if (G.selClue) {
    const [, kind, n] = /^(row|col)(\d+)$/.exec(G.selClue);
    compose((d) => { (kind === 'row' ? d.left : d.top)[Number(n) - 1] = value === null ? '' : String(value); });
    return true;
  }
  if (typeof value === 'number' && e.numbers && value > e.numbers) { setStatus(`a given is at most ${e.numbers}`, 'warn'); return true; }
  if (typeof value === 'number' && !e.numbers) return false;
  const i = G.sel;
  compose((d) => { d.givens[i] = value === null ? null : typeof value === 'number' ? { kind: 'number', value } : { kind: 'text', text: value }; });
  return true;
}

function clueValue(name) {
  const [, kind, n] = /^(row|col)(\d+)$/.exec(name);
  return Number((kind === 'row' ? B().left : B().top)[Number(n) - 1]) || 0;
}

function creativeKey(ev) {
  const b = B();
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (arrows[ev.key]) {
    const [dr, dc] = arrows[ev.key];
    const cur = G.sel !== null ? G.sel : 0;
    const r = Math.min(b.rows - 1, Math.max(0, Math.floor(cur / b.cols) + dr));
    const c = Math.min(b.cols - 1, Math.max(0, (cur % b.cols) + dc));
    G.sel = G.sel === null ? 0 : r * b.cols + c;
    G.selClue = null;
    update();
    return true;
  }
  return creativeType(ev.key);
}

// A new empty grid of the size asked for (Creative Mode).
function newGrid() {
  const rows = Number($('rows').value), cols = Number($('cols').value);
  const side = Math.min(limits.max_side || 60, (limits.families[G.family] || {}).max_side || 60);
  for (const [v, what] of [[rows, 'rows'], [cols, 'columns']]) {
    const typed = $(what === 'rows' ? 'rows' : 'cols').value;
    if (typed.trim() === '' || !Number.isFinite(v)) { setStatus(`the ${what} field is empty or not a number`, 'bad'); return; }
    if (!Number.isInteger(v) || v < 1 || v > side) { setStatus(`a grid has 1 to ${side} ${what}, not ${typed}`, 'bad'); return; }
  }
  if (rows * cols > limits.max_cells) { setStatus(`a grid has at most ${limits.max_cells} cells, not ${rows}×${cols} = ${rows * cols}`, 'bad'); return; }
  compose((d) => {
    d.rows = rows;
    d.cols = cols;
    d.givens = new Array(rows * cols).fill(null);
    d.regions = B().regions.length ? new Array(rows * cols).fill(1) : [];
    d.top = B().top.length ? new Array(cols).fill('') : [];
    d.left = B().left.length ? new Array(rows).fill('') : [];
    // A puzzle with doors needs them (Path): the first at the top left, the second at the
    // bottom right, for the setter to move.
    const corners = [[[0, 0], 'w'], [[rows - 1, cols - 1], 'e']];
    d.doors = ((B().edit && B().edit.doors) || []).slice(0, 2).map((label, k) => ({ cell: corners[k][0], side: corners[k][1], label }));
  }, `a new empty ${rows}×${cols} grid`);
}

// ---------------------------------------------------------------- start

function initControls() {
  const b = (id, fn) => { $(id).onclick = (e) => run(e.currentTarget, fn); };
  b('check', check);
  b('solve', solve);
  b('unique', unique);
  b('forced', forced);
  b('generate', generate);
  b('explain', showExplain);
  for (const level of ['nudge', 'rule', 'answer']) b(`hint-${level}`, () => askHint(level));
  $('hint-apply').onclick = applyHint;
  $('clear').onclick = clearEntries;
  $('undo').onclick = () => (G && G.creative ? creativeTravel('cundo', 'credo', 'undone', 'nothing to undo') : undo());
  $('redo').onclick = () => (G && G.creative ? creativeTravel('credo', 'cundo', 'redone', 'nothing to redo') : redo());
  $('level').onchange = () => run(null, pickLevel);
  $('pad-pencil').onclick = () => { G.pencil = !G.pencil; padRender(); };
  $('pad-erase').onclick = () => (G.creative ? creativeType('Backspace') : setNumber(G.sel, 0));
  $('timer').onclick = togglePause;
  $('explain-close').onclick = closeExplain;
  $('zoom-in').onclick = () => setZoom(zoom * 1.5);
  $('zoom-out').onclick = () => setZoom(zoom / 1.5);
  $('zoom-fit').onclick = () => setZoom(1);
  $('mode-play').onclick = () => setMode(false);
  $('mode-creative').onclick = () => setMode(true);
  $('new-grid').onclick = newGrid;
  $('clear-regions').onclick = () => compose((d) => { d.regions = d.regions.map(() => 1); }, 'regions cleared');
  $('clear-givens').onclick = () => compose((d) => {
    d.givens = d.givens.map(() => null);
    d.top = d.top.map(() => '');
    d.left = d.left.map(() => '');
  }, 'all givens removed');
  const board = $('board');
  board.addEventListener('pointerdown', onPointerDown);
  board.addEventListener('pointermove', onPointerMove);
  board.addEventListener('pointerup', onPointerUp);
  board.addEventListener('pointercancel', onPointerUp);
  board.addEventListener('focus', () => update());
  board.addEventListener('blur', () => update());
  document.addEventListener('keydown', onKey);
  window.addEventListener('resize', () => { if (G && G.board) layout(); });
  // Saved when the page is hidden or closed (and at every change before).
  document.addEventListener('visibilitychange', () => { timerSync(); save(); });
  window.addEventListener('pagehide', () => { timerSync(); save(); });
  setInterval(() => { if (G && G.since !== null) timerShow(); }, 1000);
  // The dock's height (fixed at the bottom of a phone's screen) is kept free below the page.
  if (window.ResizeObserver) {
    new ResizeObserver(() => {
      document.documentElement.style.setProperty('--dock-height', `${$('dock').offsetHeight}px`);
      if (G && G.board) layout();
    }).observe($('dock'));
  }
}

window.addEventListener('DOMContentLoaded', async () => {
  initControls();
  initDialogs();
  // The static build's service worker: every file cached, so the page works offline and
  // installs as an app (not under `pencilbox serve`, whose config names none).
  if (CONFIG.serviceWorker && 'serviceWorker' in navigator) {
    navigator.serviceWorker.register(CONFIG.serviceWorker).catch((e) => console.warn(`no offline copy: ${e.message}`));
  }
  window.addEventListener('hashchange', async () => {
    if (!ready || await openFromAddress()) return;
    const { name } = hashParts();
    if (FAMILIES[name] && (!G || name !== G.family)) run(null, () => openTab(name));
  });
  if (await loadFamilies()) {
    ready = true;
    if (!(await openFromAddress())) {
      const { name } = hashParts();
      let start = FAMILIES[name] ? name : null;
      try { start = start || (storage() && storage().getItem('pencilbox:tab')); } catch (_) { /* ignore */ }
      if (!FAMILIES[start]) start = ORDER[0];
      await run(null, () => openTab(start));
    }
  }
  document.body.dataset.ready = 'true';
  performance.mark('pencilbox:ready');
});
