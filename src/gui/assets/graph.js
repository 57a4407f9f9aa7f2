// The eval bar and the eval graph, both from player one's view.

const NS = 'http://www.w3.org/2000/svg';

// Player one's share of the bar for a score (units of about 1/100 of a marble).
export function share(value) {
  if (value > 90000) return 1;
  if (value < -90000) return 0;
  return 1 / (1 + Math.exp(-value / 250));
}

// scores[i]: the score after i moves (or undefined), movers give nothing here.
export function drawGraph(svg, scores, plies, current, onJump) {
  svg.textContent = '';
  const W = 600, H = 120, n = Math.max(plies, 1);
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const x = i => (i / n) * W;
  const y = v => H - share(v) * H;
  const rect = (attrs) => {
    const r = document.createElementNS(NS, 'rect');
    for (const [k, v] of Object.entries(attrs)) r.setAttribute(k, v);
    svg.appendChild(r);
    return r;
  };
  rect({ x: 0, y: 0, width: W, height: H / 2, class: 'graph-p2' });
  rect({ x: 0, y: H / 2, width: W, height: H / 2, class: 'graph-p1' });
  const pts = [];
  for (let i = 0; i <= plies; i++) if (scores[i] !== undefined) pts.push([x(i), y(scores[i])]);
  if (pts.length) {
    const area = document.createElementNS(NS, 'path');
    const d = `M${pts[0][0]},${H} ` + pts.map(p => `L${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(' ') + ` L${pts[pts.length - 1][0]},${H} Z`;
    area.setAttribute('d', d);
    area.setAttribute('class', 'graph-area');
    svg.appendChild(area);
    const line = document.createElementNS(NS, 'polyline');
    line.setAttribute('points', pts.map(p => p.map(v => v.toFixed(1)).join(',')).join(' '));
    line.setAttribute('class', 'graph-line');
    svg.appendChild(line);
  }
  rect({ x: x(current) - 1.5, y: 0, width: 3, height: H, class: 'graph-cursor' });
  svg.onclick = ev => {
    const box = svg.getBoundingClientRect();
    onJump(Math.round(((ev.clientX - box.left) / box.width) * n));
  };
}
