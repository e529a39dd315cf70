//! Announced retirements: the models whose creator's own entries name the
//! day they stop being served, soonest first (docs/data.md, "Lifecycle").

use entity::model;

use super::{Catalog, Row};

/// Which retirements to list; every bound optional.
#[derive(Debug, Default, Clone)]
pub struct RetirementFilter<'a> {
    /// On or after this day (`YYYY-MM-DD`).
    pub from: Option<&'a str>,
    /// On or before this day (`YYYY-MM-DD`).
    pub until: Option<&'a str>,
    /// Only this creator's models (a provider slug).
    pub creator: Option<&'a str>,
}

impl Catalog {
    /// Models with an announced retirement day within `filter`, by that day (then slug).
    /// Retirements are listed whether or not the model is in the default lists: a retired or
    /// deprecated model is what they are about.
    pub fn retirements(&self, filter: &RetirementFilter<'_>) -> Vec<&Row<model::Model>> {
        let mut found: Vec<(&str, &Row<model::Model>)> = self
            .all_models()
            .iter()
            .filter_map(|m| Some((m.deprecation_date.as_deref()?, m)))
            .filter(|(day, m)| {
                filter.from.is_none_or(|f| *day >= f)
                    && filter.until.is_none_or(|u| *day <= u)
                    && filter
                        .creator
                        .is_none_or(|c| m.creator_slug.as_deref() == Some(c))
            })
            .collect();
        found.sort_by(|(a, x), (b, y)| a.cmp(b).then_with(|| x.slug.cmp(&y.slug)));
        found.into_iter().map(|(_, m)| m).collect()
    }
}
