// The eval bar and the eval graph, both from player one's view.

const NS = 'http://www.w3.org/2000/svg';

// Player one's share of the bar for a score (units of about 1/100 of a marble).
export function share(value) {
  if (value > 90000) return 1;
  if (value < -90000) return 0;
  return 1 / (1 + Math.exp(-value / 250));
}

// shares[i]: player one's share (0..1) after i moves, or undefined; marks: the reviewed
// moves' marks [{ply, mark, cls}], drawn as dots on the curve after their move. Clicking the
// graph jumps to the ply under the pointer (onJump), clicking a dot calls onMark(ply).
export function drawGraph(svg, { shares, plies, current, marks = [], onJump, onMark }) {
  svg.textContent = '';
  // Drawn in the element's own pixels (when it has a size), so the dots stay round.
  const box = svg.getBoundingClientRect();
  const W = Math.round(box.width) || 600, H = Math.round(box.height) || 120, n = Math.max(plies, 1);
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const x = i => (i / n) * W;
  const y = s => H - s * H;
  const add = (name, attrs) => {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    svg.appendChild(node);
    return node;
  };
  add('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'graph-p2' });
  add('rect', { x: 0, y: H / 2, width: W, height: H / 2, class: 'graph-p1' });
  const pts = [];
  for (let i = 0; i <= plies; i++) if (shares[i] !== undefined) pts.push([x(i), y(shares[i])]);
  if (pts.length) {
    const d = `M${pts[0][0]},${H} ` + pts.map(p => `L${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(' ') + ` L${pts[pts.length - 1][0]},${H} Z`;
    add('path', { d, class: 'graph-area' });
    add('polyline', { points: pts.map(p => p.map(v => v.toFixed(1)).join(',')).join(' '), class: 'graph-line' });
  }
  add('rect', { x: x(current) - 1.5, y: 0, width: 3, height: H, class: 'graph-cursor' });
  for (const m of marks) {
    const s = shares[m.ply];
    if (s === undefined) continue;
    const inside = (v, size) => Math.min(Math.max(v, 6), size - 6);
    const dot = add('circle', { cx: inside(x(m.ply), W), cy: inside(y(s), H), r: 5.5,
      class: `graph-mark ${m.cls}`, 'data-mark-ply': m.ply, 'data-mark': m.mark });
    const title = document.createElementNS(NS, 'title');
    title.textContent = `${m.ply}: ${m.mark}`;
    dot.appendChild(title);
    dot.addEventListener('click', ev => { ev.stopPropagation(); onMark(m.ply); });
  }
  svg.onclick = ev => {
    const r = svg.getBoundingClientRect();
    onJump(Math.round(((ev.clientX - r.left) / r.width) * n));
  };
}
