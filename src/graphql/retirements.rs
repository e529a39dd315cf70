//! Announced retirements, soonest first (docs/data.md, "Lifecycle"): what to migrate off
//! and by when, with each model's successor where its creator names one.

use async_graphql::{Context, Object, Result};

use super::changes::date;
use super::types::{DEFAULT_FIRST, List, MAX_FIRST, Model, list, paging};
use super::{bad_input, catalog};
use crate::catalog::retirements::RetirementFilter;

#[derive(Default)]
pub struct RetirementsRoot;

#[Object(serial)]
impl RetirementsRoot {
    /// Models whose retirement day is announced (`deprecationDate`), by that day, soonest
    /// first (then slug); retired and deprecated models included, as they are what this
    /// list is about.
    #[graphql(
        complexity = "first.unwrap_or(DEFAULT_FIRST).clamp(1, MAX_FIRST) as usize * child_complexity + 1"
    )]
    // A GraphQL field's arguments are the function's.
    #[allow(clippy::too_many_arguments)]
    async fn retirements(
        &self,
        ctx: &Context<'_>,
        #[graphql(
            desc = "Only retirements on or after this date, YYYY-MM-DD (today's date lists those still to come)."
        )]
        from: Option<String>,
        #[graphql(desc = "Only retirements on or before this date, YYYY-MM-DD.")] until: Option<
            String,
        >,
        #[graphql(desc = "Only this creator's models (a provider slug such as `openai`).")]
        creator: Option<String>,
        first: Option<i32>,
        after: Option<String>,
        offset: Option<i32>,
    ) -> Result<List<Model>> {
        let from = date("from", from)?;
        let until = date("until", until)?;
        if let (Some(f), Some(u)) = (&from, &until)
            && f > u
        {
            return Err(bad_input(
                "from",
                format!("from ({f}) is after until ({u})"),
            ));
        }
        // A slug whatever its case, as REST reads it; an empty one names nothing.
        let creator = creator.map(|c| c.trim().to_ascii_lowercase());
        if creator.as_deref() == Some("") {
            return Err(bad_input(
                "creator",
                "creator must be a provider slug, got \"\"",
            ));
        }
        let (start, limit) = paging(first, after, offset)?;
        let cat = catalog(ctx)?;
        let found = cat.retirements(&RetirementFilter {
            from: from.as_deref(),
            until: until.as_deref(),
            creator: creator.as_deref(),
        });
        let total = found.len() as u64;
        let items = found
            .into_iter()
            .skip(start)
            .take(limit)
            .cloned()
            .map(Model)
            .collect();
        Ok(list(items, start, total))
    }
}
