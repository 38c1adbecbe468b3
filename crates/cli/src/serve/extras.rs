//! Puzzle-specific routes beyond solve/count/verify, and the feature list the page reads to
//! decide which buttons to show.

use super::api::AppState;
use axum::Router;
use std::sync::Arc;

/// The extra features the server offers for a family (names the page looks for).
pub fn features(puzzle: &str) -> Vec<&'static str> {
    let _ = puzzle;
    Vec::new()
}

/// The puzzle-specific routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
}
