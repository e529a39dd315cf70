//! The changes feed: price changes, new models and new benchmark results, newest first
//! (`docs/rest.md`); REST serves it as JSON and as Atom.

use async_graphql::{Context, Enum, Object, Result};

use super::types::{Benchmark, DEFAULT_FIRST, List, MAX_FIRST, Model, Provider, list, paging};
use super::{bad_input, catalog};
use crate::catalog::changes::{Change, ChangeKind};

entity::vocabulary! {
    #[derive(Enum)]
    pub enum ChangeType {
        /// A provider changed a model's price.
        Price = "price",
        /// A model was released.
        Model = "model",
        /// A model has a new headline benchmark result.
        Score = "score",
    }
}

impl From<ChangeType> for ChangeKind {
    fn from(t: ChangeType) -> Self {
        match t {
            ChangeType::Price => Self::Price,
            ChangeType::Model => Self::Model,
            ChangeType::Score => Self::Score,
        }
    }
}

/// `YYYY-MM-DD`, checked.
pub(super) fn date(param: &str, v: Option<String>) -> Result<Option<String>> {
    let Some(v) = v else { return Ok(None) };
    if chrono::NaiveDate::parse_from_str(&v, "%Y-%m-%d").is_ok() && v.len() == 10 {
        Ok(Some(v))
    } else {
        Err(bad_input(
            param,
            format!("{param} must be a date YYYY-MM-DD, got {v:?}"),
        ))
    }
}

#[derive(Default)]
pub struct ChangesRoot;

#[Object(serial)]
impl ChangesRoot {
    /// What changed on or after `since`, newest first (then price, model, score; then id).
    #[graphql(
        complexity = "first.unwrap_or(DEFAULT_FIRST).clamp(1, MAX_FIRST) as usize * child_complexity + 1"
    )]
    async fn changes(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only changes on or after this date, YYYY-MM-DD.")] since: Option<String>,
        #[graphql(name = "type", desc = "Only changes of this type (default: all).")] kind: Option<
            ChangeType,
        >,
        first: Option<i32>,
        after: Option<String>,
        offset: Option<i32>,
    ) -> Result<List<ChangeView>> {
        let since = date("since", since)?;
        let (start, limit) = paging(first, after, offset)?;
        let kinds: Vec<ChangeKind> = kind.into_iter().map(ChangeKind::from).collect();
        let cat = catalog(ctx)?;
        let mut total = 0u64;
        let mut items = Vec::with_capacity(limit);
        for (i, c) in cat.changes(since.as_deref(), &kinds).enumerate() {
            total += 1;
            if i >= start && items.len() < limit {
                items.push(ChangeView(c.clone()));
            }
        }
        Ok(list(items, start, total))
    }
}

/// One change.
pub struct ChangeView(Change);

#[Object(name = "Change", serial)]
impl ChangeView {
    /// Stable while the fact it reports stands (`price:o3-2025-04-16:openai:2025-06-10`).
    async fn id(&self) -> &str {
        &self.0.id
    }
    /// `price`, `model` or `score`.
    #[graphql(name = "type")]
    async fn kind(&self) -> &str {
        self.0.kind.as_str()
    }
    /// `YYYY-MM-DD`.
    async fn date(&self) -> &str {
        &self.0.date
    }
    /// One line a person can read.
    async fn summary(&self) -> &str {
        &self.0.summary
    }
    async fn model(&self) -> Model {
        Model(self.0.model.clone())
    }
    /// The provider whose price changed, or the model's creator for a release.
    async fn provider(&self, ctx: &Context<'_>) -> Result<Option<Provider>> {
        Ok(match &self.0.provider {
            Some(p) => catalog(ctx)?.provider(p).cloned().map(Provider),
            None => None,
        })
    }
    /// The benchmark of a new result.
    async fn benchmark(&self, ctx: &Context<'_>) -> Result<Option<Benchmark>> {
        Ok(match &self.0.benchmark {
            Some(b) => catalog(ctx)?.benchmark(b).cloned().map(Benchmark),
            None => None,
        })
    }
    /// The new input price (price changes), USD per 1M tokens.
    async fn input_price(&self) -> Option<f64> {
        self.0.period.as_ref().and_then(|p| p.input_price)
    }
    async fn output_price(&self) -> Option<f64> {
        self.0.period.as_ref().and_then(|p| p.output_price)
    }
    /// The input price before the change.
    async fn previous_input_price(&self) -> Option<f64> {
        self.0.previous.as_ref().and_then(|p| p.input_price)
    }
    async fn previous_output_price(&self) -> Option<f64> {
        self.0.previous.as_ref().and_then(|p| p.output_price)
    }
    /// The new result (score changes).
    async fn score(&self) -> Option<f64> {
        self.0.score.as_ref().map(|s| s.score)
    }
}
