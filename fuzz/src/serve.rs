//! Body of the `serve` target: the input bytes are one connection's bytes (request head and
//! body, as a client writes them) sent to a real `pencilbox serve` (`serve::serve`, the accept
//! loop, the head check of `serve::conn`, hyper, the guard and the router) on a loopback port,
//! under small limits (heads within 300 ms, bodies within 300 ms, 50 ms jobs, grids up to
//! 20×20), the client then closing its side and reading the answer.
//!
//! Asserted: the server answers with a well-formed HTTP/1.1 (or, to HTTP/1.0, 1.0) status line, or closes without an
//! answer only when the head is incomplete; every answer carries `X-Content-Type-Options:
//! nosniff` and `Cache-Control`; every error answer (4xx, 5xx) to a request other than `HEAD`
//! is JSON with an `"error"` string (also where hyper would answer by itself); the status is
//! one the server documents; and the server goes on answering (a well-formed request after
//! each input gets `200`).

use pencilbox_cli::serve::{self, conn, Config};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::time::Duration;

const STATUSES: &[u16] = &[200, 400, 403, 404, 405, 408, 413, 414, 415, 431, 503];

fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
                tx.send(listener.local_addr().expect("addr")).expect("send");
                let config = Config {
                    timeout: Duration::from_millis(50),
                    jobs: 4,
                    queue_wait: Duration::from_millis(200),
                    max_side: 20,
                    max_cells: 400,
                    header_timeout: Duration::from_millis(300),
                    body_timeout: Duration::from_millis(300),
                    body_max_time: Duration::from_secs(1),
                    write_timeout: Duration::from_secs(1),
                    ..Config::default()
                };
                serve::serve(listener, config, std::future::pending()).await.expect("serve");
            });
        });
        rx.recv_timeout(Duration::from_secs(10)).expect("the server started")
    })
}

/// Writes `bytes`, closes the writing side, reads the answer until the server closes.
fn exchange(addr: SocketAddr, bytes: &[u8]) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(5))).ok();
    let _ = s.write_all(bytes);
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    out
}

/// Sends the connection's bytes and checks the answer (see the module docs).
pub fn serve(data: &[u8]) {
    let addr = server();
    let answer = exchange(addr, data);
    let complete_head = matches!(conn::check_head(data, 64 * 1024), conn::HeadCheck::Complete { .. });
    let refused = matches!(conn::check_head(data, 64 * 1024), conn::HeadCheck::Refused { .. });
    if answer.is_empty() {
        assert!(!refused, "a refused head got no answer: {:?}", String::from_utf8_lossy(data));
        // A complete head is answered unless the body was cut short by the client's close.
        return;
    }
    let text = String::from_utf8_lossy(&answer);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no answer head: {text:?}"));
    let mut lines = head.lines();
    let status_line = lines.next().unwrap_or("");
    let status: u16 = status_line
        .strip_prefix("HTTP/1.1 ")
        // An HTTP/1.0 request is answered in HTTP/1.0 (hyper, as RFC 9110 asks).
        .or_else(|| status_line.strip_prefix("HTTP/1.0 "))
        .and_then(|r| r.split_whitespace().next())
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
    assert!(STATUSES.contains(&status), "status {status}: {text:?}");
    let lower = head.to_ascii_lowercase();
    assert!(lower.contains("x-content-type-options: nosniff"), "no nosniff: {head}");
    assert!(lower.contains("cache-control:"), "no Cache-Control: {head}");
    let head_request = complete_head && data.trim_ascii_start().starts_with(b"HEAD ");
    if status >= 400 && !head_request {
        assert!(lower.contains("content-type: application/json"), "{status} not JSON: {head}");
        // A chunked answer: the JSON is the first chunk.
        let json = if lower.contains("transfer-encoding: chunked") {
            body.split_once("\r\n").map_or(body, |(_, rest)| rest.split("\r\n").next().unwrap_or(""))
        } else {
            body
        };
        let v: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{status} body is not JSON ({e}): {body:?}"));
        assert!(v["error"].is_string(), "{status} without an error message: {v}");
    }
    // The server goes on.
    let ok = format!("GET /api/limits HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let after = exchange(addr, ok.as_bytes());
    assert!(after.starts_with(b"HTTP/1.1 200 "), "the server stopped answering: {:?}", String::from_utf8_lossy(&after));
}
