// The engines' WebSocket: requests go out as JSON, every engine event comes back. On the
// static site the engine is in a worker instead (inbrowser.js), with the same interface.

import { IN_BROWSER, WorkerEngines } from './inbrowser.js';

// The page's engines: the server's (`shove gui`) or the worker's (the static site).
export function connectEngines(token, handlers) {
  return IN_BROWSER ? new WorkerEngines(handlers) : new Engines(token, handlers);
}

export class Engines {
  constructor(token, handlers) {
    this.token = token;
    this.handlers = handlers; // {engines, line, ready, bestmove, error, idle, sent, closed}
    this.nextId = 1;
    this.list = [];
    this.connect();
  }

  connect() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    // Without a token (a page opened from a copied link) the cookie stands for it.
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : '';
    const url = `${scheme}://${location.host}/ws${query}`;
    this.ws = new WebSocket(url);
    this.ws.onmessage = ev => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === 'engines') this.list = msg.engines.map(e => ({ ...e, name: e.command, state: 'starting' }));
      const h = this.handlers[msg.type];
      if (h) h(msg);
    };
    this.ws.onclose = ev => this.handlers.closed && this.handlers.closed(ev);
  }

  // A new connection after the old one closed (the page back from the browser's cache).
  reconnect() {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) return;
    this.ws.onclose = null;
    this.connect();
  }

  send(msg) {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  // Searches the end of `line`; returns the request id (or 0 when the socket is down).
  // `level`: the Skill Level to play at (none: full strength).
  go(slot, line, { movetime = null, multipv = 1, level = null } = {}) {
    const id = this.nextId++;
    const msg = { type: 'go', slot, id, line, multipv };
    if (movetime !== null) msg.movetime = movetime;
    if (level !== null) msg.level = level;
    return this.send(msg) ? id : 0;
  }

  stop(slot) { this.send({ type: 'stop', slot }); }
  restart(slot) { this.send({ type: 'restart', slot }); }
}

// `info depth 9 seldepth 12 multipv 1 score cp 35 nodes 1000 nps 5000 time 20 pv a1a2 ..`
export function parseInfo(line) {
  const w = line.trim().split(/\s+/);
  if (w[0] !== 'info') return null;
  const info = { multipv: 1 };
  for (let i = 1; i < w.length; i++) {
    const k = w[i];
    if (k === 'pv') { info.pv = w.slice(i + 1); break; }
    if (k === 'string') return null;
    if (k === 'score') {
      info.scoreKind = w[i + 1];
      info.score = Number(w[i + 2]);
      i += 2;
      continue;
    }
    if (['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'time', 'hashfull'].includes(k)) {
      info[k] = Number(w[i + 1]);
      i += 1;
    }
  }
  return info.depth !== undefined ? info : null;
}

// A score as one number from the given side's view: mates as ±(100000 - plies).
export function scoreValue(info) {
  if (info.scoreKind === 'mate') return info.score > 0 ? 100000 - info.score : -100000 - info.score;
  return info.score;
}

export function scoreText(value) {
  if (Math.abs(value) > 90000) {
    const plies = 100000 - Math.abs(value);
    return (value > 0 ? '+' : '-') + 'M' + plies;
  }
  return (value >= 0 ? '+' : '') + (value / 100).toFixed(2);
}
