//! The capability index: one number per model (and agent) comparable across models whatever
//! benchmarks each was measured on ("benchmark stitching", `docs/methodology.md`).
//!
//! # The model
//!
//! Every headline score on a 0–100 benchmark is read as a success rate `p = score / 100`
//! and explained by a two-parameter logistic (item-response) model:
//!
//! ```text
//! p(s, b) ≈ σ(a_b · (C_s − D_b)),   σ(z) = 1 / (1 + e^−z)
//! ```
//!
//! where `C_s` is the capability of subject `s` (a model or an agent), `D_b` the difficulty
//! of benchmark `b` (the capability at which half its tasks are solved) and `a_b = e^β_b`
//! its slope (how sharply it separates capabilities near `D_b`). A hard benchmark on which
//! only strong models score tells apart strong models; an easy, saturated one tells apart
//! weak ones; a model measured on either lands on the same scale.
//!
//! # The fit
//!
//! The parameters minimise the cross-entropy of the observed rates, each score weighted as
//! [`ITEMS`] tasks, plus Gaussian priors that regularise the fit: `C ~ N(0, 1)` (so a model
//! with few scores stays near the mean instead of running off to ±∞ on one 0 % or 100 %),
//! `β ~ N(0, 1)` and a weak `D ~ N(0, 10²)`. The loss is minimised by full-batch gradient
//! descent with Adam steps for a fixed number of iterations from a fixed start, so the same
//! snapshot always gives the same numbers. Subjects need at least [`MIN_SCORES`] scores
//! and benchmarks at least [`MIN_SUBJECTS`] subjects to enter the fit.
//!
//! The standard error of `C_s` is `1 / √H`, where `H` is the curvature of the loss in
//! `C_s` at the optimum: `Σ_b ITEMS · a_b² · σ(1 − σ) + 1` (the information of its scores
//! plus the prior's).
//!
//! # The published scale
//!
//! The latent scale is arbitrary; it is published as a linear map anchored on two models:
//! GPT-4 (`gpt-4-0613`, June 2023) = 100 and GPT-5 (`gpt-5-2025-08-07`, August 2025) = 150.
//! Difficulties use the same map; slopes are given per index point. Without both anchors (a
//! partial dataset), the mean subject is 100 and one latent unit is 20 points.

/// Each score counts as this many tasks: the strength of one score against the priors.
pub const ITEMS: f64 = 10.0;
/// Fewest 0–100 scores a subject needs to get an index: one places it, with the standard
/// error one score leaves (the default order ranks by the lower bound, so a model known from
/// one result does not outrank one measured many times).
pub const MIN_SCORES: usize = 1;
/// Fewest subjects a benchmark needs to enter the fit.
pub const MIN_SUBJECTS: usize = 3;
const ITERATIONS: usize = 4000;
const LEARNING_RATE: f64 = 0.05;
const PRIOR_C: f64 = 1.0;
const PRIOR_BETA: f64 = 1.0;
const PRIOR_D: f64 = 0.01;

/// One observation: subject, benchmark, rate in [0, 1].
#[derive(Debug, Clone, Copy)]
pub struct Observation {
    pub subject: usize,
    pub benchmark: usize,
    pub rate: f64,
}

/// Fitted parameters on the latent scale; `None` for what did not enter the fit.
#[derive(Debug, Clone, Default)]
pub struct Fit {
    pub capability: Vec<Option<f64>>,
    pub se: Vec<Option<f64>>,
    pub difficulty: Vec<Option<f64>>,
    pub slope: Vec<Option<f64>>,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Adam's state for one parameter vector.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
}

impl Adam {
    fn new(n: usize) -> Self {
        Self {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    fn step(&mut self, x: &mut [f64], g: &[f64], t: usize) {
        let (b1, b2) = (0.9_f64, 0.999_f64);
        let (c1, c2) = (1.0 - b1.powi(t as i32), 1.0 - b2.powi(t as i32));
        for i in 0..x.len() {
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g[i] * g[i];
            x[i] -= LEARNING_RATE * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-9);
        }
    }
}

/// Fits the model to `obs` over `subjects` subjects and `benchmarks` benchmarks.
pub fn fit(obs: &[Observation], subjects: usize, benchmarks: usize) -> Fit {
    // Who enters: subjects with enough scores, on benchmarks with enough subjects; repeated
    // once, as dropping one can leave the other short.
    let mut keep: Vec<Observation> = obs
        .iter()
        .copied()
        .filter(|o| o.subject < subjects && o.benchmark < benchmarks && o.rate.is_finite())
        .collect();
    for _ in 0..2 {
        let mut per_subject = vec![0usize; subjects];
        let mut per_bench = vec![0usize; benchmarks];
        for o in &keep {
            per_subject[o.subject] += 1;
            per_bench[o.benchmark] += 1;
        }
        keep.retain(|o| {
            per_subject[o.subject] >= MIN_SCORES && per_bench[o.benchmark] >= MIN_SUBJECTS
        });
    }
    let mut in_s = vec![false; subjects];
    let mut in_b = vec![false; benchmarks];
    for o in &keep {
        in_s[o.subject] = true;
        in_b[o.benchmark] = true;
    }
    let mut c = vec![0.0; subjects];
    let mut d = vec![0.0; benchmarks];
    let mut beta = vec![0.0; benchmarks];
    // Start each benchmark's difficulty where its mean rate puts it.
    let mut sums = vec![(0.0, 0usize); benchmarks];
    for o in &keep {
        sums[o.benchmark].0 += o.rate;
        sums[o.benchmark].1 += 1;
    }
    for (b, (sum, n)) in sums.iter().enumerate() {
        if *n > 0 {
            let mean = (sum / *n as f64).clamp(0.02, 0.98);
            d[b] = -(mean / (1.0 - mean)).ln();
        }
    }
    let (mut ac, mut ad, mut ab) = (
        Adam::new(subjects),
        Adam::new(benchmarks),
        Adam::new(benchmarks),
    );
    let (mut gc, mut gd, mut gb) = (
        vec![0.0; subjects],
        vec![0.0; benchmarks],
        vec![0.0; benchmarks],
    );
    for t in 1..=ITERATIONS {
        for (i, g) in gc.iter_mut().enumerate() {
            *g = PRIOR_C * c[i];
        }
        for b in 0..benchmarks {
            gd[b] = PRIOR_D * d[b];
            gb[b] = PRIOR_BETA * beta[b];
        }
        for o in &keep {
            let a = beta[o.benchmark].exp();
            let diff = c[o.subject] - d[o.benchmark];
            let r = ITEMS * (sigmoid(a * diff) - o.rate);
            gc[o.subject] += r * a;
            gd[o.benchmark] -= r * a;
            gb[o.benchmark] += r * a * diff;
        }
        ac.step(&mut c, &gc, t);
        ad.step(&mut d, &gd, t);
        ab.step(&mut beta, &gb, t);
    }
    let mut info = vec![PRIOR_C; subjects];
    for o in &keep {
        let a = beta[o.benchmark].exp();
        let p = sigmoid(a * (c[o.subject] - d[o.benchmark]));
        info[o.subject] += ITEMS * a * a * p * (1.0 - p);
    }
    Fit {
        capability: (0..subjects).map(|s| in_s[s].then_some(c[s])).collect(),
        se: (0..subjects)
            .map(|s| in_s[s].then(|| 1.0 / info[s].sqrt()))
            .collect(),
        difficulty: (0..benchmarks).map(|b| in_b[b].then_some(d[b])).collect(),
        slope: (0..benchmarks)
            .map(|b| in_b[b].then(|| beta[b].exp()))
            .collect(),
    }
}

/// The published scale: `index = offset + scale · C`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    pub offset: f64,
    pub scale: f64,
}

impl Scale {
    /// Anchored so that `low` maps to 100 and `high` to 150; else the mean subject to 100
    /// and one latent unit to 20 points.
    pub fn anchored(low: Option<f64>, high: Option<f64>, all: &[f64]) -> Self {
        if let (Some(l), Some(h)) = (low, high)
            && (h - l).abs() > 1e-6
        {
            let scale = 50.0 / (h - l);
            return Self {
                offset: 100.0 - scale * l,
                scale,
            };
        }
        let mean = if all.is_empty() {
            0.0
        } else {
            all.iter().sum::<f64>() / all.len() as f64
        };
        Self {
            offset: 100.0 - 20.0 * mean,
            scale: 20.0,
        }
    }

    pub fn index(&self, c: f64) -> f64 {
        self.offset + self.scale * c
    }
}

/// `x` rounded to 2 decimals.
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic pseudo-random sequence (no dependency, same numbers every run).
    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 11) as f64) / ((1u64 << 53) as f64)
    }

    fn spearman(a: &[f64], b: &[f64]) -> f64 {
        fn ranks(x: &[f64]) -> Vec<f64> {
            let mut idx: Vec<usize> = (0..x.len()).collect();
            idx.sort_by(|&i, &j| x[i].total_cmp(&x[j]));
            let mut r = vec![0.0; x.len()];
            for (rank, &i) in idx.iter().enumerate() {
                r[i] = rank as f64;
            }
            r
        }
        let (ra, rb) = (ranks(a), ranks(b));
        let n = a.len() as f64;
        let d2: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - y).powi(2)).sum();
        1.0 - 6.0 * d2 / (n * (n * n - 1.0))
    }

    #[test]
    fn known_capabilities_are_recovered() {
        // 40 subjects with capabilities spread over [-2, 2], 8 benchmarks of increasing
        // difficulty; each subject is measured on a window of 4 benchmarks around its level,
        // so most pairs share no benchmark and only stitching can compare them.
        let mut seed = 7;
        let truth: Vec<f64> = (0..40).map(|i| -2.0 + 4.0 * i as f64 / 39.0).collect();
        let diffs: Vec<f64> = (0..8).map(|b| -2.5 + 5.0 * b as f64 / 7.0).collect();
        let mut obs = Vec::new();
        for (s, c) in truth.iter().enumerate() {
            let centre = ((c + 2.5) / 5.0 * 7.0).round() as i64;
            for b in (centre - 2).max(0)..=(centre + 1).min(7) {
                let b = b as usize;
                let noise = (lcg(&mut seed) - 0.5) * 0.04;
                let rate = (sigmoid(1.5 * (c - diffs[b])) + noise).clamp(0.0, 1.0);
                obs.push(Observation {
                    subject: s,
                    benchmark: b,
                    rate,
                });
            }
        }
        let f = fit(&obs, truth.len(), diffs.len());
        let fitted: Vec<f64> = f.capability.iter().map(|c| c.unwrap()).collect();
        assert!(spearman(&fitted, &truth) > 0.97, "{fitted:?}");
        // Difficulties come out in order too.
        let d: Vec<f64> = f.difficulty.iter().map(|d| d.unwrap()).collect();
        assert!(d.windows(2).all(|w| w[0] < w[1]), "{d:?}");
        assert!(f.se.iter().all(|s| s.unwrap() > 0.0 && s.unwrap() < 1.0));
        // The same data give the same numbers.
        let again = fit(&obs, truth.len(), diffs.len());
        assert_eq!(again.capability, f.capability);
    }

    #[test]
    fn one_score_gives_an_uncertain_index_and_aced_benchmarks_stay_finite() {
        let mut obs = Vec::new();
        for s in 0..5 {
            // Everyone aces benchmark 0; benchmark 1 separates them.
            obs.push(Observation {
                subject: s,
                benchmark: 0,
                rate: 1.0,
            });
            obs.push(Observation {
                subject: s,
                benchmark: 1,
                rate: 0.1 + 0.15 * s as f64,
            });
        }
        obs.push(Observation {
            subject: 5,
            benchmark: 1,
            rate: 0.9,
        });
        let f = fit(&obs, 6, 2);
        // One score places a subject, less surely than two.
        assert!(f.capability[5].is_some());
        assert!(f.se[5].unwrap() > f.se[4].unwrap(), "{:?}", f.se);
        let c: Vec<f64> = f.capability[..5].iter().map(|c| c.unwrap()).collect();
        assert!(c.windows(2).all(|w| w[0] < w[1]), "{c:?}");
        assert!(c.iter().all(|x| x.is_finite() && x.abs() < 10.0));
        assert!(f.difficulty[0].unwrap().is_finite());
    }

    #[test]
    fn the_scale_is_anchored_on_two_models() {
        let s = Scale::anchored(Some(-1.0), Some(0.5), &[]);
        assert!((s.index(-1.0) - 100.0).abs() < 1e-9);
        assert!((s.index(0.5) - 150.0).abs() < 1e-9);
        let fallback = Scale::anchored(None, Some(1.0), &[1.0, 3.0]);
        assert!((fallback.index(2.0) - 100.0).abs() < 1e-9);
    }
}
