//! End-to-end tests of the playground in a real headless Chromium, driven through chromedriver
//! (Debian's `chromium` and `chromium-driver`, installed by `.ci/run`).
//!
//! The server runs in-process on a free loopback port; the browser opens the generic page (one
//! board for every family, drawn from `/api/board`), builds puzzles in Creative Mode, fills
//! cells, draws lines and ✕ marks with the mouse, the keyboard and taps, shades cells, presses
//! Check, Solve, Unique?, Forced?, the three hint levels and Explain, loads levels, imports and
//! exports puzzles, and reads every result from the page: the status line, the messages, the
//! page's own state (the lines drawn, the ✕ marks) and the board's marks. The board's roles and
//! names are read from Chromium's accessibility tree (DevTools `Accessibility.getFullAXTree`),
//! and two redraw guards time a 50×50 Suguru drag and keystrokes on a 16×16 Sudoku full of
//! pencil marks. Screenshots are saved under Cargo's test temp folder
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
/// rows and the role, name and invalid state of their cells (ignored nodes
/// skipped), and the name of the cell the grid's `aria-activedescendant` points to.
struct AxGrid {
    rows: Vec<(String, Vec<AxCell>)>,
    active: Option<String>,
}

#[derive(Debug)]
struct AxCell {
    role: String,
    name: String,
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
fn suguru_creative_play_check_hints_and_explain_in_a_real_browser() {
    with_browser(suguru_scenario);
}

#[test]
fn ripple_effect_generated_checked_and_forced_in_a_real_browser() {
    with_browser(ripple_scenario);
}

#[test]
fn path_and_sudoku_play_in_a_real_browser() {
    with_browser(path_and_sudoku_scenario);
}

/// Waits until the page's expression is true.
async fn wait_until(c: &Client, expr: &str) {
    let t0 = Instant::now();
    while page(c, expr).await != json!(true) {
        assert!(t0.elapsed() < Duration::from_secs(20), "never true: {expr}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the page is idle: no API action running (an action's result is on the page).
async fn idle(c: &Client) {
    wait_until(c, "document.body.dataset.busy !== 'true'").await;
}

/// The lines drawn on the board, as links `r1c1-r1c2`, sorted.
async fn lines(c: &Client) -> Vec<String> {
    let v = page(
        c,
        "[...G.pos.l].map((e) => edgeCells(e).map(cellName).join('-')).sort()",
    )
    .await;
    serde_json::from_value(v).unwrap()
}

/// The cells marked ✕, sorted; and how many ✕ the board draws.
async fn crosses(c: &Client) -> (Vec<String>, u64) {
    let v = page(
        c,
        "[[...G.pos.x].map(cellName).sort(), document.querySelectorAll('#board path.cross').length]",
    )
    .await;
    (serde_json::from_value(v[0].clone()).unwrap(), v[1].as_u64().unwrap())
}

/// How many givens the board shows.
async fn givens_shown(c: &Client) -> u64 {
    page(c, "document.querySelectorAll('#board text.num.given').length")
        .await
        .as_u64()
        .unwrap()
}

/// Ripple Effect on the generic board: its tab, a generated puzzle, Unique?, Forced?, Solve,
/// Check, export as text and as a puzz.link URL.
async fn ripple_scenario(c: Client, addr: std::net::SocketAddr) {
    open(&c, addr, "ripple").await;
    wait_text(&c, "board-title", "Ripple Effect").await;
    wait_text(&c, "status", "Easy 1").await;
    let hidden = page(
        &c,
        "['hint-nudge', 'explain', 'gen-level-row', 'generate', 'level-row'].map((id) => document.getElementById(id).hidden)",
    )
    .await;
    assert_eq!(
        hidden,
        json!([false, false, true, false, false]),
        "hints, explanations and levels; a generator without difficulty levels"
    );
    set_input(&c, "rows", "5").await;
    set_input(&c, "cols", "5").await;
    click(&c, "generate").await;
    wait_text(&c, "status", "a new 5×5 puzzle").await;
    click(&c, "unique").await;
    wait_text(&c, "status", "exactly one solution").await;
    // Forced? lists what every solution shares: here, being unique, everything.
    click(&c, "forced").await;
    wait_text(&c, "status", "so everything is forced: 25 of 25 facts").await;
    screenshot(&c, "ripple-forced").await;
    click(&c, "solve").await;
    wait_text(&c, "messages", "solved by the").await;
    let filled = page(&c, "G.pos.v.every((v, i) => v || givenNumber(i))").await;
    assert_eq!(filled, json!(true), "Solve fills every cell");
    click(&c, "check").await;
    wait_text(&c, "status", "your configuration is correct, well done.").await;
    screenshot(&c, "ripple-solved").await;
    click(&c, "export").await;
    let text = page(&c, "document.getElementById('io-text').value").await;
    assert!(text.as_str().unwrap().starts_with("ripple 5 5"), "{text}");
    url_round_trip(&c, "ripple/5/5/").await;
    wait_text(&c, "board-title", "Ripple Effect").await;
    wait_text(&c, "board-sub", "5×5").await;
    chain_scenario(&c, addr).await;
}

/// Issue 27: a trial step's chain, link by link on the board (a bundled Star Battle that needs
/// trials, opened by a share link): ▶ marks the assumption, then each fact with its rule,
/// then the contradiction; ◀ goes back.
async fn chain_scenario(c: &Client, addr: std::net::SocketAddr) {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/starbattle/example-6x6.txt"),
    )
    .expect("bundled example");
    open(c, addr, "starbattle").await;
    c.execute(
        "location.hash = `#starbattle&t=${b64(arguments[0])}`;",
        vec![json!(text)],
    )
    .await
    .unwrap();
    wait_text(c, "board-sub", "6×6").await;
    idle(c).await;
    click(c, "explain").await;
    wait_text(c, "explain-rating", "rating").await;
    let k = page(
        c,
        "[...document.querySelectorAll('#explain-steps li')].findIndex((li) => li.querySelector('.chain'))",
    )
    .await;
    let k = k.as_i64().unwrap();
    assert!(k >= 0, "a step with a chain");
    c.execute(
        "document.querySelectorAll('#explain-steps > li')[arguments[0]].querySelector('button').click();",
        vec![json!(k)],
    )
    .await
    .unwrap();
    let li = format!("document.querySelectorAll('#explain-steps > li')[{k}]");
    wait_until(c, &format!("!{li}.querySelector('.chain').hidden")).await;
    let n = page(c, &format!("{li}.querySelector('.chain-at').textContent")).await;
    assert!(n.as_str().unwrap().starts_with("chain of "), "{n}");
    page(c, &format!("{li}.querySelector('.chain-next').click()")).await;
    wait_text(c, "status", ", chain 1/").await;
    wait_text(c, "status", "(assume)").await;
    assert!(!hinted(c).await.is_empty(), "the assumption's cell is marked");
    // To the end: the contradiction.
    page(
        c,
        &format!("(() => {{ const b = {li}.querySelector('.chain-next'); while (!b.disabled) b.click(); }})()"),
    )
    .await;
    wait_text(c, "status", "contradiction: ").await;
    screenshot(c, "chain-contradiction").await;
    page(c, &format!("{li}.querySelector('.chain-prev').click()")).await;
    wait_text(c, "status", ", chain ").await;
    close_explain(c).await;
}

/// In the open Import / Export dialog: shows the puzz.link URL (which must contain `expect`)
/// and loads it back.
async fn url_round_trip(c: &Client, expect: &str) {
    click(c, "io-url").await;
    wait_text(c, "io-error", "puzz.link").await;
    let url = page(c, "document.getElementById('io-text').value").await;
    assert!(url.as_str().unwrap().contains(expect), "{url}");
    click(c, "io-load").await;
    wait_text(c, "messages", "puzzle loaded").await;
}

async fn suguru_scenario(c: Client, addr: std::net::SocketAddr) {
    open(&c, addr, "suguru").await;

    // The first bundled level opens in Play Mode; the level list is grouped by difficulty.
    wait_text(&c, "status", "Easy 1").await;
    let groups = c.find_all(Locator::Css("#level optgroup")).await.unwrap();
    let mut labels = Vec::new();
    for g in &groups {
        labels.push(g.attr("label").await.unwrap().unwrap_or_default());
    }
    assert_eq!(labels, ["Easy", "Medium", "Hard"]);

    // Creative Mode: a new 3×3 grid, regions drawn by dragging (Figure 1 of the Suguru paper).
    click(&c, "mode-creative").await;
    set_input(&c, "rows", "3").await;
    set_input(&c, "cols", "3").await;
    click(&c, "new-grid").await;
    wait_text(&c, "board-sub", "3×3, 1 region · Creative Mode").await;
    click(&c, "ctool-region").await;
    drag(&c, &["r1c3", "r2c3", "r3c3"]).await;
    wait_text(&c, "board-sub", "2 regions").await;
    click_cell(&c, "r3c2").await;
    wait_text(&c, "board-sub", "3 regions").await;

    // Givens, typed on the keyboard (each written by the family before the next).
    click(&c, "ctool-given").await;
    for (k, (cell, digit)) in [("r1c2", '3'), ("r2c1", '2'), ("r2c2", '5'), ("r3c3", '3')]
        .into_iter()
        .enumerate()
    {
        click_cell(&c, cell).await;
        keys(&c, &[digit]).await;
        wait_until(
            &c,
            &format!(
                "document.querySelectorAll('#board text.num.given').length === {}",
                k + 1
            ),
        )
        .await;
    }
    click(&c, "unique").await;
    wait_text(&c, "status", "exactly one solution").await;

    // Play Mode: a wrong number (a second 3 in the region of r1c2), then Check names the
    // offending cells.
    click(&c, "mode-play").await;
    wait_text(&c, "status", "Play Mode").await;
    click_cell(&c, "r3c1").await;
    keys(&c, &['3']).await;
    click(&c, "check").await;
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
    // Undo takes the wrong number back: only the four givens are left.
    click(&c, "undo").await;
    wait_text(&c, "status", "undone").await;
    let numbers = "return document.querySelectorAll('#board text.num').length;";
    assert_eq!(c.execute(numbers, vec![]).await.unwrap(), json!(4));

    // Solve fills every cell; Check then confirms.
    click(&c, "solve").await;
    wait_text(&c, "messages", "solved by the").await;
    let mut values = Vec::new();
    for r in 0..3 {
        for k in 0..3 {
            values.push(cell_value(&c, &name(r, k)).await);
        }
    }
    assert_eq!(values.join(" "), "1 3 1 2 5 2 4 1 3");
    click(&c, "check").await;
    wait_text(&c, "status", "your configuration is correct, well done.").await;
    screenshot(&c, "suguru-solved").await;

    // Import a puzzle without solution: Solve says so.
    click(&c, "export").await;
    c.execute(
        "document.getElementById('io-text').value = arguments[0];",
        vec![json!("2 3\n0 0 0\n0 0 0\n1 1 1\n2 2 2\n")],
    )
    .await
    .unwrap();
    click(&c, "io-load").await;
    wait_text(&c, "board-sub", "2×3, 2 regions").await;
    click(&c, "solve").await;
    wait_text(&c, "status", "this puzzle has no solution...").await;
    // Clear Regions and Empty Cells (Creative Mode).
    click(&c, "mode-creative").await;
    click(&c, "clear-regions").await;
    wait_text(&c, "board-sub", "2×3, 1 region").await;
    click(&c, "ctool-given").await;
    click_cell(&c, "r1c1").await;
    keys(&c, &['4']).await;
    wait_until(&c, "document.querySelectorAll('#board text.num.given').length === 1").await;
    // A given larger than any region is refused at once; so is a region too small for the
    // given already in it, naming the cell: the puzzle stays as it was.
    click_cell(&c, "r2c3").await;
    keys(&c, &['7']).await;
    wait_text(&c, "status", "a given is at most 6").await;
    assert_eq!(givens_shown(&c).await, 1);
    click(&c, "ctool-region").await;
    drag(&c, &["r1c1", "r1c2"]).await;
    wait_text(&c, "status", "r1c1 holds 4, but its region has 2 cells").await;
    wait_text(&c, "board-sub", "2×3, 1 region").await;
    click(&c, "clear-givens").await;
    wait_text(&c, "status", "all givens removed").await;
    assert_eq!(givens_shown(&c).await, 0);
    click(&c, "mode-play").await;

    // A bundled hard level: hints, Check on an unfinished grid, Explain, Solve and Check.
    c.execute(
        "const s = document.getElementById('level'); \
         s.value = [...s.options].find(o => o.parentElement.label === 'Hard').value; \
         s.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .unwrap();
    wait_text(&c, "status", "hard").await;
    // The hint at three levels: where to look, which rule, the conclusion (applied, then Check
    // finds no clash), and again from the new position.
    let rule = hint_levels(&c).await;
    let entries = "return document.querySelectorAll('#board text.num.entry').length;";
    assert_eq!(c.execute(entries, vec![]).await.unwrap(), json!(0));
    click(&c, "hint-apply").await;
    wait_text(&c, "status", &format!("applied: {rule}")).await;
    let applied = c.execute(entries, vec![]).await.unwrap().as_u64().unwrap();
    assert!(applied >= 1, "the hint wrote its numbers");
    // Check on a correct but unfinished grid: no broken rule; the empty cells only on request.
    click(&c, "check").await;
    wait_text(&c, "status", "no rule is broken so far").await;
    let listed = wait_text(&c, "messages", "empty cells not listed").await;
    assert!(!listed.contains("is empty") && !listed.contains("shares"), "{listed}");
    assert!(marked(&c).await.is_empty());
    click(&c, "show-empty").await;
    click(&c, "check").await;
    let listed = wait_text(&c, "messages", "is empty").await;
    assert!(!listed.contains("shares a number"), "{listed}");
    let outlined = page(&c, "document.querySelectorAll('#board [data-empty]').length").await;
    assert_eq!(outlined.as_u64().unwrap() as usize, listed.matches("is empty").count());
    click(&c, "show-empty").await;
    hint_levels(&c).await;
    click(&c, "hint-apply").await;
    wait_text(&c, "status", "applied: ").await;
    let more = c.execute(entries, vec![]).await.unwrap().as_u64().unwrap();
    assert!(
        more > applied,
        "the second hint starts from the entries: {applied} then {more}"
    );
    screenshot(&c, "suguru-hint").await;
    explain_panel(&c, "suguru", 2).await;
    click(&c, "solve").await;
    wait_text(&c, "messages", "solved by the").await;
    click(&c, "check").await;
    wait_text(&c, "status", "your configuration is correct, well done.").await;

    // Export as a puzz.link URL and import it back.
    click(&c, "export").await;
    url_round_trip(&c, "suguru/8/8/").await;
    wait_text(&c, "board-sub", "8×8").await;

    // The guide opens as a modal.
    click(&c, "guide-btn").await;
    assert_eq!(page(&c, "document.getElementById('guide').open").await, json!(true));
    screenshot(&c, "guide").await;
}

async fn path_and_sudoku_scenario(c: Client, addr: std::net::SocketAddr) {
    // Path, Creative Mode: a new 3×3 grid (its doors at two corners), a door moved by a tap,
    // clues typed after tapping them; Export shows the file format.
    open(&c, addr, "path").await;
    idle(&c).await;
    click(&c, "mode-creative").await;
    set_input(&c, "rows", "3").await;
    set_input(&c, "cols", "3").await;
    click(&c, "new-grid").await;
    wait_text(&c, "board-sub", "3×3 · Creative Mode").await;
    let doors =
        "JSON.stringify(G.board.doors.map((d) => [d.label, cellName(d.cell[0] * G.board.cols + d.cell[1]), d.side]))";
    assert_eq!(page(&c, doors).await, json!(r#"[["A","r1c1","w"],["B","r3c3","e"]]"#));
    click(&c, "ctool-door-B").await;
    click_cell(&c, "r1c3").await;
    wait_text(&c, "status", "door B at r1c3").await;
    wait_until(&c, "G.board.doors[1].cell.join() === '0,2'").await;
    click_cell(&c, "r3c3").await;
    wait_until(&c, "G.board.doors[1].cell.join() === '2,2'").await;
    assert_eq!(page(&c, "G.board.doors[1].side").await, json!("e"));
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
        let (band, k) = if let Some(k) = clue.strip_prefix("row") {
            ("left", k)
        } else {
            ("top", &clue[3..])
        };
        let k: usize = k.parse().unwrap();
        wait_until(&c, &format!("G.board.{band}[{}] === '{digit}'", k - 1)).await;
    }
    click(&c, "unique").await;
    wait_text(&c, "status", "exactly one solution").await;
    click(&c, "export").await;
    let exported = page(&c, "document.getElementById('io-text').value").await;
    assert_eq!(exported, json!("3 3\n1 1\n3 3\n\n3 1 1\n1 1 3\n"));
    click(&c, "io-close").await;
    click(&c, "mode-play").await;
    // Hints: row 1 owes three cells; once they are drawn, the hint goes on from the drawing.
    let rule = hint_levels(&c).await;
    assert_eq!(rule, "clue takes every free cell");
    // The answer is one placement of the step (which fills the rest of row 1).
    wait_text(&c, "status", "r1c2 = used (one of the 2 cells this step fills)").await;
    assert!(hinted(&c).await.contains(&"r1c2".to_string()));
    // The arrows draw from door A; the third stops at the frame.
    let (right, down, left): (char, char, char) = (Key::Right.into(), Key::Down.into(), Key::Left.into());
    keys(&c, &[right, right, right]).await;
    assert_eq!(lines(&c).await, ["r1c1-r1c2", "r1c2-r1c3"]);
    // The drawn lines are the position: the next hint goes on from them (bookkeeping such as
    // "door A has its one line" passed over).
    click(&c, "hint-answer").await;
    wait_text(&c, "status", "only ways out").await;
    wait_text(&c, "status", "so r1c3-r2c3 line").await;
    // Apply draws the line.
    click(&c, "hint-apply").await;
    wait_text(&c, "status", "applied: ").await;
    assert_eq!(lines(&c).await, ["r1c1-r1c2", "r1c2-r1c3", "r1c3-r2c3"]);
    // Explain: the step that draws lines (only ways out) shows them on the board.
    click(&c, "explain").await;
    wait_text(&c, "explain-rating", "rating").await;
    let step = page(
        &c,
        "(() => { const b = [...document.querySelectorAll('#explain-steps > li > button')].find(b => /c\\d+ line\\b/.test(b.textContent)); b.click(); return b.dataset.step; })()",
    )
    .await;
    assert!(step.is_string(), "a step concludes lines");
    wait_text(&c, "status", "only ways out").await;
    let links = page(&c, "document.querySelectorAll('#board line.hint-link').length").await;
    assert!(links.as_u64().unwrap() >= 1, "{links}");
    screenshot(&c, "path-explain").await;
    close_explain(&c).await;
    click(&c, "clear").await;
    wait_text(&c, "status", "your entries are cleared").await;
    assert!(lines(&c).await.is_empty());
    // A wrong line: the hints say so, graded (then which one), and Check calls it a mistake,
    // marking its cells, instead of "not finished yet".
    drag(&c, &["r1c1", "r2c1"]).await;
    assert_eq!(lines(&c).await, ["r1c1-r2c1"]);
    click(&c, "hint-nudge").await;
    wait_text(&c, "status", "one of your entries is wrong").await;
    click(&c, "hint-rule").await;
    wait_text(&c, "status", "look at your entry at r1c1-r2c1").await;
    assert_eq!(marked(&c).await, ["r1c1", "r2c1"]);
    click(&c, "hint-answer").await;
    wait_text(&c, "status", "not in the puzzle's only solution: r1c1-r2c1 line").await;
    click(&c, "check").await;
    wait_text(&c, "status", "1 mistake: r1c1-r2c1 line is not in the solution").await;
    assert_eq!(marked(&c).await, ["r1c1", "r2c1"]);
    // Dragging over a line again erases it.
    drag(&c, &["r1c1", "r2c1"]).await;
    assert!(lines(&c).await.is_empty());
    // ✕: a cell no line uses. A right mark leaves a hint; a wrong one is a mistake.
    click(&c, "tool-cross").await;
    click_cell(&c, "r2c1").await;
    assert_eq!(crosses(&c).await, (vec!["r2c1".to_string()], 1));
    // A mark is one undo step.
    click(&c, "undo").await;
    assert_eq!(crosses(&c).await, (vec![], 0));
    click(&c, "redo").await;
    assert_eq!(crosses(&c).await, (vec!["r2c1".to_string()], 1));
    assert_eq!(cell_value(&c, "r2c1").await, "✕ (row clue 1, column clue 1)");
    click(&c, "hint-rule").await;
    wait_text(&c, "status", "applies in").await;
    click(&c, "check").await;
    wait_text(&c, "status", "not finished yet: no mistake so far").await;
    assert!(marked(&c).await.is_empty());
    click_cell(&c, "r1c2").await;
    click(&c, "hint-nudge").await;
    wait_text(&c, "status", "one of your entries is wrong").await;
    click(&c, "check").await;
    wait_text(&c, "status", "1 mistake: r1c2 unused is not in the solution").await;
    assert_eq!(marked(&c).await, ["r1c2"]);
    click(&c, "clear").await;
    wait_text(&c, "status", "your entries are cleared").await;
    // By keyboard: with ✕ the arrows move the cursor (from the cell tapped last, r1c2) and x
    // marks; with Line they draw (a line takes the ✕ away), Shift with an arrow only moves.
    keys(&c, &[left, down, 'x']).await;
    assert_eq!(crosses(&c).await, (vec!["r2c1".to_string()], 1));
    click(&c, "tool-line").await;
    let shift: char = Key::Shift.into();
    let kb = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: down })
        .then(KeyAction::Up { value: down })
        .then(KeyAction::Down { value: shift })
        .then(KeyAction::Down { value: right })
        .then(KeyAction::Up { value: right })
        .then(KeyAction::Up { value: shift })
        .then(KeyAction::Down { value: right })
        .then(KeyAction::Up { value: right });
    c.perform_actions(kb).await.unwrap();
    assert_eq!(lines(&c).await, ["r2c1-r3c1", "r3c2-r3c3"]);
    assert_eq!(crosses(&c).await, (vec![], 0));
    click(&c, "clear").await;
    // The whole path by one drag: "Solved!" by itself; Check agrees.
    drag(&c, &["r1c1", "r1c2", "r1c3", "r2c3", "r3c3"]).await;
    wait_text(&c, "status", "Solved!").await;
    click(&c, "check").await;
    wait_text(&c, "status", "your configuration is correct, well done.").await;
    // Dragging over a line of the path erases it; drawing it again solves it again.
    drag(&c, &["r1c3", "r1c2"]).await;
    assert_eq!(lines(&c).await, ["r1c1-r1c2", "r1c3-r2c3", "r2c3-r3c3"]);
    click(&c, "check").await;
    wait_text(&c, "status", "not finished yet: no mistake so far").await;
    drag(&c, &["r1c2", "r1c3"]).await;
    wait_text(&c, "status", "Solved!").await;
    // Clear, then Solve draws the answer.
    click(&c, "clear").await;
    wait_text(&c, "status", "your entries are cleared").await;
    click(&c, "solve").await;
    wait_text(&c, "messages", "solved by the").await;
    assert_eq!(lines(&c).await, ["r1c1-r1c2", "r1c2-r1c3", "r1c3-r2c3", "r2c3-r3c3"]);
    set_input(&c, "rows", "6").await;
    set_input(&c, "cols", "6").await;
    click(&c, "generate").await;
    wait_text(&c, "status", "6×6 puzzle").await;
    wait_text(&c, "messages", "exactly one solution").await;
    click(&c, "solve").await;
    wait_text(&c, "messages", "solved by the").await;
    click(&c, "check").await;
    wait_text(&c, "status", "your configuration is correct, well done.").await;
    screenshot(&c, "path").await;

    // Sudoku: its first bundled level; the next step as a hint at three levels, applied;
    // the steps of the whole solution (Explain); Solve, Check.
    click(&c, "tab-sudoku").await;
    wait_text(&c, "status", "Easy 1").await;
    let rule = hint_levels(&c).await;
    let entries = "return document.querySelectorAll('#board text.num.entry').length;";
    let before = c.execute(entries, vec![]).await.unwrap().as_u64().unwrap();
    assert_eq!(
        page(&c, "!document.getElementById('hint-apply').hidden").await,
        json!(true),
        "the first hint of an easy Sudoku places a digit"
    );
    click(&c, "hint-apply").await;
    wait_text(&c, "status", &format!("applied: {rule}")).await;
    let after = c.execute(entries, vec![]).await.unwrap().as_u64().unwrap();
    assert!(after > before, "{before} {after}");
    explain_panel(&c, "sudoku", 0).await;
    click(&c, "solve").await;
    wait_text(&c, "messages", "solved by the").await;
    click(&c, "check").await;
    wait_text(&c, "status", "your configuration is correct, well done.").await;
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

/// Asks the hint at the three levels and checks what each shows: the nudge highlights cells
/// and names no rule, the rule level names the rule there (the same cells), the answer gives
/// the rule's conclusion. Returns the rule's name.
async fn hint_levels(c: &Client) -> String {
    click(c, "hint-nudge").await;
    let nudge = wait_text(c, "status", "look at").await;
    let cells = hinted(c).await;
    assert!(!cells.is_empty(), "the nudge highlights cells: {nudge}");
    assert!(
        !wait_text(c, "messages", "look at").await.contains("rule:"),
        "a nudge names no rule"
    );
    click(c, "hint-rule").await;
    let rule = wait_text(c, "status", "applies in").await;
    let name = rule.split(" (level ").next().unwrap().to_string();
    wait_text(c, "messages", &format!("rule: {name} (level")).await;
    assert_eq!(hinted(c).await, cells, "the rule is about the nudge's cells");
    click(c, "hint-answer").await;
    let answer = wait_text(c, "status", &format!("{name}: ")).await;
    assert!(answer.len() > name.len() + 2, "{answer}");
    name
}

/// Opens the Explain panel: the steps with rule name, level and text, the rating at the end;
/// clicking step `k` highlights its cells and tells it.
async fn explain_panel(c: &Client, family: &str, k: usize) {
    click(c, "explain").await;
    let rating = wait_text(c, "explain-rating", "rating ").await;
    assert!(rating.contains("hardest: "), "{rating}");
    let steps = c
        .execute(
            "return [...document.querySelectorAll('#explain-steps > li > button')].map(b => [b.querySelector('.rule-name').textContent, b.querySelector('.level').textContent, b.querySelector('.step-text').textContent]);",
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
        "document.querySelectorAll('#explain-steps > li > button')[arguments[0]].click();",
        vec![json!(k)],
    )
    .await
    .unwrap();
    let name = steps[k][0].as_str().unwrap();
    wait_text(c, "status", &format!("step {}: {name}: ", k + 1)).await;
    assert!(!hinted(c).await.is_empty(), "the step's cells are highlighted");
    let pressed = c
        .execute(
            "return document.querySelectorAll('#explain-steps > li > button')[arguments[0]].getAttribute('aria-pressed');",
            vec![json!(k)],
        )
        .await
        .unwrap();
    assert_eq!(pressed, json!("true"));
    screenshot(c, &format!("{family}-explain")).await;
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

/// The labels of the number pad's digit buttons (none while the pad is hidden).
async fn pad_digits(c: &Client) -> Vec<String> {
    let v = c
        .execute(
            "return document.getElementById('pad').hidden ? [] : [...document.querySelectorAll('#pad-digits button')].map(b => b.textContent);",
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

/// The server's solution of the open puzzle, as a position of the board (the page reads it
/// with its own `positionFrom`, as Solve does), packed as the page saves positions.
async fn solution_of(c: &Client, addr: std::net::SocketAddr) -> serde_json::Value {
    let body = json!({"puzzle": page(c, "G.family").await, "text": page(c, "G.text").await});
    let (status, v) = serve_common::post(addr, "/api/solve", &body);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"], "solved", "{v}");
    c.execute(
        "const res = arguments[0]; \
         return packPos(positionFrom(res.position ? res.position.trim().split('\\n') : res.solution));",
        vec![v],
    )
    .await
    .unwrap()
}

fn name(r: usize, c: usize) -> String {
    format!("r{}c{}", r + 1, c + 1)
}

#[test]
fn every_family_is_solved_by_touch_on_a_phone() {
    with_screen(Screen::Phone, phone_scenario);
}

/// On a 390×844 touch screen: a number, a line and a shading family solved start to finish
/// with taps only (cells, the number pad, tap-to-tap lines, the Cycle tool), each ending in
/// the automatic "Solved!".
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
    let answer = solution_of(&c, addr).await;
    let empty: Vec<usize> = (0..answer["v"].as_array().unwrap().len())
        .filter(|&i| answer["v"][i] != 0)
        .collect();
    let cols = page(&c, "G.board.cols").await.as_u64().unwrap() as usize;
    // A pencil mark first, then the numbers.
    let at = |i: usize| name(i / cols, i % cols);
    tap_cell(&c, &at(empty[0])).await;
    tap(&c, "#pad-pencil").await;
    assert_eq!(
        page(&c, "document.getElementById('pad-pencil').getAttribute('aria-pressed')").await,
        json!("true")
    );
    tap_digit(&c, 2).await;
    assert_eq!(
        page(&c, "document.querySelectorAll('#board text.pencil').length").await,
        json!(1)
    );
    assert_eq!(cell_value(&c, &at(empty[0])).await, "pencil 2");
    tap(&c, "#pad-pencil").await;
    for &i in &empty {
        tap_cell(&c, &at(i)).await;
        tap_digit(&c, answer["v"][i].as_u64().unwrap()).await;
    }
    wait_text(&c, "status", "Solved!").await;
    screenshot(&c, "phone-suguru").await;

    // Path: its first level, drawn by tapping a cell and then its neighbour, along the path
    // from door A.
    tap(&c, "#tab-path").await;
    wait_text(&c, "status", "Easy 1").await;
    assert!(pad_digits(&c).await.is_empty(), "no digits to enter");
    let answer = solution_of(&c, addr).await;
    let route = c
        .execute(
            "const l = new Set(arguments[0].l); const b = G.board; \
             let cur = b.doors[0].cell[0] * b.cols + b.doors[0].cell[1]; const route = [cur]; \
             for (;;) { const e = [...l].find((x) => edgeCells(x).includes(cur)); if (e === undefined) break; \
               l.delete(e); const [a, z] = edgeCells(e); cur = a === cur ? z : a; route.push(cur); } \
             return route.map(cellName);",
            vec![answer.clone()],
        )
        .await
        .unwrap();
    let route: Vec<String> = serde_json::from_value(route).unwrap();
    assert_eq!(route.len(), answer["l"].as_array().unwrap().len() + 1, "{route:?}");
    for cell in &route[..3] {
        tap_cell(&c, cell).await;
    }
    assert_eq!(lines(&c).await.len(), 2);
    // Tapping the neighbour back toggles the line off, and on again.
    tap_cell(&c, &route[1]).await;
    assert_eq!(lines(&c).await.len(), 1);
    tap_cell(&c, &route[2]).await;
    assert_eq!(lines(&c).await.len(), 2);
    for cell in &route[3..] {
        tap_cell(&c, cell).await;
    }
    wait_text(&c, "status", "Solved!").await;
    assert_eq!(lines(&c).await.len(), route.len() - 1);
    screenshot(&c, "phone-path").await;

    // Snake: its first level, shaded with the Cycle tool: a tap shades, the next tap makes a
    // dot. A wrong shade is a mistake for Check, marked; its dot is not.
    tap(&c, "#tab-snake").await;
    wait_text(&c, "status", "Easy 1").await;
    let answer = solution_of(&c, addr).await;
    let shades: Vec<u32> = answer["s"]
        .as_str()
        .unwrap()
        .chars()
        .map(|ch| ch.to_digit(10).unwrap())
        .collect();
    let cols = page(&c, "G.board.cols").await.as_u64().unwrap() as usize;
    let at = |i: usize| name(i / cols, i % cols);
    let off = (0..shades.len())
        .find(|&i| shades[i] == 0)
        .expect("a cell off the snake");
    tap(&c, "#tool-cycle").await;
    tap_cell(&c, &at(off)).await;
    assert_eq!(cell_value(&c, &at(off)).await, "snake");
    tap(&c, "#check").await;
    wait_text(
        &c,
        "status",
        &format!("1 mistake: {} snake is not in the solution", at(off)),
    )
    .await;
    assert_eq!(marked(&c).await, [at(off)]);
    tap_cell(&c, &at(off)).await;
    assert_eq!(cell_value(&c, &at(off)).await, "dot (empty)");
    tap(&c, "#check").await;
    wait_text(&c, "status", "not finished yet: no mistake so far").await;
    assert!(marked(&c).await.is_empty());
    for i in (0..shades.len()).filter(|&i| shades[i] == 1) {
        tap_cell(&c, &at(i)).await;
    }
    wait_text(&c, "status", "Solved!").await;
    screenshot(&c, "phone-snake").await;

    // Sudoku: a generated 4×4; a pencil mark, then the digits.
    tap(&c, "#tab-sudoku").await;
    wait_text(&c, "status", "Easy 1").await;
    set_input(&c, "rows", "4").await;
    set_input(&c, "cols", "4").await;
    set_input(&c, "gen-level", "easy").await;
    tap(&c, "#generate").await;
    wait_text(&c, "status", "a new easy 4×4 puzzle").await;
    assert_eq!(pad_digits(&c).await, ["1", "2", "3", "4"]);
    let answer = solution_of(&c, addr).await;
    let empty: Vec<usize> = (0..16).filter(|&i| answer["v"][i] != 0).collect();
    tap_cell(&c, &name(empty[0] / 4, empty[0] % 4)).await;
    tap(&c, "#pad-pencil").await;
    tap_digit(&c, 3).await;
    assert_eq!(
        page(&c, "document.querySelectorAll('#board text.pencil').length").await,
        json!(1)
    );
    tap(&c, "#pad-pencil").await;
    for &i in &empty {
        tap_cell(&c, &name(i / 4, i % 4)).await;
        tap_digit(&c, answer["v"][i].as_u64().unwrap()).await;
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

/// Reloads the page at once (the page saves every change when it is made).
async fn reload(c: &Client) {
    c.refresh().await.unwrap();
    c.wait()
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .unwrap();
}

/// The share link of the current puzzle with the progress, from the Import / Export dialog.
async fn share_link(c: &Client) -> String {
    click(c, "export").await;
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

/// Opens a family's tab by its address and waits for its first puzzle.
async fn goto_tab(c: &Client, addr: std::net::SocketAddr, family: &str) {
    c.goto(&format!("http://{addr}/#{family}")).await.unwrap();
    c.wait()
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .unwrap();
    wait_until(c, &format!("G && G.family === '{family}' && !!G.board")).await;
    idle(c).await;
}

#[test]
fn checks_undo_saved_progress_and_sizes_in_every_family() {
    with_browser(play_scenario);
}

/// For Suguru, Path and Sudoku: a deliberate conflict marked on exactly the conflicting cells,
/// undo and redo, progress kept over a reload and carried by a share link, a size beyond the
/// limits refused with a message; a puzz.link URL opened by `/?url=`; and two redraw guards.
async fn play_scenario(c: Client, addr: std::net::SocketAddr) {
    // ---- Suguru (Easy 1: 5×5; r1c2 holds a given 3 in the region of r1c3).
    open(&c, addr, "suguru").await;
    wait_text(&c, "status", "Easy 1").await;
    click_cell(&c, "r1c3").await;
    keys(&c, &['3']).await;
    click(&c, "check").await;
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
    click(&c, "redo").await;
    assert_eq!(cell_value(&c, "r1c4").await, "2");
    click(&c, "redo").await;
    wait_text(&c, "status", "nothing to redo").await;
    // A reload at once keeps the progress; a share link carries it to a browser without it.
    reload(&c).await;
    wait_text(&c, "status", "your progress").await;
    assert_eq!(
        (cell_value(&c, "r1c3").await, cell_value(&c, "r1c4").await),
        ("3".into(), "2".into())
    );
    let link = share_link(&c).await;
    open_shared(&c, &link).await;
    wait_text(&c, "status", "opened a shared puzzle with its progress").await;
    assert_eq!(
        (cell_value(&c, "r1c3").await, cell_value(&c, "r1c4").await),
        ("3".into(), "2".into())
    );
    // Sizes: the server's limits are asked, and a size beyond them is refused with the reason.
    let sub = wait_text(&c, "board-sub", "5×5").await;
    click(&c, "mode-creative").await;
    set_input(&c, "rows", "60").await;
    set_input(&c, "cols", "60").await;
    click(&c, "new-grid").await;
    wait_text(&c, "status", "a grid has at most 2500 cells, not 60×60 = 3600").await;
    assert_eq!(
        wait_text(&c, "board-sub", "5×5").await,
        format!("{sub} · Creative Mode"),
        "nothing was built"
    );
    set_input(&c, "rows", "abc").await;
    click(&c, "new-grid").await;
    wait_text(&c, "status", "the rows field is empty or not a number").await;
    click(&c, "mode-play").await;
    set_input(&c, "rows", "15").await;
    set_input(&c, "cols", "15").await;
    click(&c, "generate").await;
    wait_text(&c, "status", "the generator makes grids of 2 to 12 rows, not 15").await;
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
    assert_eq!(wait_text(&c, "board-sub", "3×3").await, "3×3, 3 regions");

    // ---- Path (3×3, doors r1c1 and r3c3, row clues 3 1 1, column clues 1 1 3).
    goto_tab(&c, addr, "path").await;
    click(&c, "export").await;
    c.execute(
        "document.getElementById('io-text').value = arguments[0];",
        vec![json!("3 3\n1 1\n3 3\n\n3 1 1\n1 1 3\n")],
    )
    .await
    .unwrap();
    click(&c, "io-load").await;
    wait_text(&c, "messages", "puzzle loaded").await;
    wait_text(&c, "board-sub", "3×3").await;
    let (right, down): (char, char) = (Key::Right.into(), Key::Down.into());
    keys(&c, &[right]).await;
    // An unfinished path is judged by what is already wrong: here nothing.
    click(&c, "check").await;
    wait_text(&c, "status", "not finished yet: no mistake so far").await;
    assert!(marked(&c).await.is_empty());
    // Column 2 (clue 1) gets a second path cell: a mistake, its two cells marked, the broken
    // clue listed.
    keys(&c, &[down]).await;
    click(&c, "check").await;
    wait_text(&c, "status", "1 mistake: r1c2-r2c2 line is not in the solution").await;
    wait_text(&c, "messages", "not met: column 2 has 2 path cells, its clue is 1").await;
    assert_eq!(marked(&c).await, ["r1c2", "r2c2"]);
    chord(&c, false, 'z').await;
    assert_eq!(lines(&c).await, ["r1c1-r1c2"]);
    assert!(marked(&c).await.is_empty());
    chord(&c, false, 'y').await;
    assert_eq!(lines(&c).await, ["r1c1-r1c2", "r1c2-r2c2"]);
    click(&c, "undo").await;
    assert_eq!(lines(&c).await, ["r1c1-r1c2"]);
    reload(&c).await;
    wait_until(&c, "G && G.family === 'path' && !!G.board").await;
    wait_text(&c, "status", "your progress").await;
    assert_eq!(lines(&c).await, ["r1c1-r1c2"]);
    let link = share_link(&c).await;
    open_shared(&c, &link).await;
    wait_text(&c, "status", "opened a shared puzzle with its progress").await;
    assert_eq!(lines(&c).await, ["r1c1-r1c2"]);
    // In the accessibility tree: 3 rows of 3 cells, 2 with a line, each with its clues.
    let ax = ax_grid(&c).await;
    assert_eq!(
        ax.rows.iter().map(|(_, cells)| cells.len()).collect::<Vec<_>>(),
        [3, 3, 3]
    );
    assert_eq!(ax.cells().filter(|x| x.name.contains(": line ")).count(), 2);
    assert_eq!(ax.cell(0, 1).name, "r1c2: line w (row clue 3, column clue 1)");
    assert_eq!(ax.cell(1, 0).name, "r2c1: empty (row clue 1, column clue 1)");
    // A clue larger than its row is refused, not cut down; so is a generator size above 12.
    click(&c, "mode-creative").await;
    click_cell(&c, "row1").await;
    keys(&c, &['9']).await;
    wait_text(&c, "status", "a row clue is at most 3, found 9").await;
    assert_eq!(page(&c, "G.board.left").await, json!(["3", "1", "1"]));
    set_input(&c, "rows", "13").await;
    click(&c, "generate").await;
    wait_text(&c, "status", "the generator makes grids of 2 to 12 rows, not 13").await;
    click(&c, "mode-play").await;

    // ---- Sudoku (its first level).
    goto_tab(&c, addr, "sudoku").await;
    wait_text(&c, "status", "Easy 1").await;
    // The board in the accessibility tree: a grid of 9 rows of 9 cells named "r1c1: 5" or
    // "r1c1: empty" (as the page's state says); the arrow keys select a cell, which is the
    // grid's active descendant.
    let ax = ax_grid(&c).await;
    assert_eq!(ax.rows.len(), 9);
    let shown: Vec<u64> =
        serde_json::from_value(page(&c, "G.board.givens.map((g, i) => (g ? g.value : G.pos.v[i]))").await).unwrap();
    for (r, (role, cells)) in ax.rows.iter().enumerate() {
        assert_eq!(role, "row");
        assert_eq!(cells.len(), 9, "row {}: {cells:?}", r + 1);
        for (k, cell) in cells.iter().enumerate() {
            assert_eq!(cell.role, "gridcell");
            let v = shown[r * 9 + k];
            let want = if v == 0 { "empty".to_string() } else { v.to_string() };
            assert_eq!(cell.name, format!("{}: {want}", name(r, k)));
        }
    }
    assert_eq!(ax.active, None, "no cell selected yet");
    keys(&c, &[right]).await;
    assert_eq!(ax_grid(&c).await.active.as_deref(), Some(ax.cell(0, 0).name.as_str()));
    keys(&c, &[right, down]).await;
    assert_eq!(ax_grid(&c).await.active.as_deref(), Some(ax.cell(1, 1).name.as_str()));
    // An empty cell of a row and a digit given in that row but not in the cell's column or
    // block: Check marks the two cells that hold it.
    let pick = page(
        &c,
        "(() => { const g = (i) => (G.board.givens[i] ? G.board.givens[i].value : 0); \
           const box = (i) => Math.floor(Math.floor(i / 9) / 3) * 3 + Math.floor((i % 9) / 3); \
           for (let i = 0; i < 81; i++) { if (g(i)) continue; const r = Math.floor(i / 9); \
             for (let j = r * 9; j < r * 9 + 9; j++) { const d = g(j); if (!d) continue; \
               let clash = false; for (let p = 0; p < 81; p++) \
                 if (p !== j && g(p) === d && (p % 9 === i % 9 || box(p) === box(i))) clash = true; \
               if (!clash) return [cellName(i), cellName(j), d]; } } })()",
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
    click(&c, "check").await;
    wait_text(&c, "status", &format!("holds {digit} twice")).await;
    let mut expected = vec![cell.clone(), twin.clone()];
    expected.sort();
    assert_eq!(marked(&c).await, expected);
    chord(&c, false, 'z').await;
    assert_eq!(cell_value(&c, &cell).await, "empty");
    chord(&c, true, 'z').await;
    assert_eq!(cell_value(&c, &cell).await, digit.to_string());
    reload(&c).await;
    wait_text(&c, "status", "your progress").await;
    assert_eq!(cell_value(&c, &cell).await, digit.to_string());
    let link = share_link(&c).await;
    open_shared(&c, &link).await;
    wait_text(&c, "status", "opened a shared puzzle with its progress").await;
    assert_eq!(cell_value(&c, &cell).await, digit.to_string());
    // The generator makes Sudoku up to 12×12: a 16×16 one is refused, the size kept.
    set_input(&c, "rows", "16").await;
    set_input(&c, "cols", "16").await;
    click(&c, "generate").await;
    wait_text(&c, "status", "the generator makes grids of 2 to 12 rows, not 16").await;
    assert_eq!(page(&c, "document.getElementById('rows').value").await, json!("16"));
    screenshot(&c, "sudoku-refused").await;

    // ---- Redraw guard: a region drawn by dragging over a 50×50 Suguru updates within 50 ms
    // per pointer move (a coarse guard for a loaded CI machine; the target is 16 ms, see
    // BENCHMARKS.md). Each move is timed from the document's capture listener to the window's
    // bubbling one, with the layout forced.
    goto_tab(&c, addr, "suguru").await;
    click(&c, "mode-creative").await;
    set_input(&c, "rows", "50").await;
    set_input(&c, "cols", "50").await;
    click(&c, "new-grid").await;
    wait_text(&c, "board-sub", "50×50, 1 region · Creative Mode").await;
    click(&c, "ctool-region").await;
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
    click(&c, "mode-play").await;

    // ---- The same guard for a keystroke on an empty 16×16 Sudoku with every pencil mark
    // (16 on each cell): 16 symbols typed along row 1, an arrow key after each, every key
    // timed from the document's capturing keydown listener to the window's bubbling one, with
    // the layout forced.
    goto_tab(&c, addr, "sudoku").await;
    click(&c, "export").await;
    c.execute("document.getElementById('io-text').value = '.'.repeat(256);", vec![])
        .await
        .unwrap();
    click(&c, "io-load").await;
    wait_text(&c, "board-sub", "16×16").await;
    c.execute("G.pos.pm = G.pos.pm.map(() => (1 << 17) - 2); update();", vec![])
        .await
        .unwrap();
    assert_eq!(
        page(&c, "document.querySelectorAll('#board text.pencil').length").await,
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
    // The grid is what was typed; a number hides its cell's pencil marks.
    assert_eq!(cell_value(&c, "r1c10").await, "10");
    assert_eq!(cell_value(&c, "r1c16").await, "16");
    assert_eq!(
        page(&c, "document.querySelectorAll('#board text.pencil').length").await,
        json!(240 * 16)
    );
    let worst = ms.iter().cloned().fold(0.0, f64::max);
    let mut sorted = ms.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "16x16 Sudoku with pencil marks: {} keystrokes, median {:.2} ms, worst {worst:.2} ms",
        ms.len(),
        sorted[sorted.len() / 2]
    );
    assert!(worst < 50.0, "a keystroke took {worst:.1} ms to redraw: {ms:?}");
}
