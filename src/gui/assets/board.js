// Draws a position (the server's state) as SVG and reports clicks on cells.
// Every board cell is a <g class="cell" data-cell=".." data-content="..">.

const NS = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// Board units → SVG units.
const U = 100;

// Gradients and filters shared by all games.
function defs(svg) {
  const d = el('defs', {}, svg);
  const marble = (id, light, mid, dark) => {
    const g = el('radialGradient', { id, cx: '35%', cy: '30%', r: '75%' }, d);
    el('stop', { offset: '0%', 'stop-color': light }, g);
    el('stop', { offset: '45%', 'stop-color': mid }, g);
    el('stop', { offset: '100%', 'stop-color': dark }, g);
  };
  marble('m-white', '#ffffff', '#ece6d8', '#a89f8c');
  marble('m-black', '#7a7a80', '#2a2a30', '#050507');
  marble('m-red', '#ff9a8a', '#d0202a', '#6a0810');
  marble('m-yellow', '#fff6b0', '#f2c21b', '#9a6a00');
  marble('m-blue', '#a8d4ff', '#1f6fd0', '#0a2a66');
  const wood = el('linearGradient', { id: 'wood', x1: '0', y1: '0', x2: '1', y2: '1' }, d);
  el('stop', { offset: '0%', 'stop-color': '#c89a5e' }, wood);
  el('stop', { offset: '100%', 'stop-color': '#9c6d38' }, wood);
  const shadow = el('filter', { id: 'shadow', x: '-30%', y: '-30%', width: '160%', height: '160%' }, d);
  el('feDropShadow', { dx: '3', dy: '5', stdDeviation: '4', 'flood-opacity': '0.45' }, shadow);
  for (const [id, cls] of [['arrowhead', 'arrowhead'], ['arrowhead-best', 'arrowhead best']]) {
    const arrow = el('marker', { id, viewBox: '0 0 10 10', refX: '5', refY: '5',
      markerWidth: '3.2', markerHeight: '3.2', orient: 'auto-start-reverse' }, d);
    el('path', { d: 'M0,0 L10,5 L0,10 z', class: cls }, arrow);
  }
}

function marble(parent, x, y, r, colour) {
  el('circle', { cx: x, cy: y, r, fill: `url(#m-${colour})`, class: 'marble', filter: 'url(#shadow)' }, parent);
}

function hexPoints(x, y, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 90);
    pts.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(' ');
}

// The picture: draw(svg, state, view) where view = {flipped, selected, targets, lastMove,
// lastFrom, picked, animate, arrows, best}: `lastMove` the cells of the last turn's moves
// (`lastFrom` where the last one started), `picked` stones chosen for a capture,
// `animate` the move {from, to} just played (its pushed marbles slide in), `arrows` the
// engine's line or hint, `best` the review's best move (or null).
export function draw(svg, state, view) {
  svg.textContent = '';
  defs(svg);
  const xs = state.cells.map(c => c.x), ys = state.cells.map(c => c.y);
  let box = { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
  if (state.game === 'offboard') {
    const rx = state.extras.ring.map(c => c.x), ry = state.extras.ring.map(c => c.y);
    box = { x0: Math.min(...rx), x1: Math.max(...rx), y0: Math.min(...ry), y1: Math.max(...ry) };
  }
  if (state.game === 'abraxas') box = { x0: 0, x1: 8, y0: 0, y1: 8 };
  // Flipping mirrors every point through the board's centre (text stays upright).
  const P = (x, y) => view.flipped
    ? [(box.x0 + box.x1 - x) * U, (box.y0 + box.y1 - y) * U]
    : [x * U, y * U];
  const pad = state.game === 'offboard' ? 0.75 : 0.95;
  svg.setAttribute('viewBox', [(box.x0 - pad) * U, (box.y0 - pad) * U,
    (box.x1 - box.x0 + 2 * pad) * U, (box.y1 - box.y0 + 2 * pad) * U].join(' '));
  const ctx = { svg, state, view, P, box };
  ({ akiba: drawAkiba, offboard: drawOffboard, abraxas: drawAbraxas })[state.game](ctx);
  drawLast(ctx);
  if (view.animate) animate(ctx, view.animate);
  drawArrows(ctx);
}

// Rings over both ends of the last move (dashed where it started) and the cells of the
// turn's earlier moves, drawn over the marbles so that a marble does not hide them.
function drawLast(ctx) {
  const { svg, state, P, view } = ctx;
  if (!view.lastMove.size) return;
  const layer = el('g', { class: 'last-layer' }, svg);
  for (const c of state.cells) {
    if (!view.lastMove.has(c.cell)) continue;
    const [x, y] = P(c.x, c.y);
    el('circle', { cx: x, cy: y, r: 45, class: 'last-ring' + (c.cell === view.lastFrom ? ' from' : ''),
      'data-last': c.cell }, layer);
  }
}

// The marbles a push moved slide in from one step back: from the `to` cell on along the
// move's direction, as long as cells hold marbles (`chain`; else the one stone moved).
function animate(ctx, { from, to, chain }) {
  const { svg, state, P } = ctx;
  const pos = {};
  for (const c of state.cells) pos[c.cell] = P(c.x, c.y);
  if (!pos[from] || !pos[to]) return;
  const dx = pos[to][0] - pos[from][0], dy = pos[to][1] - pos[from][1];
  const near = (x, y) => Object.keys(pos).find(k => Math.abs(pos[k][0] - x) < 10 && Math.abs(pos[k][1] - y) < 10);
  for (let cell = to, n = 0; cell && n < (chain ? 9 : 1); n++) {
    const marble = svg.querySelector(`[data-cell='${cell}'] .marble`);
    if (!marble) break;
    marble.style.setProperty('--dx', `${-dx}px`);
    marble.style.setProperty('--dy', `${-dy}px`);
    marble.classList.add('arrive');
    cell = near(pos[cell][0] + dx, pos[cell][1] + dy);
  }
}

function cellGroup(ctx, c) {
  const g = el('g', { class: 'cell', 'data-cell': c.cell, 'data-content': c.content }, ctx.svg);
  const v = ctx.view;
  if (v.selected === c.cell) g.classList.add('selected');
  if (v.targets.has(c.cell)) g.classList.add('target');
  if (v.lastMove.has(c.cell)) g.classList.add('last');
  if (v.sources.has(c.cell)) g.classList.add('source');
  if (v.picked && v.picked.has(c.cell)) g.classList.add('picked');
  return g;
}

function targetDot(ctx, g, x, y, occupied) {
  if (!ctx.view.targets.has(g.dataset.cell)) return;
  if (occupied) el('circle', { cx: x, cy: y, r: 40, class: 'target-ring' }, g);
  else el('circle', { cx: x, cy: y, r: 14, class: 'target-dot' }, g);
}

function label(parent, x, y, text, cls = 'coord') {
  el('text', { x, y, class: cls, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, parent, text);
}

function drawAkiba(ctx) {
  const { svg, state, P } = ctx;
  const [ax, ay] = P(-0.62, -0.62), [bx, by] = P(6.62, 6.62);
  el('rect', { x: Math.min(ax, bx), y: Math.min(ay, by), width: Math.abs(bx - ax), height: Math.abs(by - ay),
    rx: 28, fill: 'url(#wood)', class: 'frame', filter: 'url(#shadow)' }, svg);
  // Grooves between the holes.
  for (let i = 0; i < 7; i++) {
    const [x0, y0] = P(0, i), [x1, y1] = P(6, i), [x2, y2] = P(i, 0), [x3, y3] = P(i, 6);
    el('line', { x1: x0, y1: y0, x2: x1, y2: y1, class: 'groove' }, svg);
    el('line', { x1: x2, y1: y2, x2: x3, y2: y3, class: 'groove' }, svg);
  }
  for (const c of state.cells) {
    const [x, y] = P(c.x, c.y);
    const g = cellGroup(ctx, c);
    el('rect', { x: x - 50, y: y - 50, width: 100, height: 100, class: 'hit' }, g);
    el('circle', { cx: x, cy: y, r: 36, class: 'hole' }, g);
    if (c.content !== 'empty') marble(g, x, y, 40, c.content);
    targetDot(ctx, g, x, y, c.content !== 'empty');
  }
  for (let i = 0; i < 7; i++) {
    const [fx, fy] = P(i, 6.8);
    label(svg, fx, fy, 'abcdefg'[i]);
    const [rx, ry] = P(-0.8 + 0.05, 6 - i);
    label(svg, rx + (ctx.view.flipped ? 10 : 0), ry, String(i + 1));
  }
}

function drawOffboard(ctx) {
  const { svg, state, P } = ctx;
  const R = 57.7; // hexagon radius for unit width
  const e = state.extras;
  // The ring: sectors coloured by value, each with its number and value, the marble won
  // there drawn once, in the sector's first cell.
  const drawn = new Set();
  for (const r of e.ring) {
    const [x, y] = P(r.x, r.y);
    if (r.sector) {
      el('polygon', { points: hexPoints(x, y, R - 2), class: `sector v${r.value}` }, svg);
      if (r.holds !== 'empty' && !drawn.has(r.sector)) {
        drawn.add(r.sector);
        marble(svg, x, y, 34, r.holds);
        el('circle', { cx: x, cy: y, r: 34, class: 'sector-marble', 'data-sector': r.sector }, svg);
      } else label(svg, x, y, String(r.value), 'sector-value');
    } else {
      el('polygon', { points: hexPoints(x, y, R - 2), class: 'corner' }, svg);
      label(svg, x, y, '→' + r.rolls_into, 'corner-label');
    }
  }
  // Sector numbers: at the middle of each sector's two cells, pushed outwards.
  const [cx, cy] = P(3, 4 * 0.866);
  const bySector = {};
  for (const r of e.ring) if (r.sector) (bySector[r.sector] ||= []).push(r);
  for (const [s, cells] of Object.entries(bySector)) {
    const [x0, y0] = P(cells[0].x, cells[0].y), [x1, y1] = P(cells[1].x, cells[1].y);
    const mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
    const d = Math.hypot(mx - cx, my - cy);
    label(svg, cx + (mx - cx) * (d + 62) / d, cy + (my - cy) * (d + 62) / d, 'S' + s, 'sector-number');
  }
  // The board.
  el('polygon', { points: hexPoints(cx, cy, 4.55 * U), class: 'hexboard', transform: `rotate(30 ${cx} ${cy})`, filter: 'url(#shadow)' }, svg);
  for (const c of state.cells) {
    const [x, y] = P(c.x, c.y);
    const g = cellGroup(ctx, c);
    el('polygon', { points: hexPoints(x, y, R - 3), class: 'hexcell' }, g);
    // The names of the edge cells (fewer than six neighbours), below their marbles.
    const neighbours = state.cells.filter(o => Math.hypot(o.x - c.x, o.y - c.y) < 1.1).length - 1;
    if (neighbours < 6) label(g, x, y + 44, c.cell, 'board-coord');
    if (c.content !== 'empty') marble(g, x, y, 38, c.content);
    targetDot(ctx, g, x, y, c.content !== 'empty');
  }
}

function drawAbraxas(ctx) {
  const { svg, state, P } = ctx;
  const e = state.extras;
  // The sheet: 9x9 paper cells with red dots.
  const [sx0, sy0] = P(-0.5, -0.5), [sx1, sy1] = P(8.5, 8.5);
  el('rect', { x: Math.min(sx0, sx1) - 14, y: Math.min(sy0, sy1) - 14, width: Math.abs(sx1 - sx0) + 28,
    height: Math.abs(sy1 - sy0) + 28, rx: 18, fill: 'url(#wood)', filter: 'url(#shadow)' }, svg);
  el('rect', { x: Math.min(sx0, sx1), y: Math.min(sy0, sy1), width: Math.abs(sx1 - sx0),
    height: Math.abs(sy1 - sy0), class: 'sheet' }, svg);
  for (let i = 0; i <= 9; i++) {
    const [a, b] = P(i - 0.5, -0.5), [c, d] = P(i - 0.5, 8.5);
    const [f, g2] = P(-0.5, i - 0.5), [h, k] = P(8.5, i - 0.5);
    el('line', { x1: a, y1: b, x2: c, y2: d, class: 'sheet-line' }, svg);
    el('line', { x1: f, y1: g2, x2: h, y2: k, class: 'sheet-line' }, svg);
  }
  for (const [dx, dy] of e.dots) {
    const [x, y] = P(dx, dy);
    el('circle', { cx: x, cy: y, r: 22, class: 'sheet-dot' }, svg);
  }
  // The plate over its corner of the sheet.
  const xs = state.cells.map(c => c.x), ys = state.cells.map(c => c.y);
  const [px0, py0] = P(Math.min(...xs) - 0.5, Math.min(...ys) - 0.5);
  const [px1, py1] = P(Math.max(...xs) + 0.5, Math.max(...ys) + 0.5);
  el('rect', { x: Math.min(px0, px1) + 4, y: Math.min(py0, py1) + 4, width: Math.abs(px1 - px0) - 8,
    height: Math.abs(py1 - py0) - 8, rx: 14, class: 'plate' }, svg);
  const inLine = new Set(e.lines);
  for (const c of state.cells) {
    const [x, y] = P(c.x, c.y);
    const g = cellGroup(ctx, c);
    if (inLine.has(c.cell)) g.classList.add('in-line');
    el('rect', { x: x - 50, y: y - 50, width: 100, height: 100, class: 'hit' }, g);
    el('circle', { cx: x, cy: y, r: 38, class: 'hole plate-hole' + (c.content === 'dot' ? ' over-dot' : '') }, g);
    if (c.content === 'red' || c.content === 'blue') marble(g, x, y, 34, c.content);
    targetDot(ctx, g, x, y, c.content === 'red' || c.content === 'blue');
  }
  // Hole names along the plate's edges.
  const files = 'abcdefgh';
  for (const c of state.cells) {
    const f = files.indexOf(c.cell[0]), r = Number(c.cell.slice(1));
    if (r === 1) { const [x, y] = P(c.x, c.y + 0.72); label(svg, x, y, files[f], 'plate-coord'); }
    if (f === 0) { const [x, y] = P(c.x - 0.72, c.y); label(svg, x, y, String(r), 'plate-coord'); }
  }
}

// Arrows for the engine's best line (the first moves, fading) or hint, and for the review's
// best move (its own colour, `data-move` the move).
function drawArrows(ctx) {
  const { svg, state, P, view } = ctx;
  if (!view.arrows.length && !view.best) return;
  const pos = {};
  for (const c of state.cells) pos[c.cell] = P(c.x, c.y);
  const layer = el('g', { class: 'arrows' }, svg);
  view.arrows.forEach((mv, i) => {
    arrow(layer, pos, mv, 'line-move', `arrow a${Math.min(i, 3)}` + (i % 2 ? ' reply' : ''), 'arrowhead');
  });
  if (view.best) arrow(layer, pos, view.best, 'best-move', 'arrow best', 'arrowhead-best').dataset.move = view.best;
}

// A move from one cell to another as an arrow; a placement, a capture (`x…`) or a stop
// stone as rings on its cells, in a group of class `group`. Returns the group.
function arrow(layer, pos, mv, group, cls, head) {
  const g = el('g', { class: group }, layer);
  const cells = (mv.match(/[a-i][1-9]/g) || []).filter(c => pos[c]);
  if (cells.length >= 2 && !mv.startsWith('x')) {
    const [x0, y0] = pos[cells[0]], [x1, y1] = pos[cells[1]];
    const len = Math.hypot(x1 - x0, y1 - y0) || 1;
    const k = (len - 30) / len;
    el('line', { x1: x0, y1: y0, x2: x0 + (x1 - x0) * k, y2: y0 + (y1 - y0) * k, class: cls,
      'marker-end': `url(#${head})` }, g);
  } else {
    for (const c of cells) {
      const [x, y] = pos[c];
      el('circle', { cx: x, cy: y, r: 44, class: cls + ' ring' }, g);
    }
  }
  return g;
}
