// Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012): the solver's puzzle rating
// after one puzzle, the puzzle being the opponent with its own rating and a fixed
// deviation. As lichess rates puzzle solvers.

const SCALE = 173.7178;
const TAU = 0.5;           // how much the volatility may change
const EPSILON = 0.000001;  // convergence of the volatility iteration

// The rating a new solver starts from: `rating`, with the largest deviation.
export function newRating(rating) {
  return { rating, rd: 350, vol: 0.06 };
}

// `player` ({rating, rd, vol}) after a puzzle of `puzzleRating` (deviation `puzzleRd`):
// `score` 1 solved, 0 failed. The deviation is kept between 45 and 350, as lichess does.
export function update(player, puzzleRating, puzzleRd, score) {
  const mu = (player.rating - 1500) / SCALE, phi = player.rd / SCALE, sigma = player.vol;
  const muJ = (puzzleRating - 1500) / SCALE, phiJ = puzzleRd / SCALE;
  const g = 1 / Math.sqrt(1 + 3 * phiJ * phiJ / (Math.PI * Math.PI));
  const e = 1 / (1 + Math.exp(-g * (mu - muJ)));
  const v = 1 / (g * g * e * (1 - e));
  const delta = v * g * (score - e);
  // The new volatility: the root of f by the Illinois algorithm (step 5 of the paper).
  const a = Math.log(sigma * sigma);
  const f = x => {
    const ex = Math.exp(x), d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) - (x - a) / (TAU * TAU);
  };
  let A = a, B;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else {
    let k = 1;
    while (f(a - k * TAU) < 0) k++;
    B = a - k * TAU;
  }
  let fA = f(A), fB = f(B);
  for (let i = 0; i < 100 && Math.abs(B - A) > EPSILON; i++) {
    const C = A + (A - B) * fA / (fB - fA), fC = f(C);
    if (fC * fB <= 0) { A = B; fA = fB; } else fA /= 2;
    B = C; fB = fC;
  }
  const vol = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + vol * vol);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * g * (score - e);
  return {
    rating: Math.round(1500 + SCALE * muNew),
    rd: Math.min(350, Math.max(45, SCALE * phiNew)),
    vol,
  };
}
