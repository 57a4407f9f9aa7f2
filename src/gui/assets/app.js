// The page: game state (a line of moves from a start, checked by the server's rules),
// the board, the controls, the engines.

import { draw } from './board.js';
import { Engines, parseInfo, scoreValue, scoreText } from './engines.js';
import { drawGraph, share } from './graph.js';

const $ = id => document.getElementById(id);

const G = {
  games: [],          // [{name, players, options}]
  game: 'akiba',
  rules: {},          // rule option name → value (text)
  start: null,        // position string the line starts from (null: the start position)
  moves: [],          // the whole line
  ply: 0,             // moves shown
  state: null,        // the server's state after `ply` moves
  flipped: false,
  selected: null,
  scores: [],         // scores[i]: engine score after i moves, player one's view
  analysis: false,
  lines: [],          // analysis lines by multipv index
  slotReq: {},        // slot → the request its info lines belong to
  playId: 0,          // the pending "engine, play a move" request
  review: null,       // {key, moves, players}: the review of the line `key` (its moves)
  reviewBest: null,   // ply of the reviewed move whose best move is shown (at ply - 1)
  hintId: 0,          // the pending hint request
  hint: null,         // {key, move}: the engine's best move in the line `key`, shown not played
  engines: null,
  connectionLost: null, // why the engines' WebSocket closed, once it has
  stats: { info: [], click: [], select: [] },
};
window.shoveStats = G.stats;

// ---------------------------------------------------------------- server state

// The secret token `shove gui` printed (`/?token=…`): kept for this tab in sessionStorage
// and taken out of the address bar; every API call and the WebSocket carry it.
const TOKEN = (() => {
  const params = new URLSearchParams(location.search);
  const fromAddress = params.get('token');
  if (fromAddress !== null) {
    sessionStorage.setItem('shove-token', fromAddress);
    params.delete('token');
    const rest = params.toString();
    history.replaceState(null, '', location.pathname + (rest ? '?' + rest : '') + location.hash);
  }
  return fromAddress ?? sessionStorage.getItem('shove-token') ?? '';
})();

// A call to the server's API with the token.
function api(path, options = {}) {
  return fetch(path, { ...options, headers: { ...options.headers, authorization: `Bearer ${TOKEN}` } });
}

function lineTo(ply, moves = G.moves, start = G.start, rules = G.rules, game = G.game) {
  return { game, rules: Object.entries(rules), start, moves: moves.slice(0, ply) };
}

async function fetchState(line) {
  let res;
  try {
    res = await api('/api/state', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(line) });
  } catch (e) {
    throw new Error('the server cannot be reached: ' + e.message);
  }
  const body = await res.json().catch(() => ({ error: `server answered ${res.status}` }));
  if (!res.ok) throw new Error(body.error || `server answered ${res.status}`);
  return body;
}

// Replaces the shown game if the server accepts it; otherwise shows why and keeps all.
async function show(change) {
  const next = { moves: G.moves, ply: G.ply, start: G.start, rules: G.rules, game: G.game, ...change };
  let state;
  try {
    state = await fetchState(lineTo(next.ply, next.moves, next.start, next.rules, next.game));
  } catch (e) {
    showError(e.message);
    return false;
  }
  const restart = next.game !== G.game || next.start !== G.start || JSON.stringify(next.rules) !== JSON.stringify(G.rules);
  Object.assign(G, next);
  if (restart) G.scores = [];
  G.scores.length = Math.min(G.scores.length, G.moves.length + 1);
  G.state = state;
  G.selected = null;
  G.lines = [];
  if (G.hint && G.hint.key !== key()) setHint(null);
  if (G.reviewBest !== null && (G.ply !== G.reviewBest - 1 || !reviewOfLine())) G.reviewBest = null;
  clearError();
  render();
  history.replaceState(null, '', location.pathname + location.search + '#' + fragment());
  afterChange();
  return true;
}

function key(ply = G.ply) {
  return JSON.stringify(lineTo(ply));
}

// ---------------------------------------------------------------- errors

function showError(message) {
  const e = $('error');
  e.textContent = message;
  e.hidden = false;
}

// The connection to the engines lost or refused stays shown: nothing else works without it.
function clearError() {
  if (G.connectionLost) { showError(G.connectionLost); return; }
  const e = $('error');
  e.textContent = '';
  e.hidden = true;
}

// ---------------------------------------------------------------- drawing

function arrows() {
  if (G.hint && G.hint.key === key()) return [G.hint.move];
  if (!G.analysis || !G.lines[0] || !G.lines[0].pv) return [];
  return G.lines[0].pv.slice(0, 3);
}

function drawBoard() {
  const s = G.state;
  const targets = new Set(), sources = new Set();
  if (G.selected) {
    for (const m of s.legal) if (m.from === G.selected && m.to) targets.add(m.to);
  }
  const last = new Set();
  if (G.ply > 0) {
    const mv = G.moves[G.ply - 1];
    for (const c of mv.match(/[a-i][1-9]/g) || []) last.add(c);
  }
  const best = shownBest();
  draw($('board'), s, { flipped: G.flipped, selected: G.selected, targets, sources, lastMove: last, arrows: arrows(),
    best: best ? best.best : null });
}

function playerName(p) {
  const name = G.state.players[p - 1];
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function pips(n, total, cls) {
  let out = '';
  for (let i = 0; i < total; i++) out += `<i class="pip ${i < n ? cls : 'off'}"></i>`;
  return out;
}

function playerBar(p) {
  const s = G.state, e = s.extras;
  const turn = s.result === 'none' && s.to_move === p ? ' to-move' : '';
  const colour = { akiba: ['white', 'black'], offboard: ['red', 'yellow'], abraxas: ['p1', 'p2'] }[s.game][p - 1];
  let detail = '';
  if (s.game === 'akiba') {
    detail = `<span class="pips" title="reds won">${pips(e.reds_won[p - 1], 7, 'red')}</span>
      <span class="count">${e.reds_won[p - 1]}/7 reds</span>
      <span class="count">${e.left[colour]} marbles left</span>`;
  } else if (s.game === 'offboard') {
    detail = `<span class="pips" title="points">${pips(e.points[p - 1], 6, colour)}</span>
      <span class="count">${e.points[p - 1]}/6 points</span>`;
  } else {
    detail = `<span class="count">${e.stones[p - 1]}/${e.target} stones</span>
      <span class="pips" title="blue stones left">${pips(e.blue_left[p - 1], e.blue_left[p - 1], 'blue')}</span>
      <span class="count">${e.blue_left[p - 1]} blue left</span>`;
  }
  return `<span class="swatch ${colour}"></span><b>${playerName(p)}</b>${turn ? '<span class="turn">to move</span>' : ''}${detail}`;
}

function statusText() {
  const s = G.state;
  const extra = s.game === 'akiba' ? ` · ${s.extras.left.red} reds on the board`
    : s.game === 'abraxas' ? ` · pool ${s.extras.pool} · plate in the ${s.extras.corner.toUpperCase()} corner` : '';
  switch (s.result) {
    case 'p1win': return `${playerName(1)} wins`;
    case 'p2win': return `${playerName(2)} wins`;
    case 'draw': return 'Draw';
    default: return `${playerName(s.to_move)} to move: ${s.phase}${extra}`;
  }
}

function render() {
  const s = G.state;
  if ($('level').dataset.game !== G.game) renderLevels();
  drawBoard();
  const [top, bottom] = G.flipped ? [1, 2] : [2, 1];
  $('player-top').innerHTML = playerBar(top);
  $('player-bottom').innerHTML = playerBar(bottom);
  $('player-top').classList.toggle('active', s.result === 'none' && s.to_move === top);
  $('player-bottom').classList.toggle('active', s.result === 'none' && s.to_move === bottom);
  const st = $('status');
  st.dataset.result = s.result;
  st.textContent = statusText();
  $('phase').textContent = s.result === 'none' ? `· ${s.legal.length}` : '';
  $('position').textContent = s.position;
  const legal = $('legal-moves');
  legal.textContent = '';
  for (const m of s.legal) {
    const b = document.createElement('button');
    b.className = 'move-button' + (m.from || m.to ? '' : ' word');
    b.dataset.move = m.text;
    if (m.from) b.dataset.from = m.from;
    if (m.to) b.dataset.to = m.to;
    b.textContent = m.text;
    b.onclick = () => play(m.text);
    legal.appendChild(b);
  }
  renderMoves();
  renderReview();
  renderEval();
  renderAnalysis();
}

function renderMoves() {
  const list = $('moves');
  list.textContent = '';
  const movers = G.state.movers;
  G.moves.forEach((mv, i) => {
    const li = document.createElement('li');
    li.dataset.move = mv;
    li.dataset.ply = i + 1;
    const mover = i < movers.length ? movers[i] : null;
    li.className = 'move' + (i + 1 === G.ply ? ' current' : '') + (i >= G.ply ? ' ahead' : '') + (mover ? ` p${mover}` : '')
      + (i + 1 === G.reviewBest ? ' best-shown' : '');
    li.innerHTML = `<span class="n">${i + 1}</span>${mv}`;
    const reviewed = reviewOfLine() && G.review.moves[i];
    if (reviewed && reviewed.mark) {
      li.dataset.mark = reviewed.mark;
      const mark = document.createElement('span');
      mark.className = `mark ${MARK_NAME[reviewed.mark]}`;
      mark.textContent = reviewed.mark;
      li.title = `${MARK_NAME[reviewed.mark]}: best was ${reviewed.best} (click to see it)`;
      li.appendChild(mark);
      li.onclick = () => showBest(i + 1);
    } else {
      li.onclick = () => jump(i + 1);
    }
    list.appendChild(li);
  });
  const current = list.querySelector('.current');
  if (current) current.scrollIntoView({ block: 'nearest' });
}

// The eval bar and graph: the review's evaluations once the line is reviewed, else the
// engines' scores as they arrive.
function renderEval() {
  const r = reviewOfLine();
  const shares = r ? reviewShares(r) : G.scores.map(v => v === undefined ? undefined : share(v));
  const p1 = shares[G.ply];
  let text = '';
  if (r) text = evalText(reviewEval(r, G.ply));
  else if (G.scores[G.ply] !== undefined) text = scoreText(G.scores[G.ply]);
  const bar = $('evalbar');
  bar.querySelector('.evalbar-fill').style.height = `${((p1 ?? 0.5) * 100).toFixed(1)}%`;
  bar.classList.toggle('flipped', G.flipped);
  bar.querySelector('.evalbar-text').textContent = text;
  const marks = r ? r.moves.filter(m => m.mark).map(m => ({ ply: m.ply, mark: m.mark, cls: MARK_NAME[m.mark] })) : [];
  drawGraph($('graph'), { shares, plies: G.moves.length, current: G.ply, marks, onJump: jump, onMark: showBest });
}

function renderAnalysis() {
  const box = $('analysis-lines');
  box.textContent = '';
  if (!G.analysis) return;
  if (G.state.result !== 'none') {
    box.innerHTML = '<div class="analysis-line muted">game over</div>';
    return;
  }
  G.lines.forEach((l, i) => {
    if (!l) return;
    const d = document.createElement('div');
    d.className = 'analysis-line';
    d.dataset.multipv = i + 1;
    d.innerHTML = `<span class="score">${scoreText(l.value)}</span><span class="depth">depth ${l.depth}</span><span class="pv"></span>`;
    d.querySelector('.pv').textContent = l.pv.join(' ');
    d.onclick = () => l.pv.length && play(l.pv[0]);
    box.appendChild(d);
  });
}

// ---------------------------------------------------------------- moves

async function play(text) {
  if (!text) { showError('type a move first'); return false; }
  const moves = G.moves.slice(0, G.ply).concat([text]);
  return show({ moves, ply: moves.length });
}

function jump(ply) {
  ply = Math.max(0, Math.min(ply, G.moves.length));
  if (ply !== G.ply) show({ ply });
}

function humanSide() {
  const mode = $('play-mode').value;
  return mode === 'p1' ? 1 : mode === 'p2' ? 2 : null;
}

function undo() {
  if (G.ply === 0) { showError('nothing to undo'); return; }
  G.playId = 0;
  const movers = G.state.movers, human = humanSide();
  let n = G.ply - 1;
  // Against the engine, back to the last position where it was your decision.
  while (human && n > 0 && movers[n] !== human) n--;
  const moves = G.moves.slice(0, n);
  show({ moves, ply: n });
}

function onCellClick(cell, t0) {
  const s = G.state;
  if (s.result !== 'none') return;
  if (G.playId && engineSide(s.to_move) !== null) { showError('the engine is thinking'); return; }
  if (G.selected) {
    const m = s.legal.find(m => m.from === G.selected && m.to === cell);
    if (m) { playTimed(m.text, t0); return; }
  }
  if (s.legal.some(m => m.from === cell)) {
    G.selected = G.selected === cell ? null : cell;
    drawBoard();
    G.stats.select.push(performance.now() - t0);
    return;
  }
  const placements = s.legal.filter(m => !m.from && m.to === cell).sort((a, b) => a.text.length - b.text.length);
  if (placements.length) { playTimed(placements[0].text, t0); return; }
  if (G.selected) { G.selected = null; drawBoard(); }
}

async function playTimed(text, t0) {
  if (await play(text)) G.stats.click.push(performance.now() - t0);
}

// ---------------------------------------------------------------- engines

function engineSide(side) {
  const mode = $('play-mode').value;
  if (mode === 'ee') return side === 2 && G.engines.list.length > 1 ? 1 : 0;
  if (mode === 'p1' && side === 2) return 0;
  if (mode === 'p2' && side === 1) return 0;
  return null;
}

function afterChange() {
  if (G.analysis) startAnalysis();
  if (G.state.result !== 'none' || G.ply !== G.moves.length) return;
  const slot = engineSide(G.state.to_move);
  if (slot !== null) enginePlay(slot);
}

function enginePlay(slot = 0) {
  if (G.state.result !== 'none') { showError('the game is over'); return; }
  const line = lineTo(G.ply);
  const id = G.engines.go(slot, line, { movetime: movetime(), level: Number($('level').value) });
  if (!id) { showError('no connection to the engines (reload the page)'); return; }
  G.playId = id;
  G.slotReq[slot] = { id, kind: 'play', key: key(), ply: G.ply, toMove: G.state.to_move };
  $('status').textContent = `${statusText()} · engine ${slot + 1} is thinking…`;
}

function movetime() {
  const v = Number($('movetime').value);
  return Number.isFinite(v) && v >= 10 ? Math.round(v) : 1000;
}

function startAnalysis() {
  G.lines = [];
  if (G.state.result !== 'none') { renderAnalysis(); return; }
  const id = G.engines.go(0, lineTo(G.ply), { multipv: Number($('multipv').value) });
  if (!id) { showError('no connection to the engines (reload the page)'); return; }
  G.slotReq[0] = { id, kind: 'analysis', key: key(), ply: G.ply, toMove: G.state.to_move };
}

function setAnalysis(on) {
  G.analysis = on;
  const b = $('analysis');
  b.setAttribute('aria-pressed', String(on));
  b.textContent = on ? '■ Stop analysis' : '▶ Analysis';
  b.classList.toggle('on', on);
  if (on) startAnalysis();
  else { G.engines.stop(0); G.slotReq[0] = null; G.lines = []; $('analysis-stats').textContent = ''; }
  renderAnalysis();
  drawBoard();
}

function onLine(msg) {
  logLine(msg.slot, '< ' + msg.line);
  const info = parseInfo(msg.line);
  const req = G.slotReq[msg.slot];
  if (!info || !req) return;
  let v = scoreValue(info);
  if (req.toMove === 2) v = -v;
  if (req.key !== key(req.ply)) return; // a search of a line no longer shown
  if (info.multipv === 1 && info.score !== undefined) G.scores[req.ply] = v;
  if (req.ply !== G.ply) return;
  if (req.kind === 'analysis' && G.analysis) {
    G.lines[info.multipv - 1] = { depth: info.depth, value: v, pv: info.pv || [] };
    $('analysis-stats').textContent = `depth ${info.depth} · ${fmt(info.nodes)} nodes · ${fmt(info.nps)} nps`;
    renderAnalysis();
    if (info.multipv === 1) drawBoard();
  }
  renderEval();
  if (msg.t) G.stats.info.push(Date.now() - msg.t);
}

function fmt(n) {
  if (n === undefined) return '?';
  if (n >= 1e6) return (n / 1e6).toFixed(1) + 'M';
  if (n >= 1e3) return (n / 1e3).toFixed(0) + 'k';
  return String(n);
}

// ---------------------------------------------------------------- hints

// Asks engine 1 for its best move in the shown position, to show and not to play.
function askHint() {
  if (G.state.result !== 'none') { showError('the game is over'); return; }
  if (G.playId) { showError('the engine is thinking'); return; }
  if (G.analysis) setAnalysis(false);
  const id = G.engines.go(0, lineTo(G.ply), { movetime: movetime() });
  if (!id) { showError('no connection to the engines (reload the page)'); return; }
  G.hintId = id;
  G.slotReq[0] = { id, kind: 'hint', key: key(), ply: G.ply, toMove: G.state.to_move };
  $('hint-text').textContent = 'Hint: thinking…';
}

function setHint(hint) {
  G.hint = hint;
  $('hint-text').textContent = hint ? `Hint: ${hint.move}` : '';
  $('hint-text').dataset.move = hint ? hint.move : '';
}

function onBestmove(msg) {
  if (msg.id && msg.id === G.hintId) {
    G.hintId = 0;
    const req = G.slotReq[msg.slot];
    if (!req || req.key !== key()) { setHint(null); return; } // the position changed meanwhile
    setHint(msg.move ? { key: req.key, move: msg.move } : null);
    if (!msg.move) $('hint-text').textContent = 'Hint: no move';
    drawBoard();
    return;
  }
  if (msg.id !== G.playId) return;
  G.playId = 0;
  const req = G.slotReq[msg.slot];
  if (!req || req.key !== key()) return; // the position changed meanwhile
  if (msg.move) play(msg.move);
}

function onEngineError(msg) {
  showError(msg.message);
  if (msg.id && msg.id === G.hintId) { G.hintId = 0; setHint(null); }
  if (msg.id && msg.id === G.playId) {
    G.playId = 0;
    $('play-mode').value = 'none';
  }
  const e = G.engines.list[msg.slot];
  if (e && msg.dead) { e.state = 'dead'; renderEngines(); }
}

function renderEngines() {
  const box = $('engine-list');
  box.textContent = '';
  for (const e of G.engines.list) {
    const row = document.createElement('div');
    row.className = `engine ${e.state}`;
    row.innerHTML = `<span class="dot"></span><span class="name"></span>`;
    row.querySelector('.name').textContent = `${e.slot + 1}: ${e.name}`;
    if (e.state === 'dead') {
      const b = document.createElement('button');
      b.className = 'restart';
      b.id = `restart-${e.slot}`;
      b.textContent = 'Restart';
      b.onclick = () => { e.state = 'starting'; renderEngines(); G.engines.restart(e.slot); };
      row.appendChild(b);
    }
    box.appendChild(row);
  }
}

// The engine log keeps a whole game at a weak level in view (which reports 16 to 32 lines
// a move); past LOG_CHARS it is cut to its last LOG_LINES lines.
const LOG_LINES = 3000;
const LOG_CHARS = 400000;
function logLine(slot, text) {
  const pre = $('engine-log');
  pre.textContent += `[${slot + 1}] ${text}\n`;
  if (pre.textContent.length > LOG_CHARS) pre.textContent = pre.textContent.split('\n').slice(-LOG_LINES).join('\n');
}

// ---------------------------------------------------------------- games and rules

// The level selector: each level with its Elo on the game's measured scale (`levels` of
// /api/games, the random player at 0), kept at the level chosen when the game changes.
function renderLevels() {
  const sel = $('level');
  const elo = gameInfo().levels || [];
  const chosen = sel.value || '20';
  sel.textContent = '';
  for (let l = 0; l <= 20; l++) {
    const name = l === 20 ? 'Level 20 (full strength)' : `Level ${l}`;
    sel.add(new Option(elo[l] === undefined ? name : `${name} · Elo ${elo[l]}`, String(l)));
  }
  sel.value = chosen;
  sel.dataset.game = G.game;
}

function gameInfo(name = G.game) {
  return G.games.find(g => g.name === name);
}

function defaultRules(name) {
  const rules = {};
  for (const o of gameInfo(name).options) rules[o.name] = o.default;
  return rules;
}

function renderRules() {
  const box = $('rules');
  box.textContent = '';
  for (const o of gameInfo().options) {
    const label = document.createElement('label');
    label.textContent = o.name + ' ';
    let input;
    if (o.type === 'check') {
      input = document.createElement('input');
      input.type = 'checkbox';
      input.checked = G.rules[o.name] === 'true';
    } else if (o.type === 'combo') {
      input = document.createElement('select');
      for (const v of o.vars) input.add(new Option(v, v));
      input.value = G.rules[o.name];
    } else {
      input = document.createElement('input');
      input.size = 14;
      input.value = G.rules[o.name];
    }
    input.dataset.option = o.name;
    input.onchange = async () => {
      const value = o.type === 'check' ? String(input.checked) : input.value;
      const ok = await show({ rules: { ...G.rules, [o.name]: value } });
      if (!ok) renderRules(); // back to the rules in force
    };
    label.appendChild(input);
    box.appendChild(label);
  }
}

async function selectGame(name) {
  const ok = await show({ game: name, rules: defaultRules(name), start: null, moves: [], ply: 0 });
  $('game').value = G.game;
  if (ok) renderRules();
}

// ---------------------------------------------------------------- match logs

let logGames = [];
async function loadLog(file) {
  const text = await file.text();
  let res, body;
  try {
    res = await api('/api/log', { method: 'POST', body: text });
    body = await res.json();
  } catch (e) { showError('cannot load the log: ' + e.message); return; }
  if (!res.ok) { showError('match log: ' + body.error); return; }
  logGames = body;
  const sel = $('log-games');
  sel.textContent = '';
  for (const [i, g] of body.entries()) {
    sel.add(new Option(`#${g.number} ${g.game}: ${g.players[0]} – ${g.players[1]} ${g.result}`, i));
  }
  sel.hidden = false;
  await loadLogGame(0);
}

async function loadLogGame(i) {
  const g = logGames[i];
  if (!g) return;
  $('play-mode').value = 'none';
  const rules = { ...defaultRules(g.game) };
  for (const [n, v] of g.rules) rules[n] = v;
  const ok = await show({ game: g.game, rules, start: g.start, moves: g.moves, ply: 0 });
  if (ok) {
    $('game').value = G.game;
    renderRules();
    $('log-info').textContent = `${g.players[0]} – ${g.players[1]}: ${g.result} (${g.reason}), ${g.moves.length} moves`;
  }
}

// ---------------------------------------------------------------- game records and links

// The shown game as the address's fragment: game, rules, start, moves (and the ply shown
// when it is not the end), so that a copied link opens the same position.
function fragment() {
  const p = new URLSearchParams({ game: G.game });
  const rules = Object.entries(G.rules).map(([n, v]) => `${n}=${v}`).join(' ');
  if (rules) p.set('rules', rules);
  if (G.start) p.set('start', G.start);
  if (G.moves.length) p.set('moves', G.moves.join(' '));
  if (G.ply !== G.moves.length) p.set('ply', String(G.ply));
  return p.toString();
}

// Opens the game the fragment names; a fragment that does not replay is shown in #error.
async function openFragment(hash = location.hash) {
  const p = new URLSearchParams(hash.slice(1));
  const game = p.get('game');
  if (!game) return;
  if (!gameInfo(game)) { showError(`link: no game '${game}'`); return; }
  const rules = defaultRules(game);
  for (const word of (p.get('rules') || '').split(' ').filter(Boolean)) {
    const at = word.indexOf('=');
    if (at > 0) rules[word.slice(0, at)] = word.slice(at + 1);
  }
  const moves = (p.get('moves') || '').split(' ').filter(Boolean);
  const ply = p.has('ply') ? Number(p.get('ply')) : moves.length;
  await loadGame({ game, rules, start: p.get('start') || null, moves, ply: Number.isInteger(ply) ? ply : moves.length }, 'link');
}

// Shows a whole game (a record, a log game, a link) for stepping through: nobody plays.
async function loadGame(change, what) {
  $('play-mode').value = 'none';
  G.playId = 0;
  const ok = await show(change);
  if (!ok) $('error').textContent = `${what}: ${$('error').textContent}`;
  $('game').value = G.game;
  renderRules();
  return ok;
}

function playerNames() {
  const mode = $('play-mode').value;
  const engine = slot => (G.engines.list[slot] || { name: 'engine' }).name;
  if (mode === 'p1') return ['you', engine(0)];
  if (mode === 'p2') return [engine(0), 'you'];
  if (mode === 'ee') return [engine(0), engine(G.engines.list.length > 1 ? 1 : 0)];
  return ['', ''];
}

// Save game: the server writes the record (src/record.rs), the page downloads it.
async function saveGame() {
  let res, text;
  try {
    res = await api('/api/record/save', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ line: lineTo(G.moves.length), players: playerNames() }),
    });
    text = await res.text();
  } catch (e) { showError('cannot save the game: ' + e.message); return; }
  if (!res.ok) {
    let message = text;
    try { message = JSON.parse(text).error; } catch { /* the text itself */ }
    showError('save game: ' + message);
    return;
  }
  const a = $('save-link');
  if (a.href) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = `${G.game}-${new Date().toISOString().slice(0, 10)}.txt`;
  a.click();
}

// Open game: the server reads the record; an error names its line and field.
async function openGame(file) {
  const text = await file.text();
  let res, body;
  try {
    res = await api('/api/record/open', { method: 'POST', body: text });
    body = await res.json();
  } catch (e) { showError('cannot open the game: ' + e.message); return; }
  if (!res.ok) { showError(body.error); return; }
  const game = body.game.toLowerCase();
  const rules = { ...defaultRules(game) };
  for (const [n, v] of body.rules) rules[n] = v;
  const start = body.start === 'startpos' ? null : body.start;
  if (await loadGame({ game, rules, start, moves: body.moves, ply: body.moves.length }, 'game record')) {
    const names = body.players.filter(Boolean);
    $('record-info').textContent = `${names.length ? body.players.join(' – ') + ': ' : ''}${body.result}, ${body.moves.length} moves`;
  }
}

// ---------------------------------------------------------------- review

// The review, if it is of the line shown (all its moves).
function reviewOfLine() {
  return G.review && G.review.key === JSON.stringify(lineTo(G.moves.length)) ? G.review : null;
}

// Review game: the server searches every position (src/review.rs) and marks the moves.
async function reviewGame() {
  if (!G.moves.length) { showError('no moves to review'); return; }
  const line = lineTo(G.moves.length);
  $('review-info').textContent = 'reviewing…';
  let res, body;
  try {
    res = await api('/api/review', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ line, depth: Number($('review-depth').value) }),
    });
    body = await res.json();
  } catch (e) { $('review-info').textContent = ''; showError('cannot review the game: ' + e.message); return; }
  if (!res.ok) { $('review-info').textContent = ''; showError(body.error); return; }
  G.review = { key: JSON.stringify(line), moves: body.moves, players: body.players };
  renderReview();
  renderMoves();
  renderEval();
}

const MARK_NAME = { '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' };

// A review's evaluation (src/review.rs: {cp: N}, {mate: N} or {over: 1|0|-1}, from the
// mover's view) turned to the other player's view.
function flipEval(e) {
  if ('cp' in e) return { cp: -e.cp };
  if ('mate' in e) return { mate: -e.mate };
  return { over: -e.over };
}

// As `shove review` writes it: +0.35, #5, #-5, won, drawn, lost.
function evalText(e) {
  if ('cp' in e) return (e.cp >= 0 ? '+' : '') + (e.cp / 100).toFixed(2);
  if ('mate' in e) return `#${e.mate}`;
  return e.over > 0 ? 'won' : e.over < 0 ? 'lost' : 'drawn';
}

// The review's evaluation of the position after `ply` moves, from player one's view.
function reviewEval(r, ply) {
  const m = ply < r.moves.length ? r.moves[ply] : r.moves[ply - 1];
  const e = ply < r.moves.length ? m.before : m.after;
  return m.mover === 1 ? e : flipEval(e);
}

// Player one's winning chance (0..1) after each ply by the review (the game's own sigmoid).
function reviewShares(r) {
  const shares = r.moves.map(m => (m.mover === 1 ? m.win_before : 100 - m.win_before) / 100);
  const last = r.moves[r.moves.length - 1];
  shares.push((last.mover === 1 ? last.win_after : 100 - last.win_after) / 100);
  return shares;
}

// The reviewed move whose best move is shown, if any.
function shownBest() {
  const r = reviewOfLine();
  return r && G.reviewBest !== null && G.ply === G.reviewBest - 1 ? r.moves[G.reviewBest - 1] : null;
}

// A marked move clicked (in the move list or on the graph): the position before it, with
// the review's best move there as an arrow and in words.
async function showBest(ply) {
  const m = reviewOfLine() && G.review.moves[ply - 1];
  if (!m || !m.best) { jump(ply); return; }
  G.reviewBest = ply;
  if (G.ply !== ply - 1) {
    if (!(await show({ ply: ply - 1 }))) G.reviewBest = null;
    return;
  }
  render();
}

function renderReviewBest() {
  const box = $('review-best');
  const m = shownBest();
  box.textContent = '';
  box.hidden = !m;
  box.dataset.move = m ? m.best : '';
  box.dataset.ply = m ? m.ply : '';
  if (!m) return;
  const mark = m.mark ? ` ${m.mark}` : '';
  box.textContent = `${m.ply}. ${m.move}${mark}: best was ${m.best} (eval ${evalText(m.before)} for `
    + `${playerName(m.mover)}; after ${m.move}: ${evalText(m.after)})`;
}

function renderReview() {
  renderReviewBest();
  const r = reviewOfLine();
  const info = $('review-info');
  info.textContent = '';
  if (!r) return;
  r.players.forEach((p, i) => {
    const row = document.createElement('div');
    row.className = 'review-player';
    row.dataset.player = i + 1;
    const accuracy = p.accuracy === null ? '–' : p.accuracy.toFixed(1);
    row.textContent = `${playerName(i + 1)}: accuracy ${accuracy} · ${p.inaccuracies} ?! · ${p.mistakes} ? · ${p.blunders} ??`;
    info.appendChild(row);
  });
}

// ---------------------------------------------------------------- start

async function main() {
  const res = await api('/api/games');
  const games = await res.json().catch(() => ({ error: `server answered ${res.status}` }));
  if (!res.ok) throw new Error(games.error || `server answered ${res.status}`);
  G.games = games;
  const sel = $('game');
  for (const g of G.games) sel.add(new Option(g.name.charAt(0).toUpperCase() + g.name.slice(1), g.name));
  G.engines = new Engines(TOKEN, {
    engines: () => renderEngines(),
    ready: msg => { const e = G.engines.list[msg.slot]; if (e) { e.state = 'ready'; e.name = msg.name; } renderEngines(); },
    line: onLine,
    sent: msg => logLine(msg.slot, '> ' + msg.line),
    bestmove: onBestmove,
    error: onEngineError,
    idle: msg => { if (G.analysis) setAnalysis(false); showError(msg.message); },
    // A refusal (too many pages open) comes as the close reason.
    closed: ev => {
      G.connectionLost = ev.reason || 'the connection to the server was lost (reload the page)';
      showError(G.connectionLost);
    },
  });
  G.rules = defaultRules(G.game);
  sel.value = G.game;
  sel.onchange = () => selectGame(sel.value);
  renderRules();
  const linked = location.hash; // before show() writes the fragment of the default game
  await show({});
  await openFragment(linked);
  window.addEventListener('hashchange', () => { if (location.hash.slice(1) !== fragment()) openFragment(); });

  $('board').addEventListener('click', ev => {
    const t0 = performance.now();
    const g = ev.target.closest('[data-cell]');
    if (g) onCellClick(g.dataset.cell, t0);
  });
  $('new-game').onclick = () => { G.playId = 0; show({ start: null, moves: [], ply: 0 }); };
  $('flip').onclick = () => { G.flipped = !G.flipped; render(); };
  $('undo').onclick = undo;
  $('hint').onclick = askHint;
  $('engine-play').onclick = () => enginePlay(0);
  $('play-mode').onchange = () => afterChange();
  $('analysis').onclick = () => setAnalysis(!G.analysis);
  $('multipv').onchange = () => G.analysis && startAnalysis();
  const playTyped = async () => {
    if (await play($('move-input').value.trim())) $('move-input').value = '';
  };
  $('move-play').onclick = playTyped;
  $('move-input').onkeydown = ev => { if (ev.key === 'Enter') playTyped(); };
  const loadPosition = async () => {
    const text = $('position-input').value.trim();
    if (!text) { showError('paste a position string first'); return; }
    if (await show({ start: text, moves: [], ply: 0 })) $('position-input').value = '';
  };
  $('position-load').onclick = loadPosition;
  $('position-input').onkeydown = ev => { if (ev.key === 'Enter') loadPosition(); };
  $('first').onclick = () => jump(0);
  $('prev').onclick = () => jump(G.ply - 1);
  $('next').onclick = () => jump(G.ply + 1);
  $('last').onclick = () => jump(G.moves.length);
  $('log-file').onchange = ev => ev.target.files[0] && loadLog(ev.target.files[0]);
  $('log-games').onchange = ev => loadLogGame(Number(ev.target.value));
  $('save-game').onclick = saveGame;
  $('review').onclick = reviewGame;
  window.addEventListener('resize', () => renderEval());
  $('open-file').onchange = ev => { const f = ev.target.files[0]; ev.target.value = ''; if (f) openGame(f); };
  document.addEventListener('keydown', ev => {
    if (ev.target.tagName === 'INPUT' || ev.target.tagName === 'SELECT') return;
    if (ev.key === 'ArrowLeft') jump(G.ply - 1);
    if (ev.key === 'ArrowRight') jump(G.ply + 1);
  });
  document.body.dataset.ready = 'true';
}

main().catch(e => showError('the page could not start: ' + e.message));
