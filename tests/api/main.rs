//! The integration suite: one binary, one file per area. Tests that need PostgreSQL or
//! Redis fail loudly when they are unreachable; only tests reading `../shared/data/raw`
//! skip (with a message) where that directory is absent.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod helpers;

mod audit;
mod cache;
mod catalog;
mod changes;
mod costs;
mod data_rules;
mod economy;
mod exports;
mod filters;
mod graphql;
mod hostile;
mod identities;
mod ingest;
mod limits;
mod lookups;
mod mcp;
mod observations;
mod ops;
mod prices;
mod rankings;
mod recommend;
mod rest;
mod retirements;
mod signals;
mod sync;
mod witnesses;
