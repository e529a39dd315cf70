//! GraphQL object types, one file per area as the REST and catalogue layers are (models,
//! offerings, providers, benchmarks, sources), and the paging every list shares. Each type
//! wraps a row of the catalogue (shared, never copied); the row's columns are not the API,
//! these resolvers are. Related records are index lookups in the request's catalogue
//! snapshot ([`super::catalog`]).

mod benchmarks;
mod models;
mod offerings;
mod providers;
mod sources;

pub use benchmarks::*;
pub use models::*;
pub use offerings::*;
pub use providers::*;
pub use sources::*;

use async_graphql::connection::{Connection, CursorType, Edge, EmptyFields};
use async_graphql::{Result, SimpleObject};

pub use entity::vocab::{Category, OfferingKind, RankBasis, Task};

use super::bad_input;
use crate::catalog::Row;

/// Rows of a list, with the total count of matches.
#[derive(SimpleObject)]
#[graphql(serial)]
pub struct ListInfo {
    /// Number of items matching, over all pages.
    pub total_count: i64,
}

pub type List<T> = Connection<usize, T, ListInfo, EmptyFields>;

/// The default and maximum page sizes (`docs/rest.md`).
pub const DEFAULT_FIRST: i32 = 20;
pub const MAX_FIRST: i32 = 100;
/// The furthest position a cursor or offset may point at: far past any list in the data
/// (REST pages reach 1,000,000 × 100),
/// and small enough that no arithmetic on it can overflow in any database.
pub const MAX_POSITION: usize = 100_000_000;

/// Resolves `first` / `after` / `offset` to (offset, limit). `after` is an opaque cursor of
/// an earlier page; `offset` counts from there (or from the start).
pub fn paging(
    first: Option<i32>,
    after: Option<String>,
    offset: Option<i32>,
) -> Result<(usize, usize)> {
    let first = first.unwrap_or(DEFAULT_FIRST);
    if !(1..=MAX_FIRST).contains(&first) {
        return Err(bad_input(
            "first",
            format!("first must be between 1 and {MAX_FIRST}, got {first}"),
        ));
    }
    let mut start = 0usize;
    if let Some(a) = after {
        let pos = usize::decode_cursor(&a)
            .ok()
            .filter(|p| *p < MAX_POSITION)
            .ok_or_else(|| bad_input("after", format!("{a:?} is not a cursor of this list")))?;
        start = pos + 1;
    }
    if let Some(o) = offset {
        if !(0..=MAX_POSITION as i64).contains(&i64::from(o)) {
            return Err(bad_input(
                "offset",
                format!("offset must be between 0 and {MAX_POSITION}, got {o}"),
            ));
        }
        start += o as usize;
    }
    if start > MAX_POSITION {
        return Err(bad_input(
            "offset",
            format!("after and offset together point past position {MAX_POSITION}"),
        ));
    }
    Ok((start, first as usize))
}

pub fn list<T: async_graphql::OutputType>(items: Vec<T>, start: usize, total: u64) -> List<T> {
    let end = start + items.len();
    let mut c = Connection::with_additional_fields(
        start > 0,
        (end as u64) < total,
        ListInfo {
            total_count: total as i64,
        },
    );
    c.edges.extend(
        items
            .into_iter()
            .enumerate()
            .map(|(i, n)| Edge::new(start + i, n)),
    );
    c
}

/// One page of a list already in memory (a provider's offerings, an organisation's models).
pub fn page_of<T, U: async_graphql::OutputType>(
    rows: &[Row<T>],
    start: usize,
    limit: usize,
    wrap: impl Fn(Row<T>) -> U,
) -> List<U> {
    let total = rows.len() as u64;
    list(
        rows.iter()
            .skip(start)
            .take(limit)
            .cloned()
            .map(wrap)
            .collect(),
        start,
        total,
    )
}
