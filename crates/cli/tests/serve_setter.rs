//! The setter's routes of `pencilbox serve` (`/api/forced`, `/api/suggest`, `/api/redundant`):
//! the same JSON as the CLI for every family, a message when the puzzle has the wrong number of
//! solutions, and `400` with a position for a malformed puzzle.

mod serve_common;

use pencilbox_cli::serve::Config;
use serde_json::json;
use serve_common::{post, start};
use std::path::Path;
use std::time::Duration;

fn example(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(rel)).unwrap()
}

fn server() -> std::net::SocketAddr {
    start(Config {
        timeout: Duration::from_secs(10),
        jobs: 2,
        ..Config::default()
    })
}

#[test]
fn forced_answers_like_the_cli_for_every_family() {
    let addr = server();
    for (puzzle, rel, status) in [
        ("suguru", "several/suguru-6x6-several.in", "several"),
        ("ripple", "ripple/example-6x6.in", "unique"),
        ("sudoku", "several/sudoku-4x4-several.txt", "several"),
        ("path", "path/example-6x6.txt", "unique"),
    ] {
        let (code, v) = post(addr, "/api/forced", &json!({"puzzle": puzzle, "text": example(rel)}));
        assert_eq!(code, 200, "{v}");
        assert_eq!(v["status"], status, "{rel}");
        assert_eq!(v["complete"], true);
        let forced = v["forced"].as_array().unwrap();
        assert!(!forced.is_empty());
        if status == "unique" {
            assert_eq!(forced.len() as u64, v["places"].as_u64().unwrap());
        }
    }
}

#[test]
fn suggest_proposes_a_clue_and_redundant_lists_removable_ones() {
    let addr = server();
    let (code, v) = post(
        addr,
        "/api/suggest",
        &json!({"puzzle": "ripple", "text": example("several/ripple-6x6-several.in")}),
    );
    assert_eq!(code, 200, "{v}");
    assert!(v["count_after"].as_u64().unwrap() < v["count"].as_u64().unwrap(), "{v}");
    assert!(v["clue"]["puzzle"].as_str().unwrap().starts_with("ripple 6 6"), "{v}");
    let (code, v) = post(
        addr,
        "/api/suggest",
        &json!({"puzzle": "suguru", "text": example("suguru/example-6x6.in")}),
    );
    assert_eq!(code, 200);
    assert!(v["message"].as_str().unwrap().contains("exactly one solution"), "{v}");
    assert!(v.get("clue").is_none());
    let (code, v) = post(
        addr,
        "/api/redundant",
        &json!({"puzzle": "path", "text": example("path/example-6x6.txt")}),
    );
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["checked"], v["clues"]);
    assert!(!v["redundant"].as_array().unwrap().is_empty());
    let (_, v) = post(
        addr,
        "/api/redundant",
        &json!({"puzzle": "path", "text": example("several/path-6x6-several.txt")}),
    );
    assert!(v["message"].as_str().unwrap().contains("several solutions"), "{v}");
}

#[test]
fn a_malformed_puzzle_is_a_400_with_its_position() {
    let addr = server();
    for route in ["/api/forced", "/api/suggest", "/api/redundant"] {
        let (code, v) = post(
            addr,
            route,
            &json!({"puzzle": "suguru", "text": "2 2\n0 x\n0 0\n1 1\n1 1\n"}),
        );
        assert_eq!(code, 400, "{route}: {v}");
        assert_eq!(
            (v["line"].as_u64(), v["col"].as_u64()),
            (Some(2), Some(3)),
            "{route}: {v}"
        );
    }
}
