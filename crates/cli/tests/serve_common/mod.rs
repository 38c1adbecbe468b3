//! Shared by the `serve_*` tests: start the server in-process on a free loopback port, and a
//! tiny HTTP/1.1 client over `TcpStream` that can also send broken requests on purpose.

#![allow(dead_code)]

use pencilbox_cli::serve::{self, Config};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// Starts a server with `config` on 127.0.0.1:0 in a background thread; returns its address.
/// The server lives until the test process ends.
pub fn start(config: Config) -> SocketAddr {
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
            serve::serve(listener, config, std::future::pending())
                .await
                .expect("serve");
        });
    });
    rx.recv_timeout(Duration::from_secs(10))
        .expect("the server did not start")
}

/// A raw exchange: writes `request` as is and reads the answer until the server closes (the
/// well-formed requests say `Connection: close`). Returns `None` when the server closed without
/// an HTTP answer. With `hang_up`, the client closes its side after writing, as a broken client
/// would (the server then drops the connection, which is also fine).
pub fn raw_with(addr: SocketAddr, request: &[u8], hang_up: bool) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(if hang_up { 5 } else { 30 })))
        .ok();
    // The server may answer (413) and close before reading everything: ignore write errors.
    let _ = s.write_all(request);
    if hang_up {
        let _ = s.shutdown(std::net::Shutdown::Write);
    }
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    parse_response(&buf)
}

/// [`raw_with`] for a well-formed request.
pub fn raw(addr: SocketAddr, request: &[u8]) -> Option<(u16, String)> {
    raw_with(addr, request, false)
}

fn parse_response(buf: &[u8]) -> Option<(u16, String)> {
    let text = String::from_utf8_lossy(buf);
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    let chunked = head.to_ascii_lowercase().contains("transfer-encoding: chunked");
    let body = if chunked { dechunk(body) } else { body.to_string() };
    Some((status, body))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A request with a body.
pub fn request(addr: SocketAddr, method: &str, path: &str, content_type: &str, body: &[u8]) -> (u16, String) {
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(body);
    raw(addr, &req).unwrap_or_else(|| panic!("no HTTP answer to {method} {path}"))
}

/// `GET path`.
pub fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    raw(addr, req.as_bytes()).unwrap_or_else(|| panic!("no HTTP answer to GET {path}"))
}

/// `POST path` with a JSON body; the answer parsed as JSON.
pub fn post(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let (status, text) = request(addr, "POST", path, "application/json", body.to_string().as_bytes());
    let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("answer to {path} is not JSON ({e}): {text}"));
    (status, v)
}
