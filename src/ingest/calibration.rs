//! How much makers' own figures overstate what independent runs measure, and their figures
//! corrected by it (`docs/methodology.md`).
//!
//! On every (model, benchmark) with both a self-reported and an independent result, the gap
//! is taken on the logit scale, where a few points near 90 % weigh as much as many near 50 %:
//! `Δ = logit(self) − logit(independent)`. A benchmark's gap is the mean of its pairs, shrunk
//! toward the gap over all pairs by [`SHRINK`] pseudo-pairs (a benchmark with one pair says
//! little); a maker's residual (its pairs' mean `Δ` less their benchmarks' gaps) is shrunk
//! toward 0 the same way. A self-reported rate is calibrated as
//! `σ(logit(rate) − Δ_benchmark − Δ_maker)`. Each gap comes with its standard error.

use std::collections::BTreeMap;

/// Pseudo-pairs of the pooled gap each estimate is shrunk toward.
pub const SHRINK: f64 = 3.0;
/// Rates are clamped into this range before taking logits (0 % and 100 % have none).
const EDGE: f64 = 0.01;

fn logit(p: f64) -> f64 {
    let p = p.clamp(EDGE, 1.0 - EDGE);
    (p / (1.0 - p)).ln()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// A result measured both ways: the benchmark, the model's maker, the two rates in [0, 1].
#[derive(Debug, Clone)]
pub struct Pair {
    pub benchmark: String,
    pub maker: Option<String>,
    pub claimed: f64,
    pub measured: f64,
}

/// A mean gap on the logit scale, its standard error and how many pairs it rests on.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Gap {
    pub mean: f64,
    pub se: f64,
    pub pairs: usize,
}

fn gap_of(values: &[f64]) -> Gap {
    let n = values.len();
    if n == 0 {
        return Gap::default();
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    let var = if n > 1 {
        values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    Gap {
        mean,
        se: (var / n as f64).sqrt(),
        pairs: n,
    }
}

/// The gaps estimated from the pairs.
#[derive(Debug, Clone, Default)]
pub struct Gaps {
    pub pooled: Gap,
    /// Per benchmark, already shrunk toward the pooled gap.
    pub benchmarks: BTreeMap<String, Gap>,
    /// Per maker, the residual after the benchmarks' gaps, shrunk toward 0.
    pub makers: BTreeMap<String, Gap>,
}

impl Gaps {
    pub fn estimate(pairs: &[Pair]) -> Self {
        let delta = |p: &Pair| logit(p.claimed) - logit(p.measured);
        let all: Vec<f64> = pairs.iter().map(delta).collect();
        let pooled = gap_of(&all);
        let shrink = |g: Gap, toward: f64| {
            let w = g.pairs as f64 / (g.pairs as f64 + SHRINK);
            Gap {
                mean: w * g.mean + (1.0 - w) * toward,
                se: (w * w * g.se * g.se + (1.0 - w).powi(2) * pooled.se * pooled.se).sqrt(),
                pairs: g.pairs,
            }
        };
        let mut by_bench: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
        for p in pairs {
            by_bench.entry(&p.benchmark).or_default().push(delta(p));
        }
        let benchmarks: BTreeMap<String, Gap> = by_bench
            .into_iter()
            .map(|(b, v)| (b.to_string(), shrink(gap_of(&v), pooled.mean)))
            .collect();
        let mut by_maker: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
        for p in pairs {
            if let Some(m) = &p.maker {
                let bench = benchmarks.get(&p.benchmark).map_or(pooled.mean, |g| g.mean);
                by_maker.entry(m).or_default().push(delta(p) - bench);
            }
        }
        let makers = by_maker
            .into_iter()
            .map(|(m, v)| (m.to_string(), shrink(gap_of(&v), 0.0)))
            .collect();
        Self {
            pooled,
            benchmarks,
            makers,
        }
    }

    /// The gap applied to a maker's claim on a benchmark: the benchmark's (else the pooled
    /// one) plus the maker's residual, with the standard error of their sum.
    pub fn of(&self, benchmark: &str, maker: Option<&str>) -> Gap {
        let b = self
            .benchmarks
            .get(benchmark)
            .copied()
            .unwrap_or(self.pooled);
        let m = maker
            .and_then(|m| self.makers.get(m))
            .copied()
            .unwrap_or_default();
        Gap {
            mean: b.mean + m.mean,
            se: (b.se * b.se + m.se * m.se).sqrt(),
            pairs: b.pairs,
        }
    }

    /// A claimed rate in [0, 1] corrected by the gap.
    pub fn calibrate(&self, benchmark: &str, maker: Option<&str>, claimed: f64) -> f64 {
        sigmoid(logit(claimed) - self.of(benchmark, maker).mean)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(b: &str, maker: &str, claimed: f64, measured: f64) -> Pair {
        Pair {
            benchmark: b.into(),
            maker: Some(maker.into()),
            claimed,
            measured,
        }
    }

    #[test]
    fn claims_above_measurements_are_brought_down_by_the_measured_gap() {
        let pairs: Vec<Pair> = (0..6)
            .map(|i| pair("swe", if i % 2 == 0 { "a" } else { "b" }, 0.8, 0.7))
            .collect();
        let g = Gaps::estimate(&pairs);
        assert!(g.pooled.mean > 0.0 && g.pooled.pairs == 6);
        let swe = g.benchmarks["swe"];
        assert!(
            (swe.mean - g.pooled.mean).abs() < 1e-9,
            "one benchmark: its gap is the pooled one"
        );
        let calibrated = g.calibrate("swe", Some("a"), 0.8);
        assert!((calibrated - 0.7).abs() < 1e-6, "{calibrated}");
        // A benchmark without pairs takes the pooled gap.
        assert!(g.calibrate("other", None, 0.8) < 0.8);
    }

    #[test]
    fn a_benchmark_with_few_pairs_is_shrunk_toward_the_pool() {
        let mut pairs: Vec<Pair> = (0..9).map(|_| pair("a", "x", 0.6, 0.5)).collect();
        pairs.push(pair("b", "x", 0.9, 0.5));
        let g = Gaps::estimate(&pairs);
        let raw_b = logit(0.9) - logit(0.5);
        assert!(g.benchmarks["b"].mean < raw_b && g.benchmarks["b"].mean > g.pooled.mean);
    }
}
