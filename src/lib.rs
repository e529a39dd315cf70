pub mod config;
pub mod ingest;
pub mod snapshot;
pub mod store;
