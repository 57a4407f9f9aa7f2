// The puzzles page: a position where one move is best; the person plays it, the opponent's
// replies come by themselves, step by step; a wrong move can be retried or the solution
// shown. The solver's rating (Glicko-2), streak and puzzles done are kept per game in
// localStorage; the next puzzle is one near the rating. Positions and legal moves come
// from the server's /api/state, as on the main page.

import { draw } from './board.js';
import { newRating, update } from './glicko.js';
import { SaidError, reasonOf, xhr } from './api.js';
import { t, translatePage, phaseText, languageSwitch } from './i18n.js';
import * as players from './players.js';

const $ = id => document.getElementById(id);

// A puzzle's rating is an estimate: it counts with this deviation.
const PUZZLE_RD = 80;
// How long an opponent's reply or a solution step stays before the next (ms).
const STEP_MS = 600;
// The next puzzle is chosen at random among this many nearest the rating.
const NEAREST = 8;

const P = {
  sets: [],          // [{game, themes, puzzles: [{id, position, solution, rating, themes}]}]
  game: 'akiba',
  theme: '',
  puzzle: null,
  ply: 0,            // solution moves played
  state: null,       // the server's state after `ply` moves (or after the wrong move)
  solver: 1,         // who solves: the side to move in the puzzle's position
  phase: 'none',     // solving, wrong, solved, solved-retry, failed
  mistake: false,    // a wrong move was played (the puzzle counts as failed)
  wrong: null,       // the wrong move shown
  selected: null,
  picked: [],        // Abraxas: the line stones picked for a capture
  lastCells: new Set(),
  change: null,      // the rating change of this puzzle, once rated
  busy: false,       // replies or the solution are being played
  run: 0,            // the current puzzle's number: an old puzzle's replies stop
  errorSaid: null,   // the error shown, as words said in the page's language (showError)
};

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

// The state after `moves` of the puzzle's solution (or a wrong move).
function fetchState(moves, puzzle = P.puzzle) {
  return xhr.state({ game: puzzle.game, rules: [], start: puzzle.position, moves });
}

// `message`: the words, or a function saying them in the page's language (said again when
// the language changes).
function showError(message) {
  P.errorSaid = typeof message === 'function' ? message : null;
  $('error').textContent = P.errorSaid ? P.errorSaid() : message;
  $('error').hidden = false;
}

function clearError() {
  P.errorSaid = null;
  $('error').textContent = '';
  $('error').hidden = true;
}

// ---------------------------------------------------------------- the solver's record

function set() {
  return P.sets.find(s => s.game === P.game);
}

// A new solver starts at the set's 5th percentile, with the widest deviation: the easiest
// puzzles come first, and the rating finds its level within a few.
function startRating() {
  const ratings = set().puzzles.map(p => p.rating).sort((a, b) => a - b);
  return ratings.length ? ratings[Math.floor(ratings.length * 0.05)] : 1500;
}

function record() {
  const key = `shove-puzzles-${P.game}`;
  let r = null;
  try { r = JSON.parse(localStorage.getItem(key)); } catch { r = null; }
  if (!r || typeof r.rating !== 'number' || !Number.isFinite(r.rating)) {
    r = { ...newRating(startRating()), streak: 0, done: {} };
  }
  r.done ||= {};
  r.streak ||= 0;
  return r;
}

function saveRecord(r) {
  localStorage.setItem(`shove-puzzles-${P.game}`, JSON.stringify(r));
}

// Rates the current puzzle once, and each puzzle once in this browser: solved at the first
// try, or failed. A puzzle done before changes nothing (P.change 'again').
function rate(solved) {
  if (P.change !== null) return;
  const r = record();
  if (r.done[P.puzzle.id]) { P.change = 'again'; return; }
  const after = update(r, P.puzzle.rating, PUZZLE_RD, solved ? 1 : 0);
  P.change = after.rating - r.rating;
  Object.assign(r, after);
  r.streak = solved ? r.streak + 1 : 0;
  r.done[P.puzzle.id] = solved ? 'solved' : 'failed';
  saveRecord(r);
}

// ---------------------------------------------------------------- choosing a puzzle

function filtered() {
  return set().puzzles.filter(p => !P.theme || p.themes.includes(P.theme));
}

// One of the puzzles nearest the rating, not done yet (all done: any).
function nextPuzzle() {
  const r = record();
  let pool = filtered().filter(p => !r.done[p.id] && (!P.puzzle || p.id !== P.puzzle.id));
  if (!pool.length) pool = filtered();
  if (!pool.length) return null;
  pool.sort((a, b) => Math.abs(a.rating - r.rating) - Math.abs(b.rating - r.rating));
  const near = pool.slice(0, NEAREST);
  return near[Math.floor(Math.random() * near.length)];
}

async function showPuzzle(puzzle) {
  let state;
  try {
    state = await fetchState([], puzzle);
  } catch (e) {
    showError(() => t('puzzle {id}: {reason}', { id: puzzle.id, reason: reasonOf(e) }));
    return false;
  }
  if (puzzle.game !== P.game) selectGame(puzzle.game, false);
  P.run++;
  Object.assign(P, {
    puzzle, ply: 0, state, solver: state.to_move, phase: 'solving', mistake: false,
    wrong: null, selected: null, picked: [], lastCells: new Set(), change: null, busy: false,
  });
  clearError();
  history.replaceState(null, '', location.pathname + location.search + '#' + link(puzzle));
  render();
  return true;
}

function link(puzzle) {
  return new URLSearchParams({ game: P.game, id: puzzle.id }).toString();
}

async function next() {
  const puzzle = nextPuzzle();
  if (!puzzle) { showError(() => t('no {game} puzzle has the theme {theme}', { game: P.game, theme: t(P.theme) })); return false; }
  return showPuzzle(puzzle);
}

// Opens the puzzle the address names (`#game=akiba&id=00123-45`, or `#game=akiba`: one of
// the game's).
async function openLink(hash = location.hash) {
  const p = new URLSearchParams(hash.slice(1));
  const game = p.get('game'), id = p.get('id');
  if (!game) return false;
  if (!P.sets.some(s => s.game === game)) { showError(() => t("link: no game '{game}'", { game })); return false; }
  // A game without an id: its next puzzle.
  if (!id) { selectGame(game, false); return next(); }
  return openId(id, game);
}

// Opens puzzle `id` of `game`; the game switches with it, only once the puzzle is shown
// (an unknown id keeps the puzzle, game, rating and buttons shown).
async function openId(id, game = P.game) {
  const puzzle = P.sets.find(s => s.game === game).puzzles.find(p => p.id === id.trim());
  if (!puzzle) { showError(() => t("no {game} puzzle has the id '{id}'", { game, id: id.trim() })); return false; }
  return showPuzzle(puzzle);
}

function selectGame(game, andNext = true) {
  P.game = game;
  $('game').value = game;
  P.theme = '';
  renderThemes();
  if (andNext) next();
}

// The theme filter: the game's themes that have puzzles, with their numbers.
function renderThemes() {
  const theme = $('theme');
  theme.length = 1;
  for (const name of set().themes) {
    const n = set().puzzles.filter(p => p.themes.includes(name)).length;
    if (n) theme.add(new Option(`${t(name)} (${n})`, name));
  }
  theme.value = P.theme;
}

// ---------------------------------------------------------------- playing

function solverTurn() {
  return P.state.result === 'none' && P.state.to_move === P.solver;
}

async function playMove(text) {
  if (P.phase !== 'solving' || P.busy || !solverTurn()) return;
  const run = P.run;
  const move = P.state.legal.find(m => m.text === text);
  if (!move) return;
  P.selected = null;
  if (text === P.puzzle.solution[P.ply]) {
    await advance(move, run);
    if (run !== P.run) return;
    await replies(run);
    return;
  }
  // Not the solution: shown on the board until Retry.
  let after;
  try {
    after = await fetchState([...P.puzzle.solution.slice(0, P.ply), text]);
  } catch (e) {
    showError(() => reasonOf(e));
    return;
  }
  if (run !== P.run) return;
  P.mistake = true;
  rate(false);
  Object.assign(P, { phase: 'wrong', wrong: text, state: after, lastCells: cellsOf(move) });
  render();
}

function cellsOf(move) {
  return new Set([move.from, move.to].filter(Boolean));
}

// Plays the next solution move (`move` as the current state lists it).
async function advance(move, run) {
  const state = await fetchState(P.puzzle.solution.slice(0, P.ply + 1)).catch(e => { showError(() => reasonOf(e)); return null; });
  if (!state || run !== P.run) return;
  P.ply++;
  P.state = state;
  P.lastCells = cellsOf(move);
  if (P.ply === P.puzzle.solution.length) finish();
  render();
}

// The opponent's replies, one at a time, until it is the solver's turn again.
async function replies(run) {
  P.busy = true;
  while (run === P.run && P.ply < P.puzzle.solution.length && !solverTurn()) {
    render();
    await sleep(STEP_MS);
    if (run !== P.run) return;
    const text = P.puzzle.solution[P.ply];
    const move = P.state.legal.find(m => m.text === text) || { text };
    await advance(move, run);
  }
  if (run === P.run) { P.busy = false; render(); }
}

function finish() {
  if (P.phase === 'failed') return;
  if (P.mistake) P.phase = 'solved-retry';
  else { P.phase = 'solved'; rate(true); }
}

async function retry() {
  const run = P.run;
  const state = await fetchState(P.puzzle.solution.slice(0, P.ply)).catch(e => { showError(() => reasonOf(e)); return null; });
  if (!state || run !== P.run) return;
  Object.assign(P, { phase: 'solving', wrong: null, state, lastCells: new Set(), selected: null });
  render();
}

// Plays the rest of the solution, step by step; the puzzle is failed.
async function showSolution() {
  const run = P.run;
  rate(false);
  P.mistake = true;
  P.phase = 'failed';
  P.busy = true;
  P.wrong = null;
  const state = await fetchState(P.puzzle.solution.slice(0, P.ply)).catch(e => { showError(() => reasonOf(e)); return null; });
  if (!state || run !== P.run) return;
  P.state = state;
  render();
  while (run === P.run && P.ply < P.puzzle.solution.length) {
    await sleep(STEP_MS);
    if (run !== P.run) return;
    const text = P.puzzle.solution[P.ply];
    await advance(P.state.legal.find(m => m.text === text) || { text }, run);
  }
  if (run === P.run) { P.busy = false; render(); }
}

function onCellClick(cell) {
  if (P.phase !== 'solving' || P.busy || !solverTurn()) return;
  const legal = P.state.legal;
  if (P.selected) {
    const m = legal.find(m => m.from === P.selected && m.to === cell);
    if (m) { playMove(m.text); return; }
  }
  if (legal.some(m => m.from === cell)) {
    P.selected = P.selected === cell ? null : cell;
    drawBoard();
    return;
  }
  const placements = legal.filter(m => !m.from && m.to === cell).sort((a, b) => a.text.length - b.text.length);
  if (placements.length) { playMove(placements[0].text); return; }
  if (pickCapture(cell)) return;
  if (P.selected) { P.selected = null; drawBoard(); }
}

// Abraxas' capture by hand, as on the board page: a click on a ringed line stone picks it
// (again: drops it); once one capture alone holds the stones picked, it is played.
function pickCapture(cell) {
  const sets = P.state.legal.filter(m => m.text.startsWith('x'))
    .map(m => ({ text: m.text, cells: m.text.slice(1).match(/[a-h][1-8]/g) || [] }));
  if (!sets.some(m => m.cells.includes(cell))) return false;
  const picked = new Set(P.picked);
  if (picked.has(cell)) picked.delete(cell); else picked.add(cell);
  let fits = sets.filter(m => [...picked].every(c => m.cells.includes(c)));
  if (!fits.length) { picked.clear(); picked.add(cell); fits = sets.filter(m => m.cells.includes(cell)); }
  P.picked = fits.length === 1 ? [] : [...picked];
  if (fits.length === 1) playMove(fits[0].text);
  else drawBoard();
  return true;
}

// Moves a click on the board cannot make (pass, plate, stop stones): buttons. Captures are
// clicked on the board (the ringed stones).
function wordMoves() {
  const legal = P.state.legal;
  const shortest = {};
  for (const m of legal) {
    if (!m.from && m.to && (!shortest[m.to] || m.text.length < shortest[m.to].length)) shortest[m.to] = m.text;
  }
  return legal.filter(m => !(m.from && m.to) && !(m.to && shortest[m.to] === m.text) && !m.text.startsWith('x'));
}

// ---------------------------------------------------------------- drawing

function playerName(p) {
  return players.playerName(P.state, p);
}

// The moves on the board now: the solution's played, or the wrong move after them.
function movesShown() {
  const moves = P.puzzle.solution.slice(0, P.ply);
  return P.phase === 'wrong' ? [...moves, P.wrong] : moves;
}

function drawBoard() {
  const s = P.state;
  const targets = new Set();
  if (P.selected) for (const m of s.legal) if (m.from === P.selected && m.to) targets.add(m.to);
  draw($('board'), s, {
    flipped: P.solver === 2, selected: P.selected, targets, lastMove: P.lastCells,
    picked: new Set(P.picked), sources: new Set(), arrows: [], best: null,
  });
}

// The header: who solves while solving; once the puzzle is over, the side to move in the
// position shown (or the result).
function renderGoal(over) {
  const goal = $('goal');
  goal.textContent = '';
  const s = P.state;
  const who = document.createElement('span');
  who.className = 'to-move';
  const mark = { player: '\u0000' };
  let said = t('{player} to move: find the best move', mark);
  if (over && s.result === 'draw') { goal.textContent = t('Draw'); return; }
  if (over && s.result !== 'none') {
    who.textContent = playerName(s.result === 'p1win' ? 1 : 2);
    said = t('{player} wins', mark);
  } else if (over) {
    who.textContent = playerName(s.to_move);
    said = t('{player} to move', mark);
  } else {
    who.textContent = playerName(P.solver);
  }
  const [before, after] = said.split('\u0000');
  goal.append(before, who, after ?? '');
  goal.dataset.player = who.textContent;
}

function render() {
  const r = record();
  $('puzzle-rating').textContent = String(Math.round(r.rating));
  $('puzzle-streak').textContent = String(r.streak);
  if (!P.puzzle) return;
  drawBoard();
  const over = ['solved', 'solved-retry', 'failed'].includes(P.phase) && !P.busy;
  renderGoal(over);
  // The players' bars as on the board page (the solver at the bottom), and the last move.
  const [top, bottom] = P.solver === 2 ? [1, 2] : [2, 1];
  const ended = P.state.result !== 'none';
  for (const [id, p] of [['player-top', top], ['player-bottom', bottom]]) {
    $(id).innerHTML = players.playerBar(P.state, p, { who: p === P.solver ? t('you') : '', over: ended });
    $(id).classList.toggle('active', !ended && P.state.to_move === p);
  }
  $('last-move').textContent = players.lastMoveText(P.state, movesShown());
  const st = $('puzzle-status');
  st.dataset.state = P.phase;
  st.dataset.busy = String(P.busy);
  st.dataset.ply = String(P.ply);
  const change = P.change === null ? ''
    : P.change === 'again' ? ` (${t('done before: the rating stays')})`
      : ` (${t('rating {change}', { change: (P.change >= 0 ? '+' : '') + P.change })})`;
  const last = P.ply > 0 ? players.moveWord(P.puzzle.solution[P.ply - 1]) : null;
  const lastMover = P.ply > 0 ? P.state.movers[P.ply - 1] : null;
  st.textContent = {
    solving: P.busy ? t('{player} replies…', { player: playerName(3 - P.solver) })
      : P.ply === 0 ? t('Your move')
        : lastMover === P.solver ? t('You played {move}: your move again', { move: last })
          : t('{player} played {move}: your move', { player: playerName(lastMover), move: last }),
    wrong: t('{move} is not the best move', { move: P.wrong }) + change,
    solved: t('Solved!') + change,
    'solved-retry': t('Solved, after a mistake: counted as failed') + change,
    failed: P.busy ? t('The solution…') : t('Failed: the solution is shown') + change,
  }[P.phase] || '';
  $('status').textContent = P.state.result === 'none'
    ? t('{player} to move: {phase}', { player: playerName(P.state.to_move), phase: phaseText(P.state.phase) })
    : P.state.result === 'draw' ? t('Draw') : t('{player} wins', { player: playerName(P.state.result === 'p1win' ? 1 : 2) });
  $('retry').hidden = P.phase !== 'wrong';
  $('show-solution').hidden = !(P.phase === 'wrong' || (P.phase === 'solving' && !P.busy && P.mistake));
  const words = $('word-moves');
  words.textContent = '';
  if (P.phase === 'solving' && !P.busy && solverTurn()) {
    for (const m of wordMoves()) {
      const b = document.createElement('button');
      b.className = 'move-button word';
      b.dataset.move = m.text;
      b.textContent = players.moveWord(m.text);
      b.onclick = () => playMove(m.text);
      words.appendChild(b);
    }
  }
  const themes = $('puzzle-themes');
  themes.hidden = !over;
  themes.textContent = '';
  if (over) {
    for (const name of P.puzzle.themes) {
      const tag = document.createElement('span');
      tag.className = 'theme-tag';
      tag.textContent = t(name);
      themes.appendChild(tag);
    }
  }
  const a = $('puzzle-link');
  a.textContent = P.puzzle.id;
  a.href = '#' + link(P.puzzle);
  $('puzzle-info').textContent = over ? t('rated {rating}', { rating: P.puzzle.rating }) : '';
  const list = $('puzzle-moves');
  list.textContent = '';
  P.puzzle.solution.slice(0, P.ply).forEach((mv, i) => {
    const li = document.createElement('li');
    li.className = `move p${P.state.movers[i] ?? 1}`;
    li.dataset.move = mv;
    li.textContent = mv;
    list.appendChild(li);
  });
  if (P.phase === 'wrong') {
    const li = document.createElement('li');
    li.className = 'move wrong';
    li.textContent = P.wrong;
    list.appendChild(li);
  }
}

// ---------------------------------------------------------------- start

async function main() {
  languageSwitch($('language'), () => {
    renderThemes();
    render();
    if (P.errorSaid && !$('error').hidden) $('error').textContent = P.errorSaid();
  });
  translatePage();
  const sets = await xhr.puzzleSets().catch(e => {
    if (e.status === undefined) throw e;
    throw new SaidError(() => t('the puzzles could not be loaded: the server answered {status}', { status: e.status }));
  });
  P.sets = sets.filter(s => s.puzzles.length);
  for (const s of P.sets) for (const p of s.puzzles) p.game = s.game;
  if (!P.sets.length) throw new Error(t('this build has no puzzles'));
  const sel = $('game');
  for (const s of P.sets) sel.add(new Option(s.game.charAt(0).toUpperCase() + s.game.slice(1), s.game));
  sel.onchange = () => selectGame(sel.value);
  $('theme').onchange = () => { P.theme = $('theme').value; next(); };
  $('board').addEventListener('click', ev => {
    const g = ev.target.closest('[data-cell]');
    if (g) onCellClick(g.dataset.cell);
  });
  $('next-puzzle').onclick = next;
  $('retry').onclick = retry;
  $('show-solution').onclick = showSolution;
  const openTyped = async () => {
    if (await openId($('puzzle-id-input').value)) $('puzzle-id-input').value = '';
  };
  $('puzzle-open').onclick = openTyped;
  $('puzzle-id-input').onkeydown = ev => { if (ev.key === 'Enter') openTyped(); };
  window.addEventListener('hashchange', () => {
    if (!P.puzzle || location.hash.slice(1) !== link(P.puzzle)) openLink();
  });
  P.game = P.sets[0].game;
  const linked = location.hash;
  selectGame(P.game, false);
  if (!(await openLink(linked))) {
    // A bad link's error stays shown over the puzzle chosen instead.
    const error = $('error').hidden ? null : P.errorSaid || $('error').textContent;
    await next();
    if (error) showError(error);
  }
  document.body.dataset.ready = 'true';
}

main().catch(e => showError(() => t('the page could not start: {reason}', { reason: reasonOf(e) })));
