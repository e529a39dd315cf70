//! # Model Data Service
//!
//! A read-only API over public data about AI models: models, providers, prices and price
//! history, benchmark scores, agents and comparisons.
//!
//! A request travels: [`routes`] (the one list of routes and layers) → [`limits`] (tier,
//! API key, hourly counter) → either [`rest`] (each `/api/v1` GET is a row of a table that
//! names a GraphQL document; the document runs in-process) or straight to [`graphql`] →
//! [`store`] (SeaORM queries, batched by DataLoaders) → SQLite or PostgreSQL.
//!
//! Data enters through [`ingest`] (raw public datasets → a normalized [`snapshot`]) and
//! [`store::import`] (snapshot → database, atomically). The binary embeds a snapshot, so an
//! empty database is filled on first start.

pub mod app;
pub mod catalog;
pub mod config;
pub mod connections;
pub mod error;
pub mod graphql;
pub mod http;
pub mod ingest;
pub mod limits;
pub mod metrics;
pub mod rest;
pub mod snapshot;
pub mod state;
pub mod store;
