//! Complexity of unpaged lists: each costs its real worst-case length in the data being
//! served ([`crate::catalog::lengths`]) times its children, not a guessed 5, so a query is
//! costed by what it could really return.

pub use crate::catalog::lengths::{ListKind, longest};

/// Complexity of a model's or agent's `scores` list.
pub fn scores(all: bool, per_agent: bool, child_complexity: usize) -> usize {
    let kind = match (per_agent, all) {
        (false, false) => ListKind::HeadlineScoresPerModel,
        (false, true) => ListKind::ScoresPerModel,
        (true, false) => ListKind::HeadlineScoresPerAgent,
        (true, true) => ListKind::ScoresPerAgent,
    };
    longest(kind)
        .saturating_mul(child_complexity)
        .saturating_add(1)
}

/// Complexity of an unpaged list of `kind`.
pub fn list(kind: ListKind, child_complexity: usize) -> usize {
    longest(kind)
        .saturating_mul(child_complexity)
        .saturating_add(1)
}
