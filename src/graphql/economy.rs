//! Economy indicators (`docs/economy.md`): monthly series computed at ingest.

use async_graphql::{Context, Object, Result};
use entity::{economy_indicator, economy_point};

use super::sizes::{self, ListKind};
use super::{bad_input, catalog};
use crate::catalog::Row;

#[derive(Default)]
pub struct EconomyRoot;

/// `YYYY-MM`, checked.
fn month(param: &str, v: Option<String>) -> Result<Option<String>> {
    let Some(v) = v else { return Ok(None) };
    let ok = v.len() == 7
        && v.as_bytes()[4] == b'-'
        && v[..4].bytes().all(|b| b.is_ascii_digit())
        && matches!(v[5..].parse::<u32>(), Ok(1..=12));
    if ok {
        Ok(Some(v))
    } else {
        Err(bad_input(
            param,
            format!("{param} must be a month YYYY-MM, got {v:?}"),
        ))
    }
}

#[Object(serial)]
impl EconomyRoot {
    /// Every economy indicator, with its latest point.
    #[graphql(complexity = "sizes::list(ListKind::Indicators, child_complexity)")]
    async fn economy_indicators(&self, ctx: &Context<'_>) -> Result<Vec<EconomyIndicator>> {
        Ok(catalog(ctx)?
            .economy()
            .indicators()
            .iter()
            .cloned()
            .map(EconomyIndicator)
            .collect())
    }

    /// One indicator by slug; null when unknown.
    async fn economy_indicator(
        &self,
        ctx: &Context<'_>,
        slug: String,
    ) -> Result<Option<EconomyIndicator>> {
        Ok(catalog(ctx)?
            .economy()
            .indicator(&slug)
            .cloned()
            .map(EconomyIndicator))
    }
}

/// A monthly series computed from the dataset, with the method to recompute it.
pub struct EconomyIndicator(pub Row<economy_indicator::Model>);

#[Object(serial)]
impl EconomyIndicator {
    async fn slug(&self) -> &str {
        &self.0.slug
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn description(&self) -> &str {
        &self.0.description
    }
    /// Unit of each point's `value`.
    async fn unit(&self) -> &str {
        &self.0.unit
    }
    /// What each point's `secondary` is; null when the indicator has none.
    async fn secondary_label(&self) -> Option<&str> {
        self.0.secondary_label.as_deref()
    }
    /// How the series is computed, precisely enough to recompute it from this API.
    async fn method(&self) -> &str {
        &self.0.method
    }
    /// Slugs of the source datasets it draws on.
    async fn sources(&self) -> Vec<&str> {
        self.0
            .sources
            .split(',')
            .filter(|s| !s.is_empty())
            .collect()
    }
    /// The newest point; null when the series is empty.
    async fn latest(&self, ctx: &Context<'_>) -> Result<Option<EconomyPoint>> {
        Ok(catalog(ctx)?
            .economy()
            .series(&self.0.slug, None, None)
            .last()
            .cloned()
            .map(EconomyPoint))
    }
    /// The monthly points, oldest first, from `from` to `to` (`YYYY-MM`, both included).
    #[graphql(complexity = "sizes::list(ListKind::PointsPerIndicator, child_complexity)")]
    async fn series(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "First month, YYYY-MM (included).")] from: Option<String>,
        #[graphql(desc = "Last month, YYYY-MM (included).")] to: Option<String>,
    ) -> Result<Vec<EconomyPoint>> {
        let (from, to) = (month("from", from)?, month("to", to)?);
        if let (Some(f), Some(t)) = (&from, &to)
            && f > t
        {
            return Err(bad_input("from", format!("from ({f}) is after to ({t})")));
        }
        Ok(catalog(ctx)?
            .economy()
            .series(&self.0.slug, from.as_deref(), to.as_deref())
            .iter()
            .cloned()
            .map(EconomyPoint)
            .collect())
    }
}

/// One month of an indicator.
pub struct EconomyPoint(pub Row<economy_point::Model>);

#[Object(serial)]
impl EconomyPoint {
    /// `YYYY-MM`.
    async fn date(&self) -> &str {
        &self.0.month
    }
    async fn value(&self) -> f64 {
        self.0.value
    }
    /// The indicator's second figure (see its `secondaryLabel`).
    async fn secondary(&self) -> Option<f64> {
        self.0.secondary
    }
}
