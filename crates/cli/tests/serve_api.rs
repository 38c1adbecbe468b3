//! The JSON API of `pencilbox serve`, against a server started in-process on a free loopback
//! port: answers carry the CLI's JSON fields, bad requests get 4xx with a JSON message, grids
//! and bodies are capped, and the server keeps serving through malformed traffic and
//! concurrent work.

mod serve_common;

use pencilbox_cli::output;
use pencilbox_cli::registry;
use pencilbox_cli::serve::Config;
use pencilbox_core::RunOptions;
use serde_json::{json, Value};
use serve_common::{get, post, raw_with, request, start};
use std::time::{Duration, Instant};

/// Figure 1 of the Suguru paper (3×3, regions of 5, 3 and 1 cells) with two more hints (3 at
/// r1c2, 2 at r2c1) so that it has exactly one solution.
const UNIQUE: &str = "3 3\n0 3 0\n2 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n";
/// Figure 1 of the Suguru paper as printed: several solutions.
const SEVERAL: &str = "3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n";
/// Two rows, each one region of three: the middle cells of the rows see all three values of
/// the other row, so there is no solution.
const NONE: &str = "2 3\n0 0 0\n0 0 0\n1 1 1\n2 2 2\n";

fn server() -> std::net::SocketAddr {
    start(Config {
        timeout: Duration::from_secs(5),
        jobs: 2,
        ..Config::default()
    })
}

/// A JSON value without the fields that depend on timing.
fn without_time(mut v: Value) -> Value {
    if let Some(stats) = v.get_mut("stats").and_then(Value::as_object_mut) {
        stats.remove("elapsed_us");
    }
    v
}

#[test]
fn the_page_and_its_files_are_served_from_the_binary() {
    let addr = server();
    let (status, html) = get(addr, "/");
    assert_eq!(status, 200);
    assert!(html.contains("<title>") && html.contains("app.js"), "{html}");
    for path in ["/app.js", "/style.css", "/favicon.svg"] {
        let (status, body) = get(addr, path);
        assert_eq!(status, 200, "{path}");
        assert!(!body.is_empty(), "{path} is empty");
    }
    let (status, body) = get(addr, "/no/such/page");
    assert_eq!(status, 404);
    assert!(body.contains("no such page"), "{body}");
}

#[test]
fn the_puzzle_list_names_every_registered_family_and_the_limits() {
    let addr = server();
    let (status, body) = get(addr, "/api/puzzles");
    assert_eq!(status, 200);
    let v: Value = serde_json::from_str(&body).unwrap();
    let names: Vec<&str> = v["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = registry::PUZZLES.iter().map(|k| k.name()).collect();
    assert_eq!(names, expected);
    assert_eq!(v["limits"]["max_cells"], json!(Config::default().max_cells));
}

#[test]
fn limits_name_the_sizes_the_server_refuses_above() {
    let addr = start(Config {
        max_cells: 900,
        ..Config::default()
    });
    let (status, body) = get(addr, "/api/limits");
    assert_eq!(status, 200);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["max_cells"], json!(900));
    assert_eq!(v["max_side"], json!(Config::default().max_side));
    assert_eq!(v["generate"]["min_side"], json!(2));
    let gen_max = v["generate"]["max_side"].as_u64().unwrap() as usize;
    let sudoku_side = v["families"]["sudoku"]["max_side"].as_u64().unwrap() as usize;
    assert!(sudoku_side < Config::default().max_side, "{v}");
    // Each limit is where the server starts refusing: the largest side passes the size check,
    // one more is refused, and the generator refuses one above its largest side.
    let sudoku = |n: usize| json!({"puzzle": "sudoku", "text": ".".repeat(n * n), "solution": "x"});
    let (at, _) = post(addr, "/api/verify", &sudoku(sudoku_side));
    assert_ne!(at, 413, "{sudoku_side}x{sudoku_side} fits");
    let (above, v2) = post(addr, "/api/verify", &sudoku(sudoku_side + 5));
    assert_eq!(above, 413, "{v2}");
    let grid = |m: usize| format!("{m} {m}\n{}", format!("{}\n", "0 ".repeat(m)).repeat(2 * m));
    let (fits, _) = post(
        addr,
        "/api/verify",
        &json!({"puzzle": "suguru", "text": grid(30), "solution": "x"}),
    );
    assert_ne!(fits, 413, "30x30 = 900 cells fit");
    let (big, v3) = post(
        addr,
        "/api/verify",
        &json!({"puzzle": "suguru", "text": grid(31), "solution": "x"}),
    );
    assert_eq!(big, 413, "{v3}");
    let gen = |side: usize| json!({"puzzle": "suguru", "rows": side, "cols": 3, "seed": 1});
    let (refused, v4) = post(addr, "/api/generate", &gen(gen_max + 1));
    assert_eq!(refused, 400, "{v4}");
    assert!(
        v4["error"].as_str().unwrap().contains(&format!("2 to {gen_max}")),
        "{v4}"
    );
}

#[test]
fn solve_answers_with_the_same_fields_as_the_cli_json() {
    let addr = server();
    let (status, v) = post(addr, "/api/solve", &json!({"puzzle": "suguru", "text": UNIQUE}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["solution"], json!([[1, 3, 1], [2, 5, 2], [4, 1, 3]]));
    let kind = registry::by_name("suguru").unwrap();
    let cli = output::solve_json("suguru", &kind.solve(UNIQUE, &RunOptions::default()).unwrap());
    assert_eq!(without_time(v), without_time(cli));
}

#[test]
fn solve_reports_a_puzzle_without_solution_as_unsolvable() {
    let addr = server();
    let (status, v) = post(addr, "/api/solve", &json!({"puzzle": "suguru", "text": NONE}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"], "unsolvable");
    assert_eq!(v["solution"], Value::Null);
}

#[test]
fn every_algorithm_of_a_family_can_be_chosen_and_an_unknown_one_is_refused() {
    let addr = server();
    let kind = registry::by_name("suguru").unwrap();
    for alg in kind.algorithms() {
        let (status, v) = post(
            addr,
            "/api/solve",
            &json!({"puzzle": "suguru", "text": UNIQUE, "algorithm": alg.name}),
        );
        if status == 400 {
            // An algorithm for special shapes (Suguru's `linear` is for 1×n) says why it does not apply.
            assert!(v["error"].as_str().unwrap().contains(alg.name), "{}: {v}", alg.name);
            continue;
        }
        assert_eq!(status, 200, "{}: {v}", alg.name);
        assert_eq!(v["algorithm"], alg.name);
        assert_eq!(v["solution"], json!([[1, 3, 1], [2, 5, 2], [4, 1, 3]]));
    }
    let (status, v) = post(
        addr,
        "/api/solve",
        &json!({"puzzle": "suguru", "text": UNIQUE, "algorithm": "magic"}),
    );
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("magic"), "{v}");
}

#[test]
fn count_tells_a_unique_puzzle_from_one_with_two_witnesses() {
    let addr = server();
    let (status, v) = post(addr, "/api/count", &json!({"puzzle": "suguru", "text": UNIQUE}));
    assert_eq!(status, 200, "{v}");
    assert_eq!((v["count"].clone(), v["complete"].clone()), (json!(1), json!(true)));
    assert!(v.get("witness").is_none());

    let (status, v) = post(addr, "/api/count", &json!({"puzzle": "suguru", "text": SEVERAL}));
    assert_eq!(status, 200, "{v}");
    assert_eq!((v["count"].clone(), v["complete"].clone()), (json!(2), json!(false)));
    let w = v["witness"].as_array().unwrap();
    assert_eq!(w.len(), 2);
    assert_ne!(w[0], w[1]);
    assert!(!v["differences"].as_array().unwrap().is_empty());
    // Both witnesses pass the verifier.
    for sol in w {
        let text: Vec<String> = sol
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                row.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let (status, r) = post(
            addr,
            "/api/verify",
            &json!({"puzzle": "suguru", "text": SEVERAL, "solution": text.join("\n")}),
        );
        assert_eq!(status, 200, "{r}");
        assert_eq!(r["valid"], true, "{r}");
    }

    let (status, v) = post(
        addr,
        "/api/count",
        &json!({"puzzle": "suguru", "text": SEVERAL, "limit": 100}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["complete"], true);
    assert!(v["count"].as_u64().unwrap() >= 3, "{v}");
}

#[test]
fn verify_names_each_offending_cell() {
    let addr = server();
    let (status, v) = post(
        addr,
        "/api/verify",
        &json!({"puzzle": "suguru", "text": UNIQUE, "solution": "1 3 1\n2 5 2\n4 1 3"}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v, json!({"puzzle": "suguru", "valid": true, "violations": []}));

    // r3c1 = 1 repeats the 1 of its neighbour r3c2 and of r1c1 in its region.
    let (status, v) = post(
        addr,
        "/api/verify",
        &json!({"puzzle": "suguru", "text": UNIQUE, "solution": "1 3 1\n2 5 2\n1 1 3"}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["valid"], false);
    let at: Vec<&str> = v["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["at"].as_str().unwrap())
        .collect();
    assert!(at.contains(&"r3c1"), "{v}");
    for x in v["violations"].as_array().unwrap() {
        assert!(x["message"].as_str().is_some_and(|m| !m.is_empty()), "{x}");
    }
}

#[test]
fn bad_requests_get_a_400_with_a_json_message() {
    let addr = server();
    let cases: Vec<(&str, String)> = vec![
        ("/api/solve", "{not json".into()),
        ("/api/solve", "".into()),
        ("/api/solve", "[]".into()),
        ("/api/solve", r#"{"puzzle": "suguru"}"#.into()),
        ("/api/solve", r#"{"puzzle": 7, "text": "1 1\n0\n1"}"#.into()),
        ("/api/solve", r#"{"puzzle": "chess", "text": "1 1\n0\n1"}"#.into()),
        (
            "/api/solve",
            json!({"puzzle": "suguru", "text": "3 3\n0 x 0\n"}).to_string(),
        ),
        ("/api/solve", json!({"puzzle": "suguru", "text": "-3 3\n"}).to_string()),
        ("/api/solve", json!({"puzzle": "suguru", "text": ""}).to_string()),
        (
            "/api/solve",
            json!({"puzzle": "suguru", "text": UNIQUE, "timeout": -1}).to_string(),
        ),
        (
            "/api/count",
            json!({"puzzle": "suguru", "text": UNIQUE, "limit": 0}).to_string(),
        ),
        ("/api/verify", json!({"puzzle": "suguru", "text": UNIQUE}).to_string()),
        (
            "/api/verify",
            json!({"puzzle": "suguru", "text": UNIQUE, "solution": "1 2\nzz"}).to_string(),
        ),
    ];
    for (path, body) in cases {
        let (status, text) = request(addr, "POST", path, "application/json", body.as_bytes());
        assert_eq!(status, 400, "{path} {body:?} -> {text}");
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert!(
            v["error"].as_str().is_some_and(|m| !m.is_empty()),
            "{path} {body:?} -> {text}"
        );
    }
    // A parse error says where.
    let (_, v) = post(addr, "/api/solve", &json!({"puzzle": "suguru", "text": "3 3\n0 x 0\n"}));
    assert_eq!(
        (v["field"].clone(), v["line"].clone()),
        (json!("text"), json!(2)),
        "{v}"
    );
    // Wrong method.
    let (status, _) = get(addr, "/api/solve");
    assert_eq!(status, 405);
}

#[test]
fn grids_and_bodies_above_the_limits_are_refused_with_a_clear_message() {
    let addr = start(Config {
        max_body: 8 * 1024,
        max_side: 20,
        max_cells: 300,
        ..Config::default()
    });
    let (status, v) = post(
        addr,
        "/api/solve",
        &json!({"puzzle": "suguru", "text": "100000 100000\n0 0\n"}),
    );
    assert_eq!(status, 400);
    let msg = v["error"].as_str().unwrap();
    assert!(msg.contains("100000×100000"), "{msg}");
    let (status, _) = post(addr, "/api/solve", &json!({"puzzle": "suguru", "text": "18 18\n"}));
    assert_eq!(status, 400);
    // A well-formed grid over the server's limits (18×18 = 324 cells > 300) is refused by size.
    let grid = format!("18 18\n{}", format!("{}\n", "0 ".repeat(18)).repeat(36));
    let (status, v) = post(addr, "/api/solve", &json!({"puzzle": "suguru", "text": grid}));
    assert_eq!(status, 413);
    let msg = v["error"].as_str().unwrap();
    assert!(msg.contains("too large") && msg.contains("18×18"), "{msg}");

    let big = json!({"puzzle": "suguru", "text": "0 ".repeat(10_000)}).to_string();
    let (status, text) = request(addr, "POST", "/api/solve", "application/json", big.as_bytes());
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("limit"), "{text}");
}

#[test]
fn many_malformed_and_oversized_requests_do_not_take_the_server_down() {
    let addr = start(Config {
        max_body: 16 * 1024,
        ..Config::default()
    });
    let mut garbage = Vec::new();
    let mut x: u32 = 12345;
    for _ in 0..4000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        garbage.push((x >> 16) as u8);
    }
    let huge = vec![b'{'; 64 * 1024];
    let requests: Vec<Vec<u8>> = vec![
        garbage.clone(),
        b"GET / HTTP/9.9\r\n\r\n".to_vec(),
        b"POST /api/solve HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n{".to_vec(),
        b"POST /api/solve HTTP/1.1\r\nContent-Length: -5\r\n\r\n".to_vec(),
        b"POST /api/solve HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".to_vec(),
        [
            b"POST /api/solve HTTP/1.1\r\nContent-Length: 65536\r\n\r\n".as_slice(),
            &huge,
        ]
        .concat(),
        [
            b"POST /api/count HTTP/1.1\r\nContent-Length: 4000\r\n\r\n".as_slice(),
            &garbage,
        ]
        .concat(),
        b"\r\n\r\n\r\n".to_vec(),
    ];
    let bodies: Vec<String> = vec![
        json!({"puzzle": "suguru", "text": "99999999999999999999999 3\n"}).to_string(),
        json!({"puzzle": "suguru", "text": "0 0\n"}).to_string(),
        json!({"puzzle": "suguru", "text": "2 2\n9 9\n9 9\n1 1\n1 1\n"}).to_string(),
        json!({"puzzle": "path", "text": "3 3\n1 1\n"}).to_string(),
        json!({"puzzle": "sudoku", "text": "12345"}).to_string(),
        json!({"puzzle": "sudoku", "text": "1".repeat(36 * 36)}).to_string(),
        json!({"puzzle": "suguru", "text": "\u{0}\u{1}\u{2}"}).to_string(),
        "{\"puzzle\": \"suguru\", \"text\": \"\\ud800\"}".to_string(),
    ];
    for round in 0..25 {
        for r in &requests {
            // Some of these get an answer (400, 413), some are simply dropped: both are fine.
            let _ = raw_with(addr, r, true);
        }
        for b in &bodies {
            for path in ["/api/solve", "/api/count", "/api/verify"] {
                let (status, text) = request(addr, "POST", path, "application/json", b.as_bytes());
                assert!(
                    (400..500).contains(&status),
                    "round {round}: {path} {b} -> {status} {text}"
                );
            }
        }
    }
    let (status, v) = post(addr, "/api/solve", &json!({"puzzle": "suguru", "text": UNIQUE}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"], "solved");
}

#[test]
fn concurrent_requests_are_all_answered_correctly() {
    let addr = server();
    let threads: Vec<_> = (0..16)
        .map(|i| {
            std::thread::spawn(move || {
                let (path, text) = match i % 3 {
                    0 => ("/api/solve", UNIQUE),
                    1 => ("/api/count", SEVERAL),
                    _ => ("/api/solve", NONE),
                };
                post(addr, path, &json!({"puzzle": "suguru", "text": text}))
            })
        })
        .collect();
    for (i, t) in threads.into_iter().enumerate() {
        let (status, v) = t.join().unwrap();
        assert_eq!(status, 200, "{v}");
        match i % 3 {
            0 => assert_eq!(v["status"], "solved"),
            1 => assert_eq!(v["count"], 2),
            _ => assert_eq!(v["status"], "unsolvable"),
        }
    }
}

/// An empty 8×8 Suguru whose regions are the rows: far too many solutions to count.
fn many_solutions() -> String {
    let mut s = String::from("8 8\n");
    for _ in 0..8 {
        s.push_str("0 0 0 0 0 0 0 0\n");
    }
    for r in 0..8 {
        s.push_str(&format!("{}\n", vec![(r / 2 * 2 + 1).to_string(); 8].join(" ")));
    }
    s
}

#[test]
fn a_long_count_stops_at_its_time_limit_and_does_not_block_other_requests() {
    let addr = server();
    let text = many_solutions();
    let slow = std::thread::spawn(move || {
        let t0 = Instant::now();
        let r = post(
            addr,
            "/api/count",
            &json!({"puzzle": "suguru", "text": text, "limit": 1_000_000_000_000u64, "timeout": 4}),
        );
        (t0.elapsed(), r)
    });
    std::thread::sleep(Duration::from_millis(200));
    let t0 = Instant::now();
    let (status, v) = post(addr, "/api/solve", &json!({"puzzle": "suguru", "text": UNIQUE}));
    assert_eq!(status, 200, "{v}");
    // Well under the 4 s of the count: the quick solve did not wait for it.
    assert!(
        t0.elapsed() < Duration::from_secs(2),
        "a quick solve waited {:?}",
        t0.elapsed()
    );
    let (elapsed, (status, v)) = slow.join().unwrap();
    assert_eq!(status, 200, "{v}");
    assert!(
        elapsed >= Duration::from_secs(3),
        "the count ended early: {elapsed:?} {v}"
    );
    assert!(elapsed < Duration::from_secs(10), "the count took {elapsed:?}");
    assert_eq!(
        (v["complete"].clone(), v["interrupted"].clone()),
        (json!(false), json!(true)),
        "{v}"
    );
}

#[test]
fn a_hint_names_a_forced_cell_its_value_and_the_rule() {
    let addr = server();
    let (status, v) = post(
        addr,
        "/api/hint",
        &json!({"puzzle": "suguru", "text": UNIQUE, "solution": "0 0 0\n0 0 0\n0 0 0"}),
    );
    assert_eq!(status, 200, "{v}");
    let solution = [[1, 3, 1], [2, 5, 2], [4, 1, 3]];
    let cell = v["cell"].as_str().unwrap();
    let (r, c) = cell[1..].split_once('c').unwrap();
    let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
    assert_eq!(v["value"], solution[r - 1][c - 1].to_string(), "{v}");
    assert!(!v["reason"].as_str().unwrap().is_empty());
    // A complete grid has nothing left to hint.
    let (status, v) = post(
        addr,
        "/api/hint",
        &json!({"puzzle": "suguru", "text": UNIQUE, "solution": "1 3 1\n2 5 2\n4 1 3"}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["cell"], Value::Null);
    assert!(v["message"].as_str().unwrap().contains("filled"), "{v}");
    // Hints are for Suguru; a malformed grid of entries is a 400 naming the field.
    let (status, _) = post(addr, "/api/hint", &json!({"puzzle": "path", "text": UNIQUE}));
    assert_eq!(status, 400);
    let (status, v) = post(
        addr,
        "/api/hint",
        &json!({"puzzle": "suguru", "text": UNIQUE, "solution": "1 x"}),
    );
    assert_eq!(status, 400);
    assert_eq!(v["field"], "solution", "{v}");
}

#[test]
fn the_generators_make_puzzles_the_server_counts_as_unique() {
    let addr = server();
    let requests = [
        json!({"puzzle": "suguru", "rows": 5, "cols": 6, "difficulty": "medium", "seed": 11}),
        json!({"puzzle": "suguru", "rows": 4, "cols": 4, "difficulty": "hard", "seed": 12}),
        json!({"puzzle": "path", "rows": 5, "cols": 5, "seed": 13}),
        json!({"puzzle": "sudoku", "size": 4, "seed": 14}),
        json!({"puzzle": "sudoku", "size": 6, "seed": 15}),
        json!({"puzzle": "sudoku", "size": 6, "settings": {"block": "3x2"}, "seed": 15}),
        json!({"puzzle": "ripple", "rows": 5, "cols": 6, "seed": 16}),
        json!({"puzzle": "path", "rows": 5, "cols": 5, "settings": {"clues": 40}, "seed": 17}),
    ];
    for req in requests {
        let (status, g) = post(addr, "/api/generate", &req);
        assert_eq!(status, 200, "{req} -> {g}");
        let puzzle = req["puzzle"].as_str().unwrap();
        // The puzzle's own settings (Sudoku's block shape); a generator's Path `clues` is not one.
        let settings = if puzzle == "sudoku" {
            req.get("settings").cloned().unwrap_or(json!({}))
        } else {
            json!({})
        };
        let (status, v) = post(
            addr,
            "/api/count",
            &json!({"puzzle": puzzle, "text": g["text"], "settings": settings}),
        );
        assert_eq!(status, 200, "{v}");
        assert_eq!(
            (v["count"].clone(), v["complete"].clone()),
            (json!(1), json!(true)),
            "{req}: {g}"
        );
        // Same seed, same puzzle.
        let (_, again) = post(addr, "/api/generate", &req);
        assert_eq!(again["text"], g["text"]);
    }
    for bad in [
        json!({"puzzle": "suguru", "rows": 50, "cols": 5}),
        json!({"puzzle": "suguru", "rows": 5, "cols": 5, "difficulty": "extreme"}),
        json!({"puzzle": "sudoku", "size": 7}),
        json!({"puzzle": "path", "rows": 5, "cols": 5, "settings": {"clues": 140}}),
        json!({"puzzle": "path", "rows": 5, "cols": 5, "clues": 40}),
        json!({"puzzle": "ripple", "rows": 5, "cols": 5, "colour": "red"}),
        json!({"puzzle": "chess"}),
        json!({"rows": 5}),
    ] {
        let (status, v) = post(addr, "/api/generate", &bad);
        assert_eq!(status, 400, "{bad} -> {v}");
        assert!(v["error"].is_string());
    }
}

#[test]
fn nishio_answers_like_the_library_for_every_digit() {
    use pencilbox_sudoku_nishio::{generate as sg, nishio_for_digit, BlockShape, Candidates, Method, Sudoku};
    let addr = server();
    let block = BlockShape::new(3, 3);
    let (p, _) = sg::generate(block, &mut sg::Rng::new(5), 0);
    let text = p.to_line();
    let cand = Candidates::from_puzzle(&Sudoku::parse(&text, None).unwrap()).unwrap();
    for d in 1..=9u8 {
        let (status, v) = post(
            addr,
            "/api/nishio",
            &json!({"puzzle": "sudoku", "text": text, "digit": d}),
        );
        assert_eq!(status, 200, "{v}");
        let lib = nishio_for_digit(&cand, d, Method::Dag).unwrap();
        assert_eq!(v["removed"], json!(lib.removed.names()), "digit {d}");
        assert_eq!(v["candidates"], json!(lib.candidates.len()));
        assert_eq!(v["placements"], json!(lib.placements.map(|x| x.to_string())));
    }
    // Candidates sent by the page narrow the candidate set: none left for digit 1 means that
    // Nishio has nothing to remove and there is no valid placement.
    let none: Vec<u64> = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|_| 0b11_1111_1100)
        .collect();
    let (status, v) = post(
        addr,
        "/api/nishio",
        &json!({"puzzle": "sudoku", "text": text, "digit": 1, "candidates": none}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["placements"], json!("0"), "{v}");
    for bad in [
        json!({"puzzle": "sudoku", "text": text, "digit": 0}),
        json!({"puzzle": "sudoku", "text": text, "digit": 10}),
        json!({"puzzle": "sudoku", "text": text, "digit": 1, "method": "magic"}),
        json!({"puzzle": "sudoku", "text": text, "digit": 1, "candidates": [1, 2]}),
        json!({"puzzle": "sudoku", "text": "11..", "digit": 1}),
        json!({"puzzle": "suguru", "text": UNIQUE, "digit": 1}),
    ] {
        let (status, v) = post(addr, "/api/nishio", &bad);
        assert_eq!(status, 400, "{bad} -> {v}");
    }
}

#[test]
fn the_bundled_levels_are_listed_and_each_solves() {
    let addr = server();
    let (status, body) = get(addr, "/api/levels");
    assert_eq!(status, 200);
    let v: Value = serde_json::from_str(&body).unwrap();
    let levels = v["levels"].as_array().unwrap();
    assert!(levels.len() >= 9);
    for l in levels {
        let (status, r) = post(addr, "/api/solve", &json!({"puzzle": l["puzzle"], "text": l["text"]}));
        assert_eq!(status, 200, "{r}");
        assert_eq!(r["status"], "solved", "{}", l["name"]);
    }
}

#[test]
fn the_serve_command_prints_its_url_and_answers_there() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pencilbox"))
        .args(["serve", "--port", "0", "--timeout", "5"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("pencilbox serve starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("pencilbox playground: ")
        .unwrap_or_else(|| panic!("{line}"));
    let addr: std::net::SocketAddr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .unwrap_or_else(|e| panic!("{url}: {e}"));
    assert!(addr.ip().is_loopback(), "{url}");
    let (status, v) = post(addr, "/api/solve", &json!({"puzzle": "suguru", "text": UNIQUE}));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"], "solved");
}

#[test]
fn the_serve_command_refuses_bad_flags_with_exit_code_2() {
    for args in [
        &["serve", "--timeout", "0"][..],
        &["serve", "--jobs", "0"],
        &["serve", "--bind", "nowhere"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pencilbox"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn puzzles_convert_between_the_file_format_and_puzzlink_urls() {
    let addr = server();
    let (status, url) = post(
        addr,
        "/api/convert",
        &json!({"puzzle": "suguru", "text": UNIQUE, "to": "url"}),
    );
    assert_eq!(status, 200, "{url}");
    assert!(url["text"].as_str().unwrap().contains("suguru/3/3/"), "{url}");
    let (status, back) = post(addr, "/api/convert", &json!({"puzzle": "suguru", "text": url["text"]}));
    assert_eq!(status, 200, "{back}");
    let (_, a) = post(addr, "/api/solve", &json!({"puzzle": "suguru", "text": back["text"]}));
    assert_eq!(a["solution"], json!([[1, 3, 1], [2, 5, 2], [4, 1, 3]]));

    let line = "1.3.\n..1.\n.1..\n...1\n";
    let (status, url) = post(
        addr,
        "/api/convert",
        &json!({"puzzle": "sudoku", "text": line, "to": "url"}),
    );
    assert_eq!(status, 200, "{url}");
    let (status, back) = post(addr, "/api/convert", &json!({"puzzle": "sudoku", "text": url["text"]}));
    assert_eq!(status, 200, "{back}");
    assert_eq!(back["text"].as_str().unwrap().trim(), line.replace('\n', ""));

    // Ripple Effect: the same generic conversion (the plug-in's `write`), both ways.
    let ripple = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ripple/example-6x6.in"),
    )
    .unwrap();
    let (status, url) = post(
        addr,
        "/api/convert",
        &json!({"puzzle": "ripple", "text": ripple, "to": "url"}),
    );
    assert_eq!(status, 200, "{url}");
    assert!(url["text"].as_str().unwrap().contains("ripple/6/6/"), "{url}");
    let (status, back) = post(addr, "/api/convert", &json!({"puzzle": "ripple", "text": url["text"]}));
    assert_eq!(status, 200, "{back}");
    assert_eq!(back["text"].as_str().unwrap(), ripple);

    // Path: pencilbox's own URL in the puzz.link style, both ways.
    let path = "3 3\n1 1\n3 3\n\n3 1 1\n1 1 3\n";
    let (status, url) = post(
        addr,
        "/api/convert",
        &json!({"puzzle": "path", "text": path, "to": "url"}),
    );
    assert_eq!(
        (status, url["text"].as_str()),
        (200, Some("https://puzz.link/p?pathpuzzle/3/3/08113311")),
        "{url}"
    );
    let (status, back) = post(addr, "/api/convert", &json!({"puzzle": "path", "text": url["text"]}));
    assert_eq!((status, back["text"].as_str()), (200, Some(path)), "{back}");

    for bad in [
        json!({"puzzle": "path", "text": "https://puzz.link/p?pathpuzzle/3/3/09113311", "to": "text"}),
        json!({"puzzle": "suguru", "text": UNIQUE, "to": "pdf"}),
        json!({"puzzle": "suguru", "text": "https://puzz.link/p?suguru/3/3/zz"}),
        json!({"puzzle": "chess", "text": "x"}),
        json!({"puzzle": "ripple", "text": "ripple 2 2\n1 0\n", "to": "url"}),
    ] {
        let (status, v) = post(addr, "/api/convert", &bad);
        assert_eq!(status, 400, "{bad} -> {v}");
    }
}

#[test]
fn sudoku_steps_replayed_by_a_client_solve_the_puzzle_with_correct_placements() {
    let addr = server();
    let (_, g) = post(
        addr,
        "/api/generate",
        &json!({"puzzle": "sudoku", "size": 6, "seed": 3}),
    );
    let text = g["text"].as_str().unwrap().trim().to_string();
    let (_, solved) = post(addr, "/api/solve", &json!({"puzzle": "sudoku", "text": text}));
    let answer: Vec<u64> = solved["solution"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()))
        .collect();
    let n = 6;
    let mut values: Vec<u64> = text.chars().map(|c| c.to_digit(36).map_or(0, u64::from)).collect();
    let mut known: Vec<u64> = values
        .iter()
        .map(|&v| if v > 0 { 1 << v } else { 0b111_1110 })
        .collect();
    let mut steps = 0;
    loop {
        let line: String = values
            .iter()
            .map(|&v| {
                if v == 0 {
                    '.'
                } else {
                    char::from_digit(v as u32, 10).unwrap()
                }
            })
            .collect();
        let (status, s) = post(
            addr,
            "/api/step",
            &json!({"puzzle": "sudoku", "text": line, "candidates": known}),
        );
        assert_eq!(status, 200, "{s}");
        if s["rule"].is_null() {
            let m = s["message"].as_str().unwrap();
            if m.contains("every cell is decided") {
                assert_eq!(values, answer);
            } else {
                assert!(m.contains("needs a guess"), "{s}");
            }
            break;
        }
        steps += 1;
        assert!(steps <= 200, "the steps do not end");
        let mut progress = false;
        for p in s["placed"].as_array().unwrap() {
            let i = cell_index(p["cell"].as_str().unwrap(), n);
            let d = p["digit"].as_u64().unwrap();
            assert_eq!(d, answer[i], "{s}");
            progress |= values[i] == 0;
            values[i] = d;
            known[i] = 1 << d;
        }
        for e in s["eliminated"].as_array().unwrap() {
            let i = cell_index(e["cell"].as_str().unwrap(), n);
            let d = e["digit"].as_u64().unwrap();
            assert_ne!(d, answer[i], "a step removed the answer: {s}");
            progress |= known[i] >> d & 1 == 1;
            known[i] &= !(1 << d);
        }
        assert!(progress, "a step told nothing new: {s}");
    }
    assert!(steps > 0);
    let (status, _) = post(addr, "/api/step", &json!({"puzzle": "suguru", "text": UNIQUE}));
    assert_eq!(status, 400);
}

fn cell_index(name: &str, n: usize) -> usize {
    let (r, c) = name[1..].split_once('c').unwrap();
    (r.parse::<usize>().unwrap() - 1) * n + c.parse::<usize>().unwrap() - 1
}

#[test]
fn hints_at_three_levels_work_for_every_family() {
    let addr = server();
    let path = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/path/example-6x6.txt"
    ))
    .expect("the bundled example");
    let sudoku = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/sudoku/9x9.txt"))
        .expect("the bundled example");
    for (puzzle, text) in [("suguru", UNIQUE.to_string()), ("path", path), ("sudoku", sudoku)] {
        let ask = |level: &str| {
            let (status, v) = post(
                addr,
                "/api/hint",
                &json!({"puzzle": puzzle, "text": text, "level": level}),
            );
            assert_eq!(status, 200, "{puzzle} {level}: {v}");
            v
        };
        let nudge = ask("nudge");
        assert!(!nudge["cells"].as_array().expect("cells").is_empty(), "{nudge}");
        assert!(nudge["rule"].is_null() && nudge["placed"].is_null(), "{nudge}");
        let rule = ask("rule");
        assert!(rule["rule"]["name"].is_string() && rule["placed"].is_null(), "{rule}");
        let answer = ask("answer");
        assert!(!answer["placed"].as_array().expect("placed").is_empty(), "{answer}");
    }
    // The player's entries count: a complete Suguru grid leaves nothing to hint.
    let (status, v) = post(
        addr,
        "/api/hint",
        &json!({"puzzle": "suguru", "text": UNIQUE, "solution": "1 3 1\n2 5 2\n4 1 3", "level": "nudge"}),
    );
    assert_eq!(status, 200, "{v}");
    assert!(
        v["text"].is_null() && v["message"].as_str().unwrap_or_default().contains("nothing left"),
        "{v}"
    );
    let (status, _) = post(
        addr,
        "/api/hint",
        &json!({"puzzle": "path", "text": UNIQUE, "level": "loud"}),
    );
    assert_eq!(status, 400);
    // A Path drawing is the player's position: the hint goes on from the drawn lines, and a
    // wrong line is named (and marked by the page).
    let path = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/path/example-6x6.txt"
    ))
    .unwrap();
    let ask = |drawing: &str| {
        let (status, v) = post(
            addr,
            "/api/hint",
            &json!({"puzzle": "path", "text": path, "level": "answer", "solution": drawing}),
        );
        assert_eq!(status, 200, "{v}");
        v
    };
    let first = ask("0 0 0 0 0 0\n".repeat(6).as_str());
    assert!(first["text"].is_string(), "{first}");
    // Door A (r6c6) goes left, then up the fifth column (the bundled answer).
    let right = ask("0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 u 0\n0 0 0 0 u l\n");
    let placed = right["placed"].as_array().expect("placed");
    assert!(
        !placed.iter().any(|f| f["cell"] == "r6c5-r6c6" || f["cell"] == "r6c6"),
        "drawn facts are given, not hinted: {right}"
    );
    let wrong = ask("0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 u\n");
    assert!(wrong["text"].is_null(), "{wrong}");
    assert_eq!(wrong["status"], "no solution");
    assert_eq!(
        wrong["wrong"],
        json!([{"cell": "r5c6-r6c6", "value": "line"}]),
        "{wrong}"
    );
    assert!(wrong["message"].as_str().unwrap().contains("r5c6-r6c6 line"), "{wrong}");
    // A line off the grid is refused with a message about the entries.
    let (status, v) = post(
        addr,
        "/api/hint",
        &json!({"puzzle": "path", "text": path, "level": "nudge", "solution": "u 0 0 0 0 0\n".to_string() + &"0 0 0 0 0 0\n".repeat(5)}),
    );
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("off the grid"), "{v}");
}

#[test]
fn explain_lists_rated_steps_for_every_family_and_keeps_the_limits() {
    let addr = server();
    let example = |p: &str| {
        std::fs::read_to_string(format!("{}/../../examples/{p}", env!("CARGO_MANIFEST_DIR")))
            .expect("the bundled example")
    };
    for (puzzle, text) in [
        ("suguru", UNIQUE.to_string()),
        ("ripple", example("ripple/example-6x6.in")),
        ("path", example("path/example-6x6.txt")),
        ("sudoku", example("sudoku/9x9.txt")),
    ] {
        let (status, v) = post(addr, "/api/explain", &json!({"puzzle": puzzle, "text": text}));
        assert_eq!(status, 200, "{puzzle}: {v}");
        assert_eq!(v["puzzle"], puzzle);
        assert_eq!(v["status"], "solved", "{puzzle}: {v}");
        let steps = v["steps"].as_array().expect("steps");
        assert!(!steps.is_empty(), "{puzzle}");
        assert_eq!(v["steps_total"], steps.len(), "{puzzle}");
        for s in steps {
            assert!(
                s["rule"].is_string() && s["name"].is_string() && s["text"].is_string(),
                "{puzzle}: {s}"
            );
            assert!(s["level"].as_u64().unwrap_or(0) >= 1, "{puzzle}: {s}");
            assert!(!s["cells"].as_array().expect("cells").is_empty(), "{puzzle}: {s}");
        }
        // The rating is the CLI's: the hardest step's level is the score's whole part.
        let hardest = steps.iter().filter_map(|s| s["level"].as_u64()).max().unwrap();
        assert_eq!(
            v["rating"]["score"].as_f64().unwrap().floor() as u64,
            hardest,
            "{puzzle}: {v}"
        );
    }
    // Every placed number of Figure 1 (with two more hints) is its unique solution's.
    let solution = [1, 3, 1, 2, 5, 2, 4, 1, 3];
    let (_, v) = post(addr, "/api/explain", &json!({"puzzle": "suguru", "text": UNIQUE}));
    let mut placed = 0;
    for s in v["steps"].as_array().unwrap() {
        for f in s["placed"].as_array().unwrap() {
            let i = cell_index(f["cell"].as_str().unwrap(), 3);
            assert_eq!(f["value"], solution[i].to_string(), "{s}");
            placed += 1;
        }
    }
    // Five empty cells; r3c2, a region of one cell, is decided by the model, not by a step.
    assert_eq!(placed, 4, "every other empty cell is placed once: {v}");
    // The player's entries are taken as givens: a full grid leaves nothing to explain.
    let (status, v) = post(
        addr,
        "/api/explain",
        &json!({"puzzle": "suguru", "text": UNIQUE, "solution": "1 3 1\n2 5 2\n4 1 3"}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["status"].as_str(), v["steps_total"].as_u64()),
        (Some("solved"), Some(0))
    );
    // Without guessing, a puzzle the rules cannot finish stalls.
    let (status, v) = post(
        addr,
        "/api/explain",
        &json!({"puzzle": "suguru", "text": SEVERAL, "no_guess": true}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"], "stalled", "{v}");
    // Bad requests: a parse error names line and column, unknown fields and families are refused,
    // and grids above the server's limits are refused by size.
    let (status, v) = post(addr, "/api/explain", &json!({"puzzle": "suguru", "text": "3 3\n0 x\n"}));
    assert_eq!(status, 400, "{v}");
    assert!(v["line"].is_number(), "{v}");
    let (status, _) = post(
        addr,
        "/api/explain",
        &json!({"puzzle": "suguru", "text": UNIQUE, "steps": 3}),
    );
    assert_eq!(status, 400);
    let (status, _) = post(addr, "/api/explain", &json!({"puzzle": "chess", "text": UNIQUE}));
    assert_eq!(status, 400);
    let small = start(Config {
        max_cells: 30,
        ..Config::default()
    });
    let sudoku = example("sudoku/9x9.txt");
    let (status, v) = post(small, "/api/explain", &json!({"puzzle": "sudoku", "text": sudoku}));
    assert_eq!(status, 413, "{v}");
    assert!(v["error"].as_str().unwrap().contains("too large"), "{v}");
}
