//! Tiers, keys and hourly limits, against a real Redis.
