// pencilbox playground: vanilla JavaScript, no build step, no external files.
// Views: Suguru (the Interactive Suguru Playground manual's features and more), Path, Sudoku.
// Every solve, count, check and deduction is done by the pencilbox server's JSON API.
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';
const server = { puzzles: {}, limits: {} };
let view = 'suguru';

// ---------------------------------------------------------------- helpers

async function api(path, body) {
  const init = body === undefined ? { method: 'GET' } : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
  const res = await fetch(path, init);
  let data;
  try { data = await res.json(); } catch (_) { data = { error: `the server answered HTTP ${res.status}` }; }
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
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
async function run(btn, fn) {
  if (btn) btn.disabled = true;
  document.body.style.cursor = 'progress';
  try {
    await fn();
  } catch (e) {
    setStatus(e.message, 'bad');
    setMessages([{ text: e.message, cls: 'bad' }]);
  } finally {
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
    text: `${manualName(f.at)} = ${f.value}: ${f.by === 'rules' ? 'rules (' + ((f.rules || []).join(', ') || 'the puzzle\'s sizes') + ')' : 'only by search'}`,
  }));
  if (cells.length > items.length) items.push({ text: `... and ${cells.length - items.length} more` });
  if (!res.complete) items.push({ text: `${(res.undecided || []).length} undecided when the time ran out`, cls: 'warn' });
  setMessages([{ text: summary, cls }, ...items]);
}

// "r3c4" -> [2, 3] (0-based), or null.
function cellOf(name) {
  const m = /^r(\d+)c(\d+)$/.exec(String(name).trim());
  return m ? [Number(m[1]) - 1, Number(m[2]) - 1] : null;
}

// "r3c4" -> "cell (3, 4)", the manual's way of naming a cell.
function manualName(name) {
  const rc = cellOf(name);
  return rc ? `cell (${rc[0] + 1}, ${rc[1] + 1})` : name;
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

function tokens(text) {
  return text.split(/\s+/).filter((t) => t.length > 0);
}

function intToken(tok, what) {
  if (!/^-?\d+$/.test(tok || '')) throw new Error(`${what}: expected a whole number, found "${tok === undefined ? 'end of text' : tok}"`);
  return Number(tok);
}

// Eight clearly different pastel hues; touching regions get different ones (regionColours).
const PALETTE = ['#fbd5dc', '#d4e4fb', '#d3f2dc', '#fdf0c2', '#e4dcfb', '#fde0c8', '#cdf0f4', '#e7e9ed'];

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
  levels: [], geom: null, history: [],
};

// Undo: snapshots of the grid taken before each change (at most 200).
function sgSnapshot() {
  sg.history.push(JSON.stringify({ m: sg.m, n: sg.n, label: sg.label, given: sg.given, value: sg.value, solved: [...sg.solved] }));
  if (sg.history.length > 200) sg.history.shift();
}

function sgUndo() {
  const snap = sg.history.pop();
  if (!snap) { setStatus('nothing to undo', 'warn'); return; }
  const st = JSON.parse(snap);
  Object.assign(sg, { m: st.m, n: st.n, label: st.label, given: st.given, value: st.value, solved: new Set(st.solved) });
  if (sg.sel >= sg.m * sg.n) sg.sel = 0;
  sgClearMarks();
  setStatus('undone', '');
  sgRender();
}

function sgReset(m, n) {
  sg.history = [];
  sg.m = m; sg.n = n;
  sg.label = new Array(m * n).fill(0);
  sg.given = new Array(m * n).fill(0);
  sg.value = new Array(m * n).fill(0);
  sg.sel = 0;
  sgClearMarks();
}

// Reports a /api/verify answer for any family: marks each violated cell in `bad` (at
// `index(row, col)`) and shows `praise` when the grid is valid, else the number of unmet
// constraints and one line per violation (`line(v)`, by default "where: what").
function reportCheck(res, bad, index, praise, line = (v) => `${v.at}: ${v.message}`) {
  for (const v of res.violations) {
    const rc = cellOf(v.at);
    if (rc) bad.add(index(rc[0], rc[1]));
  }
  if (res.valid) {
    setStatus(praise, 'good');
    setMessages([{ text: praise, cls: 'good' }]);
  } else {
    const summary = `there are ${res.violations.length} constraint(s) not met`;
    setStatus(summary, 'bad');
    setMessages([{ text: summary, cls: 'bad summary' }, ...res.violations.map((v) => ({ text: line(v), cls: 'bad' }))]);
  }
}

function sgClearMarks() {
  sg.bad = new Set(); sg.hint = new Set(); sg.diff = new Set();
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
  for (const [set, cls] of [[sg.diff, 'diffcell'], [sg.hint, 'hintcell'], [sg.bad, 'badcell']]) {
    for (const c of set) svg('rect', { x: (c % n) * cs, y: Math.floor(c / n) * cs, width: cs, height: cs, class: cls }, g);
  }
  for (let r = 1; r < m; r++) svg('line', { x1: 0, y1: r * cs, x2: n * cs, y2: r * cs, class: 'grid-line' }, g);
  for (let k = 1; k < n; k++) svg('line', { x1: k * cs, y1: 0, x2: k * cs, y2: m * cs, class: 'grid-line' }, g);
  for (let r = 0; r < m; r++) {
    for (let k = 0; k < n; k++) {
      const c = r * n + k;
      if (k + 1 < n && reg.id[c] !== reg.id[c + 1]) svg('line', { x1: (k + 1) * cs, y1: r * cs, x2: (k + 1) * cs, y2: (r + 1) * cs, class: 'region-line' }, g);
      if (r + 1 < m && reg.id[c] !== reg.id[c + n]) svg('line', { x1: k * cs, y1: (r + 1) * cs, x2: (k + 1) * cs, y2: (r + 1) * cs, class: 'region-line' }, g);
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
  $('board-sub').textContent = `${m}×${n}, ${reg.count} regions · ${sg.mode === 'play' ? 'Play Mode' : 'Creative Mode'}`;
  root.addEventListener('pointerdown', sgPointerDown);
  root.addEventListener('pointermove', sgPointerMove);
  root.addEventListener('pointerup', sgPointerUp);
  root.addEventListener('pointercancel', sgPointerUp);
}

function sgPointerDown(ev) {
  const rc = cellAt(ev.currentTarget, ev, sg.geom);
  if (!rc) return;
  const c = rc[0] * sg.n + rc[1];
  $('board').focus();
  if (sg.tool === 'region' && sg.mode === 'creative') {
    sgSnapshot();
    const label = Math.max(0, ...sg.label) + 1;
    sg.drawing = { label };
    sg.label[c] = label;
    ev.currentTarget.setPointerCapture(ev.pointerId);
    sgClearMarks();
    sg.solved = new Set();
    sgRender();
    return;
  }
  sg.sel = c;
  sg.typed = { cell: -1, at: 0 };
  sgRender();
}

function sgPointerMove(ev) {
  if (!sg.drawing) return;
  const rc = cellAt(ev.currentTarget, ev, sg.geom);
  if (!rc) return;
  const c = rc[0] * sg.n + rc[1];
  if (sg.label[c] === sg.drawing.label) return;
  sg.label[c] = sg.drawing.label;
  const cap = ev.pointerId;
  sgRender();
  // The board was redrawn: keep the pointer captured by the new drawing.
  try { $('sg-svg').setPointerCapture(cap); } catch (_) { /* pointer already released */ }
}

function sgPointerUp() {
  if (!sg.drawing) return;
  sg.drawing = null;
  setStatus(`${sgRegions().count} regions`, '');
}

function sgSetNumber(c, v) {
  if (sg.mode === 'play') {
    if (sg.given[c]) { setStatus('given numbers are fixed in Play Mode (switch to Creative Mode to change them)', 'warn'); return; }
    sgSnapshot();
    sg.value[c] = v;
  } else {
    sgSnapshot();
    sg.given[c] = v;
    sg.value[c] = 0;
  }
  sg.solved.delete(c);
  sgClearMarks();
  sgRender();
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
  $('sg-play').classList.toggle('active', mode === 'play');
  $('sg-creative').classList.toggle('active', mode === 'creative');
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
  $('sg-draw').classList.toggle('active', tool === 'region');
  $('sg-fill').classList.toggle('active', tool === 'fill');
  $('board').style.cursor = tool === 'region' ? 'crosshair' : 'pointer';
}

async function sgCheck() {
  const res = await api('/api/verify', { puzzle: sg.family, text: sgText(), solution: sgSolutionText() });
  sgClearMarks();
  // The verifier's messages are the manual's ("cell (3, 1) shares a number with ...").
  reportCheck(res, sg.bad, (r, c) => r * sg.n + c, 'your configuration is correct, well done.',
    (v) => (v.message.startsWith('cell (') ? v.message : `${manualName(v.at)}: ${v.message}`));
  sgRender();
}

async function sgSolve() {
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
  } else if (res.status === 'unsolvable') {
    setStatus('this puzzle has no solution...', 'bad');
    const items = [{ text: 'this puzzle has no solution...', cls: 'bad summary' }];
    if (res.reason) items.push({ text: res.reason, cls: 'bad' });
    setMessages(items);
  } else {
    setStatus('the time limit was reached before a solution was found', 'warn');
    setMessages([{ text: `stopped by the server's time limit (${timing(res.stats)})`, cls: 'bad' }]);
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

async function sgHint() {
  const res = await api('/api/hint', { puzzle: sg.family, text: sgText(), solution: sgSolutionText() });
  sgClearMarks();
  if (res.cell) {
    const rc = cellOf(res.cell);
    if (rc) { sg.hint.add(rc[0] * sg.n + rc[1]); sg.sel = rc[0] * sg.n + rc[1]; }
    const text = `${manualName(res.cell)} must be ${res.value}: ${res.reason}`;
    setStatus(text, 'good');
    setMessages([{ text, cls: 'good' }]);
  } else {
    setStatus(res.message || 'no hint', 'warn');
    setMessages([{ text: res.message || 'no hint', cls: 'bad' }]);
  }
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
  if (view !== 'suguru') return;
  const uniq = l.unique ? ', exactly one solution' : '';
  setStatus(`${l.name}: ${l.rows}×${l.cols}, ${l.difficulty}${uniq}`, '');
  setMessages([]);
}

async function sgGenerate() {
  const difficulty = $('sg-gen-level').hidden ? undefined : $('sg-gen-level').value;
  const rows = Math.max(2, Math.min(10, Number($('sg-rows').value) || 6));
  const cols = Math.max(2, Math.min(10, Number($('sg-cols').value) || 6));
  const seed = Math.floor(Math.random() * 2 ** 31);
  const res = await api('/api/generate', { puzzle: sg.family, rows, cols, difficulty, seed });
  sgLoad(res.text);
  sgSetMode('play');
  setStatus(`a new ${difficulty ? `${difficulty} ` : ''}${rows}×${cols} puzzle (seed ${seed})`, 'good');
  setMessages([{ text: `generated with seed ${seed}${res.unique ? '; exactly one solution' : ''}`, cls: 'good' }]);
}

// The region families the board plays (those the server offers among these).
const REGION_FAMILIES = ['suguru', 'ripple'];
const REGION_TITLES = { suguru: 'Suguru', ripple: 'Ripple Effect' };

// Switches the rules of the region board: the title, and the buttons the family's server
// features allow (the hint and the levels are Suguru's; generate is every family's that has one).
function sgSetFamily(family) {
  sg.family = family;
  $('sg-family').value = family;
  const has = (f) => (server.puzzles[family]?.features || []).includes(f);
  $('sg-hint').hidden = !has('hint');
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
    const max = server.limits.max_side || 60;
    const m = Math.max(1, Math.min(max, Number($('sg-rows').value) || 1));
    const n = Math.max(1, Math.min(max, Number($('sg-cols').value) || 1));
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
  $('sg-hint').onclick = (e) => run(e.currentTarget, sgHint);
  $('sg-generate').onclick = (e) => run(e.currentTarget, sgGenerate);
  $('sg-clear-regions').onclick = () => {
    sgSnapshot();
    sg.label.fill(0); sgClearMarks(); sg.solved = new Set(); setStatus('all regions removed', ''); sgRender();
  };
  $('sg-empty').onclick = () => {
    sgSnapshot();
    if (sg.mode === 'creative') sg.given.fill(0);
    sg.value.fill(0); sg.solved = new Set(); sgClearMarks();
    setStatus(sg.mode === 'creative' ? 'all cells emptied' : 'your numbers were removed (the givens stay)', '');
    sgRender();
  };
  $('sg-level').onchange = sgPickLevel;
  $('sg-undo').onclick = sgUndo;
  sgSetTool('fill');
  sgSetMode('creative');
}

// ---------------------------------------------------------------- Path

const pt = {
  m: 6, n: 6, a: [5, 0], b: [5, 5], row: [], col: [], route: [],
  mode: 'play', tool: 'path', solved: false, selClue: null, bad: new Set(), diff: new Set(), edits: 0, visited: false,
  drag: false, geom: null,
};

function ptReset(m, n) {
  pt.edits++;
  pt.m = m; pt.n = n;
  pt.a = [m - 1, 0]; pt.b = [m - 1, n - 1];
  pt.row = new Array(m).fill(-1); pt.col = new Array(n).fill(-1);
  pt.route = []; pt.solved = false; pt.bad = new Set(); pt.diff = new Set(); pt.selClue = null;
}

const ptIdx = (r, c) => r * pt.n + c;
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
  if (m < 1 || n < 1 || m > 30 || n > 30) throw new Error(`the playground draws Path grids of 1 to 30 rows and columns, found ${m}×${n}`);
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
  for (const c of pt.route) { used.row[Math.floor(c / n)]++; used.col[c % n]++; }
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
  for (const [set, cls] of [[pt.diff, 'diffcell'], [pt.bad, 'badcell']]) {
    for (const c of set) svg('rect', { x: (c % n) * cs, y: Math.floor(c / n) * cs, width: cs, height: cs, class: cls }, g);
  }
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
  const len = pt.route.length;
  $('board-sub').textContent = `${m}×${n} · path of ${len} cell${len === 1 ? '' : 's'} · ${pt.mode === 'play' ? 'Play Mode' : 'Creative Mode'}`;
  root.addEventListener('pointerdown', ptPointerDown);
  root.addEventListener('pointermove', ptPointerMove);
  root.addEventListener('pointerup', () => { pt.drag = false; });
  root.addEventListener('pointercancel', () => { pt.drag = false; });
}

function ptSelectClue(kind, i) {
  if (pt.mode !== 'creative') { setStatus('clues are fixed in Play Mode (switch to Creative Mode to edit them)', 'warn'); return; }
  pt.selClue = { kind, i, typedAt: 0 };
  setStatus(`type the ${kind === 'row' ? 'row' : 'column'} ${i + 1} clue; Backspace removes it`, '');
  ptRender();
  $('board').focus();
}

function ptChanged() { pt.edits++; pt.solved = false; pt.bad = new Set(); pt.diff = new Set(); }

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
    else if (!pt.route.includes(next)) pt.route.push(next);
    else return;
  }
}

function ptPointerDown(ev) {
  const rc = cellAt(ev.currentTarget, ev, pt.geom);
  pt.selClue = null;
  if (!rc) { ptRender(); return; }
  const [r, c] = rc;
  $('board').focus();
  if (pt.mode === 'creative' && (pt.tool === 'a' || pt.tool === 'b')) {
    if (!ptOnEdge(r, c)) { setStatus('doors are cells on the edge of the grid', 'warn'); return; }
    pt[pt.tool] = [r, c];
    pt.route = [];
    ptChanged();
    ptRender();
    return;
  }
  const i = ptIdx(r, c);
  if (!pt.route.length) {
    if (r !== pt.a[0] || c !== pt.a[1]) { setStatus('start the path at door A', 'warn'); return; }
    pt.route = [i];
  } else {
    const at = pt.route.indexOf(i);
    if (at >= 0) pt.route = pt.route.slice(0, at + 1);
    else ptStepTo(r, c);
  }
  pt.drag = true;
  ev.currentTarget.setPointerCapture(ev.pointerId);
  ptChanged();
  ptRender();
  try { $('pt-svg').setPointerCapture(ev.pointerId); } catch (_) { /* released */ }
}

function ptPointerMove(ev) {
  if (!pt.drag) return;
  const rc = cellAt(ev.currentTarget, ev, pt.geom);
  if (!rc) return;
  const before = pt.route.join(',');
  ptStepTo(rc[0], rc[1]);
  if (pt.route.join(',') === before) return;
  ptChanged();
  ptRender();
  try { $('pt-svg').setPointerCapture(ev.pointerId); } catch (_) { /* released */ }
}

function ptKey(ev) {
  if (pt.selClue) {
    const arr = pt.selClue.kind === 'row' ? pt.row : pt.col;
    const i = pt.selClue.i;
    const max = pt.selClue.kind === 'row' ? pt.n : pt.m;
    if (/^[0-9]$/.test(ev.key)) {
      const now = Date.now();
      const cur = arr[i];
      let v = Number(ev.key);
      if (now - pt.selClue.typedAt < 1200 && cur >= 0 && cur * 10 + v <= max) v = cur * 10 + v;
      arr[i] = Math.min(v, max);
      pt.selClue.typedAt = now;
      ptChanged(); ptRender();
      return true;
    }
    if (ev.key === 'Backspace' || ev.key === 'Delete' || ev.key === '-') { arr[i] = -1; ptChanged(); ptRender(); return true; }
    if (ev.key === 'Escape') { pt.selClue = null; ptRender(); return true; }
  }
  const dir = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[ev.key];
  if (dir) {
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
  $('pt-play').classList.toggle('active', mode === 'play');
  $('pt-creative').classList.toggle('active', mode === 'creative');
  $('pt-tool-a').hidden = mode === 'play';
  $('pt-tool-b').hidden = mode === 'play';
  if (mode === 'play') ptSetTool('path');
  pt.selClue = null;
  if (view === 'path') setStatus(mode === 'play' ? 'drag from door A to door B' : 'click a clue to type it, or place the doors', '');
  ptRender();
}

function ptSetTool(tool) {
  pt.tool = tool;
  $('pt-tool-path').classList.toggle('active', tool === 'path');
  $('pt-tool-a').classList.toggle('active', tool === 'a');
  $('pt-tool-b').classList.toggle('active', tool === 'b');
}

async function ptCheck() {
  if (!pt.route.length) { setStatus('draw a path first, starting at door A', 'warn'); return; }
  const res = await api('/api/verify', { puzzle: 'path', text: ptText(), solution: ptSolutionText() });
  pt.bad = new Set();
  reportCheck(res, pt.bad, ptIdx, 'your path is correct, well done.');
  ptRender();
}

async function ptSolve() {
  const res = await api('/api/solve', { puzzle: 'path', text: ptText() });
  ptChanged();
  if (res.status === 'solved') {
    pt.route = ptRouteFrom(res.solution);
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
  ptChanged();
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
  const m = Math.max(2, Math.min(10, Number($('pt-rows').value) || 6));
  const n = Math.max(2, Math.min(10, Number($('pt-cols').value) || 6));
  const seed = Math.floor(Math.random() * 2 ** 31);
  const stamp = pt.edits;
  const res = await api('/api/generate', { puzzle: 'path', rows: m, cols: n, settings: { clues: 50 }, seed });
  if (auto === true && pt.edits !== stamp) return;
  ptLoad(res.text);
  ptSetMode('play');
  const hidden = pt.row.concat(pt.col).filter((x) => x < 0).length;
  setStatus(`a new ${m}×${n} puzzle with exactly one solution`, 'good');
  setMessages([{ text: `generated with seed ${seed}: ${hidden} clue(s) hidden, exactly one solution`, cls: 'good' }]);
}

function ptInit() {
  ptReset(6, 6);
  $('pt-play').onclick = () => ptSetMode('play');
  $('pt-creative').onclick = () => ptSetMode('creative');
  $('pt-tool-path').onclick = () => { ptSetTool('path'); setStatus('drag from door A to draw the path', ''); };
  $('pt-tool-a').onclick = () => { ptSetTool('a'); setStatus('click an edge cell to place door A', ''); };
  $('pt-tool-b').onclick = () => { ptSetTool('b'); setStatus('click an edge cell to place door B', ''); };
  $('pt-resize').onclick = () => {
    const m = Math.max(2, Math.min(30, Number($('pt-rows').value) || 6));
    const n = Math.max(2, Math.min(30, Number($('pt-cols').value) || 6));
    ptReset(m, n);
    ptSetMode('creative');
    setMessages([]);
  };
  $('pt-check').onclick = (e) => run(e.currentTarget, ptCheck);
  $('pt-solve').onclick = (e) => run(e.currentTarget, ptSolve);
  $('pt-unique').onclick = (e) => run(e.currentTarget, ptUnique);
  $('pt-forced').onclick = (e) => run(e.currentTarget, () => showForced({ puzzle: 'path', text: ptText() }));
  $('pt-random').onclick = (e) => run(e.currentTarget, ptRandom);
  $('pt-clear').onclick = () => { pt.route = []; ptChanged(); setStatus('path cleared', ''); ptRender(); };
  ptSetTool('path');
  pt.mode = 'creative';
  $('pt-play').classList.remove('active');
  $('pt-creative').classList.add('active');
}

// ---------------------------------------------------------------- Sudoku

const sd = {
  n: 9, br: 3, bc: 3, given: [], value: [], pencil: [], elim: [], removed: [],
  mode: 'value', showCands: true, sel: 0, bad: new Set(), diff: new Set(), solved: new Set(), focusDigit: 0, edits: 0, visited: false, hint: new Set(),
  geom: null,
};
const BOXES = { 4: [2, 2], 6: [2, 3], 8: [2, 4], 9: [3, 3], 12: [3, 4], 16: [4, 4] };
const SYMBOLS = '123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const sym = (v) => SYMBOLS[v - 1];

function sdReset(n) {
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

function sdRender() {
  if (view !== 'sudoku') return;
  const { n, br, bc } = sd;
  const cs = cellSize(n, n, 560);
  const pad = 4;
  const W = n * cs + 2 * pad;
  sd.geom = { cs, x0: pad, y0: pad, rows: n, cols: n, width: W, height: W };
  const board = $('board');
  board.innerHTML = '';
  const root = svg('svg', { viewBox: `0 0 ${W} ${W}`, id: 'sd-svg', 'data-puzzle': 'sudoku' }, board);
  root.style.maxWidth = `${W}px`; // CSSOM, allowed by the page's Content-Security-Policy
  const g = svg('g', { transform: `translate(${pad},${pad})` }, root);
  const selVal = sd.sel !== null ? sdNumber(sd.sel) : 0;
  const peers = sd.sel !== null ? sdPeers(sd.sel) : new Set();
  for (let i = 0; i < n * n; i++) {
    const r = Math.floor(i / n), c = i % n;
    const boxShade = (Math.floor(r / br) + Math.floor(c / bc)) % 2 ? '#f7f9fb' : '#ffffff';
    svg('rect', { x: c * cs, y: r * cs, width: cs, height: cs, fill: boxShade, class: 'cell-bg', 'data-cell': `r${r + 1}c${c + 1}` }, g);
    if (peers.has(i)) svg('rect', { x: c * cs, y: r * cs, width: cs, height: cs, class: 'peer' }, g);
  }
  for (const [set, cls] of [[sd.diff, 'diffcell'], [sd.hint, 'hintcell'], [sd.bad, 'badcell']]) {
    for (const i of set) svg('rect', { x: (i % n) * cs, y: Math.floor(i / n) * cs, width: cs, height: cs, class: cls }, g);
  }
  for (let k = 1; k < n; k++) {
    svg('line', { x1: 0, y1: k * cs, x2: n * cs, y2: k * cs, class: k % br ? 'grid-line' : 'box-line' }, g);
    svg('line', { x1: k * cs, y1: 0, x2: k * cs, y2: n * cs, class: k % bc ? 'grid-line' : 'box-line' }, g);
  }
  svg('rect', { x: 0, y: 0, width: n * cs, height: n * cs, class: 'outer' }, g);
  if (sd.sel !== null) svg('rect', { x: (sd.sel % n) * cs + 2, y: Math.floor(sd.sel / n) * cs + 2, width: cs - 4, height: cs - 4, rx: 3, class: 'sel' }, g);
  const sub = Math.ceil(Math.sqrt(n));
  for (let i = 0; i < n * n; i++) {
    const r = Math.floor(i / n), c = i % n;
    const v = sdNumber(i);
    if (v) {
      const cls = sd.given[i] ? 'given' : sd.solved.has(i) ? 'solved' : 'entry';
      const t = svg('text', { x: c * cs + cs / 2, y: r * cs + cs / 2 + 1, class: `num ${cls}`, 'font-size': Math.round(cs * 0.58) }, g, sym(v));
      if (v === selVal && !sd.given[i]) t.setAttribute('text-decoration', 'underline');
      continue;
    }
    const marks = sd.pencil[i] || (sd.showCands ? sdCandidates(i) : 0);
    const shown = marks | sd.removed[i];
    if (!shown || cs < 24) continue;
    const step = cs / sub;
    for (let d = 1; d <= n; d++) {
      if (!(shown & (1 << d))) continue;
      const a = Math.floor((d - 1) / sub), b = (d - 1) % sub;
      const x = c * cs + step * b + step / 2, y = r * cs + step * a + step / 2;
      const removed = sd.removed[i] & (1 << d);
      const focus = !removed && d === sd.focusDigit;
      svg('text', { x, y: y + 1, class: 'cand' + (removed ? ' removed' : focus ? ' focus' : ''), 'font-size': Math.max(8, Math.round(step * 0.72)), 'data-cand': removed ? `r${r + 1}c${c + 1}:${d}` : undefined }, g, sym(d));
      if (removed) svg('line', { x1: x - step * 0.35, y1: y + step * 0.35, x2: x + step * 0.35, y2: y - step * 0.35, class: 'cand strike' }, g);
    }
  }
  const filled = sd.given.filter((x) => x).length;
  $('board-sub').textContent = `${n}×${n}, ${br}×${bc} boxes · ${filled} givens`;
  root.addEventListener('pointerdown', (ev) => {
    const rc = cellAt(ev.currentTarget, ev, sd.geom);
    if (!rc) return;
    sd.sel = rc[0] * n + rc[1];
    $('board').focus();
    sdRender();
  });
}

function sdChanged() {
  sd.edits++;
  sd.hint = new Set();
  sd.bad = new Set(); sd.diff = new Set(); sd.focusDigit = 0;
  // Shown Nishio eliminations stay eliminated after the next change.
  sd.removed = sd.removed.map(() => 0);
}

function sdSet(i, v) {
  if (sd.mode === 'given') { sd.given[i] = v; sd.value[i] = 0; sd.elim.fill(0); } else {
    if (sd.given[i]) { setStatus('givens are fixed (choose "Givens" to change them)', 'warn'); return; }
    sd.value[i] = v;
  }
  sd.solved.delete(i);
  sdChanged();
  sdRender();
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
      if (!sd.pencil[sd.sel]) sd.pencil[sd.sel] = 0;
      sd.pencil[sd.sel] ^= 1 << v;
      sdRender();
    } else {
      sdSet(sd.sel, v);
    }
    return true;
  }
  if (ev.key === 'Backspace' || ev.key === 'Delete' || ev.key === '0' || ev.key === '.') {
    if (sd.mode === 'cand') { sd.pencil[sd.sel] = 0; sdRender(); } else sdSet(sd.sel, 0);
    return true;
  }
  return false;
}

function sdSetMode(mode) {
  sd.mode = mode;
  for (const [id, m] of [['sd-mode-given', 'given'], ['sd-mode-value', 'value'], ['sd-mode-cand', 'cand']]) $(id).classList.toggle('active', m === mode);
  if (view === 'sudoku') setStatus({ given: 'type the puzzle\'s givens', value: 'fill in digits', cand: 'type digits to toggle your pencil marks' }[mode], '');
}

const sdSettings = () => ({ block: `${sd.br}x${sd.bc}` });

async function sdCheck() {
  const res = await api('/api/verify', { puzzle: 'sudoku', text: sdText(false), solution: sdSolutionText(), settings: sdSettings() });
  sdChanged();
  reportCheck(res, sd.bad, (r, c) => r * sd.n + c, 'your grid is correct, well done.');
  sdRender();
}

async function sdSolve() {
  const res = await api('/api/solve', { puzzle: 'sudoku', text: sdText(false), settings: sdSettings() });
  sdChanged();
  if (res.status === 'solved') {
    sd.solved = new Set();
    res.solution.forEach((row, r) => row.forEach((v, c) => {
      const i = r * sd.n + c;
      if (!sd.given[i]) { sd.value[i] = v; sd.solved.add(i); }
    }));
    setStatus('solved', 'good');
    setMessages([{ text: `solved by the ${res.algorithm} solver (${timing(res.stats)})`, cls: 'good' }]);
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
  const n = Math.min(sd.n, 12);
  const seed = Math.floor(Math.random() * 2 ** 31);
  const stamp = sd.edits;
  const res = await api('/api/generate', { puzzle: 'sudoku', size: n, seed });
  if (auto === true && sd.edits !== stamp) return;
  sdLoad(res.text);
  sdSetMode('value');
  const givens = sd.given.filter((x) => x).length;
  setStatus(`a new ${n}×${n} puzzle with ${givens} givens and exactly one solution`, 'good');
  setMessages([{ text: `generated with seed ${seed}; every given is needed for uniqueness`, cls: 'good' }]);
  sdRender();
}

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
  $('sd-empty').onclick = () => {
    if (sd.mode === 'given') sd.given.fill(0);
    sd.value.fill(0); sd.pencil.fill(0); sd.elim.fill(0); sd.solved = new Set(); sdChanged(); sdRender();
  };
  sd.mode = 'given';
  for (const [id, m] of [['sd-mode-given', 'given'], ['sd-mode-value', 'value'], ['sd-mode-cand', 'cand']]) $(id).classList.toggle('active', m === 'given');
}

// ---------------------------------------------------------------- views, dialogs, keys

const VIEWS = {
  suguru: { title: 'Suguru', render: sgRender, key: sgKey, text: sgText, load: (t) => { sgLoad(t); sgSetMode('play'); } },
  path: { title: 'Path puzzle', render: ptRender, key: ptKey, text: ptText, load: (t) => { ptLoad(t); ptSetMode('play'); } },
  sudoku: { title: 'Sudoku', render: sdRender, key: sdKey, text: () => sdText(false), load: (t) => { sdLoad(t); sdSetMode('value'); } },
};

function showView(name) {
  view = name;
  for (const v of Object.keys(VIEWS)) {
    $(`controls-${v}`).hidden = v !== name;
    $(`tab-${v}`).classList.toggle('active', v === name);
    $(`tab-${v}`).setAttribute('aria-selected', String(v === name));
  }
  $('board-title').textContent = name === 'suguru' ? REGION_TITLES[sg.family] : VIEWS[name].title;
  setStatus('', '');
  setMessages([]);
  VIEWS[name].render();
  // The first visit of Path or Sudoku starts on a fresh generated puzzle.
  const has = (p, f) => (server.puzzles[p]?.features || []).includes(f);
  if (name === 'path' && !pt.visited && has('path', 'generate')) { pt.visited = true; run(null, () => ptRandom(true)); }
  if (name === 'sudoku' && !sd.visited && has('sudoku', 'generate')) { sd.visited = true; run(null, () => sdRandom(true)); }
  if (location.hash !== `#${name}`) history.replaceState(null, '', `#${name}`);
}

function openIo() {
  $('io-text').value = VIEWS[view].text();
  $('io-error').textContent = '';
  $('io-url').hidden = view === 'path';
  $('io').showModal();
}

function initDialogs() {
  $('guide-btn').onclick = () => $('guide').showModal();
  for (const id of ['sg-export', 'pt-export', 'sd-export']) $(id).onclick = openIo;
  $('io-close').onclick = () => $('io').close();
  $('io-load').onclick = async () => {
    try {
      let text = $('io-text').value;
      // JSON and puzz.link URLs are read by the server (the puzzle crates' own readers).
      const url = text.match(/^\s*[^\s]*\?(suguru|ripple|sudoku)\//);
      if (/^\s*(\{|https?:)/.test(text) || url) {
        // A URL names its family; the region board plays Suguru and Ripple Effect alike.
        const puzzle = view === 'suguru' ? (url && REGION_FAMILIES.includes(url[1]) ? url[1] : sg.family) : view;
        text = (await api('/api/convert', { puzzle, text, to: 'text' })).text;
      }
      VIEWS[view].load(text);
      $('io').close();
      setMessages([{ text: 'puzzle loaded', cls: 'good' }]);
      VIEWS[view].render();
    } catch (e) {
      $('io-error').textContent = e.message;
    }
  };
  $('io-url').onclick = async () => {
    try {
      const res = await api('/api/convert', { puzzle: view === 'suguru' ? sg.family : view, text: VIEWS[view].text(), to: 'url' });
      $('io-text').value = res.text;
      $('io-error').textContent = 'a puzz.link URL of this puzzle';
    } catch (e) {
      $('io-error').textContent = e.message;
    }
  };
  $('io-copy').onclick = async () => {
    try { await navigator.clipboard.writeText($('io-text').value); $('io-error').textContent = 'copied'; } catch (_) {
      $('io-text').select(); document.execCommand('copy'); $('io-error').textContent = 'copied';
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
  if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === 'z' && view === 'suguru') { sgUndo(); ev.preventDefault(); return; }
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === '?') { $('guide').showModal(); ev.preventDefault(); return; }
  if (VIEWS[view].key(ev)) ev.preventDefault();
}

async function loadFeatures() {
  try {
    const res = await api('/api/puzzles');
    server.limits = res.limits || {};
    for (const p of res.puzzles) server.puzzles[p.name] = p;
  } catch (e) {
    setStatus(`cannot reach the pencilbox server: ${e.message}`, 'bad');
    return;
  }
  const has = (p, f) => (server.puzzles[p]?.features || []).includes(f);
  $('sg-family-row').hidden = REGION_FAMILIES.filter((f) => server.puzzles[f]).length < 2;
  sgSetFamily(sg.family);
  $('sd-nishio-row').hidden = !has('sudoku', 'nishio');
  $('sd-step').hidden = !has('sudoku', 'step');
  // A view opened before the feature list arrived gets its first puzzle now.
  if (view !== 'suguru') showView(view);
  if (has('suguru', 'levels')) {
    await sgLoadLevels();
    // Open on the first bundled level, in Play Mode, unless the player already started.
    if (sg.levels.length && !sg.given.some((x) => x) && !sg.label.some((x) => x)) {
      $('sg-level').value = '0';
      sgPickLevel();
    }
  }
}

window.addEventListener('DOMContentLoaded', async () => {
  sgInit(); ptInit(); sdInit(); initDialogs();
  for (const v of Object.keys(VIEWS)) $(`tab-${v}`).onclick = () => showView(v);
  document.addEventListener('keydown', onKey);
  const start = (location.hash || '#suguru').slice(1);
  showView(VIEWS[start] ? start : 'suguru');
  await loadFeatures();
  document.body.dataset.ready = 'true';
});
