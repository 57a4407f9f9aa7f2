// The lessons page (`/learn`): per game a list of lessons, each a sequence of short
// exercises on small positions. The person plays one move; the server's lessons API
// (src/lessons/api.rs) says whether it reaches the exercise's goal and, if not, why; a
// wrong move can be retried. The lessons finished are kept per game in localStorage.
// Positions and legal moves come from /api/state, as on the other pages.

import { draw } from './board.js';
import { reasonOf, say, xhr } from './api.js';
import { t, translatePage, phaseText, languageSwitch, language } from './i18n.js';
import { sitePath } from './site.js';

const $ = id => document.getElementById(id);

const L = {
  games: [],         // [{game, lessons: [{id, title, exercises: [{position, say, task, done, tries}]}]}]
  game: 'akiba',
  lesson: null,      // the lesson open, or null: the list
  index: 0,          // its exercise shown
  state: null,       // the server's state of the exercise's position (or after the move)
  verdict: 'trying', // trying, wrong, right
  message: () => '', // what was said of the move tried, in the page's language
  errorSaid: null,   // the error shown, as words said in the page's language (showError)
  tried: null,       // the move tried
  selected: null,
  lastCells: new Set(),
  busy: false,
};

const GAME_NAMES = { akiba: 'Akiba', offboard: 'Offboard', abraxas: 'Abraxas' };

// `say()`: the error's words in the page's language (said again after a language switch).
function showError(say) {
  L.errorSaid = say;
  $('error').textContent = say();
  $('error').hidden = false;
}

function clearError() {
  L.errorSaid = null;
  $('error').textContent = '';
  $('error').hidden = true;
}

// A lesson text ({en, de, fr}) in the page's language.
const said = text => (text ? text[language] ?? text.en : '');

const course = () => L.games.find(g => g.game === L.game);
const exercise = () => L.lesson.exercises[L.index];

// ---------------------------------------------------------------- progress

function progress() {
  let p = null;
  try { p = JSON.parse(localStorage.getItem(`shove-learn-${L.game}`)); } catch { p = null; }
  return p && typeof p === 'object' && !Array.isArray(p) ? p : {};
}

function finished(lesson) {
  const p = progress();
  p[lesson.id] = true;
  localStorage.setItem(`shove-learn-${L.game}`, JSON.stringify(p));
}

// ---------------------------------------------------------------- the address

// `#game=akiba` (the list) or `#game=akiba&lesson=push-row`.
function link() {
  const p = new URLSearchParams({ game: L.game });
  if (L.lesson) p.set('lesson', L.lesson.id);
  return p.toString();
}

async function openLink() {
  const p = new URLSearchParams(location.hash.slice(1));
  const game = p.get('game') || L.game;
  if (!L.games.some(g => g.game === game)) {
    showError(() => t("link: no game '{game}'", { game }));
    showList();
    return;
  }
  L.game = game;
  const id = p.get('lesson');
  const lesson = id && course().lessons.find(l => l.id === id);
  if (id && !lesson) showError(() => t("no {game} lesson has the id '{id}'", { game, id }));
  if (lesson) await openLesson(lesson);
  else showList();
}

function remember() {
  history.replaceState(null, '', location.pathname + location.search + '#' + link());
}

// ---------------------------------------------------------------- the list

function showList() {
  L.lesson = null;
  remember();
  render();
}

function renderList() {
  const done = progress();
  const lessons = course().lessons;
  const n = lessons.filter(l => done[l.id]).length;
  $('list-intro').textContent = t('{game}: {done} of {all} lessons done. Each lesson teaches one rule with a few short exercises.',
    { game: GAME_NAMES[L.game] || L.game, done: n, all: lessons.length });
  const list = $('lessons');
  list.textContent = '';
  for (const lesson of lessons) {
    const li = document.createElement('li');
    li.className = 'lesson-item';
    li.dataset.lesson = lesson.id;
    li.dataset.done = String(Boolean(done[lesson.id]));
    const b = document.createElement('button');
    b.className = 'lesson-open';
    const tick = document.createElement('span');
    tick.className = 'tick';
    tick.textContent = done[lesson.id] ? '✓' : '';
    const title = document.createElement('span');
    title.className = 'lesson-name';
    title.textContent = said(lesson.title);
    const count = document.createElement('span');
    count.className = 'lesson-count';
    count.textContent = t('{n} exercises', { n: lesson.exercises.length });
    b.append(tick, title, count);
    b.onclick = () => openLesson(lesson);
    li.appendChild(b);
    list.appendChild(li);
  }
}

// ---------------------------------------------------------------- an exercise

async function openLesson(lesson) {
  L.lesson = lesson;
  remember();
  await showExercise(0);
}

async function showExercise(index) {
  let state;
  try {
    state = await xhr.state({ game: L.game, rules: [], start: L.lesson.exercises[index].position, moves: [] });
  } catch (e) {
    showError(() => reasonOf(e));
    return;
  }
  Object.assign(L, { index, state, verdict: 'trying', message: () => '', tried: null, selected: null, lastCells: new Set(), busy: false });
  clearError();
  render();
}

// Plays `text` in the exercise: the server judges it; a legal move is shown on the board.
async function tryMove(text) {
  if (L.verdict !== 'trying' || L.busy) return;
  L.busy = true;
  L.selected = null;
  const ex = exercise();
  let verdict, after = null;
  try {
    verdict = await xhr.checkMove({ game: L.game, lesson: L.lesson.id, exercise: L.index, move: text });
    if (verdict.legal) after = await xhr.state({ game: L.game, rules: [], start: ex.position, moves: [text] });
  } catch (e) {
    L.busy = false;
    showError(() => reasonOf(e));
    render();
    return;
  }
  L.busy = false;
  L.tried = text;
  if (after) {
    L.lastCells = cellsOf(text);
    L.state = after;
  }
  if (verdict.right) {
    L.verdict = 'right';
    L.message = () => said(ex.done) || t('Right!');
    if (L.index + 1 === L.lesson.exercises.length) finished(L.lesson);
  } else {
    L.verdict = 'wrong';
    const why = () => (verdict.why ? said(verdict.why) : verdict.reason ? say(verdict.reason) : '');
    L.message = () => `${t('{move}: not this time.', { move: text })} ${why()}`;
  }
  render();
}

function cellsOf(text) {
  const m = L.state.legal.find(l => l.text === text);
  return new Set(m ? [m.from, m.to].filter(Boolean) : []);
}

async function retry() {
  await showExercise(L.index);
}

async function next() {
  if (L.index + 1 < L.lesson.exercises.length) { await showExercise(L.index + 1); return; }
  const lessons = course().lessons;
  const at = lessons.indexOf(L.lesson);
  if (at + 1 < lessons.length) await openLesson(lessons[at + 1]);
  else showList();
}

// ---------------------------------------------------------------- clicks

// Moves the exercise explains though the rules forbid them (`tries`) can be clicked too:
// the server then says why they are not allowed.
function clickable() {
  const tries = exercise().tries.map(text => {
    const cells = text.match(/[a-i][1-9]/g) || [];
    return cells.length === 2 ? { text, from: cells[0], to: cells[1] } : { text, from: null, to: cells[0] || null };
  });
  return [...L.state.legal, ...tries];
}

function chosenStone() {
  return document.querySelector('input[name=stone]:checked')?.value || 'red';
}

function onCellClick(cell) {
  if (L.verdict !== 'trying' || L.busy) return;
  const moves = clickable();
  if (L.selected) {
    const m = moves.find(m => m.from === L.selected && m.to === cell);
    if (m) { tryMove(m.text); return; }
  }
  if (moves.some(m => m.from === cell)) {
    L.selected = L.selected === cell ? null : cell;
    drawBoard();
    return;
  }
  const placements = moves.filter(m => !m.from && m.to === cell);
  const blue = placements.find(m => m.text.startsWith('!'));
  const red = placements.find(m => !m.text.startsWith('!'));
  const pick = chosenStone() === 'blue' ? blue || red : red || blue;
  if (pick) { tryMove(pick.text); return; }
  if (L.selected) { L.selected = null; drawBoard(); }
}

// Moves a click on the board cannot make (pass, slide, stay, captures): buttons.
function wordMoves() {
  return L.state.legal.filter(m => !m.to);
}

// ---------------------------------------------------------------- drawing

function playerName(p) {
  const name = t(L.state.players[p - 1]);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function drawBoard() {
  const s = L.state;
  const targets = new Set();
  if (L.selected) for (const m of clickable()) if (m.from === L.selected && m.to) targets.add(m.to);
  draw($('board'), s, {
    flipped: false, selected: L.selected, targets, lastMove: L.lastCells,
    sources: new Set(), arrows: [], best: null,
  });
}

function renderGames() {
  const nav = $('learn-games');
  nav.textContent = '';
  for (const g of L.games) {
    const b = document.createElement('button');
    b.textContent = GAME_NAMES[g.game] || g.game;
    b.dataset.game = g.game;
    b.className = g.game === L.game ? 'on' : '';
    b.onclick = () => { L.game = g.game; clearError(); showList(); };
    nav.appendChild(b);
  }
  $('rules-link').href = sitePath(`rules/${L.game}`);
  $('play-link').href = sitePath(`#game=${L.game}`);
}

function renderExercise() {
  const ex = exercise();
  $('lesson-title').textContent = said(L.lesson.title);
  const dots = $('dots');
  dots.textContent = '';
  L.lesson.exercises.forEach((_, i) => {
    const d = document.createElement('span');
    d.className = 'dot' + (i < L.index || (i === L.index && L.verdict === 'right') ? ' done' : '') + (i === L.index ? ' current' : '');
    dots.appendChild(d);
  });
  dots.dataset.index = String(L.index);
  dots.title = t('exercise {n} of {all}', { n: L.index + 1, all: L.lesson.exercises.length });
  $('say').textContent = said(ex.say);
  $('task').textContent = said(ex.task);
  drawBoard();
  const v = $('verdict');
  v.dataset.state = L.verdict;
  v.dataset.busy = String(L.busy);
  v.textContent = L.verdict === 'trying' ? t('Your move') : L.message();
  const s = L.state;
  $('status').textContent = s.result === 'none'
    ? t('{player} to move: {phase}', { player: playerName(s.to_move), phase: phaseText(s.phase) })
    : s.result === 'draw' ? t('Draw') : t('{player} wins', { player: playerName(s.result === 'p1win' ? 1 : 2) });
  const words = $('word-moves');
  words.textContent = '';
  if (L.verdict === 'trying') {
    for (const m of wordMoves()) {
      const b = document.createElement('button');
      b.className = 'move-button word';
      b.dataset.move = m.text;
      b.textContent = m.text;
      b.onclick = () => tryMove(m.text);
      words.appendChild(b);
    }
  }
  const placements = clickable().filter(m => !m.from && m.to);
  $('stone-choice').hidden = L.verdict !== 'trying'
    || !(placements.some(m => m.text.startsWith('!')) && placements.some(m => !m.text.startsWith('!')));
  $('retry').hidden = L.verdict !== 'wrong';
  const last = L.index + 1 === L.lesson.exercises.length;
  const lessons = course().lessons;
  const more = lessons.indexOf(L.lesson) + 1 < lessons.length;
  $('next').hidden = L.verdict !== 'right';
  $('next').textContent = !last ? t('Next exercise') : more ? t('Lesson done: next lesson') : t('Lesson done: all lessons');
}

function render() {
  renderGames();
  $('lesson-list').hidden = Boolean(L.lesson);
  $('exercise-view').hidden = !L.lesson;
  if (L.lesson) renderExercise();
  else renderList();
  document.title = `shove · ${t('Learn')} · ${GAME_NAMES[L.game] || L.game}`;
}

// ---------------------------------------------------------------- start

async function main() {
  languageSwitch($('language'), () => {
    render();
    if (L.errorSaid && !$('error').hidden) $('error').textContent = L.errorSaid();
  });
  translatePage();
  L.games = (await xhr.lessons()).games;
  if (!L.games.length) throw new Error(t('this build has no lessons'));
  L.game = L.games[0].game;
  $('board').addEventListener('click', ev => {
    const g = ev.target.closest('[data-cell]');
    if (g) onCellClick(g.dataset.cell);
  });
  $('to-list').onclick = showList;
  $('retry').onclick = retry;
  $('next').onclick = next;
  window.addEventListener('hashchange', () => { if (location.hash.slice(1) !== link()) openLink(); });
  await openLink();
  document.body.dataset.ready = 'true';
}

main().catch(e => showError(() => t('the page could not start: {reason}', { reason: reasonOf(e) })));
