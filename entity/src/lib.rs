//! SeaORM entities of the Model Data Service: one module per table.
//!
//! These are storage rows only. The public API types live in the `mds` crate
//! (`src/graphql`), so a column rename never silently changes the API.
//! Relations are resolved by the in-memory catalogue's indexes, so no SeaORM
//! `Relation`s are declared here.

pub mod agent;
pub mod agent_model;
pub mod agent_score;
pub mod api_key;
pub mod benchmark;
pub mod dataset;
pub mod dataset_version;
pub mod economy_indicator;
pub mod economy_point;
pub mod model;
pub mod model_alias;
pub mod model_domain;
pub mod observation;
pub mod offering;
pub mod price_history;
pub mod provider;
pub mod score;
pub mod source;
pub mod source_status;
pub mod sync_lease;
pub mod vocab;
