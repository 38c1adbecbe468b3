//! pencilbox-web: the playground's JSON API compiled to WebAssembly, for the static build of
//! the playground that needs no server (`scripts/build-web.sh OUT`, docs/playground.md).
//!
//! The page (the same `index.html` and `app.js` that `pencilbox serve` serves) runs this module
//! in a Web Worker and sends it the requests it would send the server: [`call`] takes a route
//! (`/api/solve`, …) and the JSON body, and answers `{"status": 200, "body": {...}}` with the
//! very JSON the server answers, because both call [`pencilbox_registry::api`]. A long request
//! is stopped by the page terminating the worker (and starting a fresh one); every request also
//! carries a time limit (its `timeout`, else [`DEFAULT_TIMEOUT`]), measured on the browser's
//! clock (`pencilbox_core::time::Instant`).
//!
//! The crate also builds natively (an `rlib` beside the `cdylib`), so its tests run with the
//! workspace's.

use pencilbox_registry::api;
use std::time::Duration;
use wasm_bindgen::prelude::wasm_bindgen;

/// The time limit of a request that names none. Longer than the server's 10 s: the browser's
/// worker serves one person, who can press Stop.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The longest time limit a request may ask for.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(3600);

/// The API's limits in the browser: the server's sizes and memory budget, the time limits
/// above.
pub fn config() -> api::Config {
    api::Config {
        timeout: DEFAULT_TIMEOUT,
        max_timeout: MAX_TIMEOUT,
        ..api::Config::default()
    }
}

/// Answers the request `body` (JSON; empty for the `GET` routes) to `route`, start to end:
/// `{"status": HTTP_STATUS, "body": ANSWER}`, the answer being what `pencilbox serve` answers.
#[wasm_bindgen]
pub fn call(route: &str, body: &str) -> String {
    install_panic_hook();
    let r = api::call(route, body.as_bytes(), &config());
    serde_json::json!({ "status": r.status, "body": r.body }).to_string()
}

/// The version of pencilbox this module was built from.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
extern "C" {
    /// The browser's `console.error`.
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// A panic (a bug in puzzle code) aborts the WebAssembly instance: its message goes to the
/// console first; the worker then answers `500` and the page starts a fresh worker.
fn install_panic_hook() {
    #[cfg(target_arch = "wasm32")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            std::panic::set_hook(Box::new(|info| {
                console_error(&format!("pencilbox: the puzzle code panicked: {info}"));
            }));
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn ask(route: &str, body: &str) -> (u64, Value) {
        let v: Value = serde_json::from_str(&call(route, body)).expect("call answers JSON");
        (v["status"].as_u64().expect("a status"), v["body"].clone())
    }

    #[test]
    fn the_worker_answers_what_the_server_answers() {
        let (status, v) = ask(
            "/api/solve",
            r#"{"puzzle":"suguru","text":"3 3\n0 3 0\n2 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n"}"#,
        );
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["status"], "solved");
        assert_eq!(v["solution"], serde_json::json!([[1, 3, 1], [2, 5, 2], [4, 1, 3]]));
        let (status, v) = ask("/api/puzzles", "");
        assert_eq!(status, 200);
        let names: Vec<&str> = v["puzzles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        let every: Vec<&str> = pencilbox_registry::PUZZLES.iter().map(|k| k.name()).collect();
        assert_eq!(names, every);
        assert_eq!(v["limits"]["timeout_s"], 60.0);
        let (status, v) = ask("/api/levels", "");
        assert_eq!(status, 200);
        // Nine levels of every family at least.
        assert!(v["levels"].as_array().unwrap().len() >= 9 * names.len());
    }

    #[test]
    fn errors_keep_their_status_and_message() {
        let (status, v) = ask("/api/solve", r#"{"puzzle":"kakuro","text":""}"#);
        assert_eq!(status, 400);
        assert!(
            v["error"].as_str().unwrap().starts_with("unknown puzzle `kakuro`"),
            "{v}"
        );
        let (status, v) = ask("/api/solve", r#"{"puzzle":"suguru","text":"3 3\n0 x\n"}"#);
        assert_eq!(status, 400);
        assert_eq!(v["field"], "text", "{v}");
        assert_eq!(ask("/api/nope", "").0, 404);
        let big = format!(r#"{{"puzzle":"sudoku","text":"{}"}}"#, ".".repeat(30 * 30));
        assert_eq!(ask("/api/solve", &big).0, 413);
    }

    #[test]
    fn a_request_runs_under_its_own_time_limit() {
        let t0 = std::time::Instant::now();
        let body = format!(
            r#"{{"puzzle":"sudoku","text":"{}","limit":1000000000,"timeout":0.2}}"#,
            ".".repeat(81)
        );
        let (status, v) = ask("/api/count", &body);
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["interrupted"], true);
        assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
        assert!(version().starts_with(char::is_numeric));
    }
}
