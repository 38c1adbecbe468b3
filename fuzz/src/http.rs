//! Body of the `http` target: a request built from structured input (method, path, `Host`,
//! `Origin`, content type, and a body that is either raw bytes or a JSON object assembled from
//! the API's own field names and values) sent to the server's router in-process
//! (`pencilbox_cli::serve::app`, the same routes and guard as `pencilbox serve`), under small
//! limits (50 ms per job, grids up to 20×20 and 400 cells).
//!
//! Asserted: no panic; the status is one the API documents (200, 400, 403, 404, 405, 413, 415,
//! 503 — a 500 means a puzzle crate panicked on the input, a finding); every answer carries
//! `X-Content-Type-Options: nosniff` and `Cache-Control`; every error answer (`405` included)
//! is JSON with an `"error"` string; a request naming a foreign host is refused with 403.

use arbitrary::Arbitrary;
use axum::body::Body;
use axum::http::{header, Request};
use pencilbox_cli::serve::{self, Config};
use serde_json::{Map, Value};
use std::sync::OnceLock;
use std::time::Duration;
use tower::ServiceExt;

const METHODS: &[&str] = &["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH"];
const PATHS: &[&str] = &[
    "/",
    "/index.html",
    "/app.js",
    "/style.css",
    "/favicon.svg",
    "/config.js",
    "/manifest.webmanifest",
    "/sw.js",
    "/api/puzzles",
    "/api/solve",
    "/api/count",
    "/api/verify",
    "/api/hint",
    "/api/generate",
    "/api/nishio",
    "/api/levels",
    "/api/convert",
    "/api/step",
    "/api/forced",
    "/api/suggest",
    "/api/redundant",
    "/api/nope",
    "/../etc/passwd",
    "/api/solve?x=1",
    "/api/board",
    "/api/compose",
    "/api/explain",
    "http://127.0.0.1:8080/api/solve",
    "http://evil.example/api/solve",
];
const HOSTS: &[&str] = &["127.0.0.1:8080", "localhost:8080", "[::1]:8080", "evil.example", "", "127.0.0.1"];
const ORIGINS: &[&str] = &[
    "http://127.0.0.1:8080",
    "http://localhost:8080",
    "http://evil.example",
    "null",
    "https://127.0.0.1:8080",
];
const TYPES: &[&str] = &["application/json", "text/plain", "application/x-www-form-urlencoded", ""];
const FIELDS: &[&str] = &[
    "puzzle", "text", "solution", "algorithm", "settings", "limit", "timeout", "digit", "candidates", "method",
    "rows", "cols", "size", "seed", "difficulty", "to", "clues", "level",
];
const STRINGS: &[&str] = &[
    "suguru",
    "path",
    "sudoku",
    "ripple",
    "fast",
    "paper",
    "linear",
    "extend",
    "deduce",
    "backtrack",
    "dag",
    "text",
    "url",
    "easy",
    "hard",
    "3x3",
    "2x3",
    "3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n",
    "1 1 2\n3 5 4\n2 1 3\n",
    "6 6\n1 2\n6 1\n\n5 3 5 1 5 4\n5 3 3 4 3 5\n",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "....",
    "nudge",
    "rule",
    "answer",
];

/// One JSON value for a field.
#[derive(Arbitrary, Debug)]
pub enum Val {
    /// A string from the API's vocabulary.
    Word(u8),
    /// Any string.
    Str(String),
    /// A number.
    Int(i64),
    /// A float (NaN and infinities become null in JSON).
    Float(f64),
    /// A Boolean.
    Bool(bool),
    /// `null`.
    Null,
    /// An array of small numbers (candidate masks).
    Ints(Vec<u16>),
    /// An object of settings.
    Settings(Vec<(u8, u8)>),
}

/// A request body.
#[derive(Arbitrary, Debug)]
pub enum BodyInput {
    /// No body.
    Empty,
    /// Raw bytes.
    Raw(Vec<u8>),
    /// A JSON object of (field, value) pairs.
    Object(Vec<(u8, Val)>),
}

/// A request.
#[derive(Arbitrary, Debug)]
pub struct HttpInput {
    method: u8,
    path: u8,
    /// A raw path instead of one of ours.
    raw_path: Option<String>,
    host: u8,
    origin: Option<u8>,
    content_type: u8,
    cross_site: bool,
    body: BodyInput,
}

fn pick<'a>(list: &[&'a str], i: u8) -> &'a str {
    list[i as usize % list.len()]
}

fn value(v: &Val) -> Value {
    match v {
        Val::Word(i) => Value::from(pick(STRINGS, *i)),
        Val::Str(s) => Value::from(s.as_str()),
        Val::Int(i) => Value::from(*i),
        Val::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
        Val::Bool(b) => Value::from(*b),
        Val::Null => Value::Null,
        Val::Ints(v) => Value::from(v.iter().take(700).map(|&x| u64::from(x)).collect::<Vec<_>>()),
        Val::Settings(kv) => Value::Object(
            kv.iter()
                .map(|&(k, v)| (pick(&["block", "blok", "rules", "clues", "prune"], k).to_string(), Value::from(pick(STRINGS, v))))
                .collect(),
        ),
    }
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .max_blocking_threads(4)
            .enable_all()
            .build()
            .expect("runtime")
    })
}

fn app() -> axum::Router {
    static APP: OnceLock<axum::Router> = OnceLock::new();
    APP.get_or_init(|| {
        serve::app(Config {
            timeout: Duration::from_millis(50),
            jobs: 4,
            queue_wait: Duration::from_millis(200),
            max_side: 20,
            max_cells: 400,
            ..Config::default()
        })
    })
    .clone()
}

/// Sends the request to the router and checks the answer (see the module docs).
pub fn http(input: &HttpInput) {
    let method = pick(METHODS, input.method);
    let path = match &input.raw_path {
        Some(p) if p.starts_with('/') && p.parse::<axum::http::Uri>().is_ok() => p.as_str(),
        // Absolute-form targets (`GET http://host/...`) too.
        Some(p) if p.starts_with("http://") && p.parse::<axum::http::Uri>().is_ok() => p.as_str(),
        _ => pick(PATHS, input.path),
    };
    let host = pick(HOSTS, input.host);
    let mut req = Request::builder().method(method).uri(path);
    if !host.is_empty() {
        req = req.header(header::HOST, host);
    }
    if let Some(o) = input.origin {
        req = req.header(header::ORIGIN, pick(ORIGINS, o));
    }
    let ct = pick(TYPES, input.content_type);
    if !ct.is_empty() {
        req = req.header(header::CONTENT_TYPE, ct);
    }
    if input.cross_site {
        req = req.header("sec-fetch-site", "cross-site");
    }
    let body = match &input.body {
        BodyInput::Empty => Vec::new(),
        BodyInput::Raw(b) => b.clone(),
        BodyInput::Object(fields) => {
            let mut m = Map::new();
            for (k, v) in fields {
                m.insert(pick(FIELDS, *k).to_string(), value(v));
            }
            Value::Object(m).to_string().into_bytes()
        }
    };
    let Ok(req) = req.body(Body::from(body)) else {
        return;
    };
    let (status, headers, bytes) = runtime().block_on(async {
        let res = app().oneshot(req).await.expect("the router is infallible");
        let (parts, body) = res.into_parts();
        let bytes = axum::body::to_bytes(body, 16 << 20).await.expect("a body");
        (parts.status.as_u16(), parts.headers, bytes)
    });
    assert!(
        [200, 400, 403, 404, 405, 413, 415, 503].contains(&status),
        "{method} {path}: status {status}: {}",
        String::from_utf8_lossy(&bytes)
    );
    assert_eq!(
        headers.get(header::X_CONTENT_TYPE_OPTIONS).map(|v| v.as_bytes()),
        Some(&b"nosniff"[..]),
        "{method} {path}: no nosniff"
    );
    assert!(headers.contains_key(header::CACHE_CONTROL), "{method} {path}: no Cache-Control");
    if host.starts_with("evil.") {
        assert!(
            status == 403 || (status == 400 && path.starts_with("http://")),
            "{method} {path}: a foreign host was served ({status})"
        );
    }
    if path.starts_with("http://evil.") {
        assert_eq!(status, 400, "{method} {path}: an absolute-form target naming another host was served");
    }
    if status >= 400 && method != "HEAD" {
        let v: Value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{method} {path}: {status} answer is not JSON ({e})"));
        assert!(v["error"].is_string(), "{method} {path}: {status} answer without error: {v}");
    }
}
