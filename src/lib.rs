//! # Model Data Service
//!
//! A read-only API over public data about AI models: models, providers, prices and price
//! history, benchmark scores, a capability index, agents, comparisons, lookups by any
//! provider's model id, and bulk exports.
//!
//! A request travels: [`http`] (the one list of routes and layers; [`connections`] closes
//! silent sockets) → [`limits`] (tier, API key, hourly counter) → the response cache
//! ([`http::cache`]: a stored answer, or a 304, before any execution) → either [`rest`] (each
//! `/api/v1` GET is a row of a table that names a GraphQL document; the document runs
//! in-process) or straight to [`graphql`] (guarded by [`graphql::guards`]) → [`catalog`]
//! (the whole dataset, immutable and indexed in memory; one snapshot per request). [`mcp`]
//! is the third face, for agents: its tools are rows naming REST endpoints, at `/mcp` and
//! over stdio (`mds mcp`).
//!
//! Data enters through [`ingest`] (raw public datasets, one adapter each in
//! [`ingest::sources`] → identities resolved in [`ingest::identities`] → each model field
//! voted by its witnesses in [`ingest::merge`] → a normalized
//! [`snapshot`], with list prices, averages and the capability index derived there) and [`store::import`]
//! (snapshot → database, atomically). Each instance loads the catalogue from the database
//! ([`store::rows`]) and reloads it when an import changes the dataset version. The binary
//! embeds a snapshot, so an empty database is filled on first start. [`state`] holds what
//! every handler may read.

pub mod app;
pub mod catalog;
pub mod config;
pub mod connections;
pub mod counters;
pub mod error;
pub mod graphql;
pub mod http;
pub mod ingest;
pub mod limits;
pub mod mcp;
pub mod metrics;
pub mod responses;
pub mod rest;
pub mod snapshot;
pub mod state;
pub mod store;
pub mod sync;
