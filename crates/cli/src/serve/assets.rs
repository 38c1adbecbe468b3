//! The playground page: HTML, CSS and JavaScript compiled into the binary (no CDN, no build
//! step, works offline).
//!
//! The files live in `crates/cli/assets/`; the static build (`scripts/build-web.sh`) copies
//! the very same files, with its own `config.js` (the WebAssembly worker instead of this
//! server) and a service worker. A strict Content-Security-Policy (`'self'` only) makes sure
//! the page loads nothing from elsewhere.

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
/// Where the page's API runs: this server (the static build writes its own).
pub const CONFIG_JS: &str = include_str!("../../assets/config.js");
/// The icon.
pub const FAVICON_SVG: &str = include_str!("../../assets/favicon.svg");
/// The web app manifest (installing the page as an app).
pub const MANIFEST: &str = include_str!("../../assets/manifest.webmanifest");
/// The app's icon, full-bleed (also maskable).
pub const ICON_SVG: &str = include_str!("../../assets/icon.svg");
/// The app's icon, 192×192.
pub const ICON_192: &[u8] = include_bytes!("../../assets/icon-192.png");
/// The app's icon, 512×512.
pub const ICON_512: &[u8] = include_bytes!("../../assets/icon-512.png");
/// `/sw.js`: retires the static build's service worker in a browser that opened the static
/// build at this address before (this server's page registers none).
pub const SW_RETIRE_JS: &str = include_str!("../../assets/sw-retire.js");

const CSP: &str = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; \
                   connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

fn asset(content_type: &'static str, body: &'static [u8]) -> impl IntoResponse {
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

/// The page's files: path, content type, contents.
pub const FILES: &[(&str, &str, &[u8])] = &[
    ("/", "text/html; charset=utf-8", INDEX_HTML.as_bytes()),
    ("/index.html", "text/html; charset=utf-8", INDEX_HTML.as_bytes()),
    ("/style.css", "text/css; charset=utf-8", STYLE_CSS.as_bytes()),
    ("/app.js", "text/javascript; charset=utf-8", APP_JS.as_bytes()),
    ("/config.js", "text/javascript; charset=utf-8", CONFIG_JS.as_bytes()),
    ("/favicon.svg", "image/svg+xml", FAVICON_SVG.as_bytes()),
    (
        "/manifest.webmanifest",
        "application/manifest+json",
        MANIFEST.as_bytes(),
    ),
    ("/icon.svg", "image/svg+xml", ICON_SVG.as_bytes()),
    ("/icon-192.png", "image/png", ICON_192),
    ("/icon-512.png", "image/png", ICON_512),
    ("/sw.js", "text/javascript; charset=utf-8", SW_RETIRE_JS.as_bytes()),
];

/// The routes of the static files.
pub fn routes() -> Router<Arc<AppState>> {
    let mut router = Router::new();
    for &(path, content_type, body) in FILES {
        router = router.route(path, get(move || async move { asset(content_type, body) }));
    }
    router
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
        // Every file the page names is served.
        for name in ["config.js", "manifest.webmanifest", "favicon.svg", "icon-192.png"] {
            assert!(INDEX_HTML.contains(&format!("\"{name}\"")), "{name}");
            assert!(FILES.iter().any(|f| f.0 == format!("/{name}")), "{name}");
        }
        let manifest: serde_json::Value = serde_json::from_str(MANIFEST).expect("the manifest is JSON");
        for icon in manifest["icons"].as_array().expect("icons") {
            let src = icon["src"].as_str().unwrap();
            assert!(FILES.iter().any(|f| f.0 == format!("/{src}")), "{src}");
        }
    }

    /// `#rrggbb`, `#rgb` or `rgba(r,g,b,a)` (or `var(--name)` of `:root`) as RGB and alpha.
    fn colour(css: &str, value: &str) -> ([f64; 3], f64) {
        let value = value.trim();
        if let Some(name) = value.strip_prefix("var(").and_then(|v| v.strip_suffix(')')) {
            let at = css
                .find(&format!("{name}:"))
                .unwrap_or_else(|| panic!("{name} is defined"));
            let rest = &css[at + name.len() + 1..];
            return colour(css, &rest[..rest.find(';').unwrap()]);
        }
        if let Some(hex) = value.strip_prefix('#') {
            // `#fff` is `#ffffff`.
            let hex: String = if hex.len() == 3 {
                hex.chars().flat_map(|c| [c, c]).collect()
            } else {
                hex.into()
            };
            let ch = |i: usize| f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap());
            return ([ch(0), ch(2), ch(4)], 1.0);
        }
        let inner = value
            .strip_prefix("rgba(")
            .and_then(|v| v.strip_suffix(')'))
            .expect(value);
        let v: Vec<f64> = inner.split(',').map(|x| x.trim().parse().unwrap()).collect();
        ([v[0], v[1], v[2]], v[3])
    }

    /// The `fill` (or `color`) of the rule that starts a line with `selector {`.
    fn rule_colour(css: &str, selector: &str, property: &str) -> ([f64; 3], f64) {
        let line = css
            .lines()
            .find(|l| l.starts_with(&format!("{selector} {{")))
            .unwrap_or_else(|| panic!("a rule {selector}"));
        let at = line
            .find(&format!(" {property}: "))
            .unwrap_or_else(|| panic!("{selector} has a {property}"));
        let rest = &line[at + property.len() + 3..];
        colour(css, &rest[..rest.find(';').unwrap()])
    }

    fn luminance(c: [f64; 3]) -> f64 {
        let lin = |x: f64| {
            let x = x / 255.0;
            if x <= 0.03928 {
                x / 12.92
            } else {
                ((x + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
    }

    fn contrast(a: [f64; 3], b: [f64; 3]) -> f64 {
        let (x, y) = (luminance(a), luminance(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }

    /// WCAG AA for text: every number and candidate drawn on a cell keeps 4.5:1 over every cell
    /// colour (the region palette, Sudoku's and Path's two shades) with any stack of the tints
    /// drawn under it (peer, then one of the marks, then the selection); the page's coloured
    /// text keeps 4.5:1 on the white cards.
    #[test]
    fn text_and_candidates_keep_a_contrast_of_four_and_a_half() {
        let css = STYLE_CSS;
        // The region palette (`--reg0` … `--reg7`, the light theme's first) and the plain cells.
        let mut cells: Vec<[f64; 3]> = (0..8).map(|i| colour(css, &format!("var(--reg{i})")).0).collect();
        cells.extend([colour(css, "var(--cell)").0, colour(css, "var(--cell-alt)").0]);
        let tint = |sel: &str| Some(rule_colour(css, sel, "fill"));
        let over =
            |bg: [f64; 3], (fg, a): ([f64; 3], f64)| -> [f64; 3] { [0, 1, 2].map(|i| fg[i] * a + bg[i] * (1.0 - a)) };
        let marks = [None, tint(".diffcell"), tint(".hintcell"), tint(".badcell")];
        let mut backgrounds = Vec::new();
        for &cell in &cells {
            for peer in [None, tint(".peer")] {
                for mark in marks {
                    for sel in [None, tint(".sel")] {
                        let bg = [peer, mark, sel].into_iter().flatten().fold(cell, over);
                        backgrounds.push(bg);
                    }
                }
            }
        }
        // (`.cand.auto` is `.cand` in italics: the same fill.)
        let board_text = [
            ".num.given",
            ".num.entry",
            ".num.solved",
            ".cand",
            ".cand.pencil",
            ".cand.focus",
            ".cand.removed",
            ".bad-icon",
        ];
        for sel in board_text {
            let (fg, a) = rule_colour(css, sel, "fill");
            assert_eq!(a, 1.0, "{sel} is opaque");
            let backgrounds: &[[f64; 3]] = if sel == ".bad-icon" {
                &[rule_colour(css, ".bad-badge", "fill").0]
            } else {
                &backgrounds
            };
            let worst = backgrounds
                .iter()
                .map(|&bg| contrast(fg, bg))
                .fold(f64::INFINITY, f64::min);
            assert!(worst >= 4.5, "{sel}: contrast {worst:.2} over its worst background");
        }
        let white = colour(css, "#ffffff").0;
        for var in ["var(--ink)", "var(--muted)", "var(--good)", "var(--bad)", "var(--warn)"] {
            let c = contrast(colour(css, var).0, white);
            assert!(c >= 4.5, "{var} on white: {c:.2}");
        }
        let clue = rule_colour(css, ".clue.none", "fill").0;
        assert!(contrast(clue, white) >= 4.5);
        // A number on a shaded cell (a Nurikabe wall, a Star Battle star's cell).
        let on_shade = rule_colour(css, ".num.on-shade", "fill").0;
        assert!(contrast(on_shade, colour(css, "var(--shade)").0) >= 4.5);
    }
}
