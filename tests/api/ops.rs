//! Operations: readiness, metrics, shutdown, compose file.
