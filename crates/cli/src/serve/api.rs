//! The HTTP side of the JSON API: routes, request bodies, the job pool and the guard.
//!
//! What each route answers is [`pencilbox_registry::api`]'s (the same functions as the
//! browser build's): every puzzle endpoint takes `{"puzzle": NAME, "text": PUZZLE_TEXT, ...}`
//! and answers with the object the CLI prints with `--format json`. Here, each route of
//! [`api::ROUTES`] reads its body (capped: `413`), has the registry check the request and plan
//! it, and runs the planned [`api::Job`] on the job pool ([`Jobs`]) under the server's time
//! limit and a cancellation flag. Errors are `{"error": MESSAGE}` (plus `field`, `line` and
//! `col` for parse errors) with a 4xx/5xx status.
//!
//! Every request passes [`guard`] first (`Host` and `Origin` checks, security headers), and
//! every grid the size check in [`api::check_size`] ([`pencilbox_core::PuzzleKind::dimensions`]:
//! the plug-in's own parse, any format) before any work; unknown `settings` keys are refused by
//! [`api::check_settings`].

use super::jobs::{JobError, Jobs};
use super::{assets, Config};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use pencilbox_core::PuzzleError;
use pencilbox_registry::api::{self, Plan};
use serde_json::{json, Value};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// State shared by all requests.
#[derive(Debug)]
pub struct AppState {
    /// The limits.
    pub config: Config,
    /// The API's limits (from [`AppState::config`]).
    pub api: api::Config,
    /// The pool puzzle work runs on.
    pub jobs: Jobs,
}

impl AppState {
    /// State for a configuration.
    pub fn new(config: Config) -> Self {
        let jobs = Jobs::with_per_client(config.jobs, config.jobs_per_client, config.timeout, config.queue_wait)
            .with_on_idle(pencilbox_registry::release_caches);
        AppState {
            api: config.api(),
            config,
            jobs,
        }
    }
}

/// Shared state as handlers receive it.
pub type Shared = State<Arc<AppState>>;

/// Every route of the server: the page's files and [`api::ROUTES`].
pub fn router(state: Arc<AppState>) -> Router {
    let max_body = state.config.max_body;
    let mut router = Router::new().merge(assets::routes());
    for &(path, method, endpoint) in api::ROUTES {
        router = match method {
            api::Method::Get => router.route(
                path,
                get(move |State(state): Shared, Client(client): Client| async move {
                    run(&state, client, endpoint(&state.api, b"")?).await
                }),
            ),
            api::Method::Post => router.route(
                path,
                post(
                    move |State(state): Shared,
                          Client(client): Client,
                          _: JsonContent,
                          body: Result<Bytes, BytesRejection>| async move {
                        let body = read_body(&state, body)?;
                        run(&state, client, endpoint(&state.api, &body)?).await
                    },
                ),
            ),
        };
    }
    router
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(max_body))
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

/// Answers a plan: at once, or on one of the client's job slots with the deadline and
/// cancellation in the job's limits.
pub async fn run(state: &AppState, client: IpAddr, plan: Plan) -> Result<Json<Value>, ApiError> {
    match plan {
        Plan::Answer(v) => Ok(Json(v)),
        Plan::Job(job) => {
            let work = job.work;
            match state
                .jobs
                .run_for(client, job.timeout, move |limits| Ok(work(limits)))
                .await?
            {
                Ok(v) => Ok(Json(v)),
                Err(e) => Err(e.into()),
            }
        }
    }
}

/// A `POST` body must be JSON: `415` for any other (or no) `Content-Type`, before the body is
/// read. (A page of another origin can send a "simple" cross-origin POST as `text/plain` or
/// form data without asking first; `application/json` needs the browser's permission.)
#[derive(Clone, Copy, Debug)]
pub struct JsonContent;

impl<S: Send + Sync> FromRequestParts<S> for JsonContent {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let types: Vec<_> = parts.headers.get_all(header::CONTENT_TYPE).iter().collect();
        let essence = |v: &HeaderValue| {
            v.to_str()
                .ok()
                .and_then(|t| t.split(';').next())
                .map(|t| t.trim().to_ascii_lowercase())
        };
        match types.as_slice() {
            [one] if essence(one).as_deref() == Some("application/json") => Ok(JsonContent),
            [] => Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the request has no Content-Type; send the JSON body with `Content-Type: application/json`",
            )),
            [one] => Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "the body must be JSON sent as `Content-Type: application/json`, not `{}`",
                    one.to_str().unwrap_or("\u{fffd}")
                ),
            )),
            _ => Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "the request has more than one Content-Type header",
            )),
        }
    }
}

/// The client's address (from the connection; loopback when the router runs in-process).
#[derive(Clone, Copy, Debug)]
pub struct Client(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Client(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map_or(IpAddr::from([127, 0, 0, 1]), |c| c.0.ip()),
        ))
    }
}

/// The host part of a `Host` value or an origin's authority, lower case, without the port.
fn host_name(authority: &str) -> String {
    let a = authority.trim().to_ascii_lowercase();
    let name = if a.starts_with('[') {
        a.split_inclusive(']').next().unwrap_or(&a).to_string()
    } else {
        match a.rsplit_once(':') {
            Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h.to_string(),
            _ => a.clone(),
        }
    };
    name.trim_end_matches('.').to_string()
}

/// May a request name this host? Loopback names and addresses, the names of `--allow-host`
/// (and the bound address, added by [`super::serve`]); `*` accepts any.
pub fn host_allowed(config: &Config, authority: &str) -> bool {
    let name = host_name(authority);
    let ip = name.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>();
    name == "localhost"
        || name.ends_with(".localhost")
        || ip.is_ok_and(|ip| ip.is_loopback())
        || config.allowed_hosts.iter().any(|h| h == "*" || *h == name)
}

/// Why a request is refused before routing (`Host`, `Origin`, fetch metadata), if it is.
///
/// A browser page from another origin may send a "simple" cross-origin POST without asking
/// first, and a DNS-rebinding page reaches the server under its own host name: so `Host`
/// must be one of ours, and any request that changes or computes something (every method but
/// `GET`, `HEAD` and `OPTIONS`) that says where it comes from (`Origin`, `Sec-Fetch-Site`) must
/// come from the page's own origin. Clients that say nothing (curl, scripts) are not browsers
/// driven by a foreign page and pass.
pub fn refusal(config: &Config, method: &Method, headers: &axum::http::HeaderMap) -> Option<String> {
    let text = |name: header::HeaderName| headers.get(name).map(|v| v.to_str().unwrap_or("\u{fffd}"));
    let host = text(header::HOST);
    if let Some(h) = host {
        if !host_allowed(config, h) {
            return Some(foreign_host(h));
        }
    }
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return None;
    }
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        if site != "same-origin" && site != "none" {
            return Some(format!("cross-origin requests are refused (Sec-Fetch-Site: {site})"));
        }
    }
    if let Some(origin) = text(header::ORIGIN) {
        let same = match (origin.strip_prefix("http://"), host) {
            (Some(authority), Some(h)) => authority.eq_ignore_ascii_case(h.trim()),
            (Some(authority), None) => host_allowed(config, authority),
            (None, _) => false,
        };
        if !same {
            return Some(format!(
                "cross-origin requests are refused (Origin: {origin}); use the page this server serves"
            ));
        }
    }
    None
}

fn foreign_host(authority: &str) -> String {
    format!(
        "the host name `{}` is not one of this server's (start it with `--allow-host {}` to accept it)",
        host_name(authority),
        host_name(authority)
    )
}

/// Why a request is malformed where it names its host or origin (`400`): `Host` or `Origin`
/// given twice (which one would count?), or an absolute-form target (`POST http://host/...`)
/// naming another host than `Host` or one that is not this server's.
pub fn malformed(config: &Config, uri: &axum::http::Uri, headers: &axum::http::HeaderMap) -> Option<String> {
    for name in [header::HOST, header::ORIGIN] {
        if headers.get_all(&name).iter().count() > 1 {
            return Some(format!("the request has more than one {name} header"));
        }
    }
    let authority = uri.authority()?.as_str();
    let host = headers.get(header::HOST).map(|v| v.to_str().unwrap_or("\u{fffd}"));
    if uri.scheme_str().is_some_and(|s| !s.eq_ignore_ascii_case("http")) {
        return Some(format!(
            "the request target names the scheme `{}`; this server speaks plain http",
            uri.scheme_str().unwrap_or("")
        ));
    }
    match host {
        Some(h) if !h.trim().eq_ignore_ascii_case(authority) => Some(format!(
            "the request target names the host `{authority}` but the Host header says `{h}`"
        )),
        _ if !host_allowed(config, authority) => Some(format!(
            "the request target names another host: {}",
            foreign_host(authority)
        )),
        _ => None,
    }
}

/// The first layer of every request: refuses a twice-given `Host` or `Origin` and absolute-form
/// targets naming another host with `400`, foreign hosts and cross-origin requests with `403`;
/// answers every error that is not JSON yet (axum's own `405`, say) with `{"error": ...}`; and
/// adds `X-Content-Type-Options: nosniff`, a Content-Security-Policy and `Cache-Control:
/// no-store` to answers that do not set their own (the page's files do).
pub async fn guard(State(state): Shared, req: Request, next: Next) -> Response {
    let (method, path) = (req.method().clone(), req.uri().path().to_string());
    let mut res = if let Some(why) = malformed(&state.config, req.uri(), req.headers()) {
        ApiError::new(StatusCode::BAD_REQUEST, why).into_response()
    } else if let Some(why) = refusal(&state.config, req.method(), req.headers()) {
        ApiError::new(StatusCode::FORBIDDEN, why).into_response()
    } else {
        next.run(req).await
    };
    let json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"));
    if res.status().as_u16() >= 400 && !json {
        let status = res.status();
        let message = match status {
            StatusCode::METHOD_NOT_ALLOWED => {
                // (axum adds `Allow` outside this layer.)
                let takes = match api::ROUTES.iter().find(|r| r.0 == path) {
                    Some((_, api::Method::Post, _)) => "POST",
                    _ => "GET or HEAD",
                };
                format!("{method} is not allowed on {path}; it takes {takes}")
            }
            _ => format!(
                "{} {}",
                status.as_u16(),
                status.canonical_reason().unwrap_or("error").to_ascii_lowercase()
            ),
        };
        let (mut parts, _) = res.into_parts();
        parts.headers.remove(header::CONTENT_LENGTH);
        parts.headers.remove(header::CONTENT_TYPE);
        let answer = ApiError::new(status, message).into_response();
        let (answer_parts, body) = answer.into_parts();
        parts.headers.extend(answer_parts.headers);
        res = Response::from_parts(parts, body);
    }
    let h = res.headers_mut();
    for (name, value) in super::conn::SECURITY_HEADERS {
        if !h.contains_key(name) {
            h.insert(name, HeaderValue::from_static(value));
        }
    }
    res
}

/// An error answer: a status and `{"error": message, ...}`.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The JSON body.
    pub body: Value,
}

impl ApiError {
    /// An error with a status and a message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            body: json!({ "error": message.into() }),
        }
    }

    /// The answer to a puzzle error: parse errors name the field, line and column.
    pub fn from_puzzle(e: PuzzleError) -> Self {
        api::ApiError::from_puzzle(e).into()
    }
}

impl From<api::ApiError> for ApiError {
    fn from(e: api::ApiError) -> Self {
        ApiError {
            status: StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            body: e.body,
        }
    }
}

impl From<JobError> for ApiError {
    fn from(e: JobError) -> Self {
        match e {
            JobError::Busy { jobs } => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the server is busy ({jobs} puzzle jobs running); try again in a moment"),
            ),
            JobError::ClientBusy { per_client } => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "your {per_client} puzzle jobs are still running (the limit per client); try again when they end"
                ),
            ),
            JobError::Overran { limit } => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the time limit of {:.1} s was reached", limit.as_secs_f64()),
            ),
            JobError::Panicked => api::ApiError::panicked().into(),
            JobError::Puzzle(p) => ApiError::from_puzzle(p),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}

/// The request body, answering `413` for an oversized body and `408` for one that came too
/// slowly ([`super::conn::BodyTimeout`]).
pub fn read_body(state: &AppState, body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|rej| {
        if rej.status() == StatusCode::PAYLOAD_TOO_LARGE {
            return api::ApiError::too_large(&state.api).into();
        }
        let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&rej);
        while let Some(e) = source {
            if let Some(t) = e.downcast_ref::<super::conn::BodyTimeout>() {
                return ApiError::new(StatusCode::REQUEST_TIMEOUT, t.to_string());
            }
            source = e.source();
        }
        ApiError::new(
            rej.status(),
            format!("cannot read the request body: {}", rej.body_text()),
        )
    })
}

async fn not_found(uri: axum::http::Uri) -> ApiError {
    api::ApiError::not_found(uri.path()).into()
}
