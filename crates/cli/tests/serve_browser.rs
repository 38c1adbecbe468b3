//! End-to-end tests of the playground in a real headless Chromium, driven through chromedriver
//! (Debian's `chromium` and `chromium-driver`, installed by `.ci/run`).
//!
//! The server runs in-process on a free loopback port; the browser opens the page, draws
//! regions by dragging, fills cells with the keyboard, presses Check, Autocomplete, Unique?,
//! loads a level, imports a puzzle, plays a Path puzzle and a Sudoku (with a Nishio step), and
//! reads every result from the page. Screenshots are saved under Cargo's test temp folder
//! (`target*/tmp/playground-*.png`).
//!
//! Without chromium or chromedriver the tests print a `skip:` line and pass, except under
//! `CI=true`, where a missing browser is a failure.

mod serve_common;

use fantoccini::actions::{InputSource, KeyAction, KeyActions, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use pencilbox_cli::serve::Config;
use serde_json::json;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One browser at a time: the machine has two cores.
static BROWSER: Mutex<()> = Mutex::new(());

const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,900",
];

fn find_program(env: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        return Some(PathBuf::from(p));
    }
    for name in names {
        let direct = PathBuf::from("/usr/bin").join(name);
        if direct.is_file() {
            return Some(direct);
        }
        if let Some(paths) = std::env::var_os("PATH") {
            for dir in std::env::split_paths(&paths) {
                let p = dir.join(name);
                if p.is_file() {
                    return Some(p);
                }
            }
        }
    }
    None
}

/// The browser and its driver, or `None` (after printing why) when the test must be skipped.
fn browser_programs() -> Option<(PathBuf, PathBuf)> {
    let chromium = find_program("PENCILBOX_CHROMIUM", &["chromium", "chromium-browser"]);
    let driver = find_program("PENCILBOX_CHROMEDRIVER", &["chromedriver"]);
    match (chromium, driver) {
        (Some(c), Some(d)) => Some((c, d)),
        _ => {
            let on_ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
            assert!(
                !on_ci,
                "CI=true but chromium or chromedriver is missing (.ci/run installs them with apt-get)"
            );
            println!("skip: chromium or chromedriver not found (apt-get install chromium chromium-driver)");
            None
        }
    }
}

/// A running chromedriver, killed on drop, and the browser's profile folder, removed on drop.
struct Driver {
    child: Child,
    url: String,
    profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn start_driver(driver: &Path) -> Driver {
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let profile = std::env::temp_dir().join(format!("pencilbox-chromium-{}-{port}", std::process::id()));
    let d = Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
        profile,
    };
    let t0 = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(t0.elapsed() < Duration::from_secs(20), "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    d
}

async fn connect(driver: &Driver, chromium: &Path) -> Client {
    let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| s.to_string()).collect();
    args.push(format!("--user-data-dir={}", driver.profile.display()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_string(),
        json!({"binary": chromium.display().to_string(), "args": args}),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a chromium session")
}

/// Waits until the element's text contains `needle`; returns the text.
async fn wait_text(c: &Client, id: &str, needle: &str) -> String {
    let t0 = Instant::now();
    loop {
        let text = match c.find(Locator::Id(id)).await {
            Ok(e) => e.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        if text.contains(needle) {
            return text;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "#{id} never showed {needle:?}; it shows {text:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn click(c: &Client, id: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap_or_else(|e| panic!("#{id}: {e}"))
        .click()
        .await
        .unwrap();
}

/// The viewport centre of the board cell named like `r2c3` (or of a clue box like `row2`).
async fn cell_centre(c: &Client, name: &str) -> (f64, f64) {
    let v = c
        .execute(
            "const e = document.querySelector(`#board [data-cell='${arguments[0]}']`) \
                 || document.querySelector(`#board [data-clue='${arguments[0]}']`); \
             const r = e.getBoundingClientRect(); \
             return [r.left + r.width / 2, r.top + r.height / 2];",
            vec![json!(name)],
        )
        .await
        .unwrap_or_else(|e| panic!("cell {name}: {e}"));
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

/// Presses the mouse on the first cell, drags through the others, releases on the last.
async fn drag(c: &Client, cells: &[&str]) {
    let mut mouse = MouseActions::new("mouse".into());
    for (i, name) in cells.iter().enumerate() {
        let (x, y) = cell_centre(c, name).await;
        mouse = mouse.then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(60)),
            x,
            y,
        });
        if i == 0 {
            mouse = mouse.then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            });
        }
    }
    mouse = mouse.then(PointerAction::Up {
        button: MOUSE_BUTTON_LEFT,
    });
    c.perform_actions(mouse).await.unwrap();
}

async fn click_cell(c: &Client, name: &str) {
    drag(c, &[name]).await;
}

async fn keys(c: &Client, keys: &[char]) {
    let mut kb = KeyActions::new("keyboard".into());
    for &k in keys {
        kb = kb.then(KeyAction::Down { value: k }).then(KeyAction::Up { value: k });
    }
    c.perform_actions(kb).await.unwrap();
}

async fn set_input(c: &Client, id: &str, value: &str) {
    c.execute(
        "const e = document.getElementById(arguments[0]); e.value = arguments[1]; e.dispatchEvent(new Event('change'));",
        vec![json!(id), json!(value)],
    )
    .await
    .unwrap();
}

async fn screenshot(c: &Client, name: &str) -> PathBuf {
    let png = c.screenshot().await.unwrap();
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("playground-{name}.png"));
    std::fs::write(&path, png).unwrap();
    println!("screenshot: {}", path.display());
    path
}

async fn open(c: &Client, addr: std::net::SocketAddr, view: &str) {
    c.goto(&format!("http://{addr}/#{view}")).await.unwrap();
    c.wait()
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .unwrap();
}

/// Runs a browser scenario against a fresh server: skipped without a browser, one browser at a
/// time. The session is closed (so Chromium exits) even when the scenario fails; the failure
/// is then re-raised.
fn with_browser<F>(scenario: impl FnOnce(Client, std::net::SocketAddr) -> F)
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let Some((chromium, driver)) = browser_programs() else {
        return;
    };
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let addr = serve_common::start(Config::default());
        let driver = start_driver(&driver);
        let c = connect(&driver, &chromium).await;
        let outcome = tokio::spawn(scenario(c.clone(), addr)).await;
        let _ = c.close().await;
        drop(driver);
        if let Err(e) = outcome {
            if e.is_panic() {
                std::panic::resume_unwind(e.into_panic());
            }
            panic!("the browser scenario did not finish: {e}");
        }
    });
}

#[test]
fn suguru_draw_fill_check_autocomplete_in_a_real_browser() {
    with_browser(suguru_scenario);
}

#[test]
fn the_region_board_plays_ripple_effect_in_a_real_browser() {
    with_browser(ripple_scenario);
}

/// Ripple Effect on the region board: pick the rules, generate, autocomplete, check, export.
async fn ripple_scenario(c: Client, addr: std::net::SocketAddr) {
    open(&c, addr, "suguru").await;
    wait_text(&c, "status", "Easy 1").await;
    let shown = c
        .execute("return !document.getElementById('sg-family-row').hidden;", vec![])
        .await
        .unwrap();
    assert_eq!(shown, serde_json::json!(true), "the rules choice is offered");
    c.execute(
        "const s = document.getElementById('sg-family'); s.value = 'ripple'; s.onchange(); return true;",
        vec![],
    )
    .await
    .unwrap();
    wait_text(&c, "board-title", "Ripple Effect").await;
    let hidden = c
        .execute(
            "return [document.getElementById('sg-hint').hidden, document.getElementById('sg-gen-level').hidden, document.getElementById('sg-generate').hidden];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        hidden,
        serde_json::json!([true, true, false]),
        "no hint or levels, a generator"
    );
    set_input(&c, "sg-rows", "5").await;
    set_input(&c, "sg-cols", "5").await;
    click(&c, "sg-generate").await;
    wait_text(&c, "status", "a new 5×5 puzzle").await;
    click(&c, "sg-unique").await;
    wait_text(&c, "status", "exactly one solution").await;
    // Forced? lists what every solution shares: here, being unique, everything.
    click(&c, "sg-forced").await;
    wait_text(&c, "status", "so everything is forced: 25 of 25 facts").await;
    screenshot(&c, "ripple-forced").await;
    click(&c, "sg-solve").await;
    wait_text(&c, "status", "solved").await;
    click(&c, "sg-check").await;
    wait_text(&c, "status", "your configuration is correct, well done.").await;
    screenshot(&c, "ripple-solved").await;
    click(&c, "sg-export").await;
    let text = c
        .execute("return document.getElementById('io-text').value;", vec![])
        .await
        .unwrap();
    assert!(text.as_str().unwrap().starts_with("ripple 5 5"), "{text}");
    url_round_trip(&c, "ripple/5/5/").await;
    wait_text(&c, "board-title", "Ripple Effect").await;
}

/// In the open Import / Export dialog: shows the puzz.link URL (which must contain `expect`)
/// and loads it back.
async fn url_round_trip(c: &Client, expect: &str) {
    click(c, "io-url").await;
    wait_text(c, "io-error", "puzz.link").await;
    let url = c
        .execute("return document.getElementById('io-text').value;", vec![])
        .await
        .unwrap();
    assert!(url.as_str().unwrap().contains(expect), "{url}");
    click(c, "io-load").await;
    wait_text(c, "messages", "puzzle loaded").await;
}

#[test]
fn path_and_sudoku_views_play_in_a_real_browser() {
    with_browser(path_and_sudoku_scenario);
}

async fn suguru_scenario(c: Client, addr: std::net::SocketAddr) {
    open(&c, addr, "suguru").await;

    // The first bundled level opens in Play Mode; the level list is grouped by difficulty.
    wait_text(&c, "status", "Easy 1").await;
    let groups = c.find_all(Locator::Css("#sg-level optgroup")).await.unwrap();
    let mut labels = Vec::new();
    for g in &groups {
        labels.push(g.attr("label").await.unwrap().unwrap_or_default());
    }
    assert_eq!(labels, ["Easy", "Medium", "Hard"]);

    // Creative Mode: a new 3×3 grid, regions drawn by dragging (Figure 1 of the Suguru paper).
    set_input(&c, "sg-rows", "3").await;
    set_input(&c, "sg-cols", "3").await;
    click(&c, "sg-resize").await;
    wait_text(&c, "board-sub", "3×3, 1 regions · Creative Mode").await;
    click(&c, "sg-draw").await;
    drag(&c, &["r1c3", "r2c3", "r3c3"]).await;
    click_cell(&c, "r3c2").await;
    wait_text(&c, "board-sub", "3 regions").await;

    // Fill Cell: the hints, typed on the keyboard.
    click(&c, "sg-fill").await;
    for (cell, digit) in [("r1c2", '3'), ("r2c1", '2'), ("r2c2", '5'), ("r3c3", '3')] {
        click_cell(&c, cell).await;
        keys(&c, &[digit]).await;
    }
    click(&c, "sg-unique").await;
    wait_text(&c, "status", "exactly one solution").await;

    // Play Mode: a wrong number (a second 3 in the region of r1c2), then Check names the
    // offending cells as the manual does.
    click(&c, "sg-play").await;
    click_cell(&c, "r3c1").await;
    keys(&c, &['3']).await;
    click(&c, "sg-check").await;
    wait_text(&c, "status", "constraint(s) not met").await;
    let messages = wait_text(&c, "messages", "cell (3, 1)").await;
    assert!(messages.contains("shares a number"), "{messages}");
    screenshot(&c, "suguru-check").await;
    // Undo takes the wrong number back: only the four hints are left.
    click(&c, "sg-undo").await;
    wait_text(&c, "status", "undone").await;
    let numbers = c
        .execute("return document.querySelectorAll('#sg-svg text.num').length;", vec![])
        .await
        .unwrap();
    assert_eq!(numbers, json!(4));

    // Autocomplete fills every cell; Check then confirms.
    click(&c, "sg-solve").await;
    wait_text(&c, "messages", "solved by the").await;
    let numbers = c
        .execute(
            "return [...document.querySelectorAll('#sg-svg text.num')].map(t => t.textContent).join(' ');",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(numbers.as_str().unwrap(), "1 3 1 2 5 2 4 1 3");
    click(&c, "sg-check").await;
    wait_text(&c, "status", "your configuration is correct, well done.").await;
    screenshot(&c, "suguru-solved").await;

    // Import a puzzle without solution: Autocomplete says so.
    click(&c, "sg-export").await;
    c.execute(
        "document.getElementById('io-text').value = arguments[0];",
        vec![json!("2 3\n0 0 0\n0 0 0\n1 1 1\n2 2 2\n")],
    )
    .await
    .unwrap();
    click(&c, "io-load").await;
    wait_text(&c, "board-sub", "2×3, 2 regions").await;
    click(&c, "sg-solve").await;
    wait_text(&c, "status", "this puzzle has no solution...").await;
    // Clear Regions and Empty Cells (Creative Mode).
    click(&c, "sg-creative").await;
    click(&c, "sg-clear-regions").await;
    wait_text(&c, "board-sub", "2×3, 1 regions").await;
    click_cell(&c, "r1c1").await;
    keys(&c, &['4']).await;
    let count_numbers = "return document.querySelectorAll('#sg-svg text.num').length;";
    assert_eq!(c.execute(count_numbers, vec![]).await.unwrap(), json!(1));
    click(&c, "sg-empty").await;
    wait_text(&c, "status", "all cells emptied").await;
    assert_eq!(c.execute(count_numbers, vec![]).await.unwrap(), json!(0));

    // A bundled hard level: a hint, then Autocomplete and Check.
    c.execute(
        "const s = document.getElementById('sg-level'); \
         s.value = [...s.options].find(o => o.parentElement.label === 'Hard').value; \
         s.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .unwrap();
    wait_text(&c, "status", "hard").await;
    click(&c, "sg-hint").await;
    let hint = wait_text(&c, "status", "must be").await;
    // The hinted cell is selected: type its value (keyboard play), then Check finds no clash.
    let value = hint
        .split("must be ")
        .nth(1)
        .and_then(|t| t.split(':').next())
        .unwrap()
        .trim()
        .to_string();
    keys(&c, &value.chars().collect::<Vec<_>>()).await;
    click(&c, "sg-check").await;
    let messages = wait_text(&c, "status", "constraint(s) not met").await;
    assert!(!messages.contains("shares"), "{messages}");
    let listed = wait_text(&c, "messages", "is empty").await;
    assert!(!listed.contains("shares a number"), "{listed}");
    click(&c, "sg-hint").await;
    wait_text(&c, "status", "must be").await;
    screenshot(&c, "suguru-hint").await;
    click(&c, "sg-solve").await;
    wait_text(&c, "messages", "solved by the").await;
    click(&c, "sg-check").await;
    wait_text(&c, "status", "your configuration is correct, well done.").await;

    // Export as a puzz.link URL and import it back.
    click(&c, "sg-export").await;
    url_round_trip(&c, "suguru/8/8/").await;
    wait_text(&c, "board-sub", "8×8").await;

    // The guide opens as a modal.
    click(&c, "guide-btn").await;
    let open_guide = c
        .execute("return document.getElementById('guide').open;", vec![])
        .await
        .unwrap();
    assert_eq!(open_guide, json!(true));
    screenshot(&c, "guide").await;
}

async fn path_and_sudoku_scenario(c: Client, addr: std::net::SocketAddr) {
    // Path, Creative Mode: a 3×3 grid, doors placed by clicking, clues typed; Export shows the
    // file format.
    open(&c, addr, "path").await;
    set_input(&c, "pt-rows", "3").await;
    set_input(&c, "pt-cols", "3").await;
    click(&c, "pt-resize").await;
    wait_text(&c, "board-sub", "3×3 · path of 0 cells · Creative Mode").await;
    click(&c, "pt-tool-a").await;
    click_cell(&c, "r1c1").await;
    click(&c, "pt-tool-b").await;
    click_cell(&c, "r3c3").await;
    for (clue, digit) in [
        ("row1", '3'),
        ("row2", '1'),
        ("row3", '1'),
        ("col1", '1'),
        ("col2", '1'),
        ("col3", '3'),
    ] {
        click_cell(&c, clue).await;
        keys(&c, &[digit]).await;
    }
    click(&c, "pt-unique").await;
    wait_text(&c, "status", "exactly one solution").await;
    click(&c, "pt-export").await;
    let exported = c
        .execute("return document.getElementById('io-text').value;", vec![])
        .await
        .unwrap();
    assert_eq!(exported, json!("3 3\n1 1\n3 3\n\n3 1 1\n1 1 3\n"));
    // Import the same text back (Play Mode), then draw the path with the arrow keys and Check.
    click(&c, "io-load").await;
    wait_text(&c, "board-sub", "3×3 · path of 0 cells · Play Mode").await;
    let right: char = Key::Right.into();
    let down: char = Key::Down.into();
    keys(&c, &[right, right, right, down, down]).await;
    wait_text(&c, "board-sub", "path of 5 cells").await;
    click(&c, "pt-check").await;
    wait_text(&c, "status", "your path is correct, well done.").await;
    // Drawing by dragging: pressing on a path cell shortens the path to it, dragging extends it.
    drag(&c, &["r1c2"]).await;
    wait_text(&c, "board-sub", "path of 2 cells").await;
    drag(&c, &["r1c2", "r1c3", "r2c3", "r3c3"]).await;
    wait_text(&c, "board-sub", "path of 5 cells").await;
    click(&c, "pt-check").await;
    wait_text(&c, "status", "your path is correct, well done.").await;
    // Clear Path, then Solve draws the answer.
    click(&c, "pt-clear").await;
    wait_text(&c, "board-sub", "path of 0 cells").await;
    click(&c, "pt-solve").await;
    wait_text(&c, "board-sub", "path of 5 cells").await;
    set_input(&c, "pt-rows", "6").await;
    set_input(&c, "pt-cols", "6").await;
    click(&c, "pt-random").await;
    wait_text(&c, "status", "exactly one solution").await;
    click(&c, "pt-solve").await;
    wait_text(&c, "messages", "solved by the").await;
    click(&c, "pt-check").await;
    wait_text(&c, "status", "your path is correct, well done.").await;
    screenshot(&c, "path").await;

    // Sudoku: a generated puzzle, Nishio on a digit, Solve, Check.
    c.find(Locator::Id("tab-sudoku")).await.unwrap().click().await.unwrap();
    click(&c, "sd-random").await;
    wait_text(&c, "status", "exactly one solution").await;
    click(&c, "sd-nishio").await;
    wait_text(&c, "status", "Nishio on digit 1").await;
    screenshot(&c, "sudoku-nishio").await;
    click(&c, "sd-step").await;
    wait_text(&c, "messages", "rule:").await;
    click(&c, "sd-solve").await;
    wait_text(&c, "messages", "solved by the").await;
    click(&c, "sd-check").await;
    wait_text(&c, "status", "your grid is correct, well done.").await;
    screenshot(&c, "sudoku").await;
}
