// The page: game state (a tree of moves from a start, the line shown checked by the
// server's rules), the board, the controls, the engines. Features live in their own
// modules: tree.js (the move tree), review.js, i18n.js (the page's languages).

import { draw } from './board.js';
import { connectEngines } from './engines.js';
import { parseInfo, scoreValue, scoreText } from './info.js';
import { drawGraph, share } from './graph.js';
import * as tree from './tree.js';
import { reviewView, reviewShares, reviewEval, evalText, MARK_NAME } from './review.js';
import { t, translatePage, phaseText, languageSwitch, language, plural, sayInto } from './i18n.js';
import * as players from './players.js';
import { TOKEN, closeText, eventText, reasonOf, xhr } from './api.js';
import { sitePath } from './site.js';

const $ = id => document.getElementById(id);

// The page's state: this module's, handed to the views (review.js) in `ctrl`.
const G = {
  games: [],          // [{name, players, options}]
  game: 'akiba',
  rules: {},          // rule option name → value (text)
  start: null,        // position string the line starts from (null: the start position)
  tree: tree.node(),  // every line tried (tree.js)
  moves: [],          // the line shown: the path to a node and its main continuation
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
  errorSaid: null,    // the error shown, as words said in the page's language (showError)
  stats: { info: [], click: [], select: [] },
};
window.shoveStats = G.stats;

// The controller the view modules get (none imports app.js back): the page's state and
// the actions they call.
const ctrl = { page: G, lineTo, playerName, show, jump, render, renderMoves, renderEval, showError };
const { reviewOfLine, reviewGame, cancelReview, shownBest, showBest, renderReview } = reviewView(ctrl);

// ---------------------------------------------------------------- server state

function lineTo(ply, moves = G.moves, start = G.start, rules = G.rules, game = G.game) {
  return { game, rules: Object.entries(rules), start, moves: moves.slice(0, ply) };
}

// Replaces the shown game if the server accepts it; otherwise shows why and keeps all.
// `change.tree`: a new move tree (a game opened); a new game, start or rules starts one.
async function show(change) {
  const next = { moves: G.moves, ply: G.ply, start: G.start, rules: G.rules, game: G.game, ...change };
  delete next.tree;
  delete next.played;
  delete next.by;
  const side = G.state ? G.state.to_move : null;
  let state;
  try {
    state = await xhr.state(lineTo(next.ply, next.moves, next.start, next.rules, next.game));
  } catch (e) {
    showError(() => reasonOf(e));
    return false;
  }
  const restart = next.game !== G.game || next.start !== G.start || JSON.stringify(next.rules) !== JSON.stringify(G.rules);
  const animate = restart ? null : animationOf(G.ply, next.ply, next.moves);
  const gameChanged = next.game !== G.game;
  Object.assign(G, next);
  if (change.tree) G.tree = change.tree;
  else if (restart) G.tree = tree.node();
  if (change.tree || restart) forgetGame(gameChanged);
  const reached = tree.addLine(G.tree, G.moves.slice(0, G.ply));
  tree.addLine(G.tree, G.moves);
  if (change.played && change.by) reached.by = { side, name: change.by };
  G.scores = tree.nodesOf(G.tree, G.moves).map(n => n.score);
  G.animate = animate && { ...animate, chain: next.game !== 'abraxas' };
  G.shownAt = performance.now();
  G.state = state;
  G.selected = null;
  G.picked = [];
  G.lines = [];
  if (G.hint && G.hint.key !== key()) setHint(null);
  if (G.reviewBest !== null && (G.ply !== G.reviewBest - 1 || !reviewOfLine())) G.reviewBest = null;
  clearError();
  render();
  renderLink();
  afterChange(!!change.played);
  return true;
}

// Another game on the board: what was said of the one before goes (the record or log
// game opened, a review's end, the hint); another game is seen from the side its player
// plays.
function forgetGame(gameChanged) {
  G.resigned = null;
  for (const id of ['record-info', 'review-progress', 'log-info']) $(id).textContent = '';
  if (gameChanged) G.flipped = humanSide() === 2;
}

// The move to animate when one step forward is shown: {from, to} of a move between two
// cells (a push).
function animationOf(ply, nextPly, moves) {
  if (nextPly !== ply + 1) return null;
  const mv = moves[ply];
  const cells = mv && !mv.startsWith('x') ? mv.match(/[a-i][1-9]/g) : null;
  return cells && cells.length === 2 ? { from: cells[0], to: cells[1] } : null;
}

function key(ply = G.ply) {
  return JSON.stringify(lineTo(ply));
}

// ---------------------------------------------------------------- errors

// `message`: the words, or a function saying them in the page's language (said again when
// the language changes; a server's answer comes said in the language it was asked in).
function showError(message) {
  const e = $('error');
  G.errorSaid = typeof message === 'function' ? message : null;
  e.textContent = G.errorSaid ? G.errorSaid() : message;
  e.hidden = false;
}

// The error shown, in the language just chosen.
function sayErrorAgain() {
  if (G.errorSaid && !$('error').hidden) $('error').textContent = G.errorSaid();
}

// The connection to the engines lost or refused stays shown: nothing else works without it.
function clearError() {
  if (G.connectionLost) { showError(G.connectionLost); return; }
  const e = $('error');
  G.errorSaid = null;
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
  // The last turn: the last move and the same player's moves just before it.
  const last = new Set();
  let lastFrom = null;
  if (G.ply > 0) {
    const movers = s.movers, mover = movers[G.ply - 1];
    for (let i = G.ply - 1; i >= 0 && movers[i] === mover; i--) {
      for (const c of G.moves[i].match(/[a-i][1-9]/g) || []) last.add(c);
    }
    const cells = G.moves[G.ply - 1].match(/[a-i][1-9]/g) || [];
    if (cells.length === 2 && !G.moves[G.ply - 1].startsWith('x')) lastFrom = cells[0];
  }
  const best = shownBest();
  draw($('board'), s, { flipped: G.flipped, selected: G.selected, targets, sources, lastMove: last, lastFrom,
    picked: new Set(G.picked), animate: G.animate, arrows: arrows(), best: best ? best.best : null });
  G.animate = null;
}

// What the last move shown did, in words.
function lastMoveText() {
  return players.lastMoveText(G.state, G.moves.slice(0, G.ply), gameOver());
}

function playerName(p) {
  return players.playerName(G.state, p);
}

function movesText(n) {
  return plural(n, t('{n} move', { n }), t('{n} moves', { n }));
}

function playerBar(p) {
  return players.playerBar(G.state, p, { who: playerNames(true)[p - 1], over: gameOver() });
}

// The game shown ends in a resignation: at its end, as after any ended game, no move is
// played and no engine searches.
function resignedHere() {
  return !!G.resigned && G.ply === G.moves.length && G.resigned.key === key(G.moves.length);
}

// The position shown takes no move: the game ended there by the rules or by a resignation.
function gameOver() {
  return G.state.result !== 'none' || resignedHere();
}

function statusText() {
  const s = G.state;
  const extra = s.game === 'akiba' ? ` · ${plural(s.extras.left.red, t('{n} red on the board', { n: s.extras.left.red }), t('{n} reds on the board', { n: s.extras.left.red }))}`
    : s.game === 'abraxas' ? ` · ${t('pool {n} · plate in the {corner} corner', { n: s.extras.pool, corner: players.cornerName(s.extras.corner) })}` : '';
  if (resignedHere()) {
    return t('{loser} resigned: {winner} wins', { loser: playerName(G.resigned.player), winner: playerName(3 - G.resigned.player) });
  }
  switch (s.result) {
    case 'p1win': return t('{player} wins', { player: playerName(1) });
    case 'p2win': return t('{player} wins', { player: playerName(2) });
    case 'draw': return t('Draw');
    default: return t('{player} to move: {phase}', { player: playerName(s.to_move), phase: phaseText(s.phase) }) + extra;
  }
}

function render() {
  const s = G.state;
  if ($('level').dataset.game !== G.game) renderLevels();
  drawBoard();
  const [top, bottom] = G.flipped ? [1, 2] : [2, 1];
  $('player-top').innerHTML = playerBar(top);
  $('player-bottom').innerHTML = playerBar(bottom);
  const over = gameOver();
  $('player-top').classList.toggle('active', !over && s.to_move === top);
  $('player-bottom').classList.toggle('active', !over && s.to_move === bottom);
  const st = $('status');
  st.dataset.result = s.result;
  st.textContent = statusText();
  $('last-move').textContent = lastMoveText();
  renderStoneChoice();
  $('rules-link').href = sitePath(`rules/${G.game}?lang=${language}`);
  $('puzzles-link').href = sitePath(`puzzles#game=${G.game}`);
  $('learn-link').href = sitePath(`learn#game=${G.game}`);
  // At the end of the line only: a game ends there.
  $('resign').disabled = !humanSide() || over || G.ply !== G.moves.length;
  $('phase').textContent = over ? '' : `· ${s.legal.length}`;
  $('position').textContent = s.position;
  const legal = $('legal-moves');
  legal.textContent = '';
  for (const m of over ? [] : s.legal) {
    const b = document.createElement('button');
    b.className = 'move-button' + (m.from || m.to ? '' : ' word');
    b.dataset.move = m.text;
    if (m.from) b.dataset.from = m.from;
    if (m.to) b.dataset.to = m.to;
    b.textContent = players.moveWord(m.text);
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
  const branches = tree.branches(G.tree, G.moves);
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
      li.title = t('{mark}: best was {best} (click to see it)', { mark: t(MARK_NAME[reviewed.mark]), best: reviewed.best });
      li.appendChild(mark);
      li.onclick = () => showBest(i + 1);
    } else {
      li.onclick = () => jump(i + 1);
    }
    list.appendChild(li);
    for (const b of branches.filter(b => b.ply === i + 1)) list.appendChild(variationItem(b));
  });
  $('promote').disabled = !G.moves.length || tree.mainLine(G.tree).join(' ') === G.moves.join(' ');
  $('delete-moves').disabled = G.ply === 0;
  const current = list.querySelector('.current');
  if (current) current.scrollIntoView({ block: 'nearest' });
}

// Another line tried instead of the move at `b.ply`: its moves, each opening the line
// through it.
function variationItem(b) {
  const li = document.createElement('li');
  li.className = 'variation';
  li.dataset.ply = b.ply;
  const before = G.moves.slice(0, b.ply - 1);
  b.line.forEach((mv, k) => {
    const span = document.createElement('span');
    span.className = 'var-move';
    span.dataset.varMove = mv;
    span.innerHTML = `<span class="n">${b.ply + k}</span>`;
    span.append(mv);
    const moves = before.concat(b.line.slice(0, k + 1));
    span.onclick = () => show({ moves: tree.continued(G.tree, moves), ply: moves.length });
    li.appendChild(span);
  });
  return li;
}

// The eval bar and graph: the review's evaluations once the line is reviewed, else the
// full-strength scores as they arrive (a weak level's own search is no evaluation of the
// position: onLine keeps none of it); during play the bar shows the last evaluation (the
// score of the latest position searched up to the one shown; against a weak level only
// the position's own, from a hint or the analysis), unless evaluations are hidden while
// playing. An ended game shows its result.
function renderEval() {
  const r = reviewOfLine();
  const hidden = !r && !$('show-eval').checked && humanSide() !== null && !gameOver();
  const shares = hidden ? [] : r ? reviewShares(r) : G.scores.map(v => v === undefined ? undefined : share(v));
  let at = G.ply;
  if (!r && !weakPlay()) while (at > 0 && G.scores[at] === undefined) at--;
  let p1 = shares[at];
  let text = '';
  const ended = r ? null : endShare();
  if (hidden) text = '';
  else if (r) text = evalText(reviewEval(r, G.ply));
  else if (ended !== null) { p1 = ended; text = ended === 1 ? '1-0' : ended === 0.5 ? '½' : '0-1'; }
  else if (G.scores[at] !== undefined) text = scoreText(G.scores[at]);
  // Two decimals of ±10 and more do not fit the bar: one is enough there.
  text = text.replace(/^([+-]\d{2,}\.\d)\d$/, '$1');
  const bar = $('evalbar');
  bar.querySelector('.evalbar-fill').style.height = `${((p1 ?? 0.5) * 100).toFixed(1)}%`;
  bar.classList.toggle('flipped', G.flipped);
  bar.classList.toggle('hidden-eval', hidden);
  bar.dataset.share = p1 === undefined ? '' : p1.toFixed(3);
  const label = bar.querySelector('.evalbar-text');
  label.textContent = text;
  label.classList.toggle('p2', p1 !== undefined && p1 < 0.5);
  const marks = r ? r.moves.filter(m => m.mark).map(m => ({ ply: m.ply, mark: m.mark, cls: MARK_NAME[m.mark] })) : [];
  drawGraph($('graph'), { shares, plies: G.moves.length, current: G.ply, marks, onJump: jump, onMark: showBest });
}

// Player one's share of the game shown if it has ended (1 won, 0.5 drawn, 0 lost), else null.
function endShare() {
  if (resignedHere()) return G.resigned.player === 1 ? 0 : 1;
  return { p1win: 1, p2win: 0, draw: 0.5 }[G.state.result] ?? null;
}

// Someone plays against an engine below full strength: its own searches say nothing of
// the position's value.
function weakPlay() {
  return $('play-mode').value !== 'none' && Number($('level').value) < 20;
}

function renderAnalysis() {
  const box = $('analysis-lines');
  box.textContent = '';
  if (!G.analysis) return;
  if (gameOver()) {
    box.innerHTML = '<div class="analysis-line muted">game over</div>';
    return;
  }
  G.lines.forEach((l, i) => {
    if (!l) return;
    const d = document.createElement('div');
    d.className = 'analysis-line';
    d.dataset.multipv = i + 1;
    d.innerHTML = `<span class="score">${scoreText(l.value)}</span><span class="depth">${t('depth')} ${l.depth}</span><span class="pv"></span>`;
    d.querySelector('.pv').textContent = l.pv.join(' ');
    d.onclick = () => l.pv.length && play(l.pv[0]);
    box.appendChild(d);
  });
}

// ---------------------------------------------------------------- moves

// A move at the position shown: the next move of the line, another line kept in the tree
// (a variation), or one already tried there. `by`: who decided it, as a record names them
// (by default the person, who clicked or typed it; nobody while nobody plays).
async function play(text, by = $('play-mode').value === 'none' ? null : 'you') {
  if (!text) { showError(() => t('type a move first')); return false; }
  if (resignedHere()) { showError(() => t('the game is over')); return false; }
  const moves = G.moves.slice(0, G.ply).concat([text]);
  return show({ moves: tree.continued(G.tree, moves), ply: moves.length, played: true, by });
}

// The line shown made one step more main (repeated: the main line).
function promoteLine() {
  if (tree.promote(G.tree, G.moves)) render();
}

// The move shown and everything after it deleted from the tree.
function deleteFromHere() {
  if (G.ply === 0) return;
  const cutAt = G.ply;
  if (!tree.cut(G.tree, G.moves, cutAt)) return;
  show({ moves: tree.continued(G.tree, G.moves.slice(0, cutAt - 1)), ply: cutAt - 1 });
}

function jump(ply) {
  ply = Math.max(0, Math.min(ply, G.moves.length));
  if (ply !== G.ply) show({ ply });
}

// Who plays: the mode chosen (none, p1, p2, ee); the board turns to the person's side.
function setPlayMode(mode) {
  $('play-mode').value = mode;
  G.flipped = mode === 'p2';
  render();
  renderLink();
  afterChange();
}

function humanSide() {
  const mode = $('play-mode').value;
  return mode === 'p1' ? 1 : mode === 'p2' ? 2 : null;
}

function undo() {
  if (G.ply === 0) { showError(() => t('nothing to undo')); return; }
  G.playId = 0;
  const movers = G.state.movers, human = humanSide();
  let n = G.ply - 1;
  // Against the engine, back to the last position where it was your decision.
  while (human && n > 0 && movers[n] !== human) n--;
  // Taken back: deleted from the tree, not kept as a variation.
  tree.cut(G.tree, G.moves, n + 1);
  show({ moves: G.moves.slice(0, n), ply: n });
}

function onCellClick(cell, t0) {
  const s = G.state;
  if (gameOver()) return;
  if (G.playId && engineSide(s.to_move) !== null) { showError(() => t('the engine is thinking')); return; }
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
  if (placements.length) {
    // Abraxas: red or blue as chosen under the board, where both may go here.
    const blue = stoneChoice() === 'blue' && placements.find(m => m.text.startsWith('!'));
    playTimed((blue || placements[0]).text, t0);
    return;
  }
  if (pickCapture(cell, t0)) return;
  if (G.selected) { G.selected = null; drawBoard(); }
}

// The stones of a capture move (`xd5e5`).
function captureCells(text) {
  return text.startsWith('x') ? text.slice(1).match(/[a-h][1-8]/g) || [] : null;
}

// Abraxas' capture by hand: a click on a ringed line stone picks it (again: drops it);
// once one capture alone holds the stones picked, it is played.
function pickCapture(cell, t0) {
  const sets = G.state.legal.map(m => ({ text: m.text, cells: captureCells(m.text) })).filter(m => m.cells);
  if (!sets.some(m => m.cells.includes(cell))) return false;
  const picked = new Set(G.picked);
  if (picked.has(cell)) picked.delete(cell); else picked.add(cell);
  let fits = sets.filter(m => [...picked].every(c => m.cells.includes(c)));
  if (!fits.length) { picked.clear(); picked.add(cell); fits = sets.filter(m => m.cells.includes(cell)); }
  G.picked = [...picked];
  if (fits.length === 1) {
    G.picked = [];
    playTimed(fits[0].text, t0);
    return true;
  }
  renderStoneChoice();
  drawBoard();
  return true;
}

function stoneChoice() {
  const checked = document.querySelector('input[name=stone]:checked');
  return checked ? checked.value : 'red';
}

// Under the board: the colour of the next stone placed (where both may be placed) and the
// stones picked for a capture with their Take button.
function renderStoneChoice() {
  const s = G.state;
  const both = s.legal.some(m => m.text.startsWith('!')) && s.legal.some(m => /^[a-h][1-8]$/.test(m.text));
  $('stone-choice').hidden = !both;
  const box = $('capture-choice');
  const picked = G.picked || [];
  const exact = s.legal.find(m => {
    const cells = captureCells(m.text);
    return cells && cells.length === picked.length && picked.every(c => cells.includes(c));
  });
  box.hidden = !picked.length;
  $('capture-picked').textContent = picked.length ? t('picked: {cells}', { cells: picked.join(' ') }) : '';
  $('take').disabled = !exact;
  $('take').onclick = () => { if (exact) { G.picked = []; play(exact.text); } };
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

// After the position shown changed: the analysis follows it, and the engine plays when it
// is its turn at the end of the line, or after a move played anywhere in it (a turn of
// several decisions is played whole).
function afterChange(played = false) {
  if (G.analysis) startAnalysis();
  if (gameOver() || (G.ply !== G.moves.length && !played)) return;
  const slot = engineSide(G.state.to_move);
  if (slot !== null) enginePlay(slot);
}

function enginePlay(slot = 0) {
  if (gameOver()) { showError(() => t('the game is over')); return; }
  const line = lineTo(G.ply);
  const id = G.engines.go(slot, line, { movetime: movetime(), level: Number($('level').value) });
  if (!id) { showError(() => t('no connection to the engines (reload the page)')); return; }
  G.playId = id;
  // `byHand`: asked by *Engine plays now* for a side no engine plays (it plays that turn whole).
  G.slotReq[slot] = { id, kind: 'play', key: key(), ply: G.ply, toMove: G.state.to_move, level: Number($('level').value),
    byHand: engineSide(G.state.to_move) === null };
  $('status').textContent = `${statusText()} · ${t('engine {n} is thinking…', { n: slot + 1 })}`;
}

function movetime() {
  const v = Number($('movetime').value);
  return Number.isFinite(v) && v >= 10 ? Math.round(v) : 1000;
}

function startAnalysis() {
  G.lines = [];
  if (gameOver()) { renderAnalysis(); return; }
  const id = G.engines.go(0, lineTo(G.ply), { multipv: Number($('multipv').value) });
  if (!id) { showError(() => t('no connection to the engines (reload the page)')); return; }
  G.slotReq[0] = { id, kind: 'analysis', key: key(), ply: G.ply, toMove: G.state.to_move };
}

// The analysis button's words: what a click does.
function analysisLabel() {
  return G.analysis ? `■ ${t('Stop analysis')}` : `▶ ${t('Analysis')}`;
}

function setAnalysis(on) {
  G.analysis = on;
  const b = $('analysis');
  b.setAttribute('aria-pressed', String(on));
  b.textContent = analysisLabel();
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
  const weak = req.kind === 'play' && req.level < 20;
  if (!weak && info.multipv === 1 && info.score !== undefined) {
    G.scores[req.ply] = v;
    const node = tree.nodesOf(G.tree, G.moves.slice(0, req.ply))[req.ply];
    if (node) node.score = v;
  }
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
  if (gameOver()) { showError(() => t('the game is over')); return; }
  if (G.playId) { showError(() => t('the engine is thinking')); return; }
  if (G.analysis) setAnalysis(false);
  const id = G.engines.go(0, lineTo(G.ply), { movetime: movetime() });
  if (!id) { showError(() => t('no connection to the engines (reload the page)')); return; }
  G.hintId = id;
  G.slotReq[0] = { id, kind: 'hint', key: key(), ply: G.ply, toMove: G.state.to_move };
  sayInto($('hint-text'), () => t('Hint: thinking…'));
}

function setHint(hint) {
  G.hint = hint;
  sayInto($('hint-text'), () => (hint ? t('Hint: {move}', { move: hint.move }) : ''));
  $('hint-text').dataset.move = hint ? hint.move : '';
}

function onBestmove(msg) {
  if (msg.id && msg.id === G.hintId) {
    G.hintId = 0;
    const req = G.slotReq[msg.slot];
    if (!req || req.key !== key()) { setHint(null); return; } // the position changed meanwhile
    setHint(msg.move ? { key: req.key, move: msg.move } : null);
    if (!msg.move) sayInto($('hint-text'), () => t('Hint: no move'));
    drawBoard();
    return;
  }
  if (msg.id !== G.playId) return;
  G.playId = 0;
  const req = G.slotReq[msg.slot];
  if (!req || req.key !== key()) return; // the position changed meanwhile
  // Each move of a turn stays in view a moment (an extra move, a re-placement, a stop
  // stone, a capture), so that a turn of several moves is seen step by step.
  const wait = Math.max(0, STEP_MS - (performance.now() - G.shownAt));
  if (msg.move) setTimeout(() => { if (req.key === key()) playEngineMove(msg.move, msg.slot, req); }, wait);
}

// The engine's move played; asked by *Engine plays now* for a side no engine plays, it
// plays on while the turn is that side's, so that a turn of several decisions is whole
// (a side an engine plays goes on by afterChange).
async function playEngineMove(move, slot, req) {
  if (!(await play(move, engineName(slot, req.level)))) return;
  const side = req.toMove;
  if (req.byHand && !G.playId && engineSide(side) === null && !gameOver() && G.state.to_move === side) enginePlay(slot);
}

// The least time a move is shown before the engine's next move replaces it (ms).
const STEP_MS = 450;

// Resign: the person playing against the engine gives up; the result is recorded.
function resign() {
  const human = humanSide();
  if (!human || gameOver() || G.ply !== G.moves.length) return;
  G.resigned = { player: human, key: key(G.moves.length) };
  G.playId = 0;
  G.hintId = 0;
  setHint(null);
  for (const slot of G.engines.list.keys()) G.engines.stop(slot);
  if (G.analysis) setAnalysis(false);
  render();
  renderLink();
}

function onEngineError(msg) {
  showError(() => eventText(msg));
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
    const name = l === 20 ? t('Level 20 (full strength)') : t('Level {n}', { n: l });
    sel.add(new Option(elo[l] === undefined ? name : `${name} · Elo ${elo[l]}`, String(l)));
  }
  sel.value = chosen;
  sel.dataset.game = G.game;
  const depth = $('review-depth').options[0];
  depth.textContent = t('default (depth {depth})', { depth: gameInfo().review_depth });
}

function gameInfo(name = G.game) {
  return G.games.find(g => g.name === name);
}

function defaultRules(name) {
  const rules = {};
  for (const o of gameInfo(name).options) rules[o.name] = o.default;
  return rules;
}

// A rule option's name and a choice's words for the player (the engine's names, such as
// `ExtraMove`, are the protocol's).
function optionName(name) {
  return {
    ExtraMove: t('extra move'), RepeatRule: t('repetition rule'),
    OffboardSectors: t('sector values'), AbraxasSheet: t('sheet'),
    AbraxasTarget: t('stones to win'), AbraxasBlue: t('blue stones'),
  }[name] ?? name;
}

function optionValue(value) {
  return { pushback: t('no push-back'), ko: t('ko') }[value] ?? value;
}

function renderRules() {
  const box = $('rules');
  box.textContent = '';
  for (const o of gameInfo().options) {
    const label = document.createElement('label');
    label.textContent = optionName(o.name) + ' ';
    let input;
    if (o.type === 'check') {
      input = document.createElement('input');
      input.type = 'checkbox';
      input.checked = G.rules[o.name] === 'true';
    } else if (o.type === 'combo') {
      input = document.createElement('select');
      for (const v of o.vars) input.add(new Option(optionValue(v), v));
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
  let body;
  try {
    body = await xhr.log(text);
  } catch (e) { showError(() => t('match log: {reason}', { reason: reasonOf(e) })); return; }
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
    sayInto($('log-info'), () => `${g.players[0]} – ${g.players[1]}: ${g.result} (${g.reason}), ${movesText(g.moves.length)}`);
  }
}

// ---------------------------------------------------------------- game records and links

// The shown game as the address's fragment: game, rules, start, moves (and the ply shown
// when it is not the end), who plays and at which level, so that a copied link opens the
// same game.
function fragment() {
  const p = new URLSearchParams({ game: G.game });
  const rules = Object.entries(G.rules).map(([n, v]) => `${n}=${v}`).join(' ');
  if (rules) p.set('rules', rules);
  if (G.start) p.set('start', G.start);
  if (G.moves.length) p.set('moves', G.moves.join(' '));
  if (G.ply !== G.moves.length) p.set('ply', String(G.ply));
  const mode = $('play-mode').value;
  if (mode !== 'none') {
    p.set('play', mode);
    p.set('level', $('level').value);
  }
  const names = [1, 2].map(side => playerOf(side, G.moves));
  if (names.some(Boolean)) p.set('players', names.join(' – '));
  return p.toString();
}

// The address bar and the Copy link field follow the game shown.
function renderLink() {
  $('link-status').textContent = '';
  history.replaceState(null, '', location.pathname + location.search + '#' + fragment());
  // The game on screen, for this tab's way back from the puzzles, lessons or rules.
  sessionStorage.setItem('shove-board', fragment());
  $('link').value = location.href;
}

// Copy link: the address of the game shown (it opens in another tab of this browser).
async function copyLink() {
  renderLink();
  $('link').select();
  let copied = false;
  try { await navigator.clipboard.writeText($('link').value); copied = true; } catch { /* below */ }
  if (!copied) copied = document.execCommand && document.execCommand('copy');
  const variations = tree.toVariations(G.tree).length > 0;
  const kept = () => (variations ? ` · ${t('the link holds the line shown, not its variations (Save game keeps them)')}` : '');
  sayInto($('link-status'), () => (copied ? t('link copied') : t('select the link and copy it')) + kept());
}

// Opens the game the fragment names; a fragment that does not replay is shown in #error.
async function openFragment(hash = location.hash) {
  const p = new URLSearchParams(hash.slice(1));
  const game = p.get('game');
  if (!game) return;
  if (!gameInfo(game)) { showError(() => t("link: no game '{game}'", { game })); return; }
  const rules = defaultRules(game);
  for (const word of (p.get('rules') || '').split(' ').filter(Boolean)) {
    const at = word.indexOf('=');
    if (at > 0) rules[word.slice(0, at)] = word.slice(at + 1);
  }
  const moves = (p.get('moves') || '').split(' ').filter(Boolean);
  const ply = p.has('ply') ? Number(p.get('ply')) : moves.length;
  const ok = await loadGame({ game, rules, start: p.get('start') || null, moves, ply: Number.isInteger(ply) ? ply : moves.length },
    reason => t('link: {reason}', { reason }));
  const level = p.get('level'), mode = p.get('play');
  const names = (p.get('players') || '').split(' – ');
  if (ok && names.length === 2) await creditMoves(names);
  if (ok && level !== null && [...$('level').options].some(o => o.value === level)) $('level').value = level;
  if (ok && ['p1', 'p2', 'ee'].includes(mode)) setPlayMode(mode);
}

// Shows a whole game (a record, a log game, a link) for stepping through: nobody plays.
// `said(reason)`: a refusal's words, saying what was opened.
async function loadGame(change, said) {
  if (!change.tree) change = { ...change, tree: tree.treeOf(change.moves) };
  $('play-mode').value = 'none';
  G.playId = 0;
  const ok = await show(change);
  if (!ok) {
    const reason = G.errorSaid, text = $('error').textContent;
    showError(() => said(reason ? reason() : text));
  }
  $('game').value = G.game;
  renderRules();
  return ok;
}

// An engine with its level, as records and links name it.
function engineName(slot, level) {
  return `${(G.engines.list[slot] || { name: 'engine' }).name} (level ${level})`;
}

// Who plays each side now, the engines with their level: as records and links write them,
// or in the page's language (`shown`).
function playerNames(shown = false) {
  const mode = $('play-mode').value;
  const level = Number($('level').value);
  const engine = slot => {
    const name = (G.engines.list[slot] || { name: 'engine' }).name;
    return shown ? t('{engine} (level {level})', { engine: name, level }) : engineName(slot, level);
  };
  const you = shown ? t('you') : 'you';
  if (mode === 'p1') return [you, engine(0)];
  if (mode === 'p2') return [engine(0), you];
  if (mode === 'ee') return [engine(0), engine(G.engines.list.length > 1 ? 1 : 0)];
  return ['', ''];
}

// Who decided the moves of `side` in `moves`, as a record names them: each player in the
// order they came (an engine at each level it played), or whoever plays the side now if
// none of its moves says.
function playerOf(side, moves) {
  const names = [];
  for (const n of tree.nodesOf(G.tree, moves).slice(1)) {
    if (n.by && n.by.side === side && !names.includes(n.by.name)) names.push(n.by.name);
  }
  return names.length ? names.join(', ') : playerNames()[side - 1];
}

// The moves of a game opened (a link, a record) credited to the players it names
// (`names[side - 1]`), by the server's movers of its whole line.
async function creditMoves(names) {
  if (!names.some(Boolean) || !G.moves.length) return;
  let state;
  try { state = await xhr.state(lineTo(G.moves.length)); } catch { return; }
  const nodes = tree.nodesOf(G.tree, G.moves);
  state.movers.forEach((side, i) => {
    if (nodes[i + 1] && names[side - 1]) nodes[i + 1].by = { side, name: names[side - 1] };
  });
}

// Save game: the server writes the record (src/record.rs), the page downloads it.
async function saveGame() {
  let text;
  const main = tree.mainLine(G.tree);
  try {
    text = await xhr.saveRecord({
      line: lineTo(Infinity, main), variations: tree.toVariations(G.tree), players: [1, 2].map(side => playerOf(side, main)),
      resigned: G.resigned && G.resigned.key === JSON.stringify(lineTo(Infinity, tree.mainLine(G.tree))) ? G.resigned.player : null,
    });
  } catch (e) { showError(() => t('save game: {reason}', { reason: reasonOf(e) })); return; }
  const a = $('save-link');
  if (a.href) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = `${G.game}-${new Date().toISOString().slice(0, 10)}.txt`;
  a.click();
}

// Open game: the server reads the record; an error names its line and field.
async function openGame(file) {
  const text = await file.text();
  let body;
  try {
    body = await xhr.openRecord(text);
  } catch (e) { showError(() => reasonOf(e)); return; }
  const game = body.game.toLowerCase();
  const rules = { ...defaultRules(game) };
  for (const [n, v] of body.rules) rules[n] = v;
  const start = body.start === 'startpos' ? null : body.start;
  const opened = tree.fromVariations(body.moves, body.variations || []);
  if (await loadGame({ game, rules, start, moves: body.moves, ply: body.moves.length, tree: opened }, reason => t('game record: {reason}', { reason }))) {
    await creditMoves(body.players);
    const names = body.players.filter(Boolean);
    const n = body.variations ? body.variations.length : 0;
    const lines = () => (n ? `, ${plural(n, t('{n} variation', { n }), t('{n} variations', { n }))}` : '');
    sayInto($('record-info'), () => `${names.length ? body.players.join(' – ') + ': ' : ''}${body.result}, ${movesText(body.moves.length)}${lines()}`);
  }
}

// ---------------------------------------------------------------- start

async function main() {
  languageSwitch($('language'), () => {
    renderLevels();
    renderRules();
    $('analysis').textContent = analysisLabel();
    render();
    sayErrorAgain();
  });
  translatePage();
  $('analysis').textContent = analysisLabel();
  G.games = await xhr.games();
  const sel = $('game');
  for (const g of G.games) sel.add(new Option(g.name.charAt(0).toUpperCase() + g.name.slice(1), g.name));
  G.engines = connectEngines(TOKEN, {
    engines: () => renderEngines(),
    ready: msg => { const e = G.engines.list[msg.slot]; if (e) { e.state = 'ready'; e.name = msg.name; } renderEngines(); },
    line: onLine,
    sent: msg => logLine(msg.slot, '> ' + msg.line),
    bestmove: onBestmove,
    error: onEngineError,
    idle: msg => { if (G.analysis) setAnalysis(false); showError(() => eventText(msg)); },
    // A refusal (too many pages open) comes as the close reason.
    closed: ev => {
      G.connectionLost = () => (ev.reason ? closeText(ev.reason) : t('the connection to the server was lost (reload the page)'));
      for (const e of G.engines.list) e.state = 'dead';
      renderEngines();
      showError(G.connectionLost);
    },
  });
  // Back to this page from the browser's cache: its engine connection was closed when it
  // was left, so it connects again (the game on screen stays).
  window.addEventListener('pagehide', () => { if (G.engines.suspend) G.engines.suspend(); });
  window.addEventListener('pageshow', ev => {
    if (!ev.persisted || !G.engines.reconnect) return;
    G.connectionLost = null;
    clearError();
    G.engines.reconnect();
  });
  G.rules = defaultRules(G.game);
  sel.value = G.game;
  sel.onchange = () => selectGame(sel.value);
  renderRules();
  // The address's game; without one, the game this tab showed last (a plain link back from
  // the puzzles, lessons or rules). Read before show() writes the default game's.
  const linked = location.hash || (sessionStorage.getItem('shove-board') ? '#' + sessionStorage.getItem('shove-board') : '');
  await show({});
  await openFragment(linked);
  window.addEventListener('hashchange', () => { if (location.hash.slice(1) !== fragment()) openFragment(); });

  $('board').addEventListener('click', ev => {
    const t0 = performance.now();
    const g = ev.target.closest('[data-cell]');
    if (g) onCellClick(g.dataset.cell, t0);
  });
  $('new-game').onclick = () => { G.playId = 0; show({ start: null, moves: [], ply: 0, tree: tree.node() }); };
  $('flip').onclick = () => { G.flipped = !G.flipped; render(); };
  $('undo').onclick = undo;
  $('hint').onclick = askHint;
  $('engine-play').onclick = () => enginePlay(0);
  $('play-mode').onchange = () => setPlayMode($('play-mode').value);
  $('level').onchange = () => { renderLink(); render(); };
  $('analysis').onclick = () => setAnalysis(!G.analysis);
  $('multipv').onchange = () => G.analysis && startAnalysis();
  const playTyped = async () => {
    if (await play($('move-input').value.trim())) $('move-input').value = '';
  };
  $('move-play').onclick = playTyped;
  $('move-input').onkeydown = ev => { if (ev.key === 'Enter') playTyped(); };
  const loadPosition = async () => {
    const text = $('position-input').value.trim();
    if (!text) { showError(() => t('paste a position string first')); return; }
    if (await show({ start: text, moves: [], ply: 0, tree: tree.node() })) $('position-input').value = '';
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
  $('review-cancel').onclick = cancelReview;
  $('promote').onclick = promoteLine;
  $('delete-moves').onclick = deleteFromHere;
  $('copy-link').onclick = copyLink;
  $('resign').onclick = resign;
  $('show-eval').onchange = () => renderEval();
  window.addEventListener('resize', () => renderEval());
  $('open-file').onchange = ev => { const f = ev.target.files[0]; ev.target.value = ''; if (f) openGame(f); };
  document.addEventListener('keydown', ev => {
    if (ev.target.tagName === 'INPUT' || ev.target.tagName === 'SELECT') return;
    if (ev.key === 'ArrowLeft') jump(G.ply - 1);
    if (ev.key === 'ArrowRight') jump(G.ply + 1);
  });
  document.body.dataset.ready = 'true';
}

main().catch(e => showError(() => t('the page could not start: {reason}', { reason: reasonOf(e) })));
