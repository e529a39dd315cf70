//! The real worst-case length of each unpaged list of the data being served (a model's
//! scores, offerings, price history; an agent's scores). GraphQL costs queries by them
//! (`graphql::sizes`). They are measured when a catalogue is served and only ever grow within
//! a process, so a query accepted before an import is never costed lower than its answer.

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
    PointsPerIndicator,
    Indicators,
    ModelsPerAgent,
}

const KINDS: usize = 9;

/// Before any dataset is loaded (printing the schema), every list counts as this long.
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
