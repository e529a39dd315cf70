//! Recommendations (docs/recommend.md): for a task, its constraints and a workload, the
//! models on the capability-versus-cost frontier — none of them has a listed model both
//! more capable and cheaper for that workload — each costed at its cheapest reputable
//! offering (the creator's API, a cloud or a router: what `cheapest` names) and said why it
//! is there.
//!
//! Capability is the capability index (with its standard error), or, for a `domain` (a
//! benchmark category), the score the index predicts on that category's fitted benchmarks.
//! Models whose index rests on their makers' claims alone (`rank_basis: self_reported`)
//! are left out unless asked for, and marked when they are in: a claim never silently
//! outranks a measurement.

use entity::model;
use entity::vocab::{OfferingKind, RankBasis, Task};

use super::costs::{self, OfferingCost, Request};
use super::{Catalog, Row};

/// The offering kinds a careful buyer would use (the `cheapest` rule of the README).
const REPUTABLE: [OfferingKind; 3] = [
    OfferingKind::FirstParty,
    OfferingKind::Cloud,
    OfferingKind::Router,
];

/// Most entries one answer lists.
pub const MAX_LIMIT: usize = 100;

/// What is asked.
#[derive(Debug, Clone)]
pub struct Ask {
    /// `chat`, `embedding`, … (the model list's `task`).
    pub task: Task,
    /// A benchmark category (`coding`, `math`, …): capability on its benchmarks.
    pub domain: Option<String>,
    pub min_context: Option<i64>,
    pub input_modality: Option<String>,
    pub output_modality: Option<String>,
    pub tool_call: Option<bool>,
    pub reasoning: Option<bool>,
    pub open_source: Option<bool>,
    /// Only offerings of these providers (empty: any).
    pub providers: Vec<String>,
    /// Never offerings of these providers, nor models they created.
    pub avoid_providers: Vec<String>,
    pub request: Request,
    /// Most the workload may cost, USD.
    pub max_cost: Option<f64>,
    /// Admit models whose capability rests on self-reports alone (marked).
    pub with_claims: bool,
    pub limit: usize,
}

/// One model on the frontier.
#[derive(Debug, Clone)]
pub struct Pick {
    pub model: Row<model::Model>,
    /// The capability index, or the predicted score (0-100) on the domain's benchmarks.
    pub capability: f64,
    /// Its standard error, in the same units.
    pub capability_se: Option<f64>,
    /// The workload at the cheapest reputable offering.
    pub cost: OfferingCost,
    /// Known only from its makers' claims.
    pub self_reported_only: bool,
    pub reason: String,
}

#[derive(Debug, Clone, Default)]
pub struct Recommendation {
    /// Models that met every constraint and could be costed and rated.
    pub considered: usize,
    /// Cheapest first; each more capable than every cheaper one.
    pub frontier: Vec<Pick>,
    /// What capability means here: `capability_index` or `expected_score:<domain>`.
    pub capability_basis: String,
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The (capability, se) a model has for the ask: its index, or its mean predicted score
/// on the domain's fitted benchmarks, the error carried through the logistic's slope.
fn capability(
    index: Option<f64>,
    index_se: Option<f64>,
    domain: &[(f64, f64)],
    domain_asked: bool,
) -> Option<(f64, Option<f64>)> {
    let c = index?;
    if !domain_asked {
        return Some((c, index_se));
    }
    if domain.is_empty() {
        return None;
    }
    let n = domain.len() as f64;
    let (mut score, mut slope) = (0.0, 0.0);
    for (d, a) in domain {
        let p = logistic(a * (c - d));
        score += 100.0 * p / n;
        slope += 100.0 * a * p * (1.0 - p) / n;
    }
    Some((round2(score), index_se.map(|se| round2(se * slope))))
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn has(list: &str, item: &str) -> bool {
    list.split(',').any(|m| m == item)
}

fn admits(ask: &Ask, m: &model::Model) -> bool {
    m.task == ask.task
        && m.is_current()
        && !m.is_deprecated_preview()
        && ask
            .min_context
            .is_none_or(|c| m.context_window.is_some_and(|w| w >= c))
        && ask
            .input_modality
            .as_deref()
            .is_none_or(|x| has(&m.input_modalities, x))
        && ask
            .output_modality
            .as_deref()
            .is_none_or(|x| has(&m.output_modalities, x))
        && ask.tool_call.is_none_or(|t| m.tool_call == Some(t))
        && ask.reasoning.is_none_or(|t| m.reasoning == Some(t))
        && ask.open_source.is_none_or(|t| m.open_source == Some(t))
        && m.creator_slug
            .as_ref()
            .is_none_or(|c| !ask.avoid_providers.contains(c))
        && (ask.with_claims || m.rank_basis != Some(RankBasis::SelfReported))
}

/// The frontier for `ask` over `catalog`.
pub fn recommend(catalog: &Catalog, ask: &Ask) -> Recommendation {
    let domain: Vec<(f64, f64)> = ask.domain.as_deref().map_or_else(Vec::new, |d| {
        catalog
            .benchmarks()
            .iter()
            .filter(|b| b.category == d && b.higher_is_better)
            .filter_map(|b| Some((b.difficulty?, b.slope?)))
            .collect()
    });
    let mut rated: Vec<Pick> = catalog
        .all_models()
        .iter()
        .filter(|m| admits(ask, m))
        .filter_map(|m| {
            let (capability, capability_se) = capability(
                m.capability_index,
                m.capability_index_se,
                &domain,
                ask.domain.is_some(),
            )?;
            let cost = catalog
                .offerings_of(&m.slug)
                .iter()
                .filter(|o| REPUTABLE.contains(&o.kind))
                .filter(|o| ask.providers.is_empty() || ask.providers.contains(&o.provider_slug))
                .filter(|o| !ask.avoid_providers.contains(&o.provider_slug))
                .map(|o| costs::cost(o, ask.request))
                .filter(|c| c.total.is_some())
                .min_by(|a, b| {
                    super::nulls_last(a.total, b.total, false)
                        .then_with(|| a.offering.provider_slug.cmp(&b.offering.provider_slug))
                })?;
            if ask
                .max_cost
                .is_some_and(|max| cost.total.is_some_and(|t| t > max))
            {
                return None;
            }
            Some(Pick {
                model: m.clone(),
                capability,
                capability_se,
                cost,
                self_reported_only: m.rank_basis == Some(RankBasis::SelfReported),
                reason: String::new(),
            })
        })
        .collect();
    let considered = rated.len();
    // Cheapest first; at one price the most capable first, so the sweep keeps it alone.
    rated.sort_by(|a, b| {
        super::nulls_last(a.cost.total, b.cost.total, false)
            .then_with(|| b.capability.total_cmp(&a.capability))
            .then_with(|| a.model.slug.cmp(&b.model.slug))
    });
    let mut frontier: Vec<Pick> = Vec::new();
    for pick in rated {
        if frontier
            .last()
            .is_none_or(|best| pick.capability > best.capability)
        {
            frontier.push(pick);
        }
    }
    let n = frontier.len();
    for i in 0..n {
        let reason = if n == 1 {
            "the only model on the frontier: the cheapest and the most capable that meet the constraints".to_string()
        } else if i == 0 {
            "the cheapest model that meets the constraints".to_string()
        } else {
            let prev = &frontier[i - 1];
            let (gain, extra) = (
                frontier[i].capability - prev.capability,
                frontier[i].cost.total.unwrap_or(0.0) - prev.cost.total.unwrap_or(0.0),
            );
            let top = if i == n - 1 {
                "the most capable model that meets the constraints; "
            } else {
                ""
            };
            format!(
                "{top}{gain:.2} more capability than {} for {extra:.4} USD more; no cheaper model is as capable",
                prev.model.slug
            )
        };
        let claim = if frontier[i].self_reported_only {
            " (capability from its makers' own figures only)"
        } else {
            ""
        };
        frontier[i].reason = format!("{reason}{claim}");
    }
    // The most capable end is what a limit keeps: the cheap end is the first to be dominated
    // by a small budget anyway.
    if frontier.len() > ask.limit {
        frontier.drain(..frontier.len() - ask.limit);
    }
    Recommendation {
        considered,
        frontier,
        capability_basis: ask.domain.as_deref().map_or_else(
            || "capability_index".to_string(),
            |d| format!("expected_score:{d}"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_domain_score_follows_the_fitted_curve() {
        let m = (Some(120.0), Some(5.0));
        // At the benchmark's difficulty the predicted score is 50, and the error is scaled
        // by the curve's slope there (100 · a / 4).
        let (score, se) = capability(m.0, m.1, &[(120.0, 0.1)], true).unwrap();
        assert_eq!(score, 50.0);
        assert_eq!(se, Some(12.5));
        assert_eq!(capability(m.0, m.1, &[], true), None);
        assert_eq!(capability(m.0, m.1, &[], false), Some((120.0, Some(5.0))));
    }
}
