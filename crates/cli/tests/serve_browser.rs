//! End-to-end tests of the playground in a real headless Chromium, driven through chromedriver
//! (Debian's `chromium` and `chromium-driver`, installed by `.ci/run`).
//!
//! The server runs in-process on a free loopback port; the browser opens the page, draws
//! regions by dragging, fills cells with the keyboard, presses Check, Autocomplete, Unique?,
//! loads a level, imports a puzzle, plays a Path puzzle and a Sudoku (with a Nishio step), asks
//! hints at three levels and opens the Explain panel in every view, and reads every result from
//! the page. The board's roles and names are read from Chromium's accessibility tree (DevTools
//! `Accessibility.getFullAXTree`), and two redraw guards time a 50×50 Suguru drag and 16×16
//! Sudoku keystrokes. Screenshots are saved under Cargo's test temp folder
//! (`target*/tmp/playground-*.png`).
//!
//! Without chromium or chromedriver the tests print a `skip:` line and pass, except under
//! `CI=true`, where a missing browser is a failure.

mod serve_common;

use fantoccini::actions::{
    InputSource, KeyAction, KeyActions, MouseActions, PointerAction, TouchActions, MOUSE_BUTTON_LEFT,
};
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
            pencilbox_core::testing::skip(
                "chromium or chromedriver not found (apt-get install chromium chromium-driver)",
            );
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

/// The screen a scenario runs on.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Screen {
    /// 1280×900, mouse and keyboard.
    Desktop,
    /// A 390×844 phone with touch (Chromium's mobile emulation).
    Phone,
}

async fn connect(driver: &Driver, chromium: &Path, screen: Screen) -> Client {
    let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| s.to_string()).collect();
    args.push(format!("--user-data-dir={}", driver.profile.display()));
    let mut options = json!({"binary": chromium.display().to_string(), "args": args});
    if screen == Screen::Phone {
        options["mobileEmulation"] = json!({
            "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2.0, "touch": true, "mobile": true}
        });
    }
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".to_string(), options);
    // The console log, read by console_errors().
    caps.insert("goog:loggingPrefs".to_string(), json!({"browser": "ALL"}));
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

/// chromedriver's console log command (`POST /session/{id}/se/log`, type `browser`): the
/// entries since the last call.
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }
    fn method_and_body(&self, _: &url::Url) -> (axum::http::Method, Option<String>) {
        (axum::http::Method::POST, Some(r#"{"type":"browser"}"#.to_string()))
    }
}

/// The JavaScript errors the page logged: uncaught exceptions and `console.error` calls
/// (SEVERE entries not about a network answer; an HTTP error the page handles is not one).
async fn console_errors(c: &Client) -> Vec<String> {
    let log = c.issue_cmd(BrowserLog).await.expect("the browser's console log");
    log.as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["level"] == "SEVERE" && e["source"] != "network")
        .map(|e| e["message"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// A Chrome DevTools Protocol call through chromedriver (`POST /session/{id}/goog/cdp/execute`).
#[derive(Debug)]
struct Cdp(&'static str);

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session.unwrap_or_default()))
    }
    fn method_and_body(&self, _: &url::Url) -> (axum::http::Method, Option<String>) {
        let body = json!({ "cmd": self.0, "params": {} });
        (axum::http::Method::POST, Some(body.to_string()))
    }
}

/// The board as the browser's accessibility tree has it (not the DOM): the role of the grid's
/// rows and the role, name, description and invalid state of their cells (ignored nodes
/// skipped), and the name of the cell the grid's `aria-activedescendant` points to.
struct AxGrid {
    rows: Vec<(String, Vec<AxCell>)>,
    active: Option<String>,
}

#[derive(Debug)]
struct AxCell {
    role: String,
    name: String,
    description: String,
    invalid: bool,
}

impl AxGrid {
    fn cell(&self, r: usize, c: usize) -> &AxCell {
        &self.rows[r].1[c]
    }
    fn cells(&self) -> impl Iterator<Item = &AxCell> {
        self.rows.iter().flat_map(|(_, cells)| cells)
    }
}

async fn ax_grid(c: &Client) -> AxGrid {
    let tree = c
        .issue_cmd(Cdp("Accessibility.getFullAXTree"))
        .await
        .expect("the accessibility tree");
    let nodes = tree["nodes"].as_array().expect("AX nodes").clone();
    let by_id: std::collections::HashMap<String, &serde_json::Value> = nodes
        .iter()
        .map(|n| (n["nodeId"].as_str().unwrap_or_default().to_string(), n))
        .collect();
    let role = |n: &serde_json::Value| n["role"]["value"].as_str().unwrap_or_default().to_string();
    let label = |n: &serde_json::Value| n["name"]["value"].as_str().unwrap_or_default().to_string();
    // The children a screen reader sees: through ignored and role-less nodes.
    fn seen<'a>(
        n: &serde_json::Value,
        by_id: &std::collections::HashMap<String, &'a serde_json::Value>,
        out: &mut Vec<&'a serde_json::Value>,
    ) {
        for id in n["childIds"].as_array().into_iter().flatten() {
            let Some(&child) = id.as_str().and_then(|id| by_id.get(id)) else {
                continue;
            };
            let r = child["role"]["value"].as_str().unwrap_or_default();
            if child["ignored"] == true || r == "none" || r == "generic" {
                seen(child, by_id, out);
            } else {
                out.push(child);
            }
        }
    }
    let grids: Vec<_> = nodes
        .iter()
        .filter(|n| role(n) == "grid" && n["ignored"] != true)
        .collect();
    assert_eq!(grids.len(), 1, "one grid in the accessibility tree");
    let mut rows = Vec::new();
    seen(grids[0], &by_id, &mut rows);
    let rows = rows
        .iter()
        .map(|r| {
            let mut cells = Vec::new();
            seen(r, &by_id, &mut cells);
            let cells = cells
                .iter()
                .map(|c| AxCell {
                    role: role(c),
                    name: label(c),
                    description: c["description"]["value"].as_str().unwrap_or_default().to_string(),
                    invalid: c["properties"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .any(|p| p["name"] == "invalid" && p["value"]["value"] != "false"),
                })
                .collect();
            (role(r), cells)
        })
        .collect();
    let active = grids[0]["properties"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["name"] == "activedescendant")
        .and_then(|p| p["value"]["relatedNodes"][0]["backendDOMNodeId"].as_i64())
        .and_then(|dom| nodes.iter().find(|n| n["backendDOMNodeId"].as_i64() == Some(dom)))
        .map(label);
    AxGrid { rows, active }
}

/// Runs a browser scenario on a desktop screen; see [`with_screen`].
fn with_browser<F>(scenario: impl FnOnce(Client, std::net::SocketAddr) -> F)
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    with_screen(Screen::Desktop, scenario);
}

/// Runs a browser scenario against a fresh server: skipped without a browser, one browser at a
/// time. The session is closed (so Chromium exits) even when the scenario fails; the failure
/// is then re-raised. A scenario that passes must also leave no JavaScript error in the
/// console.
fn with_screen<F>(screen: Screen, scenario: impl FnOnce(Client, std::net::SocketAddr) -> F)
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
        let c = connect(&driver, &chromium, screen).await;
        let outcome = tokio::spawn(scenario(c.clone(), addr)).await;
        let errors = if outcome.is_ok() {
            console_errors(&c).await
        } else {
            Vec::new()
        };
        let _ = c.close().await;
        drop(driver);
        if let Err(e) = outcome {
            if e.is_panic() {
                std::panic::resume_unwind(e.into_panic());
            }
            panic!("the browser scenario did not finish: {e}");
        }
        assert!(errors.is_empty(), "JavaScript errors in the console: {errors:#?}");
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
            "return [document.getElementById('sg-hint-nudge').hidden, document.getElementById('sg-explain').hidden, document.getElementById('sg-gen-level').hidden, document.getElementById('sg-generate').hidden];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        hidden,
        serde_json::json!([false, false, true, false]),
        "hints and explanations, no difficulty levels, a generator"
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
    wait_text(&c, "board-sub", "3×3, 1 region · Creative Mode").await;
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
    // The real message first (in the status line too), and both cells of the clash marked.
    wait_text(&c, "status", "shares a number").await;
    let messages = wait_text(&c, "messages", "r3c1 shares a number").await;
    assert!(!messages.contains("cell ("), "one naming style, r3c1: {messages}");
    assert_eq!(marked(&c).await, ["r1c2", "r3c1"]);
    // In the accessibility tree: the grid's cells named with their numbers, the two clashing
    // ones invalid (not told by colour alone), the selected one active.
    let ax = ax_grid(&c).await;
    assert_eq!(ax.rows.len(), 3);
    assert_eq!(ax.cell(2, 0).name, "r3c1: 3");
    assert_eq!(ax.cell(0, 1).name, "r1c2: 3");
    let invalid: Vec<&str> = ax.cells().filter(|x| x.invalid).map(|x| x.name.as_str()).collect();
    assert_eq!(invalid, ["r1c2: 3", "r3c1: 3"]);
    assert_eq!(ax.active.as_deref(), Some("r3c1: 3"));
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
    wait_text(&c, "board-sub", "2×3, 1 region").await;
    click_cell(&c, "r1c1").await;
    keys(&c, &['4']).await;
    let count_numbers = "return document.querySelectorAll('#sg-svg text.num').length;";
    assert_eq!(c.execute(count_numbers, vec![]).await.unwrap(), json!(1));
    // A 7 in a region of 6 cells: Autocomplete says there is no solution, and why.
    click_cell(&c, "r2c3").await;
    keys(&c, &['7']).await;
    click(&c, "sg-solve").await;
    wait_text(&c, "status", "this puzzle has no solution...").await;
    wait_text(&c, "messages", "r2c3 holds 7, but its region has 6 cells").await;
    assert_eq!(marked(&c).await, ["r2c3"]);
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
    // The hint at three levels: where to look, which rule, the conclusion (applied, then Check
    // finds no clash), and again from the new position.
    let rule = hint_levels(&c, "sg").await;
    let entries = "return document.querySelectorAll('#sg-svg text.num.entry').length;";
    assert_eq!(c.execute(entries, vec![]).await.unwrap(), json!(0));
    click(&c, "sg-hint-apply").await;
    wait_text(&c, "status", &format!("applied: {rule}")).await;
    let applied = c.execute(entries, vec![]).await.unwrap().as_u64().unwrap();
    assert!(applied >= 1, "the hint wrote its numbers");
    // Check on a correct but unfinished grid: no broken rule; the empty cells only on request.
    click(&c, "sg-check").await;
    wait_text(&c, "status", "no rule is broken so far").await;
    let listed = wait_text(&c, "messages", "empty cells not listed").await;
    assert!(!listed.contains("is empty") && !listed.contains("shares"), "{listed}");
    assert!(marked(&c).await.is_empty());
    click(&c, "show-empty").await;
    click(&c, "sg-check").await;
    let listed = wait_text(&c, "messages", "is empty").await;
    assert!(!listed.contains("shares a number"), "{listed}");
    let outlined = c
        .execute(
            "return document.querySelectorAll('#board [data-empty]').length;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(outlined.as_u64().unwrap() as usize, listed.matches("is empty").count());
    click(&c, "show-empty").await;
    hint_levels(&c, "sg").await;
    click(&c, "sg-hint-apply").await;
    wait_text(&c, "status", "applied: ").await;
    let more = c.execute(entries, vec![]).await.unwrap().as_u64().unwrap();
    assert!(
        more > applied,
        "the second hint starts from the entries: {applied} then {more}"
    );
    screenshot(&c, "suguru-hint").await;
    explain_panel(&c, "sg", 2).await;
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
    // Hints: row 1 owes three cells; once they are drawn, the hint goes on from the drawing.
    let rule = hint_levels(&c, "pt").await;
    assert_eq!(rule, "clue takes every free cell");
    assert_eq!(hinted(&c).await, ["r1c1", "r1c2", "r1c3"]);
    wait_text(&c, "status", "r1c2 used, r1c3 used").await;
    let right: char = Key::Right.into();
    keys(&c, &[right, right, right]).await;
    wait_text(&c, "board-sub", "path of 3 cells").await;
    // The drawn lines are the position: the next hint goes on from them (bookkeeping such as
    // "door A has its one line" passed over).
    click(&c, "pt-hint-answer").await;
    wait_text(&c, "status", "only ways out").await;
    wait_text(&c, "status", "so r1c3-r2c3 line").await;
    // Apply hint draws the line: it continues the path, which takes it.
    click(&c, "pt-hint-apply").await;
    wait_text(&c, "board-sub", "path of 4 cells").await;
    // Explain: the step that draws lines (only ways out) shows them on the board.
    click(&c, "pt-explain").await;
    wait_text(&c, "explain-rating", "rating").await;
    let step = c
        .execute(
            "const b = [...document.querySelectorAll('#explain-steps button')].find(b => /c\\d+ line\\b/.test(b.textContent)); b.click(); return b.dataset.step;",
            vec![],
        )
        .await
        .unwrap();
    assert!(step.is_string(), "a step concludes lines");
    wait_text(&c, "status", "only ways out").await;
    let links = c
        .execute(
            "return document.querySelectorAll('#pt-svg line.hint-link').length;",
            vec![],
        )
        .await
        .unwrap();
    assert!(links.as_u64().unwrap() >= 1, "{links}");
    screenshot(&c, "path-explain").await;
    close_explain(&c).await;
    click(&c, "pt-clear").await;
    wait_text(&c, "board-sub", "path of 0 cells").await;
    let down: char = Key::Down.into();
    // A wrong line: the hint names it and marks its cells instead of going on.
    keys(&c, &[right, down]).await;
    wait_text(&c, "board-sub", "path of 2 cells").await;
    click(&c, "pt-hint-nudge").await;
    wait_text(&c, "status", "not in the puzzle's only solution: r1c1-r2c1 line").await;
    assert_eq!(marked(&c).await, ["r1c1", "r2c1"]);
    click(&c, "pt-clear").await;
    wait_text(&c, "board-sub", "path of 0 cells").await;
    // Mark ✕: a cell the path does not use. A right mark leaves a hint; a wrong one is named.
    click(&c, "pt-tool-x").await;
    click_cell(&c, "r2c1").await;
    wait_text(&c, "status", "r2c1 marked unused").await;
    let crosses = c
        .execute(
            "return [...document.querySelectorAll('#pt-svg line.cross-mark[data-x]')].map(l => l.dataset.x);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(crosses, json!(["r2c1"]));
    // A mark is one undo step.
    let crossed = "return document.querySelectorAll('#pt-svg line.cross-mark[data-x]').length;";
    click(&c, "undo").await;
    assert_eq!(c.execute(crossed, vec![]).await.unwrap(), json!(0));
    click(&c, "redo").await;
    assert_eq!(c.execute(crossed, vec![]).await.unwrap(), json!(1));
    click(&c, "pt-hint-rule").await;
    wait_text(&c, "status", "applies at").await;
    click_cell(&c, "r1c2").await;
    wait_text(&c, "status", "r1c2 marked unused").await;
    click(&c, "pt-hint-nudge").await;
    wait_text(&c, "status", "not in the puzzle's only solution: r1c2 unused").await;
    assert_eq!(marked(&c).await, ["r1c2"]);
    click(&c, "pt-clear").await;
    wait_text(&c, "status", "path and marks cleared").await;
    // By keyboard: in Mark ✕ the arrows move a cursor from door A and x marks; in Lines,
    // Shift with an arrow draws.
    let (right, down): (char, char) = (Key::Right.into(), Key::Down.into());
    click(&c, "pt-tool-x").await;
    keys(&c, &[right, down, 'x']).await;
    wait_text(&c, "status", "r2c2 marked unused").await;
    click(&c, "pt-tool-line").await;
    let shift: char = Key::Shift.into();
    let kb = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: down })
        .then(KeyAction::Up { value: down })
        .then(KeyAction::Down { value: shift })
        .then(KeyAction::Down { value: right })
        .then(KeyAction::Up { value: right })
        .then(KeyAction::Up { value: shift });
    c.perform_actions(kb).await.unwrap();
    let lines = "return [...document.querySelectorAll('#pt-svg line.loose')].map(l => l.dataset.line);";
    // The cursor goes on from the cell marked last.
    assert_eq!(c.execute(lines, vec![]).await.unwrap(), json!(["r3c2-r3c3"]));
    click(&c, "pt-clear").await;
    wait_text(&c, "status", "path and marks cleared").await;
    // Lines: a loose line by door B first, then a line from door A that the path takes up,
    // joining the loose line when it reaches it.
    click(&c, "pt-tool-line").await;
    drag(&c, &["r3c3", "r2c3"]).await;
    let loose = "return [...document.querySelectorAll('#pt-svg line.loose')].map(l => l.dataset.line);";
    assert_eq!(c.execute(loose, vec![]).await.unwrap(), json!(["r2c3-r3c3"]));
    wait_text(&c, "board-sub", "path of 0 cells").await;
    click(&c, "pt-hint-answer").await;
    wait_text(&c, "status", "so ").await;
    // A wrong loose line is named; drawing over it again erases it.
    drag(&c, &["r2c1", "r2c2"]).await;
    click(&c, "pt-hint-nudge").await;
    wait_text(&c, "status", "not in the puzzle's only solution: r2c1-r2c2 line").await;
    drag(&c, &["r2c1", "r2c2"]).await;
    assert_eq!(c.execute(loose, vec![]).await.unwrap(), json!(["r2c3-r3c3"]));
    drag(&c, &["r1c1", "r1c2", "r1c3", "r2c3"]).await;
    wait_text(&c, "board-sub", "path of 5 cells").await;
    assert_eq!(c.execute(loose, vec![]).await.unwrap(), json!([]));
    click(&c, "pt-check").await;
    wait_text(&c, "status", "your path is correct, well done.").await;
    // Erasing a line of the path cuts it there: the part beyond stays as a loose piece, and
    // drawing the line again joins it back.
    drag(&c, &["r1c3", "r1c2"]).await;
    wait_text(&c, "board-sub", "path of 2 cells").await;
    assert_eq!(
        c.execute(loose, vec![]).await.unwrap(),
        json!(["r1c3-r2c3", "r2c3-r3c3"])
    );
    drag(&c, &["r1c2", "r1c3"]).await;
    wait_text(&c, "board-sub", "path of 5 cells").await;
    click(&c, "pt-clear").await;
    wait_text(&c, "status", "path and marks cleared").await;
    click(&c, "pt-tool-path").await;
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
    // Hints at three levels from the current grid; the answer is applied.
    let rule = hint_levels(&c, "sd").await;
    let entries = "return document.querySelectorAll('#sd-svg text.num.entry, #sd-svg text.num.solved').length;";
    let before = c.execute(entries, vec![]).await.unwrap().as_u64().unwrap();
    let places = c
        .execute("return !document.getElementById('sd-hint-apply').hidden;", vec![])
        .await
        .unwrap();
    assert_eq!(places, json!(true), "a Sudoku hint places or removes something new");
    click(&c, "sd-hint-apply").await;
    wait_text(&c, "status", &format!("applied: {rule}")).await;
    let after = c.execute(entries, vec![]).await.unwrap().as_u64().unwrap();
    let struck = c
        .execute(
            "return document.querySelectorAll('#sd-svg text.cand.removed').length;",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        after > before || struck.as_u64().unwrap() > 0,
        "{before} {after} {struck}"
    );
    explain_panel(&c, "sd", 0).await;
    screenshot(&c, "sudoku-explain").await;
    click(&c, "sd-solve").await;
    wait_text(&c, "messages", "solved by the").await;
    click(&c, "sd-check").await;
    wait_text(&c, "status", "your grid is correct, well done.").await;
    screenshot(&c, "sudoku").await;
}

/// The cells Check marks as breaking a rule (aria-invalid, with a border and a badge), sorted.
async fn marked(c: &Client) -> Vec<String> {
    let v = c
        .execute(
            "const bad = [...document.querySelectorAll('#board rect.cell-bg[aria-invalid=true]')].map(r => r.dataset.cell).sort(); \
             const shown = [...document.querySelectorAll('#board rect.badcell')].map(r => r.dataset.bad).sort(); \
             return JSON.stringify(bad) === JSON.stringify(shown) ? bad : ['mismatch', bad, shown];",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap_or_else(|e| panic!("marks: {e}"))
}

/// The cells the board highlights for a hint or a step, sorted.
async fn hinted(c: &Client) -> Vec<String> {
    let v = c
        .execute(
            "return [...document.querySelectorAll('#board rect.hintcell')].map(r => r.dataset.hint).sort();",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// Asks the view's hint at the three levels and checks what each shows: the nudge highlights
/// cells and names no rule, the rule level names the rule there (the same cells), the answer
/// gives the rule's conclusion. Returns the rule's name.
async fn hint_levels(c: &Client, view: &str) -> String {
    click(c, &format!("{view}-hint-nudge")).await;
    let nudge = wait_text(c, "status", "look at").await;
    let cells = hinted(c).await;
    assert!(!cells.is_empty(), "the nudge highlights cells: {nudge}");
    assert!(
        !wait_text(c, "messages", "look at").await.contains("rule:"),
        "a nudge names no rule"
    );
    click(c, &format!("{view}-hint-rule")).await;
    let rule = wait_text(c, "status", "applies at").await;
    let name = rule.split(" (level ").next().unwrap().to_string();
    wait_text(c, "messages", &format!("rule: {name} (level")).await;
    assert_eq!(hinted(c).await, cells, "the rule is about the nudge's cells");
    click(c, &format!("{view}-hint-answer")).await;
    let answer = wait_text(c, "status", &format!("{name}: ")).await;
    assert!(answer.len() > name.len() + 2, "{answer}");
    name
}

/// Opens the Explain panel of a view: the steps with rule name, level and text, the rating at
/// the end; clicking step `k` highlights its cells and tells it.
async fn explain_panel(c: &Client, view: &str, k: usize) {
    click(c, &format!("{view}-explain")).await;
    let rating = wait_text(c, "explain-rating", "rating ").await;
    assert!(rating.contains("hardest: "), "{rating}");
    let steps = c
        .execute(
            "return [...document.querySelectorAll('#explain-steps button')].map(b => [b.querySelector('.rule-name').textContent, b.querySelector('.level').textContent, b.querySelector('.step-text').textContent]);",
            vec![],
        )
        .await
        .unwrap();
    let steps = steps.as_array().unwrap();
    assert!(steps.len() > k, "{steps:?}");
    for s in steps {
        assert!(
            !s[0].as_str().unwrap().is_empty()
                && s[1].as_str().unwrap().starts_with("level ")
                && !s[2].as_str().unwrap().is_empty(),
            "{s}"
        );
    }
    let sub = wait_text(c, "explain-sub", "step(s)").await;
    assert!(sub.starts_with(&steps.len().to_string()), "{sub}");
    c.execute(
        "document.querySelectorAll('#explain-steps button')[arguments[0]].click();",
        vec![json!(k)],
    )
    .await
    .unwrap();
    let name = steps[k][0].as_str().unwrap();
    wait_text(c, "status", &format!("step {}: {name}: ", k + 1)).await;
    assert!(!hinted(c).await.is_empty(), "the step's cells are highlighted");
    let pressed = c
        .execute(
            "return document.querySelectorAll('#explain-steps button')[arguments[0]].getAttribute('aria-pressed');",
            vec![json!(k)],
        )
        .await
        .unwrap();
    assert_eq!(pressed, json!("true"));
    screenshot(c, &format!("{view}-explain")).await;
    close_explain(c).await;
}

/// Closes the Explain panel and scrolls back to the board (opening it scrolled the panel into
/// view).
async fn close_explain(c: &Client) {
    click(c, "explain-close").await;
    let hidden = c
        .execute(
            "window.scrollTo(0, 0); return document.getElementById('explain-panel').hidden;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(hidden, json!(true));
}

// ---------------------------------------------------------------- playing as players do

/// Taps (touch) the centre of the element `css` matches, scrolled into view first.
async fn tap(c: &Client, css: &str) {
    let v = c
        .execute(
            "const e = document.querySelector(arguments[0]); if (!e) return null; \
             e.scrollIntoView({block: 'nearest'}); const r = e.getBoundingClientRect(); \
             return [r.left + r.width / 2, r.top + r.height / 2];",
            vec![json!(css)],
        )
        .await
        .unwrap();
    assert!(!v.is_null(), "nothing matches {css}");
    let (x, y) = (v[0].as_f64().unwrap(), v[1].as_f64().unwrap());
    let finger = TouchActions::new("finger".into())
        .then(PointerAction::MoveTo { duration: None, x, y })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(finger).await.unwrap();
}

async fn tap_cell(c: &Client, name: &str) {
    tap(c, &format!("#board rect.cell-bg[data-cell='{name}']")).await;
}

async fn tap_digit(c: &Client, d: u64) {
    tap(c, &format!("#pad-digits [data-digit='{d}']")).await;
}

/// The labels of the number pad's digit buttons.
async fn pad_digits(c: &Client) -> Vec<String> {
    let v = c
        .execute(
            "return [...document.querySelectorAll('#pad-digits button')].map(b => b.textContent);",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// What a cell shows, as its name says to screen readers: "5", or "empty".
async fn cell_value(c: &Client, name: &str) -> String {
    let v = c
        .execute(
            "const e = document.querySelector(`#board rect.cell-bg[data-cell='${arguments[0]}']`); \
             return e ? e.getAttribute('aria-label') : null;",
            vec![json!(name)],
        )
        .await
        .unwrap();
    let label = v.as_str().unwrap_or_else(|| panic!("no cell {name}"));
    label.strip_prefix(&format!("{name}: ")).unwrap_or(label).to_string()
}

/// A JavaScript value of the page (its global state), as JSON.
async fn page(c: &Client, expr: &str) -> serde_json::Value {
    c.execute(&format!("return {expr};"), vec![]).await.unwrap()
}

/// The server's solution of the puzzle text, as the API answers it.
fn solution_of(addr: std::net::SocketAddr, body: serde_json::Value) -> serde_json::Value {
    let (status, v) = serve_common::post(addr, "/api/solve", &body);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"], "solved", "{v}");
    v["solution"].clone()
}

fn name(r: usize, c: usize) -> String {
    format!("r{}c{}", r + 1, c + 1)
}

#[test]
fn every_family_is_solved_by_touch_on_a_phone() {
    with_screen(Screen::Phone, phone_scenario);
}

/// On a 390×844 touch screen: every family solved start to finish with taps only (cells, the
/// number pad, tap-to-tap Path links), each ending in the automatic "Solved!".
async fn phone_scenario(c: Client, addr: std::net::SocketAddr) {
    open(&c, addr, "suguru").await;
    // The console guard sees errors, so its silence at the end of every scenario means something.
    c.execute("console.error('pencilbox console probe');", vec![])
        .await
        .unwrap();
    let seen = console_errors(&c).await;
    assert!(seen.iter().any(|e| e.contains("pencilbox console probe")), "{seen:?}");
    assert_eq!(
        page(&c, "[window.innerWidth, document.documentElement.scrollWidth]").await,
        json!([390, 390]),
        "the page fits the phone's width"
    );

    // Suguru: the first level; the pad offers the numbers of its largest region.
    wait_text(&c, "status", "Easy 1").await;
    assert_eq!(pad_digits(&c).await, ["1", "2", "3", "4", "5", "6", "7"]);
    let text = page(&c, "sgText()").await;
    let given = page(&c, "sg.given").await;
    let answer = solution_of(addr, json!({"puzzle": "suguru", "text": text}));
    let (m, n) = (answer.as_array().unwrap().len(), answer[0].as_array().unwrap().len());
    let empty: Vec<(usize, usize)> = (0..m)
        .flat_map(|r| (0..n).map(move |k| (r, k)))
        .filter(|&(r, k)| given[r * n + k] == 0)
        .collect();
    // A pencil mark first, then the numbers.
    let (r0, k0) = empty[0];
    tap_cell(&c, &name(r0, k0)).await;
    tap(&c, "#pad-pencil").await;
    assert_eq!(
        page(&c, "document.getElementById('pad-pencil').getAttribute('aria-pressed')").await,
        json!("true")
    );
    tap_digit(&c, 2).await;
    let marks = page(
        &c,
        "[...document.querySelectorAll('#sg-svg text.pencil')].map(t => t.dataset.pencil)",
    )
    .await;
    assert_eq!(marks, json!([format!("{}:2", name(r0, k0))]));
    tap(&c, "#pad-pencil").await;
    for &(r, k) in &empty {
        tap_cell(&c, &name(r, k)).await;
        tap_digit(&c, answer[r][k].as_u64().unwrap()).await;
    }
    wait_text(&c, "status", "Solved!").await;
    screenshot(&c, "phone-suguru").await;

    // Path: a generated puzzle, drawn by tapping a cell and then its neighbour.
    tap(&c, "#tab-path").await;
    wait_text(&c, "status", "exactly one solution").await;
    assert!(pad_digits(&c).await.is_empty(), "no digits to enter in Play Mode");
    let text = page(&c, "ptText()").await;
    let answer = solution_of(addr, json!({"puzzle": "path", "text": text}));
    let route = c
        .execute(
            "return ptRouteFrom(arguments[0]).map(i => `r${Math.floor(i / pt.n) + 1}c${i % pt.n + 1}`);",
            vec![answer],
        )
        .await
        .unwrap();
    let route: Vec<String> = serde_json::from_value(route).unwrap();
    assert!(route.len() >= 3, "{route:?}");
    for cell in &route[..3] {
        tap_cell(&c, cell).await;
    }
    wait_text(&c, "board-sub", "path of 3 cells").await;
    // Tapping the neighbour back toggles the link off, and on again.
    tap_cell(&c, &route[1]).await;
    wait_text(&c, "board-sub", "path of 2 cells").await;
    tap_cell(&c, &route[2]).await;
    wait_text(&c, "board-sub", "path of 3 cells").await;
    for cell in &route[3..] {
        tap_cell(&c, cell).await;
    }
    wait_text(&c, "board-sub", &format!("path of {} cells", route.len())).await;
    wait_text(&c, "status", "Solved!").await;
    screenshot(&c, "phone-path").await;

    // Sudoku: a generated 4×4; a pencil mark, then the digits.
    tap(&c, "#tab-sudoku").await;
    wait_text(&c, "status", "exactly one solution").await;
    set_input(&c, "sd-size", "4").await;
    tap(&c, "#sd-random").await;
    wait_text(&c, "status", "a new 4×4 puzzle").await;
    assert_eq!(pad_digits(&c).await, ["1", "2", "3", "4"]);
    let given = page(&c, "sd.given").await;
    let answer = solution_of(
        addr,
        json!({"puzzle": "sudoku", "text": page(&c, "sdText(false)").await, "settings": {"block": "2x2"}}),
    );
    let empty: Vec<usize> = (0..16).filter(|&i| given[i] == 0).collect();
    tap_cell(&c, &name(empty[0] / 4, empty[0] % 4)).await;
    tap(&c, "#pad-pencil").await;
    tap_digit(&c, 3).await;
    assert_eq!(
        page(&c, "document.querySelectorAll('#sd-svg text.cand').length").await,
        json!(1)
    );
    tap(&c, "#pad-pencil").await;
    for &i in &empty {
        tap_cell(&c, &name(i / 4, i % 4)).await;
        tap_digit(&c, answer[i / 4][i % 4].as_u64().unwrap()).await;
    }
    wait_text(&c, "status", "Solved!").await;
    screenshot(&c, "phone-sudoku").await;
}

/// Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y.
async fn chord(c: &Client, shift: bool, key: char) {
    let ctrl: char = Key::Control.into();
    let sh: char = Key::Shift.into();
    let mut kb = KeyActions::new("keyboard".into()).then(KeyAction::Down { value: ctrl });
    if shift {
        kb = kb.then(KeyAction::Down { value: sh });
    }
    kb = kb
        .then(KeyAction::Down { value: key })
        .then(KeyAction::Up { value: key });
    if shift {
        kb = kb.then(KeyAction::Up { value: sh });
    }
    kb = kb.then(KeyAction::Up { value: ctrl });
    c.perform_actions(kb).await.unwrap();
}

/// Waits until the page saved its progress (saving follows a change by a moment).
async fn saved(c: &Client) {
    let t0 = Instant::now();
    let mut last = page(c, "JSON.stringify(localStorage)").await;
    let mut same_since = Instant::now();
    loop {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let now = page(c, "JSON.stringify(localStorage)").await;
        if now != last {
            last = now;
            same_since = Instant::now();
        } else if same_since.elapsed() > Duration::from_millis(500) {
            return;
        }
        assert!(t0.elapsed() < Duration::from_secs(10), "the progress never settled");
    }
}

async fn reload(c: &Client) {
    c.refresh().await.unwrap();
    c.wait()
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .unwrap();
}

/// The share link of the current puzzle with the progress, from the Import / Export dialog.
async fn share_link(c: &Client, export: &str) -> String {
    click(c, export).await;
    click(c, "io-share").await;
    wait_text(c, "io-error", "with your progress").await;
    let link = page(c, "document.getElementById('io-text').value").await;
    click(c, "io-close").await;
    link.as_str().unwrap().to_string()
}

/// Opens a share link in a browser that has forgotten everything it saved.
async fn open_shared(c: &Client, link: &str) {
    c.execute("localStorage.clear();", vec![]).await.unwrap();
    c.goto("about:blank").await.unwrap();
    c.goto(link).await.unwrap();
    c.wait()
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .unwrap();
}

#[test]
fn checks_undo_saved_progress_and_sizes_in_every_family() {
    with_browser(play_scenario);
}

/// For each family: a deliberate conflict marked on exactly the conflicting cells, undo and
/// redo, progress kept over a reload and carried by a share link, an oversized request refused
/// with a message; and a puzz.link URL opened by `/?url=`.
async fn play_scenario(c: Client, addr: std::net::SocketAddr) {
    // ---- Suguru (Easy 1: 5×5; r1c2 holds a given 3 in the region of r1c3).
    open(&c, addr, "suguru").await;
    wait_text(&c, "status", "Easy 1").await;
    click_cell(&c, "r1c3").await;
    keys(&c, &['3']).await;
    click(&c, "sg-check").await;
    wait_text(&c, "status", "shares a number").await;
    assert_eq!(marked(&c).await, ["r1c2", "r1c3"]);
    screenshot(&c, "desktop-check").await;
    // Undo clears the stale messages; redo and Ctrl+Y bring the number back.
    click_cell(&c, "r1c4").await;
    keys(&c, &['2']).await;
    chord(&c, false, 'z').await;
    wait_text(&c, "status", "undone").await;
    assert_eq!(cell_value(&c, "r1c4").await, "empty");
    assert_eq!(
        page(&c, "document.getElementById('messages').children.length").await,
        json!(0)
    );
    assert!(marked(&c).await.is_empty(), "no stale marks after Undo");
    chord(&c, true, 'z').await;
    wait_text(&c, "status", "redone").await;
    assert_eq!(cell_value(&c, "r1c4").await, "2");
    click(&c, "undo").await;
    click(&c, "undo").await;
    assert_eq!(cell_value(&c, "r1c3").await, "empty");
    chord(&c, false, 'y').await;
    assert_eq!(cell_value(&c, "r1c3").await, "3");
    click(&c, "sg-redo").await;
    assert_eq!(cell_value(&c, "r1c4").await, "2");
    click(&c, "redo").await;
    wait_text(&c, "status", "nothing to redo").await;
    // A reload keeps the progress; a share link carries it to a browser without it.
    saved(&c).await;
    reload(&c).await;
    wait_text(&c, "status", "your progress").await;
    assert_eq!(
        (cell_value(&c, "r1c3").await, cell_value(&c, "r1c4").await),
        ("3".into(), "2".into())
    );
    let link = share_link(&c, "sg-export").await;
    open_shared(&c, &link).await;
    wait_text(&c, "status", "opened a shared puzzle with its progress").await;
    assert_eq!(
        (cell_value(&c, "r1c3").await, cell_value(&c, "r1c4").await),
        ("3".into(), "2".into())
    );
    // Sizes: the server's limits are asked, and a size beyond them is refused with the reason.
    let sub = wait_text(&c, "board-sub", "5×5").await;
    set_input(&c, "sg-rows", "60").await;
    set_input(&c, "sg-cols", "60").await;
    click(&c, "sg-resize").await;
    wait_text(
        &c,
        "status",
        "60×60 is 3600 cells; this server takes at most 2500 cells",
    )
    .await;
    assert_eq!(wait_text(&c, "board-sub", "5×5").await, sub, "nothing was built");
    set_input(&c, "sg-rows", "abc").await;
    click(&c, "sg-resize").await;
    wait_text(&c, "status", "the rows field is empty or not a number").await;
    set_input(&c, "sg-rows", "15").await;
    set_input(&c, "sg-cols", "15").await;
    click(&c, "sg-generate").await;
    wait_text(
        &c,
        "status",
        "the generator takes 2 to 12 rows; \"15\" is not allowed here",
    )
    .await;
    assert_eq!(wait_text(&c, "board-sub", "5×5").await, sub);
    // `/?url=` opens a puzz.link URL directly.
    let (status, url) = serve_common::post(
        addr,
        "/api/convert",
        &json!({"puzzle": "suguru", "text": "3 3\n0 3 0\n2 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n", "to": "url"}),
    );
    assert_eq!(status, 200, "{url}");
    let url = url["text"].as_str().unwrap().to_string();
    let query: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("url", &url)
        .finish();
    c.goto(&format!("http://{addr}/?{query}")).await.unwrap();
    c.wait()
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .unwrap();
    wait_text(&c, "status", "opened").await;
    wait_text(&c, "board-sub", "3×3, 3 regions · Play Mode").await;

    // ---- Path (3×3, doors r1c1 and r3c3, row clues 3 1 1, column clues 1 1 3).
    c.goto(&format!("http://{addr}/#path")).await.unwrap();
    c.wait()
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .unwrap();
    wait_text(&c, "status", "exactly one solution").await;
    click(&c, "pt-export").await;
    c.execute(
        "document.getElementById('io-text').value = arguments[0];",
        vec![json!("3 3\n1 1\n3 3\n\n3 1 1\n1 1 3\n")],
    )
    .await
    .unwrap();
    click(&c, "io-load").await;
    wait_text(&c, "board-sub", "3×3 · path of 0 cells · Play Mode").await;
    let right: char = Key::Right.into();
    let down: char = Key::Down.into();
    keys(&c, &[right, right]).await;
    // An unfinished path is judged by what is already wrong: here nothing.
    click(&c, "pt-check").await;
    let said = wait_text(&c, "status", "nothing is wrong so far").await;
    let listed = wait_text(&c, "messages", "has not reached door B").await;
    for wrong in ["comes back", "arrow", "door B is not"] {
        assert!(!said.contains(wrong) && !listed.contains(wrong), "{said} / {listed}");
    }
    assert!(marked(&c).await.is_empty());
    // Column 2 (clue 1) gets a second path cell: exactly its two path cells are marked.
    keys(&c, &[down]).await;
    click(&c, "pt-check").await;
    wait_text(&c, "status", "column 2 has 2 path cells, its clue is 1").await;
    assert_eq!(marked(&c).await, ["r1c2", "r2c2"]);
    chord(&c, false, 'z').await;
    wait_text(&c, "board-sub", "path of 2 cells").await;
    assert!(marked(&c).await.is_empty());
    chord(&c, false, 'y').await;
    wait_text(&c, "board-sub", "path of 3 cells").await;
    click(&c, "undo").await;
    wait_text(&c, "board-sub", "path of 2 cells").await;
    saved(&c).await;
    reload(&c).await;
    wait_text(&c, "board-sub", "3×3 · path of 2 cells").await;
    let link = share_link(&c, "pt-export").await;
    open_shared(&c, &link).await;
    wait_text(&c, "status", "opened a shared puzzle with its progress").await;
    wait_text(&c, "board-sub", "3×3 · path of 2 cells").await;
    // In the accessibility tree: 3 rows of 3 cells, 2 on the path, each with its clues.
    let ax = ax_grid(&c).await;
    assert_eq!(
        ax.rows.iter().map(|(_, cells)| cells.len()).collect::<Vec<_>>(),
        [3, 3, 3]
    );
    assert_eq!(ax.cells().filter(|x| x.name.ends_with(": on the path")).count(), 2);
    let clues = page(&c, "[pt.row[0], pt.col[1]]").await;
    let clue = |v: &serde_json::Value| match v.as_i64() {
        Some(k) if k >= 0 => k.to_string(),
        _ => "none".to_string(),
    };
    assert_eq!(
        ax.cell(0, 1).description,
        format!("row clue {}, column clue {}", clue(&clues[0]), clue(&clues[1]))
    );
    // A clue larger than its row is refused, not cut down; so is a generator size above 12.
    click(&c, "pt-creative").await;
    click_cell(&c, "row1").await;
    keys(&c, &['9']).await;
    wait_text(&c, "status", "row 1 has 3 cells: a clue of 9 cannot be met").await;
    assert_eq!(page(&c, "pt.row").await, json!([3, 1, 1]));
    set_input(&c, "pt-rows", "13").await;
    click(&c, "pt-random").await;
    wait_text(&c, "status", "the generator takes 2 to 12 rows").await;

    // ---- Sudoku (a generated 9×9).
    c.goto(&format!("http://{addr}/#sudoku")).await.unwrap();
    c.wait()
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .unwrap();
    wait_text(&c, "status", "exactly one solution").await;
    // The board in the accessibility tree: a grid of 9 rows of 9 cells named "r1c1: 5" or
    // "r1c1: empty" (as the page's state says), the selected cell its active descendant; the
    // arrow keys move it.
    let ax = ax_grid(&c).await;
    assert_eq!(ax.rows.len(), 9);
    for (r, (role, cells)) in ax.rows.iter().enumerate() {
        assert_eq!(role, "row");
        assert_eq!(cells.len(), 9, "row {}: {cells:?}", r + 1);
        for (k, cell) in cells.iter().enumerate() {
            assert_eq!(cell.role, "gridcell");
            let i = r * 9 + k;
            let v = page(&c, &format!("sdNumber({i})")).await.as_u64().unwrap();
            let want = if v == 0 { "empty".to_string() } else { v.to_string() };
            assert_eq!(cell.name, format!("{}: {want}", name(r, k)));
        }
    }
    assert_eq!(ax.active.as_deref(), Some(ax.cell(0, 0).name.as_str()));
    let (right, down): (char, char) = (Key::Right.into(), Key::Down.into());
    keys(&c, &[right, down]).await;
    assert_eq!(ax_grid(&c).await.active.as_deref(), Some(ax.cell(1, 1).name.as_str()));
    // An empty cell of a row and a digit given in that row but not in the cell's column or box.
    let pick = page(
        &c,
        "(() => { for (let i = 0; i < 81; i++) { if (sd.given[i]) continue; \
           const r = Math.floor(i / 9), col = i % 9; \
           for (let j = r * 9; j < r * 9 + 9; j++) { const d = sd.given[j]; if (!d) continue; \
             let clash = false; for (const p of sdPeers(i)) if (Math.floor(p / 9) !== r && sd.given[p] === d) clash = true; \
             if (!clash) return [`r${r + 1}c${col + 1}`, `r${r + 1}c${j % 9 + 1}`, d]; } } })()",
    )
    .await;
    let (cell, twin, digit) = (
        pick[0].as_str().unwrap().to_string(),
        pick[1].as_str().unwrap().to_string(),
        pick[2].as_u64().unwrap(),
    );
    click_cell(&c, &cell).await;
    let d = char::from_digit(digit as u32, 10).unwrap();
    keys(&c, &[d]).await;
    click(&c, "sd-check").await;
    wait_text(&c, "status", &format!("holds {digit} twice")).await;
    let mut expected = vec![cell.clone(), twin.clone()];
    expected.sort();
    assert_eq!(marked(&c).await, expected);
    chord(&c, false, 'z').await;
    assert_eq!(cell_value(&c, &cell).await, "empty");
    chord(&c, true, 'z').await;
    assert_eq!(cell_value(&c, &cell).await, digit.to_string());
    saved(&c).await;
    reload(&c).await;
    wait_text(&c, "status", "your progress").await;
    assert_eq!(cell_value(&c, &cell).await, digit.to_string());
    let link = share_link(&c, "sd-export").await;
    open_shared(&c, &link).await;
    wait_text(&c, "status", "opened a shared puzzle with its progress").await;
    assert_eq!(cell_value(&c, &cell).await, digit.to_string());
    // The generator makes Sudoku up to 12×12: a 16×16 random puzzle is refused, the size kept.
    set_input(&c, "sd-size", "16").await;
    click(&c, "sd-random").await;
    wait_text(&c, "status", "the generator makes Sudoku up to 12×12").await;
    assert_eq!(page(&c, "document.getElementById('sd-size').value").await, json!("16"));
    screenshot(&c, "sudoku-refused").await;

    // ---- Redraw guard: a region drawn by dragging over a 50×50 Suguru updates within 50 ms
    // per pointer move (a coarse guard for a loaded CI machine; the target is 16 ms, see
    // BENCHMARKS.md). Each move is timed from the document's capture listener to the window's
    // bubbling one, with the layout forced.
    c.goto(&format!("http://{addr}/#suguru")).await.unwrap();
    c.wait()
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .unwrap();
    set_input(&c, "sg-rows", "50").await;
    set_input(&c, "sg-cols", "50").await;
    click(&c, "sg-resize").await;
    wait_text(&c, "board-sub", "50×50, 1 region · Creative Mode").await;
    click(&c, "sg-draw").await;
    c.execute(
        "window.moveMs = []; \
         document.addEventListener('pointermove', () => { window.moveT0 = performance.now(); }, true); \
         window.addEventListener('pointermove', () => { document.body.getBoundingClientRect(); \
           window.moveMs.push(performance.now() - window.moveT0); });",
        vec![],
    )
    .await
    .unwrap();
    let row: Vec<String> = (1..=40).map(|k| format!("r5c{k}")).collect();
    let row: Vec<&str> = row.iter().map(String::as_str).collect();
    drag(&c, &row).await;
    wait_text(&c, "board-sub", "50×50, 2 regions").await;
    let ms: Vec<f64> = serde_json::from_value(page(&c, "window.moveMs").await).unwrap();
    assert!(ms.len() >= 20, "the drag moved over the board: {ms:?}");
    let worst = ms.iter().cloned().fold(0.0, f64::max);
    let mut sorted = ms.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "50x50 Suguru drag: {} pointer moves, median {:.2} ms, worst {worst:.2} ms",
        ms.len(),
        sorted[sorted.len() / 2]
    );
    assert!(worst < 50.0, "a pointer move took {worst:.1} ms to redraw: {ms:?}");

    // ---- The same guard for a keystroke on a 16×16 Sudoku with every computed candidate shown
    // (16 on each empty cell at the start): 16 symbols typed along row 1, an arrow key after
    // each, every key timed from the document's capturing keydown listener to the window's
    // bubbling one, with the layout forced.
    c.goto(&format!("http://{addr}/#sudoku")).await.unwrap();
    c.wait()
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .unwrap();
    set_input(&c, "sd-size", "16").await;
    wait_text(&c, "board-sub", "16×16, 4×4 boxes · 0 givens").await;
    c.execute(
        "const box = document.getElementById('sd-show-cands'); box.checked = true; \
         box.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .unwrap();
    assert_eq!(
        page(&c, "document.querySelectorAll('#sd-svg text.cand').length").await,
        json!(256 * 16)
    );
    click_cell(&c, "r1c1").await;
    c.execute(
        "window.keyMs = []; \
         document.addEventListener('keydown', () => { window.keyT0 = performance.now(); }, true); \
         window.addEventListener('keydown', () => { document.body.getBoundingClientRect(); \
           window.keyMs.push(performance.now() - window.keyT0); });",
        vec![],
    )
    .await
    .unwrap();
    let typed: Vec<char> = "123456789ABCDEFG".chars().flat_map(|d| [d, right]).collect();
    keys(&c, &typed).await;
    let ms: Vec<f64> = serde_json::from_value(page(&c, "window.keyMs").await).unwrap();
    assert_eq!(ms.len(), typed.len(), "every key was timed");
    // The grid is what was typed, and the candidates followed: with row 1 full, the cells of
    // rows 2-4 keep 12 candidates (not their box's four digits), those below 15 (not their
    // column's digit).
    assert_eq!(cell_value(&c, "r1c16").await, "G");
    assert_eq!(
        page(&c, "document.querySelectorAll('#sd-svg text.cand').length").await,
        json!(3 * 16 * 12 + 12 * 16 * 15)
    );
    let worst = ms.iter().cloned().fold(0.0, f64::max);
    let mut sorted = ms.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "16x16 Sudoku with candidates: {} keystrokes, median {:.2} ms, worst {worst:.2} ms",
        ms.len(),
        sorted[sorted.len() / 2]
    );
    assert!(worst < 50.0, "a keystroke took {worst:.1} ms to redraw: {ms:?}");
}
