//! Model lists over the catalogue: filters, the precomputed sort orders, and search (over
//! the [`super::search`] index).

use std::cmp::Ordering;

use entity::model;
use entity::vocab::{Availability, Category, DateBasis, RankBasis, Task};

use super::search::match_tier;
use super::{Catalog, Row, nulls_last};

/// Model list filters (`docs/rest.md`); all optional, combined with AND.
#[derive(Debug, Clone, Default)]
pub struct ModelFilter {
    /// Models this provider offers.
    pub provider: Option<String>,
    /// Models this organisation created.
    pub creator: Option<String>,
    pub open_source: Option<bool>,
    pub min_score: Option<f64>,
    /// Maximum (cheapest current) input price.
    pub max_price: Option<f64>,
    pub category: Option<Category>,
    /// Only models with a current price (the pricing list).
    pub priced_only: bool,
    /// `api`, `open_weights`, `research` or `all`; unset shows `api` and `open_weights`.
    pub availability: Option<String>,
    pub task: Option<Task>,
    /// Retired models only (`true`) or current ones only (`false`); unset leaves retired
    /// models out unless `availability` is `all`.
    pub retired: Option<bool>,
    /// Deprecated models only (`true`) or the others only (`false`); unset leaves deprecated
    /// previews out as retired models are.
    pub deprecated: Option<bool>,
    /// Capability index bounds (inclusive); a model without an index matches neither.
    pub min_capability: Option<f64>,
    pub max_capability: Option<f64>,
    /// Capability flags: a model whose flag is unknown matches neither `true` nor `false`.
    pub tool_call: Option<bool>,
    pub reasoning: Option<bool>,
    pub structured_output: Option<bool>,
    /// A modality the model takes (`image`, `audio`, ...) or produces.
    pub input_modality: Option<String>,
    pub output_modality: Option<String>,
    /// Minimum context window, tokens.
    pub min_context: Option<i64>,
    /// What the model's index rests on: `independent`, `mixed` or `self_reported`.
    pub basis: Option<RankBasis>,
    /// A domain (a benchmark category, [`Catalog::domains`]) to rank by: `sort=score` and
    /// `sort=capability` order by the model's standing there; filters nothing.
    pub domain: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelSort {
    Score,
    Price,
    Name,
    Date,
    Capability,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    Asc,
    Desc,
}

impl ModelSort {
    /// The direction used when none is asked for: best score, cheapest, A→Z, newest.
    pub fn default_order(self) -> SortOrder {
        match self {
            Self::Score | Self::Date | Self::Capability => SortOrder::Desc,
            Self::Price | Self::Name => SortOrder::Asc,
        }
    }

    const ALL: [ModelSort; 5] = [
        Self::Score,
        Self::Price,
        Self::Name,
        Self::Date,
        Self::Capability,
    ];

    fn compare(self, a: &model::Model, b: &model::Model, desc: bool) -> Ordering {
        match self {
            Self::Score => nulls_last(ranked(a, a.rank_score), ranked(b, b.rank_score), desc)
                .then_with(|| nulls_last(a.average_score, b.average_score, desc)),
            Self::Price => nulls_last(blended(a), blended(b), desc),
            Self::Name => {
                let o = a.name.to_lowercase().cmp(&b.name.to_lowercase());
                if desc { o.reverse() } else { o }
            }
            Self::Date => nulls_last(dated(a), dated(b), desc),
            Self::Capability => nulls_last(
                ranked(a, capability_floor(a)),
                ranked(b, capability_floor(b)),
                desc,
            )
            .then_with(|| nulls_last(a.capability_index, b.capability_index, desc)),
        }
    }
}

/// Model positions in every (sort, direction) order: nulls last in both directions, ties
/// by slug ascending; and the same orders of only the models listed by default (all but
/// research checkpoints), which the unfiltered lists, the most asked for, page through
/// without testing every model.
#[derive(Default)]
pub struct Orders {
    orders: Vec<Vec<u32>>,
    listed: Vec<Vec<u32>>,
}

impl Orders {
    fn slot(sort: ModelSort, order: SortOrder) -> usize {
        let s = ModelSort::ALL.iter().position(|x| *x == sort).unwrap_or(0);
        s * 2 + usize::from(order == SortOrder::Desc)
    }

    pub fn build(models: &[Row<model::Model>]) -> Self {
        let mut orders = vec![Vec::new(); ModelSort::ALL.len() * 2];
        for sort in ModelSort::ALL {
            for order in [SortOrder::Asc, SortOrder::Desc] {
                let mut idx: Vec<u32> = (0..models.len() as u32).collect();
                let desc = order == SortOrder::Desc;
                idx.sort_by(|&a, &b| {
                    let (ma, mb) = (&models[a as usize], &models[b as usize]);
                    sort.compare(ma, mb, desc)
                        .then_with(|| ma.slug.cmp(&mb.slug))
                });
                orders[Self::slot(sort, order)] = idx;
            }
        }
        let listed = orders
            .iter()
            .map(|idx| {
                idx.iter()
                    .copied()
                    .filter(|&i| models[i as usize].listed_by_default())
                    .collect()
            })
            .collect();
        Self { orders, listed }
    }

    fn get(&self, sort: ModelSort, order: SortOrder) -> &[u32] {
        self.orders
            .get(Self::slot(sort, order))
            .map_or(&[], Vec::as_slice)
    }

    fn listed(&self, sort: ModelSort, order: SortOrder) -> &[u32] {
        self.listed
            .get(Self::slot(sort, order))
            .map_or(&[], Vec::as_slice)
    }
}

/// What a ranking sorts by, led by whether a third party's result supports the model's
/// index: a model whose index rests on its maker's claims alone (`rank_basis`
/// `self_reported`) ranks after every model with independent evidence, whatever its figure,
/// so claims are never on top (`docs/methodology.md`, "The default order"). Read in
/// ascending order, the same ranking runs from the bottom.
pub fn ranked(m: &model::Model, figure: Option<f64>) -> Option<(bool, f64)> {
    figure.map(|f| (m.rank_basis != Some(RankBasis::SelfReported), f))
}

/// What `sort=capability` orders by: the capability index at its lower one-sigma bound
/// (index − standard error), so an estimate resting on few or unverified scores does not
/// lead on its optimism (`docs/methodology.md`).
pub fn capability_floor(m: &model::Model) -> Option<f64> {
    m.capability_index
        .map(|c| c - m.capability_index_se.unwrap_or(0.0))
}

/// The price `sort=price` orders by: input and output list prices blended 3 : 1 (a typical
/// workload reads three tokens for each it writes), else the input price alone.
pub fn blended(m: &model::Model) -> Option<f64> {
    match (m.input_price, m.output_price) {
        (Some(i), Some(o)) => Some((3.0 * i + o) / 4.0),
        (i, _) => i,
    }
}

/// The day that dates a model (its `date_basis`): its release, else its first sighting where
/// that is news (docs/data.md, "New and first seen"); none for a model only seen as old.
pub fn dated(m: &model::Model) -> Option<&str> {
    match m.date_basis {
        Some(DateBasis::ReleaseDate) => m.release_date.as_deref(),
        Some(DateBasis::FirstSeen) => m.first_seen.as_deref(),
        None => None,
    }
}

impl ModelFilter {
    /// No filter at all: the list is every model listed by default.
    fn is_default(&self) -> bool {
        let Self {
            provider,
            creator,
            open_source,
            min_score,
            max_price,
            category,
            priced_only,
            availability,
            task,
            retired,
            deprecated,
            min_capability,
            max_capability,
            tool_call,
            reasoning,
            structured_output,
            input_modality,
            output_modality,
            min_context,
            basis,
            domain,
        } = self;
        provider.is_none()
            && creator.is_none()
            && open_source.is_none()
            && min_score.is_none()
            && max_price.is_none()
            && category.is_none()
            && !priced_only
            && availability.is_none()
            && task.is_none()
            && retired.is_none()
            && deprecated.is_none()
            && min_capability.is_none()
            && max_capability.is_none()
            && tool_call.is_none()
            && reasoning.is_none()
            && structured_output.is_none()
            && input_modality.is_none()
            && output_modality.is_none()
            && min_context.is_none()
            && basis.is_none()
            && domain.is_none()
    }
}

/// The capability filters: index bounds, flags, modalities and context.
fn capabilities_match(f: &ModelFilter, m: &model::Model) -> bool {
    let index_ok = |bound: Option<f64>, ok: fn(f64, f64) -> bool| {
        bound.is_none_or(|b| m.capability_index.is_some_and(|c| ok(c, b)))
    };
    let flag_ok = |want: Option<bool>, has: Option<bool>| want.is_none_or(|w| has == Some(w));
    let has_modality = |want: &Option<String>, list: &str| {
        want.as_deref()
            .is_none_or(|w| list.split(',').any(|x| x == w))
    };
    index_ok(f.min_capability, |c, b| c >= b)
        && index_ok(f.max_capability, |c, b| c <= b)
        && flag_ok(f.tool_call, m.tool_call)
        && flag_ok(f.reasoning, m.reasoning)
        && flag_ok(f.structured_output, m.structured_output)
        && has_modality(&f.input_modality, &m.input_modalities)
        && has_modality(&f.output_modality, &m.output_modalities)
        && f.min_context
            .is_none_or(|min| m.context_window.is_some_and(|c| c >= min))
}

impl Catalog {
    fn matches(&self, f: &ModelFilter, m: &model::Model) -> bool {
        if let Some(p) = &f.provider
            && !self.offered_by.get(p).is_some_and(|s| s.contains(&m.slug))
        {
            return false;
        }
        if let Some(c) = &f.creator
            && m.creator_slug.as_deref() != Some(c.as_str())
        {
            return false;
        }
        if let Some(b) = f.basis
            && m.rank_basis != Some(b)
        {
            return false;
        }
        if let Some(o) = f.open_source
            && m.open_source != Some(o)
        {
            return false;
        }
        if let Some(min) = f.min_score
            && !m.average_score.is_some_and(|s| s >= min)
        {
            return false;
        }
        if let Some(max) = f.max_price
            && !m.input_price.is_some_and(|p| p <= max)
        {
            return false;
        }
        if let Some(cat) = f.category
            && m.category != cat
        {
            return false;
        }
        if !capabilities_match(f, m) {
            return false;
        }
        let available = match f.availability.as_deref() {
            // A task filter asks for routers by name (`task=router`).
            None => {
                m.shown_by_default() || f.task.is_some() && m.availability != Availability::Research
            }
            Some("all") => true,
            Some(a) => m.availability.as_str() == a,
        };
        if !available || f.task.is_some_and(|t| m.task != t) {
            return false;
        }
        let retirement = match f.retired {
            Some(r) => m.retired == r,
            None => {
                m.is_current() && (f.deprecated.is_some() || !m.is_deprecated_preview())
                    || f.availability.as_deref() == Some("all")
            }
        };
        if !retirement || f.deprecated.is_some_and(|d| m.deprecated != d) {
            return false;
        }
        !(f.priced_only && m.input_price.is_none())
    }

    /// One page of the models matching `filter` in the asked order, and how many match.
    pub fn models_page(
        &self,
        filter: &ModelFilter,
        sort: ModelSort,
        order: SortOrder,
        offset: usize,
        limit: usize,
    ) -> (Vec<Row<model::Model>>, usize) {
        if filter.is_default() {
            let listed = self.orders.listed(sort, order);
            let page = listed
                .iter()
                .skip(offset)
                .take(limit)
                .map(|&i| self.models[i as usize].clone())
                .collect();
            return (page, listed.len());
        }
        if let Some(domain) = filter.domain.as_deref() {
            return self.domain_page(filter, domain, sort, order, offset, limit);
        }
        let mut total = 0;
        let mut page = Vec::with_capacity(limit.min(100));
        for &i in self.orders.get(sort, order) {
            let m = &self.models[i as usize];
            if self.matches(filter, m) {
                if total >= offset && page.len() < limit {
                    page.push(m.clone());
                }
                total += 1;
            }
        }
        (page, total)
    }

    /// A page of the models matching `filter` ranked in `domain` (`docs/methodology.md`,
    /// "Rankings per domain"): by the domain's rank score (`sort=score`) or its index at the
    /// lower one-sigma bound (`sort=capability`), claims-only models after every measured one
    /// as in the general rankings; other sorts are the general ones. Ties keep the general
    /// order.
    fn domain_page(
        &self,
        filter: &ModelFilter,
        domain: &str,
        sort: ModelSort,
        order: SortOrder,
        offset: usize,
        limit: usize,
    ) -> (Vec<Row<model::Model>>, usize) {
        let mut rows: Vec<&Row<model::Model>> = self
            .orders
            .get(sort, order)
            .iter()
            .map(|&i| &self.models[i as usize])
            .filter(|m| self.matches(filter, m))
            .collect();
        let desc = order == SortOrder::Desc;
        let figure = |m: &model::Model| {
            let d = self.domain_of(&m.slug, domain)?;
            match sort {
                ModelSort::Capability => Some(d.capability_index - d.capability_index_se),
                _ => d.rank_score,
            }
        };
        if matches!(sort, ModelSort::Score | ModelSort::Capability) {
            rows.sort_by(|a, b| nulls_last(ranked(a, figure(a)), ranked(b, figure(b)), desc));
        }
        let total = rows.len();
        let page = rows.into_iter().skip(offset).take(limit).cloned().collect();
        (page, total)
    }

    /// The models closest to an identifier nothing resolves, at most three. A search by its
    /// slug, shortened a segment at a time from the end (`claude-sonet-4-5` → … → `claude`),
    /// then from the start (`gtp-4o-mini` → `4o-mini`), until something matches, gives the
    /// candidates; they are ranked by how few edits turn the identifier into the start of
    /// their slug or an alias (a typo; a dated snapshot costs nothing), then as the search
    /// ranks them. At most 100 candidates, each compared by slug and aliases at most 10^4
    /// steps apiece: an unknown id has a bounded cost.
    pub fn closest_models(&self, text: &str) -> Vec<Row<model::Model>> {
        const CANDIDATES: usize = 100;
        let wanted: String = crate::ingest::names::parse(text)
            .slug
            .chars()
            .take(100)
            .collect();
        let cuts = wanted.match_indices(['-', '.']).map(|(i, _)| i);
        let heads = cuts.clone().rev().map(|i| &wanted[..i]);
        let tails = cuts.map(|i| &wanted[i + 1..]);
        let hints = std::iter::once(wanted.as_str()).chain(heads).chain(tails);
        for hint in hints.filter(|h| !h.is_empty()) {
            let found = self.search_models(hint, 0, CANDIDATES).0;
            if found.is_empty() {
                continue;
            }
            let mut ranked: Vec<(usize, usize, Row<model::Model>)> = found
                .into_iter()
                .enumerate()
                .map(|(order, m)| {
                    let edits = std::iter::once(m.slug.as_str())
                        .chain(self.aliases_of(&m.slug).iter().map(String::as_str))
                        .map(|id| super::search::edits_to_prefix(&wanted, id))
                        .min()
                        .unwrap_or(usize::MAX);
                    (edits, order, m)
                })
                .collect();
            ranked.sort_by_key(|&(edits, order, _)| (edits, order));
            return ranked.into_iter().take(3).map(|(_, _, m)| m).collect();
        }
        Vec::new()
    }

    /// Models matching `q`, ranked: exact name/slug/alias, then prefix, word prefix,
    /// substring; ties by average score (best first, unscored last), then slug. One page
    /// and the total.
    pub fn search_models(
        &self,
        q: &str,
        offset: usize,
        limit: usize,
    ) -> (Vec<Row<model::Model>>, usize) {
        let q = q.trim().to_lowercase();
        let q_slug = crate::ingest::names::slugify(&q);
        let mut ranked: Vec<(u8, usize)> = self
            .search
            .candidates(&q, &q_slug)
            .into_iter()
            .filter_map(|i| {
                let m = &self.models[i];
                let name = m.name.to_lowercase();
                let tier = match_tier(&q, &q_slug, &name, &m.slug, self.aliases_of(&m.slug))?;
                Some((tier, i))
            })
            .collect();
        ranked.sort_by(|&(ta, a), &(tb, b)| {
            let (a, b) = (&self.models[a], &self.models[b]);
            ta.cmp(&tb)
                .then_with(|| nulls_last(a.average_score, b.average_score, true))
                .then_with(|| a.slug.cmp(&b.slug))
        });
        let total = ranked.len();
        (
            ranked
                .into_iter()
                .skip(offset)
                .take(limit)
                .map(|(_, i)| self.models[i].clone())
                .collect(),
            total,
        )
    }
}
