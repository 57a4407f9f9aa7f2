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

  // Leaving the page, maybe into the browser's cache: the connection is closed here and not
  // by the browser, whose late close event would read as a lost server once the page is
  // back (Chromium 156 delivers it after `pageshow`).
  suspend() {
    this.ws.onclose = null;
    this.ws.close();
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
