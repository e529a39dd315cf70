//! Read queries of each area (models, providers, pricing, benchmarks, agents).
