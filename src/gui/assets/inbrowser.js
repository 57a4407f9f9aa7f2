// The static site's transport (docs/web.md): with no server, the page's API and its engine
// run in Web Workers, in shove's own Rust built for WebAssembly (web/). `shove gui` serves
// the same page, which then talks to its server instead (api.js, engines.js); the static
// site's pages say `<html data-transport="worker">` (web/build.sh).
//
// One worker answers the API (game states, records, logs, puzzles), one searches for the
// engine and a review gets a worker of its own, so that no call waits behind a search. A
// worker cannot be interrupted while it computes: Stop and Cancel end it and start a new
// one (the engine loses its table, the game is the page's and stays).

import { t } from './i18n.js';
import { parseInfo } from './info.js';
import { sitePath } from './site.js';

export const IN_BROWSER = document.documentElement.dataset.transport === 'worker';

let compiled = null;
// The module, compiled once for every worker.
function wasmModule() {
  compiled ??= WebAssembly.compileStreaming(fetch(sitePath('shove_web_bg.wasm')));
  return compiled;
}

// A worker running shove's calls one at a time. `onEvent` gets its engine events,
// `onCrash` is told when it died (it is replaced at once).
class Runner {
  constructor({ onEvent = () => {}, onCrash = () => {} } = {}) {
    this.onEvent = onEvent;
    this.onCrash = onCrash;
    this.pending = new Map();
    this.nextId = 1;
    this.start();
  }

  start() {
    this.worker = new Worker(sitePath('worker.js'), { type: 'module' });
    this.worker.onmessage = ev => this.receive(ev.data);
    this.worker.onerror = ev => { ev.preventDefault(); this.crash(ev.message || 'error'); };
    let ready;
    this.ready = new Promise(resolve => { ready = resolve; });
    this.readyResolve = ready;
    wasmModule()
      .then(module => this.worker.postMessage({ kind: 'init', module }))
      .catch(e => this.crash(e.message));
  }

  receive(msg) {
    if (msg.kind === 'ready') { this.readyResolve(); for (const e of msg.events) this.onEvent(JSON.parse(e)); return; }
    if (msg.kind === 'event') { this.onEvent(JSON.parse(msg.event)); return; }
    if (msg.kind === 'progress') { this.onProgress?.(msg); return; }
    if (msg.kind === 'crash') { this.crash(msg.message); return; }
    if (msg.kind === 'answer') {
      const call = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (call) call.resolve(msg.answer);
    }
  }

  // Sends `message` once the worker is ready; resolves with its answer.
  async call(message) {
    await this.whenReady();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  async send(message) {
    await this.whenReady();
    this.worker.postMessage(message);
  }

  // Until the worker of now is ready (a restart meanwhile: the new one); fails once the
  // runner is stopped.
  async whenReady() {
    let worker;
    do {
      if (this.stopped) throw new Error('stopped');
      worker = this.worker;
      await this.ready;
    } while (worker !== this.worker || this.stopped);
  }

  // Ends the worker (what it computes is dropped) and starts another.
  restart(why) {
    this.end(why);
    this.start();
  }

  end(why) {
    this.worker.terminate();
    this.readyResolve(); // whoever waits for it waits for the next one instead
    for (const { reject } of this.pending.values()) reject(new Error(why));
    this.pending.clear();
  }

  crash(reason) {
    this.restart(t('the engine stopped ({reason}) and was started again', { reason }));
    this.onCrash(reason);
  }

  // Ends the worker for good: what waits for it fails.
  stop() {
    this.stopped = true;
    this.end('stopped');
  }
}

let apiRunner = null;
const review = { runner: null, id: null, done: 0, all: 0 };

function response(answer) {
  if (answer === null) return new Response('not found', { status: 404 });
  const a = JSON.parse(answer);
  if ('text' in a) return new Response(a.text, { status: a.status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return new Response(JSON.stringify(a.json), { status: a.status, headers: { 'content-type': 'application/json' } });
}

function json(value) {
  return new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } });
}

function bytes(body) {
  if (body === undefined || body === null) return new Uint8Array();
  return new TextEncoder().encode(String(body));
}

async function runReview(body) {
  const request = JSON.parse(new TextDecoder().decode(body));
  review.runner?.stop();
  const runner = new Runner();
  Object.assign(review, { runner, id: request.id || null, done: 0, all: 0 });
  runner.onProgress = msg => { review.done = msg.done; review.all = msg.all; };
  try {
    return response(await runner.call({ kind: 'review', body }));
  } catch (e) {
    // Cancelled: its worker was ended.
    if (review.runner !== runner) return json({ cancelled: true });
    throw e;
  } finally {
    if (review.runner === runner) { runner.stop(); review.runner = null; review.id = null; }
  }
}

// `fetch` for the page's API paths, answered by the workers.
export async function localFetch(path, options = {}) {
  const body = bytes(options.body);
  const route = path.split('?')[0];
  if (route === '/api/review') return runReview(body);
  if (route === '/api/review/progress' || route === '/api/review/cancel') {
    const { id } = JSON.parse(new TextDecoder().decode(body) || '{}');
    const running = review.runner !== null && id && id === review.id;
    if (route === '/api/review/progress') {
      return json(running ? { running: true, done: review.done, all: review.all } : { running: false });
    }
    if (running) {
      const runner = review.runner;
      review.runner = null;
      review.id = null;
      runner.stop();
    }
    return json({ cancelled: running });
  }
  apiRunner ??= new Runner();
  try {
    return response(await apiRunner.call({ kind: 'api', path: route, body }));
  } catch (e) {
    return json500(e.message);
  }
}

function json500(message) {
  return new Response(JSON.stringify({ error: message }), { status: 500, headers: { 'content-type': 'application/json' } });
}

// The engines of the static site, as engines.js' `Engines` over the server's WebSocket:
// one engine, in a worker; the same requests and the same events.
export class WorkerEngines {
  constructor(handlers) {
    this.handlers = handlers;
    this.nextId = 1;
    this.list = [];
    this.search = null; // {id, best}: the search running
    this.runner = new Runner({ onEvent: ev => this.event(ev), onCrash: reason => this.crashed(reason) });
    // For the tests (tests/web.rs): a panic in the engine's worker, as a bug would make.
    window.shoveCrashTest = () => this.runner.send({ kind: 'panic' });
  }

  event(msg) {
    if (msg.type === 'engines') this.list = msg.engines.map(e => ({ ...e, name: e.command, state: 'starting' }));
    if (msg.type === 'line' && this.search) {
      const info = parseInfo(msg.line);
      if (info && info.multipv === 1 && info.pv && info.pv.length) this.search.best = info.pv[0];
    }
    if (msg.type === 'bestmove') this.search = null;
    const h = this.handlers[msg.type];
    if (h) h(msg);
  }

  // A crash ends the search with an error; the page keeps its game and the new worker is
  // ready for the next request.
  crashed(reason) {
    const id = this.search ? this.search.id : null;
    this.search = null;
    const phrase = { text: 'the engine stopped ({reason}) and was started again', values: { reason } };
    this.event({ type: 'error', slot: 0, id, message: t(phrase.text, phrase.values), phrase, dead: false });
  }

  // Searches the end of `line` as engines.js' `go`; a search running is ended first.
  go(slot, line, { movetime = null, multipv = 1, level = null } = {}) {
    if (this.search) this.end(false);
    const id = this.nextId++;
    const msg = { type: 'go', slot: 0, id, line, multipv };
    if (movetime !== null) msg.movetime = movetime;
    if (level !== null) msg.level = level;
    this.search = { id, best: null };
    this.runner.send({ kind: 'go', message: JSON.stringify(msg) });
    return id;
  }

  // Ends the search at once with the best move of its last line, as `stop` does.
  end(report) {
    const search = this.search;
    this.search = null;
    this.runner.restart('stopped');
    if (report && search) {
      this.event({ type: 'line', slot: 0, line: `bestmove ${search.best || '(none)'}`, t: Date.now() });
      this.event({ type: 'bestmove', slot: 0, id: search.id, move: search.best });
    }
  }

  stop() { if (this.search) this.end(true); }
  restart() { this.search = null; this.runner.restart('restarted'); }
}
