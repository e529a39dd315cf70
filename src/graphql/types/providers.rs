//! The GraphQL type of an organisation that creates or serves models.

use async_graphql::{Context, Object, Result};
use entity::provider;

use super::super::catalog;
use super::*;
use crate::catalog::Row;

/// An organisation that creates and/or serves models.
pub struct Provider(pub Row<provider::Model>);

#[Object(serial)]
impl Provider {
    async fn slug(&self) -> &str {
        &self.0.slug
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn website(&self) -> Option<&str> {
        self.0.website.as_deref()
    }
    /// `creator` (a model creator's own API), `cloud`, `router`, `reseller` or `plan`.
    async fn kind(&self) -> &str {
        self.0.kind.as_str()
    }
    /// Number of models the provider offers.
    async fn models_count(&self) -> i32 {
        self.0.models_count
    }
    /// Number of models the organisation created.
    async fn created_count(&self) -> i32 {
        self.0.created_count
    }
    /// The provider's offerings (its current price for each model it serves), by model slug.
    #[graphql(
        complexity = "first.unwrap_or(DEFAULT_FIRST).clamp(1, MAX_FIRST) as usize * child_complexity + 1"
    )]
    async fn offerings(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        offset: Option<i32>,
    ) -> Result<List<Offering>> {
        let (start, limit) = paging(first, after, offset)?;
        let rows = catalog(ctx)?.offerings_at(&self.0.slug);
        Ok(page_of(rows, start, limit, Offering))
    }
    /// Models the organisation created, by slug.
    #[graphql(
        complexity = "first.unwrap_or(DEFAULT_FIRST).clamp(1, MAX_FIRST) as usize * child_complexity + 1"
    )]
    async fn created_models(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        offset: Option<i32>,
    ) -> Result<List<Model>> {
        let (start, limit) = paging(first, after, offset)?;
        let rows = catalog(ctx)?.created_by(&self.0.slug);
        Ok(page_of(rows, start, limit, Model))
    }
}
