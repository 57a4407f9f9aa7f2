// An engine's `info` lines (protocol.md) read into {depth, multipv, score, pv, …}, and a
// score said as the page shows it: one reader for the board page (app.js) and the static
// site's engine in a worker (inbrowser.js, for the best move of a search stopped).

// `info depth 9 seldepth 12 multipv 1 score cp 35 nodes 1000 nps 5000 time 20 pv a1a2 ..`
export function parseInfo(line) {
  const w = line.trim().split(/\s+/);
  if (w[0] !== 'info') return null;
  const info = { multipv: 1 };
  for (let i = 1; i < w.length; i++) {
    const k = w[i];
    if (k === 'pv') { info.pv = w.slice(i + 1); break; }
    if (k === 'string') return null;
    if (k === 'score') {
      info.scoreKind = w[i + 1];
      info.score = Number(w[i + 2]);
      i += 2;
      continue;
    }
    if (['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'time', 'hashfull'].includes(k)) {
      info[k] = Number(w[i + 1]);
      i += 1;
    }
  }
  return info.depth !== undefined ? info : null;
}

// A score as one number from the given side's view: mates as ±(100000 - plies).
export function scoreValue(info) {
  if (info.scoreKind === 'mate') return info.score > 0 ? 100000 - info.score : -100000 - info.score;
  return info.score;
}

export function scoreText(value) {
  if (Math.abs(value) > 90000) {
    const plies = 100000 - Math.abs(value);
    return (value > 0 ? '+' : '-') + 'M' + plies;
  }
  return (value >= 0 ? '+' : '') + (value / 100).toFixed(2);
}
