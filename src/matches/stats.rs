//! Match statistics over game pairs: Elo with 95% error bars, likelihood of superiority and
//! the sequential probability ratio test, all from the pentanomial counts.
//!
//! Games are played in pairs (one opening, colours swapped), and the two games of a pair are
//! correlated through their opening; counting per pair (pentanomial: 0, ½, 1, 1½ or 2 points
//! out of 2) keeps that correlation out of the error bars, as fishtest does. The SPRT is
//! fishtest's generalised SPRT for normalized Elo.

use std::fmt;
use std::str::FromStr;

/// Two-sided 95% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Pair counts indexed by the first engine's points in the pair, in half points:
/// `[0, ½, 1, 1½, 2]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

/// The first engine's strength relative to the second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Logistic Elo difference; infinite after a clean sweep.
    pub elo: f64,
    /// Half the width of the 95% confidence interval (infinite when it reaches a sweep).
    pub error: f64,
    /// Likelihood of superiority, 0..=1.
    pub los: f64,
}

/// The logistic Elo difference that gives an expected score `score` (0..=1).
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The standard normal distribution function.
fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7): plenty for percentages.
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -y } else { y }
}

impl Pentanomial {
    /// Counts one pair in which the first engine scored `half_points` (0..=4) half points.
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points.min(4)] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean and variance of the per-pair score scaled to 0..=1, from `counts`.
    fn moments(counts: &[f64; 5]) -> (f64, f64) {
        let n: f64 = counts.iter().sum();
        let score = |i: usize| i as f64 / 4.0;
        let mean = (0..5).map(|i| counts[i] * score(i)).sum::<f64>() / n;
        let variance = (0..5)
            .map(|i| counts[i] * (score(i) - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, variance)
    }

    fn as_f64(&self) -> [f64; 5] {
        self.0.map(|c| c as f64)
    }

    /// Elo, error bars and LOS; `None` before the first pair.
    pub fn estimate(&self) -> Option<Estimate> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let (mean, variance) = Pentanomial::moments(&self.as_f64());
        let std_error = (variance / n as f64).sqrt();
        let elo = elo_from_score(mean);
        let error =
            (elo_from_score(mean + Z95 * std_error) - elo_from_score(mean - Z95 * std_error)) / 2.0;
        // A sweep has an unbounded interval (∞ - ∞ would read as NaN).
        let error = if error.is_nan() { f64::INFINITY } else { error };
        let los = if std_error > 0.0 {
            normal_cdf((mean - 0.5) / std_error)
        } else if mean > 0.5 {
            1.0
        } else if mean < 0.5 {
            0.0
        } else {
            0.5
        };
        Some(Estimate { elo, error, los })
    }
}

/// `--sprt elo0=…,elo1=…[,alpha=…,beta=…]`: tests H0 "the first engine is `elo0` normalized
/// Elo stronger" against H1 "it is `elo1` stronger".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    H0,
    H1,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H0 => "H0 was accepted",
            Verdict::H1 => "H1 was accepted",
        })
    }
}

impl Sprt {
    /// (lower, upper) bounds of the log-likelihood ratio: H0 below, H1 above.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after these pairs (0 before any): the
    /// generalised SPRT of fishtest and fastchess for normalized Elo.
    ///
    /// Normalized Elo measures a difference in standard deviations of the per-game score
    /// (`800 / ln 10` normalized Elo per standard deviation); a pair's standard deviation is
    /// that of a game divided by √2. Each hypothesis is represented by the pair-score
    /// distribution closest to the observed one (maximum likelihood) among those with its
    /// normalized Elo (M. Van den Bergh, "Comments on normalized Elo", section 4.1), and the
    /// ratio is that of the observed pairs' likelihoods under the two. Unlike the normal
    /// approximation `n·(s₁ − s₀)(2·mean − s₀ − s₁) / 2·var`, it does not grow without bound
    /// when one engine wins nearly every pair (the variance then nearly vanishes), so a few
    /// lopsided pairs do not end a test. Empty cells get a tiny count, as fishtest does.
    pub fn llr(&self, pentanomial: &Pentanomial) -> f64 {
        if pentanomial.pairs() == 0 {
            return 0.0;
        }
        let counts = pentanomial
            .as_f64()
            .map(|c| if c == 0.0 { 1e-3 } else { c });
        let total: f64 = counts.iter().sum();
        let observed = counts.map(|c| c / total);
        let per_deviation = 800.0 / std::f64::consts::LN_10;
        let t = |elo: f64| std::f64::consts::SQRT_2 * elo / per_deviation;
        let (Some(p0), Some(p1)) = (
            closest_with_t(&observed, t(self.elo0)),
            closest_with_t(&observed, t(self.elo1)),
        ) else {
            return 0.0;
        };
        total
            * (0..5)
                .map(|i| observed[i] * (p1[i].ln() - p0[i].ln()))
                .sum::<f64>()
    }

    /// The verdict once the ratio has crossed a bound.
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}

/// Pair scores of the five pentanomial cells, 0..=1.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The pair-score distribution of largest likelihood for the `observed` one among those
/// whose `(mean − ½) / deviation` is `t`: the fixed point of Van den Bergh's iteration, each
/// step solving for the Lagrange multiplier θ by bisection. `None` if it does not settle.
fn closest_with_t(observed: &[f64; 5], t: f64) -> Option<[f64; 5]> {
    let mut p = [0.2; 5];
    for _ in 0..1000 {
        let (mean, variance) = Pentanomial::moments(&p);
        let deviation = variance.sqrt();
        let phi = PAIR_SCORES.map(|a| {
            let z = (a - mean) / deviation;
            a - 0.5 - 0.5 * t * deviation * (1.0 + z * z)
        });
        let low = phi.iter().copied().fold(f64::INFINITY, f64::min);
        let high = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !(low < 0.0 && high > 0.0) {
            return None;
        }
        // Σ pᵢφᵢ / (1 + θφᵢ) falls from +∞ to −∞ on θ ∈ (−1/high, −1/low).
        let slope = |theta: f64| {
            (0..5)
                .map(|i| observed[i] * phi[i] / (1.0 + theta * phi[i]))
                .sum::<f64>()
        };
        let (mut below, mut above) = (-1.0 / high, -1.0 / low);
        for _ in 0..100 {
            let middle = (below + above) / 2.0;
            if slope(middle) > 0.0 {
                below = middle;
            } else {
                above = middle;
            }
        }
        let theta = (below + above) / 2.0;
        let next: [f64; 5] = std::array::from_fn(|i| observed[i] / (1.0 + theta * phi[i]));
        let change = (0..5).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-9 {
            return Some(p);
        }
    }
    None
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

impl FromStr for Sprt {
    type Err = String;

    /// `elo0=0,elo1=5` with optional `alpha=…` and `beta=…` (both 0.05 by default).
    fn from_str(text: &str) -> Result<Sprt, String> {
        let (mut elo0, mut elo1) = (None, None);
        let (mut alpha, mut beta) = (0.05, 0.05);
        for part in text.split(',') {
            let Some((key, value)) = part.split_once('=') else {
                return Err(format!("sprt: '{part}' is not <name>=<number>"));
            };
            let number: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("sprt: {key} value '{value}' is not a number"))?;
            match key.trim() {
                "elo0" => elo0 = Some(number),
                "elo1" => elo1 = Some(number),
                "alpha" => alpha = number,
                "beta" => beta = number,
                other => {
                    return Err(format!(
                        "sprt: unknown parameter '{other}' (expected elo0, elo1, alpha, beta)"
                    ));
                }
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err("sprt: both elo0 and elo1 are needed".into());
        };
        if elo0 >= elo1 {
            return Err(format!("sprt: elo0 ({elo0}) must be below elo1 ({elo1})"));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("sprt: {name} ({p}) must be between 0 and 0.5"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference vector of the issue (a fishtest run).
    const FISHTEST: Pentanomial = Pentanomial([398, 4112, 7672, 4336, 430]);

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} is not within {tolerance} of {expected}"
        );
    }

    #[test]
    fn reference_vector_elo_and_error() {
        let estimate = FISHTEST.estimate().unwrap();
        close(estimate.elo, 2.95, 0.005);
        close(estimate.error, 2.18, 0.005);
        // Mean 0.50425 with standard error 0.0016: about 99.6% superior.
        close(estimate.los, 0.9960, 0.0005);
    }

    #[test]
    fn reference_vector_llr() {
        let sprt: Sprt = "elo0=0,elo1=3".parse().unwrap();
        let llr = sprt.llr(&FISHTEST);
        close(llr, 2.96, 0.005);
        let (lower, upper) = sprt.bounds();
        close(lower, -2.944, 0.001);
        close(upper, 2.944, 0.001);
        assert_eq!(sprt.verdict(llr), Some(Verdict::H1));
        assert_eq!(sprt.verdict(0.0), None);
        assert_eq!(sprt.verdict(-3.0), Some(Verdict::H0));
    }

    #[test]
    fn equal_engines_and_sweeps() {
        let even = Pentanomial([10, 20, 40, 20, 10]).estimate().unwrap();
        close(even.elo, 0.0, 1e-9);
        close(even.los, 0.5, 1e-6);
        let sweep = Pentanomial([0, 0, 0, 0, 7]).estimate().unwrap();
        assert_eq!(sweep.elo, f64::INFINITY);
        assert_eq!(sweep.los, 1.0);
        assert!(Pentanomial::default().estimate().is_none());
        // A clean sweep is evidence for the stronger side, but a few won pairs are not
        // proof: each adds at most about the log of the two hypotheses' win chances.
        let sprt: Sprt = "elo0=0,elo1=10".parse().unwrap();
        let sweep = |pairs| sprt.llr(&Pentanomial([0, 0, 0, 0, pairs]));
        assert!(sweep(4) > 0.0 && sprt.verdict(sweep(4)).is_none());
        assert!(sweep(50) > sweep(4));
        assert_eq!(sprt.verdict(sweep(100)), Some(Verdict::H1));
        let lost = sprt.llr(&Pentanomial([100, 0, 0, 0, 0]));
        assert_eq!(sprt.verdict(lost), Some(Verdict::H0));
    }

    #[test]
    fn llr_matches_fastchess_reference_vectors() {
        // fastchess' "normalized pentanomial 1" (LL 365, LD 16618, WL 36029 + DD 200,
        // WD 16974, WW 390; elo0 0, elo1 2): 2.25.
        let sprt: Sprt = "elo0=0,elo1=2".parse().unwrap();
        close(
            sprt.llr(&Pentanomial([365, 16618, 36229, 16974, 390])),
            2.25,
            0.005,
        );
        // Lopsided: an early lead that the normal approximation took for proof (2.999).
        let sprt: Sprt = "elo0=0,elo1=10".parse().unwrap();
        close(sprt.llr(&Pentanomial([1, 1, 24, 13, 32])), 1.979, 0.005);
    }

    #[test]
    fn elo_of_known_scores() {
        close(elo_from_score(0.5), 0.0, 1e-9);
        close(elo_from_score(0.75), 190.85, 0.01);
        close(elo_from_score(0.25), -190.85, 0.01);
    }

    #[test]
    fn erf_matches_known_values() {
        close(erf(0.5), 0.520_499_9, 1e-6);
        close(erf(-1.0), -0.842_700_8, 1e-6);
        close(normal_cdf(Z95), 0.975, 1e-6);
    }

    #[test]
    fn sprt_arguments() {
        let sprt: Sprt = "elo0=-1.5,elo1=2,alpha=0.1,beta=0.2".parse().unwrap();
        assert_eq!(
            sprt,
            Sprt {
                elo0: -1.5,
                elo1: 2.0,
                alpha: 0.1,
                beta: 0.2
            }
        );
        for bad in [
            "",
            "elo0=0",
            "elo0=3,elo1=1",
            "elo0=0,elo1=x",
            "elo0=0,elo1=5,gamma=1",
            "elo0=0,elo1=5,alpha=0",
            "elo0=0,elo1=5,beta=0.7",
            "elo0=0 elo1=5",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "accepted '{bad}'");
        }
    }
}
