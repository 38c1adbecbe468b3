//! One connection of `pencilbox serve`, from `accept` to close: the connection table (caps per
//! server and per client address, and room made under pressure by closing the connection that
//! has waited longest for its client), the request head read and checked here before hyper sees
//! it, the body under a deadline and a minimum rate, and the answer under a write timeout.
//!
//! **Why the head is read here.** hyper answers a head it cannot parse (`400`, `414`, `431`) by
//! itself, with an empty body and none of the server's headers. So [`check_head`] parses the
//! head with the same parser (`httparse`, the same limits) and the checks hyper adds (the target
//! as a URI, `Content-Length` and `Transfer-Encoding`), and refuses what hyper would refuse with
//! a JSON reason and the security headers ([`error_bytes`]); hyper then reads a head that it
//! accepts. Each connection carries one request (keep-alive is off), so every head passes here.
//!
//! **Slow clients.** The head must arrive within [`Config::header_timeout`] (`408`); the body
//! within [`Config::body_timeout`] plus one second per [`Config::body_min_rate`] bytes received,
//! and within [`Config::body_max_time`] in all (`408`, [`BodyTimeout`]); an answer the client
//! does not read for [`Config::write_timeout`] is dropped. When all
//! [`Config::max_connections`] are open, a new connection closes the one that has waited
//! longest for its client (its head, its body, or its reading of the answer) if that wait is
//! at least [`Config::evict_after`]; connections whose job runs are never closed for another.
//! So connections that send a little and then nothing cannot keep new clients out.

use super::Config;
use axum::body::Bytes;
use axum::http::StatusCode;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;

/// Header lines a request may have (hyper's default).
pub const MAX_HEADERS: usize = 100;
/// The longest request target hyper takes (it answers `414` above).
const MAX_URI_LEN: usize = u16::MAX as usize - 1;

/// The headers every answer carries unless it sets its own (the page's files set their own
/// Content-Security-Policy).
pub const SECURITY_HEADERS: [(&str, &str); 4] = [
    ("x-content-type-options", "nosniff"),
    (
        "content-security-policy",
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    ),
    ("cache-control", "no-store"),
    ("cross-origin-resource-policy", "same-origin"),
];

/// What a connection is doing, for the choice of a connection to close under pressure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for the request head.
    Head,
    /// Waiting for the request body.
    Body,
    /// The request is complete and being answered (a job may run): never closed for another.
    Working,
    /// Writing the answer (the time is that of the last write that went through).
    Answering,
}

/// One open connection.
#[derive(Debug)]
pub struct Slot {
    id: u64,
    peer: IpAddr,
    state: Mutex<(Phase, Instant)>,
    evicted: tokio::sync::Notify,
}

impl Slot {
    /// Enters `phase` now.
    pub fn enter(&self, phase: Phase) {
        *self.state.lock().unwrap_or_else(|e| e.into_inner()) = (phase, Instant::now());
    }

    /// The client made progress reading the answer.
    fn touch(&self) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if s.0 == Phase::Answering {
            s.1 = Instant::now();
        }
    }

    /// How long the connection has been waiting for its client (`None` while it works).
    fn waiting(&self, now: Instant) -> Option<Duration> {
        let (phase, since) = *self.state.lock().unwrap_or_else(|e| e.into_inner());
        (phase != Phase::Working).then(|| now.saturating_duration_since(since))
    }

    /// The connection's phase.
    pub fn phase(&self) -> Phase {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).0
    }
}

#[derive(Debug, Default)]
struct Table {
    next: u64,
    open: HashMap<u64, Arc<Slot>>,
    per_client: HashMap<IpAddr, usize>,
}

impl Table {
    fn remove(&mut self, id: u64) -> Option<Arc<Slot>> {
        let slot = self.open.remove(&id)?;
        if let Some(n) = self.per_client.get_mut(&slot.peer) {
            *n -= 1;
            if *n == 0 {
                self.per_client.remove(&slot.peer);
            }
        }
        Some(slot)
    }
}

/// The open connections, counted in total and per client address.
#[derive(Debug, Default)]
pub struct Conns {
    table: Mutex<Table>,
}

/// An admitted connection; leaves the table when dropped.
#[derive(Debug)]
pub struct Admitted {
    /// The connection's slot.
    pub slot: Arc<Slot>,
    conns: Arc<Conns>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.conns.lock().remove(self.slot.id);
    }
}

impl Conns {
    fn lock(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Open connections.
    pub fn len(&self) -> usize {
        self.lock().open.len()
    }

    /// True when no connection is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Admits a connection of `peer`: `None` when the client has its
    /// [`Config::max_connections_per_client`], or when all [`Config::max_connections`] are
    /// open and none has waited [`Config::evict_after`] for its client (else the one that has
    /// waited longest is told to close, and leaves the table now).
    pub fn admit(self: &Arc<Self>, peer: IpAddr, config: &Config) -> Option<Admitted> {
        let mut t = self.lock();
        if t.per_client.get(&peer).copied().unwrap_or(0) >= config.max_connections_per_client {
            return None;
        }
        if t.open.len() >= config.max_connections {
            let now = Instant::now();
            let victim = t
                .open
                .values()
                .filter_map(|s| s.waiting(now).map(|w| (w, s.id)))
                .filter(|&(w, _)| w >= config.evict_after)
                .max()?
                .1;
            if let Some(slot) = t.remove(victim) {
                slot.evicted.notify_one();
            }
        }
        t.next += 1;
        let slot = Arc::new(Slot {
            id: t.next,
            peer,
            state: Mutex::new((Phase::Head, Instant::now())),
            evicted: tokio::sync::Notify::new(),
        });
        t.open.insert(slot.id, slot.clone());
        *t.per_client.entry(peer).or_insert(0) += 1;
        Some(Admitted {
            slot,
            conns: self.clone(),
        })
    }
}

/// What [`check_head`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum HeadCheck {
    /// The head is not complete yet (and within the limit).
    Partial,
    /// A head hyper will accept, `len` bytes long (the rest is the body).
    Complete {
        /// The head's length in bytes.
        len: usize,
    },
    /// A head to refuse with this status and reason.
    Refused {
        /// The status: `400`, `414` or `431`.
        status: u16,
        /// Why.
        message: String,
    },
}

fn refused(status: StatusCode, message: impl Into<String>) -> HeadCheck {
    HeadCheck::Refused {
        status: status.as_u16(),
        message: message.into(),
    }
}

/// Only ASCII digits, as hyper reads a `Content-Length` (no sign, no spaces, no list).
fn digits(v: &[u8]) -> Option<u64> {
    if v.is_empty() || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(v).ok()?.parse().ok()
}

/// Checks the start of a connection's bytes as a request head, as hyper would parse it, with
/// at most `limit` bytes of head (see the module docs). An HTTP/1.1 request must name its host
/// (RFC 9112 §3.2).
pub fn check_head(buf: &[u8], limit: usize) -> HeadCheck {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    let len = match req.parse(buf) {
        Ok(httparse::Status::Partial) if buf.len() < limit => return HeadCheck::Partial,
        Ok(httparse::Status::Partial) => {
            // The request line alone over the limit: 414; else the header lines: 431.
            let start = buf.iter().position(|&b| b != b'\r' && b != b'\n').unwrap_or(0);
            let line = buf[start..].iter().position(|&b| b == b'\n').unwrap_or(buf.len());
            return if line >= limit {
                refused(
                    StatusCode::URI_TOO_LONG,
                    format!("the request line is longer than this server's limit of {limit} bytes"),
                )
            } else {
                refused(
                    StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                    format!(
                        "the request head is larger than this server's limit of {} KiB",
                        limit / 1024
                    ),
                )
            };
        }
        Ok(httparse::Status::Complete(n)) => n,
        Err(httparse::Error::TooManyHeaders) => {
            return refused(
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                format!("the request has more than {MAX_HEADERS} header lines"),
            )
        }
        Err(e) => {
            let part = match (req.method, req.path, req.version) {
                (None, ..) => "method",
                (Some(_), None, _) => "request target",
                (Some(_), Some(_), None) => "HTTP version",
                _ => "header lines",
            };
            return refused(
                StatusCode::BAD_REQUEST,
                format!("malformed request: {e} (in the {part})"),
            );
        }
    };
    if len > limit {
        return refused(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!(
                "the request head is larger than this server's limit of {} KiB",
                limit / 1024
            ),
        );
    }
    let path = req.path.unwrap_or("");
    if path.len() > MAX_URI_LEN {
        return refused(
            StatusCode::URI_TOO_LONG,
            format!("the request target is longer than {MAX_URI_LEN} bytes"),
        );
    }
    if axum::http::Uri::try_from(path).is_err() {
        let shown: String = path.chars().take(80).collect();
        return refused(
            StatusCode::BAD_REQUEST,
            format!("the request target `{shown}` is not a valid URI"),
        );
    }
    let http11 = req.version == Some(1);
    let (mut length, mut chunked, mut te, mut hosts) = (None, false, false, 0);
    for h in req.headers.iter() {
        if h.name.eq_ignore_ascii_case("transfer-encoding") {
            if !http11 {
                return refused(
                    StatusCode::BAD_REQUEST,
                    "an HTTP/1.0 request cannot use Transfer-Encoding",
                );
            }
            te = true;
            chunked = std::str::from_utf8(h.value)
                .ok()
                .and_then(|s| s.rsplit(',').next())
                .is_some_and(|last| last.trim().eq_ignore_ascii_case("chunked"));
        } else if h.name.eq_ignore_ascii_case("content-length") {
            let Some(n) = digits(h.value).filter(|&n| n < u64::MAX - 1) else {
                return refused(
                    StatusCode::BAD_REQUEST,
                    format!(
                        "Content-Length `{}` is not a length in bytes",
                        String::from_utf8_lossy(h.value).chars().take(40).collect::<String>()
                    ),
                );
            };
            if length.is_some_and(|l| l != n) && !te {
                return refused(
                    StatusCode::BAD_REQUEST,
                    "the request has two different Content-Length values",
                );
            }
            length = Some(n);
        } else if h.name.eq_ignore_ascii_case("host") {
            hosts += 1;
        }
    }
    if te && !chunked {
        return refused(
            StatusCode::BAD_REQUEST,
            "Transfer-Encoding must end with `chunked` (the only encoding this server reads)",
        );
    }
    if http11 && hosts == 0 {
        return refused(StatusCode::BAD_REQUEST, "an HTTP/1.1 request must carry a Host header");
    }
    HeadCheck::Complete { len }
}

/// A whole HTTP/1.1 answer `{"error": message}` with the security headers, closing the
/// connection: what the server sends where hyper would answer by itself.
pub fn error_bytes(status: StatusCode, message: &str) -> Vec<u8> {
    let body = serde_json::json!({ "error": message }).to_string();
    let mut head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or("Error"),
        body.len()
    );
    for (name, value) in SECURITY_HEADERS {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut out = head.into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

/// How reading a head ended.
enum Head {
    /// The bytes read: the head and what followed it.
    Read(Vec<u8>),
    /// Refused with this status and reason.
    Refused(StatusCode, String),
    /// The client closed (or the read failed) before a whole head.
    Gone,
}

/// Reads until [`check_head`] decides.
async fn read_head(stream: &mut TcpStream, limit: usize) -> Head {
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = vec![0u8; 8192];
    loop {
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return Head::Gone,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
        match check_head(&buf, limit) {
            HeadCheck::Partial => {}
            HeadCheck::Complete { .. } => return Head::Read(buf),
            HeadCheck::Refused { status, message } => {
                return Head::Refused(StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST), message)
            }
        }
    }
}

/// Sends an error answer and closes: the write side first, then what the client still sends
/// is read and dropped for a moment, so that closing with unread bytes does not reset the
/// connection before the client reads the answer (a "lingering close").
async fn answer_and_close(mut stream: TcpStream, status: StatusCode, message: &str) {
    let bytes = error_bytes(status, message);
    if tokio::time::timeout(Duration::from_secs(2), stream.write_all(&bytes))
        .await
        .is_err()
    {
        return;
    }
    let _ = stream.shutdown().await;
    let until = tokio::time::Instant::now() + Duration::from_secs(1);
    let mut sink = vec![0u8; 8192];
    let mut total = 0usize;
    while total < 1 << 20 {
        match tokio::time::timeout_at(until, stream.read(&mut sink)).await {
            Ok(Ok(n)) if n > 0 => total += n,
            _ => break,
        }
    }
}

/// The connection's IO as hyper sees it: the bytes read with the head first, then the socket;
/// a write that cannot proceed for [`Config::write_timeout`] fails (the client does not read).
struct Prefixed {
    prefix: Vec<u8>,
    at: usize,
    stream: TcpStream,
    slot: Arc<Slot>,
    write_timeout: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Prefixed {
    fn stall(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let limit = self.write_timeout;
        let sleep = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client did not read the answer",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for Prefixed {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.at < this.prefix.len() {
            let n = (this.prefix.len() - this.at).min(buf.remaining());
            buf.put_slice(&this.prefix[this.at..this.at + n]);
            this.at += n;
            if this.at == this.prefix.len() {
                this.prefix = Vec::new();
                this.at = 0;
            }
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Prefixed {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.stream).poll_write(cx, buf) {
            Poll::Ready(r) => {
                this.stalled = None;
                this.slot.touch();
                Poll::Ready(r)
            }
            Poll::Pending => this.stall(cx).map(|r| r.map(|()| 0)),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.stream).poll_flush(cx) {
            Poll::Ready(r) => {
                this.stalled = None;
                Poll::Ready(r)
            }
            Poll::Pending => this.stall(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// Why a request body was given up: it came too slowly (the answer is `408`).
#[derive(Debug, Clone)]
pub struct BodyTimeout {
    /// Bytes received.
    pub received: u64,
    /// Time spent waiting.
    pub waited: Duration,
    /// The policy.
    pub limits: BodyLimits,
}

impl std::fmt::Display for BodyTimeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the request body came too slowly: {} bytes in {:.1} s; this server waits {} s for a body, \
             one more second per {} bytes received, and {} s at most",
            self.received,
            self.waited.as_secs_f64(),
            self.limits.timeout.as_secs_f64(),
            self.limits.min_rate,
            self.limits.max_time.as_secs_f64()
        )
    }
}

impl std::error::Error for BodyTimeout {}

/// The body-read policy ([`Config::body_timeout`], [`Config::body_min_rate`],
/// [`Config::body_max_time`]).
#[derive(Debug, Clone, Copy)]
pub struct BodyLimits {
    /// The time for a body before any extension.
    pub timeout: Duration,
    /// Each this many bytes received extend the time by one second.
    pub min_rate: u64,
    /// The time for a body at most.
    pub max_time: Duration,
}

impl BodyLimits {
    /// The limits of a configuration.
    pub fn of(config: &Config) -> Self {
        BodyLimits {
            timeout: config.body_timeout,
            min_rate: config.body_min_rate.max(1),
            max_time: config.body_max_time,
        }
    }

    /// The time allowed once `received` bytes came.
    fn allowed(&self, received: u64) -> Duration {
        (self.timeout + Duration::from_secs_f64(received as f64 / self.min_rate as f64)).min(self.max_time)
    }
}

/// A request body read under [`BodyLimits`]; marks its connection [`Phase::Working`] once it
/// is complete.
pub struct TimedBody<B> {
    inner: B,
    slot: Arc<Slot>,
    limits: BodyLimits,
    start: tokio::time::Instant,
    received: u64,
    deadline: Pin<Box<tokio::time::Sleep>>,
}

impl<B> TimedBody<B> {
    /// Wraps `inner`; the time counts from now.
    pub fn new(inner: B, slot: Arc<Slot>, limits: BodyLimits) -> Self {
        let start = tokio::time::Instant::now();
        TimedBody {
            inner,
            slot,
            limits,
            start,
            received: 0,
            deadline: Box::pin(tokio::time::sleep_until(start + limits.allowed(0))),
        }
    }
}

impl<B> hyper::body::Body for TimedBody<B>
where
    B: hyper::body::Body<Data = Bytes> + Unpin,
    B::Error: Into<axum::BoxError>,
{
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                    let until = this.start + this.limits.allowed(this.received);
                    this.deadline.as_mut().reset(until);
                }
                if this.inner.is_end_stream() {
                    this.slot.enter(Phase::Working);
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(e))) => Poll::Ready(Some(Err(e.into()))),
            Poll::Ready(None) => {
                this.slot.enter(Phase::Working);
                Poll::Ready(None)
            }
            Poll::Pending => match this.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimeout {
                    received: this.received,
                    waited: this.start.elapsed(),
                    limits: this.limits,
                })))),
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

/// Serves one admitted connection (see the module docs): reads and checks the head, hands the
/// connection to hyper with the body under [`BodyLimits`] and the peer address in the request,
/// and closes when done or when the table tells it to make room.
pub async fn handle(
    mut stream: TcpStream,
    peer: std::net::SocketAddr,
    admitted: Admitted,
    app: axum::Router,
    config: Arc<Config>,
) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower::ServiceExt;
    let slot = admitted.slot.clone();
    let work = async move {
        let head = tokio::time::timeout(config.header_timeout, read_head(&mut stream, config.max_head)).await;
        let prefix = match head {
            Ok(Head::Read(bytes)) => bytes,
            Ok(Head::Gone) => return,
            Ok(Head::Refused(status, message)) => return answer_and_close(stream, status, &message).await,
            Err(_) => {
                let message = format!(
                    "the request head did not arrive within {:.1} s",
                    config.header_timeout.as_secs_f64()
                );
                return answer_and_close(stream, StatusCode::REQUEST_TIMEOUT, &message).await;
            }
        };
        let io = Prefixed {
            prefix,
            at: 0,
            stream,
            slot: slot.clone(),
            write_timeout: config.write_timeout,
            stalled: None,
        };
        let limits = BodyLimits::of(&config);
        let service_slot = slot.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
            use hyper::body::Body as _;
            let slot = service_slot.clone();
            req.extensions_mut().insert(axum::extract::ConnectInfo(peer));
            slot.enter(if req.body().is_end_stream() {
                Phase::Working
            } else {
                Phase::Body
            });
            let req = req.map(|b| axum::body::Body::new(TimedBody::new(b, slot.clone(), limits)));
            let answer = app.clone().oneshot(req);
            async move {
                let res = answer.await;
                slot.enter(Phase::Answering);
                res
            }
        });
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(config.header_timeout)
            .keep_alive(false)
            // A client may shut its writing side once the request is sent and wait for the
            // answer (`nc -N`, scripts): without this, hyper closes the connection at the read
            // side's end and a third of such requests went unanswered (found by the `serve`
            // fuzz target; tests/serve_hardening.rs checks it).
            .half_close(true)
            .max_buf_size(config.max_head.max(8192) * 2)
            .serve_connection(TokioIo::new(io), service);
        let _ = conn.await;
    };
    tokio::select! {
        () = work => {}
        () = admitted.slot.evicted.notified() => {}
    }
    drop(admitted);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(buf: &[u8]) -> Option<u16> {
        match check_head(buf, 16 * 1024) {
            HeadCheck::Refused { status, .. } => Some(status),
            HeadCheck::Partial => Some(0),
            HeadCheck::Complete { .. } => None,
        }
    }

    #[test]
    fn heads_hyper_takes_pass_and_the_others_get_its_status() {
        assert_eq!(status(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n"), None);
        assert_eq!(status(b"\r\nGET / HTTP/1.0\r\n\r\n"), None);
        assert_eq!(status(b"GET / HTTP/1.1\r\nHost: a\r\n"), Some(0));
        assert_eq!(status(b"GET / HTTP/1.1\r\n\r\n"), Some(400));
        assert_eq!(status(b"G@T / HTTP/1.1\r\nHost: a\r\n\r\n"), Some(400));
        assert_eq!(status(b"GET / HTTP/2.0\r\nHost: a\r\n\r\n"), Some(400));
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n"),
            Some(400)
        );
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
            Some(400)
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n"),
            Some(400)
        );
        assert_eq!(
            status(b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"),
            Some(400)
        );
        let many: String = (0..101).map(|i| format!("X-{i}: y\r\n")).collect();
        assert_eq!(
            status(format!("GET / HTTP/1.1\r\nHost: a\r\n{many}\r\n").as_bytes()),
            Some(431)
        );
        let big = format!("GET / HTTP/1.1\r\nHost: a\r\nX: {}\r\n\r\n", "y".repeat(20_000));
        assert_eq!(status(big.as_bytes()), Some(431));
        let long = format!("GET /{} HTTP/1.1\r\n", "y".repeat(20_000));
        assert_eq!(status(long.as_bytes()), Some(414));
    }

    #[test]
    fn error_answers_are_json_with_the_security_headers() {
        let a = String::from_utf8(error_bytes(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, "too \"big\"")).unwrap();
        assert!(a.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "{a}");
        assert!(a.contains("content-type: application/json\r\n") && a.contains("x-content-type-options: nosniff"));
        let body = a.split_once("\r\n\r\n").unwrap().1;
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(body).unwrap()["error"],
            "too \"big\""
        );
    }

    #[test]
    fn the_body_gets_a_second_per_min_rate_bytes_up_to_the_maximum() {
        let l = BodyLimits {
            timeout: Duration::from_secs(10),
            min_rate: 1000,
            max_time: Duration::from_secs(60),
        };
        assert_eq!(l.allowed(0), Duration::from_secs(10));
        assert_eq!(l.allowed(5000), Duration::from_secs(15));
        assert_eq!(l.allowed(1_000_000), Duration::from_secs(60));
    }
}
