//! Ratings on one Elo scale from all the games of many matches (`shove rate LOGS…`): a
//! maximum-likelihood fit of the logistic Elo model, as BayesElo and Ordo make, with one
//! player anchored at 0 and error bars from the curvature of the likelihood.
//!
//! A game between `i` and `j` is scored `s` = 1, ½ or 0 for `i`; the model's expected score
//! is `p = 1 / (1 + 10^((r_j − r_i)/400))` and the log-likelihood `Σ s ln p + (1 − s)
//! ln(1 − p)` (a draw counts as half a win and half a loss). Newton's method maximises it;
//! the inverse of the negated Hessian (the anchor's row and column left out) is the
//! covariance of the ratings. One virtual draw between every two players who met (a weak
//! prior, like BayesElo's) keeps the fit finite when someone won or lost every game.

use super::log::read_log_file;
use crate::game::{Outcome, Player};
use std::fmt;
use std::path::PathBuf;

/// Elo per natural-log unit of the odds: `400 / ln 10`.
const SCALE: f64 = 400.0 / std::f64::consts::LN_10;

/// One game: the two players' indices and the first one's score (1, ½ or 0).
#[derive(Clone, Copy, Debug)]
pub struct Game {
    pub players: [usize; 2],
    pub score: f64,
}

/// A player's fitted rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    pub name: String,
    pub elo: f64,
    /// Half-width of the 95% interval (1.96 standard errors); 0 for the anchor.
    pub error: f64,
    pub games: usize,
    /// Points scored out of `games`.
    pub points: f64,
}

/// The fit of all players, best first.
#[derive(Clone, Debug)]
pub struct Ratings {
    pub anchor: String,
    pub ratings: Vec<Rating>,
}

/// Fits ratings to `games` among `names`, with `names[anchor]` at 0. Fails when some
/// player is not connected to the anchor through games played.
pub fn fit(names: &[String], games: &[Game], anchor: usize) -> Result<Ratings, String> {
    let n = names.len();
    // Pairwise points and games, with one virtual draw per pair that met.
    let mut points = vec![vec![0.0; n]; n];
    let mut count = vec![vec![0.0; n]; n];
    for game in games {
        let [a, b] = game.players;
        points[a][b] += game.score;
        points[b][a] += 1.0 - game.score;
        count[a][b] += 1.0;
        count[b][a] += 1.0;
    }
    for a in 0..n {
        for b in 0..n {
            if a != b && count[a][b] > 0.0 {
                points[a][b] += 0.5;
                count[a][b] += 1.0;
            }
        }
    }
    check_connected(names, &count, anchor)?;
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    // Ratings in natural-log units of the odds.
    let mut r = vec![0.0; n];
    let mut covariance = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..100 {
        let (gradient, hessian) = derivatives(&r, &points, &count, &free);
        covariance = invert(hessian).ok_or("the fit is singular")?;
        let mut largest: f64 = 0.0;
        for (x, &i) in free.iter().enumerate() {
            let step: f64 = (0..free.len())
                .map(|y| covariance[x][y] * gradient[y])
                .sum();
            // Damped: no step of more than two units (870 Elo) at once.
            let step = step.clamp(-2.0, 2.0);
            r[i] += step;
            largest = largest.max(step.abs());
        }
        if largest < 1e-10 {
            break;
        }
    }
    let mut ratings: Vec<Rating> = (0..n)
        .map(|i| {
            let error = free
                .iter()
                .position(|&f| f == i)
                .map_or(0.0, |x| 1.96 * covariance[x][x].sqrt() * SCALE);
            let mine = games.iter().filter(|g| g.players.contains(&i));
            let (games, points) = mine.fold((0, 0.0), |(g, p), game| {
                let score = if game.players[0] == i {
                    game.score
                } else {
                    1.0 - game.score
                };
                (g + 1, p + score)
            });
            Rating {
                name: names[i].clone(),
                elo: r[i] * SCALE,
                error,
                games,
                points,
            }
        })
        .collect();
    ratings.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    Ok(Ratings {
        anchor: names[anchor].clone(),
        ratings,
    })
}

/// The gradient of the log-likelihood over the free ratings and its negated Hessian.
fn derivatives(
    r: &[f64],
    points: &[Vec<f64>],
    count: &[Vec<f64>],
    free: &[usize],
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = r.len();
    let mut gradient = vec![0.0; n];
    let mut curvature = vec![vec![0.0; n]; n];
    for a in 0..n {
        for b in 0..n {
            if a == b || count[a][b] == 0.0 {
                continue;
            }
            let p = 1.0 / (1.0 + (r[b] - r[a]).exp());
            gradient[a] += points[a][b] - count[a][b] * p;
            let w = count[a][b] * p * (1.0 - p);
            curvature[a][a] += w;
            curvature[a][b] -= w;
        }
    }
    let g = free.iter().map(|&i| gradient[i]).collect();
    let h = free
        .iter()
        .map(|&i| free.iter().map(|&j| curvature[i][j]).collect())
        .collect();
    (g, h)
}

/// Gauss-Jordan inverse with partial pivoting; `None` when singular.
fn invert(mut m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut inverse: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, pivot);
        inverse.swap(col, pivot);
        let d = m[col][col];
        for j in 0..n {
            m[col][j] /= d;
            inverse[col][j] /= d;
        }
        for row in 0..n {
            if row != col && m[row][col] != 0.0 {
                let f = m[row][col];
                for j in 0..n {
                    m[row][j] -= f * m[col][j];
                    inverse[row][j] -= f * inverse[col][j];
                }
            }
        }
    }
    Some(inverse)
}

fn check_connected(names: &[String], count: &[Vec<f64>], anchor: usize) -> Result<(), String> {
    let mut reached = vec![false; names.len()];
    let mut stack = vec![anchor];
    reached[anchor] = true;
    while let Some(a) = stack.pop() {
        for b in 0..names.len() {
            if count[a][b] > 0.0 && !reached[b] {
                reached[b] = true;
                stack.push(b);
            }
        }
    }
    let cut: Vec<&str> = (0..names.len())
        .filter(|&i| !reached[i])
        .map(|i| names[i].as_str())
        .collect();
    if cut.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "no games connect {} to the anchor {}: their ratings are not on its scale",
            cut.join(", "),
            names[anchor]
        ))
    }
}

/// Whether a player's name is the built-in random mover, the default anchor.
pub(crate) fn is_random(name: &str) -> bool {
    name == "random" || name.ends_with("--player random")
}

/// `shove rate LOGS…`: every game of the logs, players as the logs name them, `anchor` (by
/// default the random mover) at 0.
pub fn rate_logs(files: &[PathBuf], anchor: Option<&str>) -> Result<Ratings, String> {
    let mut names: Vec<String> = Vec::new();
    let mut games = Vec::new();
    let index = |name: &str, names: &mut Vec<String>| match names.iter().position(|n| n == name) {
        Some(i) => i,
        None => {
            names.push(name.to_string());
            names.len() - 1
        }
    };
    for file in files {
        for record in read_log_file(file)? {
            let a = index(&record.players[0], &mut names);
            let b = index(&record.players[1], &mut names);
            let score = match record.outcome {
                Outcome::Win(Player::One) => 1.0,
                Outcome::Win(Player::Two) => 0.0,
                Outcome::Draw => 0.5,
            };
            games.push(Game {
                players: [a, b],
                score,
            });
        }
    }
    if games.is_empty() {
        return Err("the logs hold no games".into());
    }
    let anchor = match anchor {
        Some(name) => names.iter().position(|n| n == name).ok_or_else(|| {
            format!(
                "the anchor '{name}' played no game in the logs ({})",
                names.join(", ")
            )
        })?,
        None => names.iter().position(|n| is_random(n)).ok_or_else(|| {
            format!(
                "no random player in the logs to anchor at 0: name one with --anchor (players: {})",
                names.join(", ")
            )
        })?,
    };
    fit(&names, &games, anchor)
}

impl fmt::Display for Ratings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self
            .ratings
            .iter()
            .map(|r| r.name.len())
            .max()
            .unwrap_or(4)
            .max(6);
        writeln!(
            f,
            "{:<width$}  {:>7}  {:>7}  {:>6}  {:>6}",
            "player", "elo", "+/-", "games", "score"
        )?;
        for r in &self.ratings {
            writeln!(
                f,
                "{:<width$}  {:>+7.1}  {:>7.1}  {:>6}  {:>5.1}%",
                r.name,
                r.elo,
                r.error,
                r.games,
                100.0 * r.points / r.games.max(1) as f64
            )?;
        }
        writeln!(
            f,
            "maximum-likelihood Elo, {} = 0, +/- 95% (1.96 standard errors)",
            self.anchor
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_pair_is_level_and_a_known_score_gives_its_elo() {
        let names = vec!["a".to_string(), "b".to_string()];
        // 76 wins in 100 games (with the virtual draw 76.5/101): about +200.
        let games: Vec<Game> = (0..100)
            .map(|i| Game {
                players: [0, 1],
                score: if i < 76 { 1.0 } else { 0.0 },
            })
            .collect();
        let fit = fit(&names, &games, 1).unwrap();
        let a = &fit.ratings[0];
        let expected = -400.0 * (101.0 / 76.5 - 1.0f64).log10();
        assert_eq!(a.name, "a");
        assert!((a.elo - expected).abs() < 0.01, "{a:?} vs {expected}");
        assert!(a.error > 50.0 && a.error < 100.0, "{a:?}");
        assert_eq!((a.games, a.points), (100, 76.0));
    }

    #[test]
    fn players_cut_off_from_the_anchor_are_refused() {
        let names: Vec<String> = ["a", "b", "c", "d"].iter().map(|s| s.to_string()).collect();
        let games = [
            Game {
                players: [0, 1],
                score: 1.0,
            },
            Game {
                players: [2, 3],
                score: 0.5,
            },
        ];
        let e = fit(&names, &games, 0).unwrap_err();
        assert!(e.contains("c, d"), "{e}");
    }
}
