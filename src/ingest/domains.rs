//! Rankings per domain (`docs/methodology.md`, "Rankings per domain"): each model's capability
//! in a domain — a category of `data/benchmarks.csv` (coding, math, reasoning, agentic,
//! knowledge, long-context, …) — computed from the finished snapshot, after the general index.
//!
//! - **The domain estimate** reads the model's counted scores (`in_average`: the independent
//!   result, else the calibrated claim; LiveBench's current release only) on the domain's
//!   fitted benchmarks, each benchmark's difficulty `D_b` and slope `a_b` as the general fit
//!   published them, and solves for the one capability `ĉ` that best explains them (maximum
//!   likelihood of `σ(a_b · (ĉ − D_b))`, each score weighted as [`capability::ITEMS`] tasks, as
//!   in the fit), with the standard error `1/√I` of its information; claims alone widen it as
//!   they widen the general index ([`rankings::SELF_REPORTED_SE`], [`rankings::UNCALIBRATED_SE`]).
//! - **Shrinkage** (a simple hierarchical prior): a model's domain capability is drawn around
//!   its general index `C` with a spread `τ_d` per domain, estimated from the data: on the
//!   models measured both in the domain and outside it, the excess of the squared gaps between
//!   the two estimates over their sampling variances (DerSimonian–Laird). The domain
//!   index is the precision-weighted mean of `ĉ` (weight `1/se_ĉ²`) and `C` (weight
//!   `1/(se_C² + τ_d²)`), its standard error `1/√(sum of the weights)`; a model without a
//!   score in the domain keeps its general index, with `√(se_C² + τ_d²)`. The general index
//!   also holds the domain's scores, so the combined error is somewhat optimistic.
//! - **The rank score** is the expected mean score on the domain's core benchmarks (those of
//!   the general core set, else every fitted benchmark of the domain) at the domain index's
//!   lower one-sigma bound, as the general `rank_score` is.

use std::collections::{BTreeMap, BTreeSet};

use entity::vocab::RankBasis;
use entity::{model_domain, score};

use super::capability::{ITEMS, round2};
use super::provenance::INDEPENDENT;
use super::rankings::{self, SELF_REPORTED_SE, UNCALIBRATED_SE};
use crate::snapshot::Snapshot;

/// Categories that name no domain a user asks for.
const NOT_DOMAINS: &[&str] = &["other"];
/// Rates are clamped into this range so that one aced or failed benchmark places a model at
/// a finite capability (the fit's priors do this for the general index).
const EDGE: f64 = 0.01;

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// A fitted benchmark as the general fit published it (index scale).
#[derive(Debug, Clone)]
struct Bench {
    domain: String,
    difficulty: f64,
    slope: f64,
    core: bool,
}

/// One counted score of a model: its benchmark, rate in [0, 1] and whether a third party
/// measured it.
#[derive(Debug, Clone)]
struct Obs {
    benchmark: String,
    rate: f64,
    independent: bool,
}

/// A model's general index and what a domain estimate needs of it.
#[derive(Debug, Clone)]
struct General {
    index: f64,
    se: f64,
    /// Index points a claim-only domain estimate widens by.
    claims_se: f64,
}

/// What the domain figures are computed from, read once from the snapshot.
pub struct Inputs {
    benches: BTreeMap<String, Bench>,
    general: BTreeMap<String, General>,
    obs: BTreeMap<String, Vec<Obs>>,
    /// See [`Inputs::measure_dispersion`].
    pub dispersion: f64,
}

/// A model's domain estimate from its domain scores alone, and its estimate from the rest.
#[derive(Debug, Clone, Copy)]
struct Raw {
    c: f64,
    se: f64,
    count: usize,
    independent: usize,
    /// From its scores outside the domain, where it has any: what the spread is read on.
    outside: Option<(f64, f64)>,
}

/// A model's standing in a domain before rounding.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    pub index: f64,
    pub se: f64,
    pub count: usize,
    pub independent: usize,
}

impl Inputs {
    pub fn of(s: &Snapshot) -> Self {
        let benches: BTreeMap<String, Bench> = s
            .benchmarks
            .iter()
            .filter(|b| !NOT_DOMAINS.contains(&b.category.as_str()))
            .filter_map(|b| {
                Some((
                    b.slug.clone(),
                    Bench {
                        domain: b.category.clone(),
                        difficulty: b.difficulty?,
                        slope: b.slope?,
                        core: b.in_average,
                    },
                ))
            })
            .collect();
        // LiveBench counts in its newest release only; older ones are other benchmarks whose
        // difficulty is not published.
        let mut newest: BTreeMap<&str, &str> = BTreeMap::new();
        for x in &s.scores {
            if let Some(r) = x.release.as_deref() {
                let e = newest.entry(x.benchmark_slug.as_str()).or_default();
                if r > *e {
                    *e = r;
                }
            }
        }
        let current = |x: &score::Model| {
            x.release
                .as_deref()
                .is_none_or(|r| newest.get(x.benchmark_slug.as_str()) == Some(&r))
        };
        let mut obs: BTreeMap<String, Vec<Obs>> = BTreeMap::new();
        for x in s.scores.iter().filter(|x| x.in_average && current(x)) {
            if !benches.contains_key(&x.benchmark_slug) {
                continue;
            }
            obs.entry(x.model_slug.clone()).or_default().push(Obs {
                benchmark: x.benchmark_slug.clone(),
                rate: rankings::rate_of(x),
                independent: x.provenance == INDEPENDENT,
            });
        }
        // Makers with an independently measured model could be calibrated (as in the index).
        let calibrated: BTreeSet<&str> = s
            .models
            .iter()
            .filter(|m| {
                matches!(
                    m.rank_basis,
                    Some(RankBasis::Independent | RankBasis::Mixed)
                )
            })
            .filter_map(|m| m.creator_slug.as_deref())
            .collect();
        let general = s
            .models
            .iter()
            .filter_map(|m| {
                let claims_se = if m
                    .creator_slug
                    .as_deref()
                    .is_some_and(|c| calibrated.contains(c))
                {
                    SELF_REPORTED_SE
                } else {
                    UNCALIBRATED_SE
                };
                Some((
                    m.slug.clone(),
                    General {
                        index: m.capability_index?,
                        se: m.capability_index_se?,
                        claims_se,
                    },
                ))
            })
            .collect();
        let mut inputs = Self {
            benches,
            general,
            obs,
            dispersion: 1.0,
        };
        inputs.dispersion = inputs.measure_dispersion();
        inputs
    }

    /// The domains: categories with at least one fitted benchmark, sorted.
    pub fn domains(&self) -> Vec<String> {
        let set: BTreeSet<&str> = self.benches.values().map(|b| b.domain.as_str()).collect();
        set.into_iter().map(str::to_string).collect()
    }

    /// The maximum-likelihood capability of `obs` alone and its standard error (index
    /// points), by bisection on the score equation (the log-likelihood is concave in `c`).
    fn estimate(&self, obs: &[&Obs]) -> Option<(f64, f64)> {
        let items: Vec<(f64, f64, f64)> = obs
            .iter()
            .filter_map(|o| {
                let b = self.benches.get(&o.benchmark)?;
                Some((b.slope, b.difficulty, o.rate.clamp(EDGE, 1.0 - EDGE)))
            })
            .collect();
        if items.is_empty() {
            return None;
        }
        let score = |c: f64| {
            items
                .iter()
                .map(|(a, d, r)| ITEMS * a * (r - sigmoid(a * (c - d))))
                .sum::<f64>()
        };
        let (mut lo, mut hi) = (-1000.0_f64, 1000.0_f64);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if score(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let c = 0.5 * (lo + hi);
        let info: f64 = items
            .iter()
            .map(|(a, d, _)| {
                let p = sigmoid(a * (c - d));
                ITEMS * a * a * p * (1.0 - p)
            })
            .sum();
        (info > 0.0).then(|| (c, 1.0 / info.sqrt()))
    }

    /// Every model's unshrunk domain estimate, leaving out the scores of `exclude` (a
    /// benchmark held out to check the order against).
    fn raw(&self, domain: &str, exclude: Option<&str>) -> BTreeMap<&str, Raw> {
        let mut out = BTreeMap::new();
        for (model, g) in &self.general {
            let (inside, outside): (Vec<&Obs>, Vec<&Obs>) = self
                .obs
                .get(model)
                .into_iter()
                .flatten()
                .filter(|o| Some(o.benchmark.as_str()) != exclude)
                .partition(|o| {
                    self.benches
                        .get(&o.benchmark)
                        .is_some_and(|b| b.domain == domain)
                });
            // Claims alone widen an estimate as they widen the general index.
            let widened = |obs: &[&Obs]| {
                let (c, se) = self.estimate(obs)?;
                let claims = !obs.iter().any(|o| o.independent);
                let se = if claims {
                    (se * se + g.claims_se * g.claims_se).sqrt()
                } else {
                    se
                };
                Some((c, se))
            };
            let Some((c, se)) = widened(&inside) else {
                continue;
            };
            out.insert(
                model.as_str(),
                Raw {
                    c,
                    se,
                    count: inside.len(),
                    independent: inside.iter().filter(|o| o.independent).count(),
                    outside: widened(&outside),
                },
            );
        }
        out
    }

    /// How far scores scatter around a model's own capability in a domain, against what the
    /// fit's weighting says (each score [`ITEMS`] tasks): the mean squared standardised
    /// residual of every score around its model's estimate in the score's domain, per degree
    /// of freedom, over all domains (1 when the weighting is right; below 1 when scores, each
    /// an average over many tasks, agree better than ten tasks would). The spread between
    /// domains is read against sampling variances scaled by it.
    fn measure_dispersion(&self) -> f64 {
        let (mut sum, mut df) = (0.0, 0.0);
        for domain in self.domains() {
            for obs in self.obs.values() {
                let inside: Vec<&Obs> = obs
                    .iter()
                    .filter(|o| {
                        self.benches
                            .get(&o.benchmark)
                            .is_some_and(|b| b.domain == domain)
                    })
                    .collect();
                if inside.len() < 2 {
                    continue;
                }
                let Some((c, _)) = self.estimate(&inside) else {
                    continue;
                };
                for o in &inside {
                    let Some(b) = self.benches.get(&o.benchmark) else {
                        continue;
                    };
                    let p = sigmoid(b.slope * (c - b.difficulty)).clamp(EDGE, 1.0 - EDGE);
                    let r = o.rate.clamp(EDGE, 1.0 - EDGE);
                    sum += ITEMS * (r - p).powi(2) / (p * (1.0 - p));
                }
                df += (inside.len() - 1) as f64;
            }
        }
        if df > 0.0 { sum / df } else { 1.0 }
    }

    /// The spread of models' domain capability around their capability elsewhere (`τ_d²`,
    /// index points²), DerSimonian–Laird: on the models measured both in the domain and
    /// outside it, the excess of the squared gaps between the two estimates (independent:
    /// they read disjoint scores) over their sampling variances, never below 0.
    fn spread(raw: &BTreeMap<&str, Raw>, dispersion: f64) -> f64 {
        let pairs: Vec<(f64, f64)> = raw
            .values()
            .filter_map(|r| {
                let (c_out, se_out) = r.outside?;
                Some((r.c - c_out, dispersion * (r.se * r.se + se_out * se_out)))
            })
            .filter(|(_, v)| *v > 0.0)
            .collect();
        if pairs.len() < 3 {
            return 0.0;
        }
        let w: Vec<f64> = pairs.iter().map(|(_, v)| 1.0 / v).collect();
        let sw: f64 = w.iter().sum();
        let sw2: f64 = w.iter().map(|x| x * x).sum();
        let mean: f64 = pairs.iter().zip(&w).map(|((z, _), w)| w * z).sum::<f64>() / sw;
        let q: f64 = pairs
            .iter()
            .zip(&w)
            .map(|((z, _), w)| w * (z - mean).powi(2))
            .sum();
        let df = (pairs.len() - 1) as f64;
        ((q - df) / (sw - sw2 / sw)).max(0.0)
    }

    /// Every indexed model's standing in `domain` (leaving out `exclude`'s scores), and the
    /// domain's spread `τ_d` in index points.
    pub fn standings(
        &self,
        domain: &str,
        exclude: Option<&str>,
    ) -> (BTreeMap<String, Standing>, f64) {
        let raw = self.raw(domain, exclude);
        let tau2 = Self::spread(&raw, self.dispersion);
        let out = self
            .general
            .iter()
            .map(|(model, g)| {
                let prior = g.se * g.se + tau2;
                let standing = match raw.get(model.as_str()) {
                    Some(&Raw {
                        c,
                        se,
                        count,
                        independent,
                        ..
                    }) if prior > 0.0 && se > 0.0 => {
                        let (wd, wg) = (1.0 / (se * se), 1.0 / prior);
                        Standing {
                            index: (wd * c + wg * g.index) / (wd + wg),
                            se: 1.0 / (wd + wg).sqrt(),
                            count,
                            independent,
                        }
                    }
                    _ => Standing {
                        index: g.index,
                        se: prior.sqrt(),
                        count: 0,
                        independent: 0,
                    },
                };
                (model.clone(), standing)
            })
            .collect();
        (out, tau2.sqrt())
    }

    /// The expected mean score (0-100) on the domain's core benchmarks at capability `c`.
    pub fn expected(&self, domain: &str, c: f64) -> Option<f64> {
        let of_domain: Vec<&Bench> = self
            .benches
            .values()
            .filter(|b| b.domain == domain)
            .collect();
        let core: Vec<&&Bench> = of_domain.iter().filter(|b| b.core).collect();
        let set: Vec<&Bench> = if core.is_empty() {
            of_domain
        } else {
            core.into_iter().copied().collect()
        };
        (!set.is_empty()).then(|| {
            100.0
                * set
                    .iter()
                    .map(|b| sigmoid(b.slope * (c - b.difficulty)))
                    .sum::<f64>()
                / set.len() as f64
        })
    }
}

/// Each domain's spread, by domain.
pub type Spreads = BTreeMap<String, f64>;

/// Fills `s.model_domains`: every indexed model's standing in every domain, sorted by
/// (model, domain). Returns each domain's spread `τ_d` (index points).
pub fn apply(s: &mut Snapshot) -> Spreads {
    let inputs = Inputs::of(s);
    let mut rows = Vec::new();
    let mut spreads = Spreads::new();
    for domain in inputs.domains() {
        let (standings, tau) = inputs.standings(&domain, None);
        spreads.insert(domain.clone(), tau);
        for (model, st) in standings {
            let basis = (st.count > 0).then_some(if st.independent == st.count {
                RankBasis::Independent
            } else if st.independent == 0 {
                RankBasis::SelfReported
            } else {
                RankBasis::Mixed
            });
            rows.push(model_domain::Model {
                model_slug: model,
                domain: domain.clone(),
                capability_index: round2(st.index),
                capability_index_se: round2(st.se),
                average_score: inputs.expected(&domain, st.index).map(round2),
                rank_score: inputs.expected(&domain, st.index - st.se).map(round2),
                benchmarks_count: i32::try_from(st.count).unwrap_or(i32::MAX),
                basis,
            });
        }
    }
    rows.sort_by(|a, b| (&a.model_slug, &a.domain).cmp(&(&b.model_slug, &b.domain)));
    s.model_domains = rows;
    spreads
}

/// Spearman's rank correlation, ties at their mean rank.
pub fn spearman(pairs: &[(f64, f64)]) -> f64 {
    fn ranks(x: &[f64]) -> Vec<f64> {
        let mut idx: Vec<usize> = (0..x.len()).collect();
        idx.sort_by(|&i, &j| x[i].total_cmp(&x[j]));
        let mut r = vec![0.0; x.len()];
        let mut i = 0;
        while i < idx.len() {
            let mut j = i;
            while j + 1 < idx.len() && x[idx[j + 1]] == x[idx[i]] {
                j += 1;
            }
            let mean = (i + j) as f64 / 2.0;
            for &k in &idx[i..=j] {
                r[k] = mean;
            }
            i = j + 1;
        }
        r
    }
    let n = pairs.len();
    if n < 3 {
        return f64::NAN;
    }
    let a = ranks(&pairs.iter().map(|p| p.0).collect::<Vec<_>>());
    let b = ranks(&pairs.iter().map(|p| p.1).collect::<Vec<_>>());
    let mean = (n as f64 - 1.0) / 2.0;
    let cov: f64 = a.iter().zip(&b).map(|(x, y)| (x - mean) * (y - mean)).sum();
    let var = |r: &[f64]| r.iter().map(|x| (x - mean).powi(2)).sum::<f64>();
    cov / (var(&a) * var(&b)).sqrt()
}

/// How a domain's order agrees with one benchmark's independent results on the models both
/// rank: Spearman's ρ of the domain rank score against each model's best independent score
/// there, with the domain fitted on every score (`rho`) and with that benchmark's scores left
/// out (`held_out`, the honest figure when the benchmark is in the domain); and the same for
/// the general rank score.
#[derive(Debug, Clone, PartialEq)]
pub struct Agreement {
    pub domain: String,
    pub benchmark: String,
    pub models: usize,
    pub rho: f64,
    pub held_out: f64,
    pub general: f64,
}

/// The agreement of `domain`'s order with `benchmark`'s independent results.
pub fn agreement(s: &Snapshot, domain: &str, benchmark: &str) -> Agreement {
    let inputs = Inputs::of(s);
    let mut best: BTreeMap<&str, f64> = BTreeMap::new();
    for x in s
        .scores
        .iter()
        .filter(|x| x.benchmark_slug == benchmark && x.provenance == INDEPENDENT)
    {
        let e = best.entry(x.model_slug.as_str()).or_insert(f64::MIN);
        *e = e.max(x.score);
    }
    let rank_scores = |standings: &BTreeMap<String, Standing>| -> Vec<(f64, f64)> {
        best.iter()
            .filter_map(|(m, v)| {
                let st = standings.get(*m)?;
                Some((inputs.expected(domain, st.index - st.se)?, *v))
            })
            .collect()
    };
    let (all, _) = inputs.standings(domain, None);
    let (held, _) = inputs.standings(domain, Some(benchmark));
    let pairs = rank_scores(&all);
    let general: Vec<(f64, f64)> = best
        .iter()
        .filter_map(|(m, v)| {
            let r = s.models.iter().find(|x| x.slug == *m)?.rank_score?;
            Some((r, *v))
        })
        .collect();
    Agreement {
        domain: domain.to_string(),
        benchmark: benchmark.to_string(),
        models: pairs.len(),
        rho: spearman(&pairs),
        held_out: spearman(&rank_scores(&held)),
        general: spearman(&general),
    }
}

/// The benchmarks a domain's order is checked against (`docs/methodology.md`): SWE-bench
/// Bash Only (every model under one agent, run by the maintainers) and Aider Polyglot.
pub const CHECKS: &[(&str, &str)] = &[
    ("coding", "swe-bench-bash-only"),
    ("coding", "aider-polyglot"),
];

/// What `mds ingest` prints about the rankings: coverage by basis (all models and those
/// listed by default), each domain's spread and the agreement figures of [`CHECKS`].
pub fn summary(s: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    let listed = |m: &&entity::model::Model| m.listed_by_default();
    for (what, models) in [
        ("all models", s.models.iter().collect::<Vec<_>>()),
        (
            "listed by default",
            s.models.iter().filter(listed).collect(),
        ),
    ] {
        let mut by: BTreeMap<&str, usize> = BTreeMap::new();
        for m in models.iter().filter(|m| m.capability_index.is_some()) {
            *by.entry(m.rank_basis.map_or("none", RankBasis::as_str))
                .or_default() += 1;
        }
        out.push(format!(
            "rankings: {what}: {} of {} with an index (independent {}, mixed {}, self_reported {})",
            by.values().sum::<usize>(),
            models.len(),
            by.get("independent").unwrap_or(&0),
            by.get("mixed").unwrap_or(&0),
            by.get("self_reported").unwrap_or(&0),
        ));
    }
    let inputs = Inputs::of(s);
    out.push(format!(
        "rankings: scores scatter around a model's domain capability at {:.3} of the fit's \
         binomial variance (each score {ITEMS} tasks)",
        inputs.dispersion
    ));
    for domain in inputs.domains() {
        let (standings, tau) = inputs.standings(&domain, None);
        let measured = standings.values().filter(|st| st.count > 0).count();
        out.push(format!(
            "rankings: domain {domain}: {measured} models with a result, spread τ {tau:.2} index points"
        ));
    }
    for (domain, benchmark) in CHECKS {
        let a = agreement(s, domain, benchmark);
        out.push(format!(
            "rankings: {domain} order vs {benchmark}: Spearman {:.3} on {} models ({:.3} with its \
             scores held out; general order {:.3})",
            a.rho, a.models, a.held_out, a.general
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(benches: &[(&str, &str, f64)], general: &[(&str, f64, f64)]) -> Inputs {
        Inputs {
            benches: benches
                .iter()
                .map(|(slug, domain, d)| {
                    (
                        slug.to_string(),
                        Bench {
                            domain: domain.to_string(),
                            difficulty: *d,
                            slope: 0.05,
                            core: true,
                        },
                    )
                })
                .collect(),
            general: general
                .iter()
                .map(|(m, c, se)| {
                    (
                        m.to_string(),
                        General {
                            index: *c,
                            se: *se,
                            claims_se: SELF_REPORTED_SE,
                        },
                    )
                })
                .collect(),
            obs: BTreeMap::new(),
            dispersion: 1.0,
        }
    }

    fn at(c: f64, d: f64) -> f64 {
        sigmoid(0.05 * (c - d))
    }

    #[test]
    fn a_domain_estimate_recovers_the_capability_its_scores_say() {
        let mut i = inputs(
            &[("code", "coding", 120.0), ("code2", "coding", 140.0)],
            &[],
        );
        let obs = [
            Obs {
                benchmark: "code".into(),
                rate: at(150.0, 120.0),
                independent: true,
            },
            Obs {
                benchmark: "code2".into(),
                rate: at(150.0, 140.0),
                independent: true,
            },
        ];
        let (c, se) = i.estimate(&obs.iter().collect::<Vec<_>>()).unwrap();
        assert!((c - 150.0).abs() < 0.01, "{c}");
        assert!(se > 0.0 && se < 30.0, "{se}");
        // One aced benchmark places a model at a finite capability.
        i.benches.get_mut("code").unwrap().difficulty = 100.0;
        let aced = [Obs {
            benchmark: "code".into(),
            rate: 1.0,
            independent: true,
        }];
        let (c, _) = i.estimate(&aced.iter().collect::<Vec<_>>()).unwrap();
        assert!(c.is_finite() && c > 100.0 && c < 300.0, "{c}");
    }

    #[test]
    fn little_domain_evidence_stays_near_the_general_index() {
        // Ten models whose coding matches their general index, and one measured once on
        // coding far above its general index: the one is pulled back toward it, and a model
        // with no coding result keeps its general index with a wider error.
        let mut general: Vec<(String, f64, f64)> = (0..10)
            .map(|k| (format!("m{k}"), 100.0 + 5.0 * k as f64, 3.0))
            .collect();
        general.push(("lucky".into(), 110.0, 3.0));
        general.push(("silent".into(), 130.0, 3.0));
        let refs: Vec<(&str, f64, f64)> = general
            .iter()
            .map(|(m, c, se)| (m.as_str(), *c, *se))
            .collect();
        let mut i = inputs(
            &[("code", "coding", 120.0), ("code2", "coding", 140.0)],
            &refs,
        );
        for (m, c, _) in &general[..10] {
            i.obs.insert(
                m.clone(),
                ["code", "code2"]
                    .iter()
                    .map(|b| Obs {
                        benchmark: b.to_string(),
                        rate: at(*c, if *b == "code" { 120.0 } else { 140.0 }),
                        independent: true,
                    })
                    .collect(),
            );
        }
        i.obs.insert(
            "lucky".into(),
            vec![Obs {
                benchmark: "code".into(),
                rate: at(170.0, 120.0),
                independent: true,
            }],
        );
        let (st, tau) = i.standings("coding", None);
        let lucky = st["lucky"];
        assert!(lucky.index > 110.0 && lucky.index < 170.0, "{lucky:?}");
        assert_eq!(lucky.count, 1);
        let silent = st["silent"];
        assert_eq!(silent.index, 130.0);
        assert!((silent.se - (9.0 + tau * tau).sqrt()).abs() < 1e-9);
        assert!(silent.se >= 3.0);
        // Those measured twice where their general index says keep it.
        assert!((st["m4"].index - 120.0).abs() < 1.0, "{:?}", st["m4"]);
        assert!(st["m4"].se < 3.0 + 1e-9);
    }

    #[test]
    fn spearman_handles_ties_and_order() {
        let up = [(1.0, 10.0), (2.0, 20.0), (3.0, 30.0), (4.0, 40.0)];
        assert!((spearman(&up) - 1.0).abs() < 1e-12);
        let down: Vec<(f64, f64)> = up.iter().map(|(a, b)| (*a, -b)).collect();
        assert!((spearman(&down) + 1.0).abs() < 1e-12);
        let tied = [(1.0, 1.0), (1.0, 2.0), (2.0, 3.0), (3.0, 3.0)];
        let rho = spearman(&tied);
        assert!(rho > 0.5 && rho < 1.0, "{rho}");
        assert!(spearman(&up[..2]).is_nan());
    }
}
