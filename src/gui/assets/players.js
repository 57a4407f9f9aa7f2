// What both pages (the board, app.js; the puzzles, puzzles.js) show of the players and of
// the last move: the bars above and below the board (captured reds, points, stones), the
// line saying what the last move did, and the words of moves and corners in the page's
// language.

import { t, plural } from './i18n.js';

// A move written as a word (`pass`, `slide`, `stay`) in the page's language; the notation
// stays what is typed and recorded.
export function moveWord(text) {
  return { pass: t('pass'), slide: t('slide'), stay: t('stay') }[text] ?? text;
}

// A corner of the Abraxas frame (`sw`) in the page's language.
export function cornerName(corner) {
  return { sw: t('SW'), se: t('SE'), ne: t('NE'), nw: t('NW') }[corner] ?? corner.toUpperCase();
}

// Player `p` (1 or 2) of the server's state `s` by colour, capitalised.
export function playerName(s, p) {
  const name = t(s.players[p - 1]);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

// What the last of `moves` (the line to state `s`) did, in words (the server's events,
// src/gui/view); `over`: the game ended there (no "moves again").
export function lastMoveText(s, moves, over = s.result !== 'none') {
  const ply = moves.length;
  if (ply === 0) return '';
  const mover = playerName(s, s.movers[ply - 1]);
  const mv = moves[ply - 1];
  const words = s.last_events.map(e => {
    switch (e.event) {
      case 'captured': return plural(e.n, t('captured {n} red', { n: e.n }), t('captured {n} reds', { n: e.n }));
      case 'pushed_off': return t('pushed off {n} {colour}', { n: e.n, colour: t(e.colour) });
      case 'extra_move': return over ? '' : t('moves again');
      case 'scored': return t('{player} scored {n}', { player: playerName(s, e.player), n: e.n });
      case 'replace': return t('a marble comes back: re-place it');
      case 'stop_stone': return t('blue stop stone on {cell}', { cell: e.cell });
      case 'no_stop': return t('no stop stone');
      case 'slide': return t('plate slides to the {corner} corner', { corner: cornerName(e.corner) });
      case 'stay': return t('plate stays');
      case 'took': return t('took {n}: {cells}', { n: e.n, cells: e.cells.join(' ') });
      case 'line': return t('a line: capture next');
      default: return '';
    }
  }).filter(Boolean);
  // Offboard's re-placement (`@a2`) says what it is.
  if (/^@[a-i][1-9]$/.test(mv)) words.unshift(t('the marble re-placed on {cell}', { cell: mv.slice(1) }));
  return t('{ply}. {player}: {move}', { ply, player: mover, move: moveWord(mv) }) + (words.length ? ` — ${words.join(', ')}` : '');
}

function pips(n, total, cls) {
  let out = '';
  for (let i = 0; i < total; i++) out += `<i class="pip ${i < n ? cls : 'off'}"></i>`;
  return out;
}

function marblesLeft(n) {
  return plural(n, t('{n} marble left', { n }), t('{n} marbles left', { n }));
}

function pointsText(n, target) {
  return plural(n, t('{n} point ({target} to win)', { n, target }), t('{n} points ({target} to win)', { n, target }));
}

// The bar of player `p` in state `s`: colour, name, who plays it (`who`), the badge "to
// move" unless `over`, and the game's score (captured reds, points, stones).
export function playerBar(s, p, { who = '', over = s.result !== 'none' } = {}) {
  const e = s.extras;
  const turn = !over && s.to_move === p;
  const colour = { akiba: ['white', 'black'], offboard: ['red', 'yellow'], abraxas: ['p1', 'p2'] }[s.game][p - 1];
  let detail = '';
  if (s.game === 'akiba') {
    detail = `<span class="pips" title="${t('reds won')}">${pips(e.reds_won[p - 1], 7, 'red')}</span>
      <span class="count">${t('{n}/7 reds', { n: e.reds_won[p - 1] })}</span>
      <span class="count">${marblesLeft(e.left[colour])}</span>`;
  } else if (s.game === 'offboard') {
    const target = s.target;
    detail = `<span class="pips" title="${t('points')}">${pips(Math.min(e.points[p - 1], target), target, colour)}</span>
      <span class="count" data-points="${e.points[p - 1]}">${pointsText(e.points[p - 1], target)}</span>`;
  } else {
    detail = `<span class="count">${t('{n}/{target} stones', { n: e.stones[p - 1], target: e.target })}</span>
      <span class="pips" title="${t('blue stones left')}">${pips(e.blue_left[p - 1], e.blue_left[p - 1], 'blue')}</span>
      <span class="count">${t('{n} blue left', { n: e.blue_left[p - 1] })}</span>`;
  }
  return `<span class="swatch ${colour}"></span><b>${playerName(s, p)}</b>${who ? `<span class="who">${who}</span>` : ''}`
    + `${turn ? `<span class="turn">${t('to move')}</span>` : ''}${detail}`;
}
