//! Read queries of each area. Lists are paged in SQL with `nulls last` ordering and the slug
//! as the final tie-break, so pages are stable; derived figures (average score, cheapest
//! price) are columns filled at import, so every filter and sort is plain indexed SQL.

use std::collections::HashMap;

use entity::{
    agent, agent_model, agent_score, benchmark, dataset, model, model_alias, offering,
    price_history, provider, score, source,
};
use sea_orm::sea_query::{Expr, ExprTrait, Func, IntoColumnRef, LikeExpr, Query, SimpleExpr};
use sea_orm::{
    ColumnTrait, Condition, DatabaseBackend, DatabaseConnection, DbErr, EntityTrait, Order,
    PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Select,
};

/// Model list filters (API.md §3).
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
    pub category: Option<String>,
    /// Only models with a current price (the pricing list).
    pub priced_only: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelSort {
    Score,
    Price,
    Name,
    Date,
}

impl ModelSort {
    /// The direction used when none is asked for: best score, cheapest, A→Z, newest.
    pub fn default_order(self) -> Order {
        match self {
            Self::Score | Self::Date => Order::Desc,
            Self::Price | Self::Name => Order::Asc,
        }
    }
}

/// A case-insensitive, byte-ordered sort key for names, the same on SQLite and PostgreSQL
/// (PostgreSQL's locale collations would order punctuation differently).
fn name_key(backend: DatabaseBackend, column: &str) -> SimpleExpr {
    match backend {
        DatabaseBackend::Postgres => Expr::cust(format!("LOWER(\"{column}\") COLLATE \"C\"")),
        _ => Expr::cust(format!("LOWER(\"{column}\")")),
    }
}

/// Appends `ORDER BY col IS NULL, col <order>`: nulls last in both directions.
fn order_nulls_last<E: EntityTrait>(q: Select<E>, col: SimpleExpr, order: Order) -> Select<E> {
    q.order_by(col.clone().is_null(), Order::Asc)
        .order_by(col, order)
}

fn model_condition(f: &ModelFilter) -> Condition {
    let mut c = Condition::all();
    if let Some(p) = &f.provider {
        c = c.add(
            model::Column::Slug.in_subquery(
                Query::select()
                    .column(offering::Column::ModelSlug)
                    .from(offering::Entity)
                    .and_where(offering::Column::ProviderSlug.eq(p.as_str()))
                    .to_owned(),
            ),
        );
    }
    if let Some(cr) = &f.creator {
        c = c.add(model::Column::CreatorSlug.eq(cr.as_str()));
    }
    if let Some(o) = f.open_source {
        c = c.add(model::Column::OpenSource.eq(o));
    }
    if let Some(s) = f.min_score {
        c = c.add(model::Column::AverageScore.gte(s));
    }
    if let Some(p) = f.max_price {
        c = c.add(model::Column::InputPrice.lte(p));
    }
    if let Some(cat) = &f.category {
        c = c.add(model::Column::Category.eq(cat.as_str()));
    }
    if f.priced_only {
        c = c.add(model::Column::InputPrice.is_not_null());
    }
    c
}

/// One page of models and the total number matching.
pub async fn models_page(
    db: &DatabaseConnection,
    filter: &ModelFilter,
    sort: ModelSort,
    order: Order,
    offset: u64,
    limit: u64,
) -> Result<(Vec<model::Model>, u64), DbErr> {
    let base = model::Entity::find().filter(model_condition(filter));
    let total = base.clone().count(db).await?;
    let col: SimpleExpr = match sort {
        ModelSort::Score => Expr::col(model::Column::AverageScore),
        ModelSort::Price => Expr::col(model::Column::InputPrice),
        ModelSort::Name => name_key(db.get_database_backend(), "name"),
        ModelSort::Date => Expr::col(model::Column::ReleaseDate),
    };
    let rows = order_nulls_last(base, col, order)
        .order_by(model::Column::Slug, Order::Asc)
        .offset(offset)
        .limit(limit)
        .all(db)
        .await?;
    Ok((rows, total))
}

/// A model by slug or by any of its aliases.
pub async fn model_by_slug_or_alias(
    db: &DatabaseConnection,
    slug: &str,
) -> Result<Option<model::Model>, DbErr> {
    if let Some(m) = model::Entity::find_by_id(slug.to_string()).one(db).await? {
        return Ok(Some(m));
    }
    let Some(alias) = model_alias::Entity::find_by_id(slug.to_string())
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    model::Entity::find_by_id(alias.model_slug).one(db).await
}

/// Resolves each slug or alias to a canonical slug; unknown ones map to `None`.
pub async fn resolve_slugs(
    db: &DatabaseConnection,
    slugs: &[String],
) -> Result<Vec<Option<String>>, DbErr> {
    let direct: HashMap<String, ()> = model::Entity::find()
        .filter(model::Column::Slug.is_in(slugs.iter().cloned()))
        .all(db)
        .await?
        .into_iter()
        .map(|m| (m.slug, ()))
        .collect();
    let aliases: HashMap<String, String> = model_alias::Entity::find()
        .filter(model_alias::Column::Alias.is_in(slugs.iter().cloned()))
        .all(db)
        .await?
        .into_iter()
        .map(|a| (a.alias, a.model_slug))
        .collect();
    Ok(slugs
        .iter()
        .map(|s| {
            if direct.contains_key(s) {
                Some(s.clone())
            } else {
                aliases.get(s).cloned()
            }
        })
        .collect())
}

/// `%` and `_` are wildcards in LIKE; search text is matched literally.
fn like_pattern(q: &str) -> String {
    let escaped = q
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    format!("%{escaped}%")
}

fn like<C: IntoColumnRef>(column: C, pattern: &str) -> SimpleExpr {
    Expr::expr(Func::lower(Expr::col(column))).like(LikeExpr::new(pattern).escape('\\'))
}

/// How well `q` matches a model: 0 exact name/slug/alias, 1 prefix, 2 word prefix, 3 substring.
fn match_tier(q: &str, q_slug: &str, m: &model::Model, aliases: &[String]) -> Option<u8> {
    let name = m.name.to_lowercase();
    let slugs: &[String] = if q_slug.is_empty() { &[] } else { aliases };
    let own = (!q_slug.is_empty()).then_some(m.slug.as_str());
    let names = own.into_iter().chain(slugs.iter().map(String::as_str));
    if name == q || names.clone().any(|n| n == q || n == q_slug) {
        return Some(0);
    }
    if name.starts_with(q) || names.clone().any(|n| n.starts_with(q_slug)) {
        return Some(1);
    }
    let word_prefix = name
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w.starts_with(q))
        || names
            .clone()
            .any(|n| n.split(['-', '.']).any(|w| w.starts_with(q_slug)));
    if word_prefix {
        return Some(2);
    }
    (name.contains(q) || names.clone().any(|n| n.contains(q_slug))).then_some(3)
}

/// Models matching `q`, ranked: exact > prefix > word prefix > substring; ties by average
/// score (best first, unscored last), then slug. Returns one page and the total.
pub async fn search_models(
    db: &DatabaseConnection,
    q: &str,
    offset: usize,
    limit: usize,
) -> Result<(Vec<model::Model>, u64), DbErr> {
    let q = q.trim().to_lowercase();
    let q_slug = crate::ingest::names::slugify(&q);
    let pattern = like_pattern(&q);
    let slug_pattern = like_pattern(&q_slug);
    // Text with no slug characters (`%`, `?`) matches names only: an empty slug pattern
    // would match every slug.
    let alias_rows = if q_slug.is_empty() {
        Vec::new()
    } else {
        model_alias::Entity::find()
            .filter(like(model_alias::Column::Alias, &slug_pattern))
            .all(db)
            .await?
    };
    let mut cond = Condition::any().add(like(model::Column::Name, &pattern));
    if !q_slug.is_empty() {
        cond = cond.add(like(model::Column::Slug, &slug_pattern));
    }
    if !alias_rows.is_empty() {
        cond = cond.add(model::Column::Slug.is_in(alias_rows.iter().map(|a| a.model_slug.clone())));
    }
    let candidates = model::Entity::find().filter(cond).all(db).await?;
    let mut aliases: HashMap<&str, Vec<String>> = HashMap::new();
    for a in &alias_rows {
        aliases
            .entry(a.model_slug.as_str())
            .or_default()
            .push(a.alias.clone());
    }
    let mut ranked: Vec<(u8, model::Model)> = candidates
        .into_iter()
        .filter_map(|m| {
            let tier = match_tier(
                &q,
                &q_slug,
                &m,
                aliases.get(m.slug.as_str()).map_or(&[], Vec::as_slice),
            )?;
            Some((tier, m))
        })
        .collect();
    ranked.sort_by(|(ta, a), (tb, b)| {
        ta.cmp(tb)
            .then_with(|| match (a.average_score, b.average_score) {
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            })
            .then_with(|| a.slug.cmp(&b.slug))
    });
    let total = ranked.len() as u64;
    Ok((
        ranked
            .into_iter()
            .skip(offset)
            .take(limit)
            .map(|(_, m)| m)
            .collect(),
        total,
    ))
}

pub async fn providers_page(
    db: &DatabaseConnection,
    offset: u64,
    limit: u64,
) -> Result<(Vec<provider::Model>, u64), DbErr> {
    let base = provider::Entity::find();
    let total = base.clone().count(db).await?;
    let rows = base
        .order_by(name_key(db.get_database_backend(), "name"), Order::Asc)
        .order_by(provider::Column::Slug, Order::Asc)
        .offset(offset)
        .limit(limit)
        .all(db)
        .await?;
    Ok((rows, total))
}

pub async fn provider(
    db: &DatabaseConnection,
    slug: &str,
) -> Result<Option<provider::Model>, DbErr> {
    provider::Entity::find_by_id(slug.to_string()).one(db).await
}

pub async fn benchmarks_page(
    db: &DatabaseConnection,
    category: Option<&str>,
    offset: u64,
    limit: u64,
) -> Result<(Vec<benchmark::Model>, u64), DbErr> {
    let mut base = benchmark::Entity::find();
    if let Some(c) = category {
        base = base.filter(benchmark::Column::Category.eq(c));
    }
    let total = base.clone().count(db).await?;
    let rows = base
        .order_by(benchmark::Column::Slug, Order::Asc)
        .offset(offset)
        .limit(limit)
        .all(db)
        .await?;
    Ok((rows, total))
}

pub async fn benchmark(
    db: &DatabaseConnection,
    slug: &str,
) -> Result<Option<benchmark::Model>, DbErr> {
    benchmark::Entity::find_by_id(slug.to_string())
        .one(db)
        .await
}

/// Headline scores on a benchmark, best first (lowest first where lower is better).
pub async fn top_scores(
    db: &DatabaseConnection,
    b: &benchmark::Model,
    limit: u64,
) -> Result<Vec<score::Model>, DbErr> {
    let order = if b.higher_is_better {
        Order::Desc
    } else {
        Order::Asc
    };
    score::Entity::find()
        .filter(score::Column::BenchmarkSlug.eq(b.slug.as_str()))
        .filter(score::Column::IsHeadline.eq(true))
        .order_by(score::Column::Score, order)
        .order_by(score::Column::ModelSlug, Order::Asc)
        .limit(limit)
        .all(db)
        .await
}

pub async fn agents_page(
    db: &DatabaseConnection,
    offset: u64,
    limit: u64,
) -> Result<(Vec<agent::Model>, u64), DbErr> {
    let base = agent::Entity::find();
    let total = base.clone().count(db).await?;
    let q = order_nulls_last(base, Expr::col(agent::Column::AverageScore), Order::Desc);
    let rows = q
        .order_by(agent::Column::Slug, Order::Asc)
        .offset(offset)
        .limit(limit)
        .all(db)
        .await?;
    Ok((rows, total))
}

pub async fn agent(db: &DatabaseConnection, slug: &str) -> Result<Option<agent::Model>, DbErr> {
    agent::Entity::find_by_id(slug.to_string()).one(db).await
}

/// A model's price history, newest first.
pub async fn price_history(
    db: &DatabaseConnection,
    model_slug: &str,
) -> Result<Vec<price_history::Model>, DbErr> {
    price_history::Entity::find()
        .filter(price_history::Column::ModelSlug.eq(model_slug))
        .order_by(price_history::Column::EffectiveFrom, Order::Desc)
        .order_by(price_history::Column::ProviderSlug, Order::Asc)
        .all(db)
        .await
}

pub async fn sources(db: &DatabaseConnection) -> Result<Vec<source::Model>, DbErr> {
    source::Entity::find()
        .order_by(source::Column::Slug, Order::Asc)
        .all(db)
        .await
}

pub async fn dataset(db: &DatabaseConnection) -> Result<Option<dataset::Model>, DbErr> {
    dataset::Entity::find_by_id(1).one(db).await
}

// ---- batch loads (one statement per batch of keys; used by the DataLoaders) ----

pub async fn models_by_slugs(
    db: &DatabaseConnection,
    slugs: &[String],
) -> Result<Vec<model::Model>, DbErr> {
    model::Entity::find()
        .filter(model::Column::Slug.is_in(slugs.iter().cloned()))
        .all(db)
        .await
}

pub async fn providers_by_slugs(
    db: &DatabaseConnection,
    slugs: &[String],
) -> Result<Vec<provider::Model>, DbErr> {
    provider::Entity::find()
        .filter(provider::Column::Slug.is_in(slugs.iter().cloned()))
        .all(db)
        .await
}

pub async fn benchmarks_by_slugs(
    db: &DatabaseConnection,
    slugs: &[String],
) -> Result<Vec<benchmark::Model>, DbErr> {
    benchmark::Entity::find()
        .filter(benchmark::Column::Slug.is_in(slugs.iter().cloned()))
        .all(db)
        .await
}

/// Offerings of these models, cheapest input price first (unknown prices last).
pub async fn offerings_of(
    db: &DatabaseConnection,
    models: &[String],
) -> Result<Vec<offering::Model>, DbErr> {
    let q =
        offering::Entity::find().filter(offering::Column::ModelSlug.is_in(models.iter().cloned()));
    order_nulls_last(q, Expr::col(offering::Column::InputPrice), Order::Asc)
        .order_by(offering::Column::ProviderSlug, Order::Asc)
        .all(db)
        .await
}

/// Offerings at these providers.
pub async fn offerings_at(
    db: &DatabaseConnection,
    providers: &[String],
) -> Result<Vec<offering::Model>, DbErr> {
    offering::Entity::find()
        .filter(offering::Column::ProviderSlug.is_in(providers.iter().cloned()))
        .order_by(offering::Column::ModelSlug, Order::Asc)
        .all(db)
        .await
}

pub async fn scores_of(
    db: &DatabaseConnection,
    models: &[String],
) -> Result<Vec<score::Model>, DbErr> {
    score::Entity::find()
        .filter(score::Column::ModelSlug.is_in(models.iter().cloned()))
        .order_by(score::Column::BenchmarkSlug, Order::Asc)
        .order_by(score::Column::IsHeadline, Order::Desc)
        .order_by(score::Column::Id, Order::Asc)
        .all(db)
        .await
}

pub async fn aliases_of(
    db: &DatabaseConnection,
    models: &[String],
) -> Result<Vec<model_alias::Model>, DbErr> {
    model_alias::Entity::find()
        .filter(model_alias::Column::ModelSlug.is_in(models.iter().cloned()))
        .order_by(model_alias::Column::Alias, Order::Asc)
        .all(db)
        .await
}

pub async fn history_of(
    db: &DatabaseConnection,
    models: &[String],
) -> Result<Vec<price_history::Model>, DbErr> {
    price_history::Entity::find()
        .filter(price_history::Column::ModelSlug.is_in(models.iter().cloned()))
        .order_by(price_history::Column::EffectiveFrom, Order::Desc)
        .order_by(price_history::Column::ProviderSlug, Order::Asc)
        .all(db)
        .await
}

pub async fn models_created_by(
    db: &DatabaseConnection,
    creators: &[String],
) -> Result<Vec<model::Model>, DbErr> {
    model::Entity::find()
        .filter(model::Column::CreatorSlug.is_in(creators.iter().cloned()))
        .order_by(model::Column::Slug, Order::Asc)
        .all(db)
        .await
}

pub async fn agent_models_of(
    db: &DatabaseConnection,
    agents: &[String],
) -> Result<Vec<agent_model::Model>, DbErr> {
    agent_model::Entity::find()
        .filter(agent_model::Column::AgentSlug.is_in(agents.iter().cloned()))
        .order_by(agent_model::Column::ModelSlug, Order::Asc)
        .all(db)
        .await
}

pub async fn agents_of_models(
    db: &DatabaseConnection,
    models: &[String],
) -> Result<Vec<agent_model::Model>, DbErr> {
    agent_model::Entity::find()
        .filter(agent_model::Column::ModelSlug.is_in(models.iter().cloned()))
        .order_by(agent_model::Column::AgentSlug, Order::Asc)
        .all(db)
        .await
}

pub async fn agent_scores_of(
    db: &DatabaseConnection,
    agents: &[String],
) -> Result<Vec<agent_score::Model>, DbErr> {
    agent_score::Entity::find()
        .filter(agent_score::Column::AgentSlug.is_in(agents.iter().cloned()))
        .order_by(agent_score::Column::BenchmarkSlug, Order::Asc)
        .order_by(agent_score::Column::IsHeadline, Order::Desc)
        .order_by(agent_score::Column::Id, Order::Asc)
        .all(db)
        .await
}

pub async fn agents_by_slugs(
    db: &DatabaseConnection,
    slugs: &[String],
) -> Result<Vec<agent::Model>, DbErr> {
    agent::Entity::find()
        .filter(agent::Column::Slug.is_in(slugs.iter().cloned()))
        .all(db)
        .await
}

/// The longest list per owner in `table` (optionally headline rows only); 0 when empty.
async fn longest_group(
    db: &DatabaseConnection,
    table: &str,
    owner: &str,
    headline_only: bool,
) -> Result<usize, DbErr> {
    use sea_orm::{ConnectionTrait, Statement};
    let filter = if headline_only {
        " WHERE is_headline = TRUE"
    } else {
        ""
    };
    let sql = format!(
        "SELECT COALESCE(MAX(n), 0) AS longest FROM (SELECT COUNT(*) AS n FROM {table}{filter} GROUP BY {owner}) AS g"
    );
    let row = db
        .query_one_raw(Statement::from_string(db.get_database_backend(), sql))
        .await?;
    let n: i64 = match row {
        Some(r) => r.try_get("", "longest")?,
        None => 0,
    };
    Ok(usize::try_from(n).unwrap_or(0))
}

/// The real worst-case length of every unpaged list, for GraphQL complexity.
pub async fn list_sizes(
    db: &DatabaseConnection,
) -> Result<Vec<(crate::graphql::sizes::ListKind, usize)>, DbErr> {
    use crate::graphql::sizes::ListKind as K;
    Ok(vec![
        (
            K::OfferingsPerModel,
            longest_group(db, "offerings", "model_slug", false).await?,
        ),
        (
            K::HistoryPerModel,
            longest_group(db, "price_history", "model_slug", false).await?,
        ),
        (
            K::HeadlineScoresPerModel,
            longest_group(db, "scores", "model_slug", true).await?,
        ),
        (
            K::ScoresPerModel,
            longest_group(db, "scores", "model_slug", false).await?,
        ),
        (
            K::HeadlineScoresPerAgent,
            longest_group(db, "agent_scores", "agent_slug", true).await?,
        ),
        (
            K::ScoresPerAgent,
            longest_group(db, "agent_scores", "agent_slug", false).await?,
        ),
    ])
}
