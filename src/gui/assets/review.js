// Game review (src/review.rs through `/api/review`): the marks, the evaluations it gives
// the eval bar and graph, the best move of a marked move, the progress of a review running.
// The board page's controller (app.js) is passed in: `page`, its state, and the actions
// this view calls (show, jump, render, renderMoves, renderEval, showError, lineTo,
// playerName); this module imports nothing of app.js.

import { t, sayInto } from './i18n.js';
import { reasonOf, xhr } from './api.js';

const $ = id => document.getElementById(id);

export const MARK_NAME = { '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' };

// A review's evaluation (src/review.rs: {cp: N}, {mate: N} or {over: 1|0|-1}, from the
// mover's view) turned to the other player's view.
export function flipEval(e) {
  if ('cp' in e) return { cp: -e.cp };
  if ('mate' in e) return { mate: -e.mate };
  return { over: -e.over };
}

// As `shove review` writes it: +0.35, #5, #-5, won, drawn, lost.
export function evalText(e) {
  if ('cp' in e) return (e.cp >= 0 ? '+' : '') + (e.cp / 100).toFixed(2);
  if ('mate' in e) return `#${e.mate}`;
  return e.over > 0 ? 'won' : e.over < 0 ? 'lost' : 'drawn';
}

// The review's evaluation of the position after `ply` moves, from player one's view.
export function reviewEval(r, ply) {
  const m = ply < r.moves.length ? r.moves[ply] : r.moves[ply - 1];
  const e = ply < r.moves.length ? m.before : m.after;
  return m.mover === 1 ? e : flipEval(e);
}

// Player one's winning chance (0..1) after each ply by the review (the game's own sigmoid).
export function reviewShares(r) {
  const shares = r.moves.map(m => (m.mover === 1 ? m.win_before : 100 - m.win_before) / 100);
  const last = r.moves[r.moves.length - 1];
  shares.push((last.mover === 1 ? last.win_after : 100 - last.win_after) / 100);
  return shares;
}

// The review view of the board page whose controller is `ctrl`.
export function reviewView(ctrl) {
  const G = ctrl.page;
  const { showError, lineTo, playerName, show, jump, render, renderMoves, renderEval } = ctrl;

  // The review running (its id) or null.
  const R = { running: null };

  // The review, if it is of the line shown (all its moves).
  function reviewOfLine() {
    return G.review && G.review.key === JSON.stringify(lineTo(G.moves.length)) ? G.review : null;
  }

  // Review game: the server searches every position (src/review.rs) and marks the moves;
  // meanwhile the page shows how far it is ("move 23 of 61") with a Cancel, and no second
  // review starts.
  async function reviewGame() {
    if (R.running) return;
    if (!G.moves.length) { showError(() => t('no moves to review')); return; }
    const line = lineTo(G.moves.length);
    const id = Math.random().toString(36).slice(2) + Date.now().toString(36);
    const depth = $('review-depth').value;
    R.running = id;
    renderReviewProgress(0);
    const poll = setInterval(async () => {
      const p = await xhr.reviewProgress(id).catch(() => null);
      if (R.running === id && p && p.running) renderReviewProgress(Math.min(p.done, G.moves.length));
    }, 250);
    let body = null, error = null;
    try {
      body = await xhr.review({ line, depth: depth ? Number(depth) : null, id });
    } catch (e) {
      error = e;
    } finally {
      clearInterval(poll);
      R.running = null;
      $('review').disabled = false;
      $('review-cancel').hidden = true;
      $('review-progress').textContent = '';
    }
    if (error !== null) { showError(() => reasonOf(error)); return; }
    if (body.cancelled) { sayInto($('review-progress'), () => t('review cancelled')); return; }
    G.review = { key: JSON.stringify(line), moves: body.moves, players: body.players, search: body.search };
    renderReview();
    renderMoves();
    renderEval();
  }

  // The review running is asked to stop; its request then answers `cancelled`.
  function cancelReview() {
    if (R.running) xhr.reviewCancel(R.running).catch(() => {});
  }

  function renderReviewProgress(done) {
    $('review').disabled = true;
    $('review-cancel').hidden = false;
    // The move being reviewed: the one after those done.
    $('review-progress').textContent = t('reviewing: move {n} of {all}', { n: Math.min(done + 1, G.moves.length), all: G.moves.length });
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
    box.textContent = t('{ply}. {move}{mark}: best was {best} (eval {before} for {player}; after {move}: {after})', {
      ply: m.ply, move: m.move, mark, best: m.best, before: evalText(m.before), player: playerName(m.mover), after: evalText(m.after),
    });
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
      row.textContent = t('{player}: accuracy {accuracy} · {i} ?! · {m} ? · {b} ??', {
        player: playerName(i + 1), accuracy, i: p.inaccuracies, m: p.mistakes, b: p.blunders,
      });
      info.appendChild(row);
    });
  }

  return { reviewOfLine, reviewGame, cancelReview, shownBest, showBest, renderReview };
}
