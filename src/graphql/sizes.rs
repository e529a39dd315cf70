//! The real worst-case length of each unpaged list, for the complexity limit.
//!
//! A model's `scores(all: true)` is as long as the longest such list in the data, not a
//! guessed 5: a query is costed by what it could really return. The lengths are measured
//! from the database when a dataset is loaded ([`record`]) and only ever grow within a
//! process, so a query accepted before an import is never costed lower than its answer.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The unpaged lists whose length depends on the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    OfferingsPerModel,
    HistoryPerModel,
    HeadlineScoresPerModel,
    ScoresPerModel,
    HeadlineScoresPerAgent,
    ScoresPerAgent,
}

const KINDS: usize = 6;

/// Before any dataset is loaded (printing the schema), every list is costed at this length.
const UNMEASURED: usize = 100;

static LONGEST: [AtomicUsize; KINDS] = [const { AtomicUsize::new(UNMEASURED) }; KINDS];
static MEASURED: [AtomicUsize; KINDS] = [const { AtomicUsize::new(0) }; KINDS];

/// Records measured lengths (at least 1 each).
pub fn record(lengths: &[(ListKind, usize)]) {
    for (kind, n) in lengths {
        let i = *kind as usize;
        let previous = MEASURED[i].fetch_max((*n).max(1), Ordering::Relaxed);
        LONGEST[i].store(previous.max((*n).max(1)), Ordering::Relaxed);
    }
}

/// The worst-case length of a list of `kind`.
pub fn longest(kind: ListKind) -> usize {
    LONGEST[kind as usize].load(Ordering::Relaxed)
}

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
