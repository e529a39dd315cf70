//! What every handler may read: the shared, long-lived parts of the service. It depends on
//! nothing above it (no handler, no middleware), so the layers that use it form no cycle.

use std::sync::Arc;

use sea_orm::DatabaseConnection;

use crate::catalog;
use crate::config::ServeConfig;
use crate::counters::Counters;
use crate::graphql::Engine;
use crate::metrics::Metrics;

/// Shared by every request. One `Arc`: every middleware layer and handler takes its own
/// copy of the state per request, so a copy must cost one reference count, not one per part.
#[derive(Clone)]
pub struct AppState(Arc<Parts>);

impl AppState {
    pub fn new(parts: Parts) -> Self {
        Self(Arc::new(parts))
    }
}

impl std::ops::Deref for AppState {
    type Target = Parts;

    fn deref(&self) -> &Parts {
        &self.0
    }
}

/// The parts of the state.
pub struct Parts {
    /// The source of truth for imports, keys and the dataset version; never read per request
    /// for catalogue data.
    pub db: DatabaseConnection,
    pub graphql: Engine,
    /// The dataset being served; each request takes one snapshot of it.
    pub catalog: Arc<catalog::Shared>,
    /// Stored GET answers, keyed by request and dataset version.
    pub cache: Arc<crate::responses::ResponseCache>,
    pub counters: Arc<Counters>,
    /// Recent API-key lookups.
    pub keys: Arc<crate::store::keys::KeyCache>,
    pub config: Arc<ServeConfig>,
    pub metrics: Arc<Metrics>,
}

impl Parts {
    /// The attribution added to Free-tier answers: every source of the snapshot being
    /// served, with its licence, and where to read more.
    /// The attribution text, its link written from `base` (see `http::origin`).
    pub fn attribution(&self, catalog: &catalog::Catalog, base: &str) -> serde_json::Value {
        let names: Vec<String> = catalog
            .sources()
            .iter()
            .map(|s| format!("{} ({})", s.name, s.license))
            .collect();
        serde_json::Value::String(format!(
            "Data from {}. Sources and licences: {base}/api/v1/sources",
            names.join(", "),
        ))
    }
}
