//! The figures models are ranked by (`docs/methodology.md`): the capability index, `average_score`,
//! what they rest on (`rank_basis`) and the default order's `rank_score`.
//!
//! - **Which scores count** (`in_average` on a score): on each benchmark of the index, a
//!   model's independent result where it has one (the benchmark publisher's own, else the
//!   most recent, else the best), else its maker's claim,
//!   calibrated ([`super::calibration`]) by the gap measured between makers' claims and
//!   independent runs. LiveBench counts only in its newest release (its questions change).
//! - **The index** is fitted on those scores ([`super::capability`]); its standard error
//!   widens, in quadrature, by [`SELF_REPORTED_SE`] index points for a model whose index rests
//!   on claims alone, and by [`UNCALIBRATED_SE`] when its maker has no independently measured
//!   model to calibrate against.
//! - **`average_score`** is the model's expected mean score (0–100) on the core set — the
//!   benchmarks marked `in_average` that the index fits — predicted from its index:
//!   `mean_b σ(a_b · (C − D_b))`. Every model with an index gets one, on the same benchmarks,
//!   so two averages compare whatever each model was measured on.
//! - **`rank_score`** is that average at the index's lower one-sigma bound: what the evidence
//!   supports. The default order sorts by it, so a model known from few or unverified scores
//!   ranks below one measured as well by independent runs.
//! - **`rank_basis`**: `independent` when every counted score is, `self_reported` when none
//!   is, else `mixed`. The lists rank a `self_reported` model after every measured one
//!   (`catalog::models::ranked`), and the economy's frontiers leave it out.
//! - **Per domain** ([`super::domains`]), from the finished index: each model's standing in
//!   each benchmark category, shrunk toward its general index.

use std::collections::{BTreeMap, BTreeSet};

use super::calibration::{Gaps, Pair};
use super::capability::{self, Observation, Scale, round2};
use super::provenance::{INDEPENDENT, SELF_REPORTED};
use super::review;
use crate::snapshot::Snapshot;
use entity::vocab::RankBasis;

/// Index points of added uncertainty for an index resting on its maker's calibrated claims.
pub const SELF_REPORTED_SE: f64 = 5.0;
/// Index points of added uncertainty for one resting on claims nobody could calibrate: the
/// distance between two model generations (GPT-4 to GPT-5 is 50), as nothing bounds the gap.
pub const UNCALIBRATED_SE: f64 = 40.0;
/// Fewest independently measured models a benchmark of the average needs to be in the core
/// set.
pub const MIN_MEASURED: usize = 3;
/// The source whose leaderboard is read release by release (every LiveBench table).
const RELEASED_SOURCE: &str = "livebench";
/// Benchmarks rated by Elo: they enter the index (never the average) as the expected win
/// rate against a model rated [`ELO_REFERENCE`].
const ELO: &[&str] = &["lmarena-text"];
const ELO_REFERENCE: f64 = 1300.0;

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// What a counted score says in the index, as a success rate in [0, 1]: an Elo rating the
/// expected win rate against a model rated [`ELO_REFERENCE`], a claim its calibrated value,
/// any other score its value.
pub fn rate_of(x: &entity::score::Model) -> f64 {
    if ELO.contains(&x.benchmark_slug.as_str()) {
        1.0 / (1.0 + 10f64.powf((ELO_REFERENCE - x.score) / 400.0))
    } else {
        (x.calibrated.unwrap_or(x.score) / 100.0).clamp(0.0, 1.0)
    }
}

/// Computes the index, averages, bases and rank scores of models and agents, and the
/// difficulty and slope of benchmarks.
/// Returns the gaps the claims were calibrated by.
pub fn apply(s: &mut Snapshot, table: &BTreeMap<String, review::Review>) -> Gaps {
    let in_index = review::in_index(table);
    let mut newest: BTreeMap<String, String> = BTreeMap::new();
    for x in s.scores.iter().filter(|x| x.source == RELEASED_SOURCE) {
        if let Some(d) = &x.release {
            let e = newest.entry(x.benchmark_slug.clone()).or_default();
            if d > e {
                e.clone_from(d);
            }
        }
    }
    // On a benchmark published release by release, only the publisher's rows say which
    // release they are of (another source's copy does not).
    let released = |x: &entity::score::Model| newest.contains_key(&x.benchmark_slug);
    let current = |x: &entity::score::Model| {
        !released(x) || x.release.as_ref() == newest.get(&x.benchmark_slug)
    };
    let creator: BTreeMap<String, Option<String>> = s
        .models
        .iter()
        .map(|m| (m.slug.clone(), m.creator_slug.clone()))
        .collect();
    let maker = |model: &str| creator.get(model).cloned().flatten();

    // What a score is in the index: its benchmark; an older LiveBench release a benchmark of
    // its own (`livebench@2025-04-25`: other questions, other difficulty); an Elo rating the
    // expected win rate against a model rated [`ELO_REFERENCE`].
    let index_key = |x: &entity::score::Model| -> Option<String> {
        if ELO.contains(&x.benchmark_slug.as_str()) {
            return Some(x.benchmark_slug.clone());
        }
        if !in_index(&x.benchmark_slug) || (released(x) && x.source != RELEASED_SOURCE) {
            return None;
        }
        Some(match (&x.release, current(x)) {
            (Some(release), false) => format!("{}@{release}", x.benchmark_slug),
            _ => x.benchmark_slug.clone(),
        })
    };
    // Each model's result per benchmark, independent and claimed: the benchmark publisher's
    // own figure where there is one, else the most recent, else the best.
    let publisher: BTreeMap<&str, &str> = s
        .benchmarks
        .iter()
        .map(|b| (b.slug.as_str(), b.source.as_str()))
        .collect();
    let rank = |x: &entity::score::Model| {
        (
            publisher.get(x.benchmark_slug.as_str()) == Some(&x.source.as_str()),
            x.as_of.clone(),
            x.score,
        )
    };
    let mut best: BTreeMap<(String, String, bool), usize> = BTreeMap::new();
    for (i, x) in s.scores.iter().enumerate() {
        let Some(bench) = index_key(x) else {
            continue;
        };
        let key = (x.model_slug.clone(), bench, x.provenance == INDEPENDENT);
        match best.get(&key) {
            Some(&j) if rank(&s.scores[j]) >= rank(x) => {}
            _ => {
                best.insert(key, i);
            }
        }
    }
    // The gap is measured on the core benchmarks (current, agentic, unsaturated: where a
    // claim and a run measure the same thing); on older academic sets makers and third parties
    // differ by prompting and shots, not by optimism. A third party repeating the maker's
    // figure (the same value) measured nothing.
    let core_slugs: BTreeSet<&str> = s
        .benchmarks
        .iter()
        .filter(|b| b.in_average)
        .map(|b| b.slug.as_str())
        .collect();
    let pairs: Vec<Pair> = best
        .iter()
        .filter(|((_, b, independent), _)| !independent && core_slugs.contains(b.as_str()))
        .filter_map(|((m, b, _), &i)| {
            let &j = best.get(&(m.clone(), b.clone(), true))?;
            if (s.scores[i].score - s.scores[j].score).abs() < 0.05 {
                return None;
            }
            Some(Pair {
                benchmark: b.clone(),
                maker: maker(m),
                claimed: s.scores[i].score / 100.0,
                measured: s.scores[j].score / 100.0,
            })
        })
        .collect();
    let gaps = Gaps::estimate(&pairs);
    for x in s.scores.iter_mut() {
        x.in_average = false;
        x.calibrated = (x.provenance == SELF_REPORTED && in_index(&x.benchmark_slug)).then(|| {
            let who = creator.get(&x.model_slug).cloned().flatten();
            round2(100.0 * gaps.calibrate(&x.benchmark_slug, who.as_deref(), x.score / 100.0))
        });
    }
    // What counts: the independent result, else the calibrated claim.
    let mut counted: BTreeMap<(String, String), usize> = BTreeMap::new();
    for ((m, b, independent), &i) in &best {
        let key = (m.clone(), b.clone());
        if *independent || !counted.contains_key(&key) {
            counted.insert(key, i);
        }
    }
    for &i in counted.values() {
        s.scores[i].in_average = true;
    }
    // The headline of a model on a benchmark is the result that counts, where one does: an
    // independent run before the maker's claim.
    let headline: BTreeMap<(String, String), usize> = counted
        .iter()
        .filter(|((_, key), _)| !key.contains('@'))
        .map(|(_, &i)| {
            let x = &s.scores[i];
            ((x.model_slug.clone(), x.benchmark_slug.clone()), i)
        })
        .collect();
    for (i, x) in s.scores.iter_mut().enumerate() {
        if let Some(&h) = headline.get(&(x.model_slug.clone(), x.benchmark_slug.clone())) {
            x.is_headline = i == h;
        }
    }
    // Makers with an independently measured model: their claims could be calibrated.
    let calibrated_makers: BTreeSet<String> = counted
        .values()
        .filter(|&&i| s.scores[i].provenance == INDEPENDENT)
        .filter_map(|&i| maker(&s.scores[i].model_slug))
        .collect();

    let benches: Vec<String> = s
        .benchmarks
        .iter()
        .filter(|b| in_index(&b.slug))
        .map(|b| b.slug.clone())
        .chain(counted.keys().map(|(_, b)| b.clone()))
        .collect::<BTreeSet<String>>()
        .into_iter()
        .collect();
    let bench_pos: BTreeMap<&str, usize> = benches
        .iter()
        .enumerate()
        .map(|(i, b)| (b.as_str(), i))
        .collect();
    let model_pos: BTreeMap<String, usize> = s
        .models
        .iter()
        .enumerate()
        .map(|(i, m)| (m.slug.clone(), i))
        .collect();
    let agent_pos: BTreeMap<&str, usize> = s
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| (a.slug.as_str(), s.models.len() + i))
        .collect();
    let rate = |x: f64| (x / 100.0).clamp(0.0, 1.0);
    let mut obs: Vec<Observation> = Vec::new();
    // Per model: counted scores, of which independent.
    let mut basis: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    for ((_, key), &i) in &counted {
        let x = &s.scores[i];
        let (Some(&subject), Some(&benchmark)) =
            (model_pos.get(&x.model_slug), bench_pos.get(key.as_str()))
        else {
            continue;
        };
        obs.push(Observation {
            subject,
            benchmark,
            rate: rate_of(x),
        });
        let e = basis.entry(subject).or_default();
        e.0 += 1;
        e.1 += usize::from(x.provenance == INDEPENDENT);
    }
    for x in s.agent_scores.iter().filter(|x| x.is_headline) {
        if let (Some(&subject), Some(&benchmark)) = (
            agent_pos.get(x.agent_slug.as_str()),
            bench_pos.get(x.benchmark_slug.as_str()),
        ) {
            obs.push(Observation {
                subject,
                benchmark,
                rate: rate(x.score),
            });
        }
    }
    let subjects = s.models.len() + s.agents.len();
    let fit = capability::fit(&obs, subjects, benches.len());
    let anchor = |slug: &str| model_pos.get(slug).and_then(|&i| fit.capability[i]);
    let fitted: Vec<f64> = fit.capability.iter().flatten().copied().collect();
    let scale = Scale::anchored(anchor("gpt-4-0613"), anchor("gpt-5-2025-08-07"), &fitted);

    // The core set: benchmarks of the average the fit placed on independent runs of at
    // least three models (a benchmark known from claims alone sets no common ground).
    let mut measured: BTreeMap<&str, usize> = BTreeMap::new();
    for &i in counted.values() {
        if s.scores[i].provenance == INDEPENDENT {
            *measured
                .entry(s.scores[i].benchmark_slug.as_str())
                .or_default() += 1;
        }
    }
    let measured: BTreeMap<String, usize> = measured
        .into_iter()
        .map(|(b, n)| (b.to_string(), n))
        .collect();
    for b in s.benchmarks.iter_mut().filter(|b| b.in_average) {
        if measured.get(&b.slug).is_none_or(|n| *n < MIN_MEASURED) {
            b.in_average = false;
            b.average_reason = format!(
                "known from fewer than {MIN_MEASURED} independently measured models: it enters \
                 the index (claims calibrated), not the core set averages are predicted on"
            );
        }
    }
    let core: Vec<(f64, f64)> = s
        .benchmarks
        .iter()
        .filter(|b| b.in_average)
        .filter_map(|b| {
            let &i = bench_pos.get(b.slug.as_str())?;
            Some((fit.slope[i]?, fit.difficulty[i]?))
        })
        .collect();
    let expected = |c: f64| {
        (!core.is_empty()).then(|| {
            round2(
                100.0 * core.iter().map(|(a, d)| sigmoid(a * (c - d))).sum::<f64>()
                    / core.len() as f64,
            )
        })
    };
    for (i, m) in s.models.iter_mut().enumerate() {
        let (counted, independent) = basis.get(&i).copied().unwrap_or_default();
        m.benchmarks_count = counted as i32;
        m.rank_basis = (counted > 0).then_some(if independent == counted {
            RankBasis::Independent
        } else if independent == 0 {
            RankBasis::SelfReported
        } else {
            RankBasis::Mixed
        });
        let (Some(c), Some(se)) = (fit.capability[i], fit.se[i]) else {
            m.capability_index = None;
            m.capability_index_se = None;
            m.average_score = None;
            m.rank_score = None;
            continue;
        };
        let extra = match m.rank_basis {
            Some(RankBasis::SelfReported) => {
                let known = m
                    .creator_slug
                    .as_ref()
                    .is_some_and(|c| calibrated_makers.contains(c));
                if known {
                    SELF_REPORTED_SE
                } else {
                    UNCALIBRATED_SE
                }
            }
            _ => 0.0,
        };
        let se_points = ((scale.scale * se).powi(2) + extra * extra).sqrt();
        m.capability_index = Some(round2(scale.index(c)));
        m.capability_index_se = Some(round2(se_points));
        m.average_score = expected(c);
        m.rank_score = expected(c - se_points / scale.scale);
    }
    let offset = s.models.len();
    for (i, a) in s.agents.iter_mut().enumerate() {
        a.capability_index = fit.capability[offset + i].map(|c| round2(scale.index(c)));
        a.capability_index_se = fit.se[offset + i].map(|e| round2(scale.scale * e));
    }
    for b in &mut s.benchmarks {
        let i = bench_pos.get(b.slug.as_str()).copied();
        b.difficulty = i
            .and_then(|i| fit.difficulty[i])
            .map(|d| round2(scale.index(d)));
        b.slope = i
            .and_then(|i| fit.slope[i])
            .map(|a| super::prices::six_digits(a / scale.scale));
    }
    super::domains::apply(s);
    gaps
}
