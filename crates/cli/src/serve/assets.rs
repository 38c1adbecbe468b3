//! The playground page: HTML, CSS and JavaScript compiled into the binary (no CDN, no build
//! step, works offline).
//!
//! The files live in `crates/cli/assets/`. A strict Content-Security-Policy (`'self'` only)
//! makes sure the page loads nothing from elsewhere.

use super::api::AppState;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use std::sync::Arc;

/// The page.
pub const INDEX_HTML: &str = include_str!("../../assets/index.html");
/// The styles.
pub const STYLE_CSS: &str = include_str!("../../assets/style.css");
/// The script (vanilla JavaScript).
pub const APP_JS: &str = include_str!("../../assets/app.js");
/// The icon.
pub const FAVICON_SVG: &str = include_str!("../../assets/favicon.svg");

const CSP: &str = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; \
                   connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CONTENT_SECURITY_POLICY, CSP),
        ],
        body,
    )
}

/// The routes of the static files.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }))
        .route(
            "/index.html",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route("/favicon.svg", get(|| async { asset("image/svg+xml", FAVICON_SVG) }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_loads_only_its_own_files() {
        for needle in ["http://", "https://", "//cdn"] {
            let html_refs = INDEX_HTML.match_indices(needle).count();
            assert_eq!(html_refs, 0, "index.html refers to {needle}");
        }
        assert!(INDEX_HTML.contains("app.js") && INDEX_HTML.contains("style.css"));
    }
}
