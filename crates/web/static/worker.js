// pencilbox's Web Worker: answers the playground's API requests with the WebAssembly build of
// the same API the server runs (crates/web, pencilbox_registry::api). Classic worker script:
// pencilbox_web.js is wasm-bindgen's `--target no-modules` output, which defines `wasm_bindgen`.
//
// Messages from the page:
//   {type: 'init', module?}          compile pencilbox_web_bg.wasm (or take the module an earlier
//                                    worker compiled) and answer {type: 'ready', module, version}
//                                    or {type: 'failed', error}
//   {type: 'call', id, route, body}  answer {type: 'answer', id, status, body} (body: JSON text)
// A long request is stopped by the page terminating this worker; a panic in the puzzle code
// traps the instance, which is then answered 500 with `dead: true` and replaced by the page.
'use strict';

importScripts('pencilbox_web.js');

const WASM = 'pencilbox_web_bg.wasm';
let dead = false;

async function compile() {
  const res = await fetch(WASM);
  if (!res.ok) throw new Error(`${WASM}: HTTP ${res.status}`);
  try {
    return await WebAssembly.compileStreaming(res.clone());
  } catch (_) {
    // A static server that does not say application/wasm: compile from the bytes.
    return WebAssembly.compile(await res.arrayBuffer());
  }
}

async function init(module) {
  try {
    const m = module || await compile();
    await wasm_bindgen({ module_or_path: m });
    self.postMessage({ type: 'ready', module: m, version: wasm_bindgen.version() });
  } catch (e) {
    self.postMessage({ type: 'failed', error: String((e && e.message) || e) });
  }
}

function answer(id, route, body) {
  if (dead) {
    return { type: 'answer', id, status: 500, dead: true,
      body: JSON.stringify({ error: 'internal error: the puzzle code failed earlier; restarting' }) };
  }
  try {
    const out = JSON.parse(wasm_bindgen.call(route, body));
    return { type: 'answer', id, status: out.status, body: JSON.stringify(out.body) };
  } catch (e) {
    // A trap (a panic): this instance is unusable from here on.
    dead = true;
    return { type: 'answer', id, status: 500, dead: true,
      body: JSON.stringify({ error: 'internal error: the puzzle code failed on this input (the worker restarts)' }) };
  }
}

self.onmessage = (ev) => {
  const m = ev.data || {};
  if (m.type === 'init') init(m.module);
  else if (m.type === 'call') self.postMessage(answer(m.id, m.route, m.body));
};
