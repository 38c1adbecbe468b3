//! The static build of the playground (`scripts/build-web.sh OUT`) in a real headless Chromium
//! on a 390×844 touch phone, served by a plain static file server started here (no pencilbox
//! process): every request of the page is answered by the WebAssembly module in a Web Worker.
//!
//! * every family's tab opens a puzzle, which is solved by taps alone up to the automatic
//!   "Solved!" (the worker's verify); the board, the status line and the action bar fit the
//!   screen, with 44 px buttons;
//! * a game half played (lines, ✕ marks, a paused timer) is kept over a reload at once, and
//!   its share link opens it with the progress in a fresh profile;
//! * a long count is stopped by Stop within a second (the worker is terminated) and the page
//!   goes on solving with a fresh worker;
//! * after the first load the service worker has cached every file: with the server gone and
//!   the network offline, a reload opens the page and it still solves; Chromium finds the page
//!   installable (manifest, icons, service worker);
//! * the time to first interaction: navigation start to the first board drawn, to the worker
//!   ready, and to the first puzzle playable, printed (docs/playground.md quotes them).
//!
//! The site is read from `PENCILBOX_WEB_DIR`, else `target/web` (`.ci/run` builds it there
//! with `scripts/build-web.sh target/web` first). Without chromium and chromedriver, or without
//! a build whose page matches `crates/cli/assets`, the tests print `skip:` and pass, except under
//! `CI=true`, where that is a failure.

use fantoccini::actions::{InputSource, PointerAction, TouchActions, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
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
];

fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Skips the test (or fails it under `CI=true`) with `why`.
fn skip(why: &str) {
    assert!(!on_ci(), "CI=true but {why}");
    pencilbox_core::testing::skip(why);
}

fn find_program(env: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        return Some(PathBuf::from(p));
    }
    let dirs = std::iter::once(PathBuf::from("/usr/bin"))
        .chain(std::env::var_os("PATH").map_or_else(Vec::new, |p| std::env::split_paths(&p).collect()));
    let dirs: Vec<PathBuf> = dirs.collect();
    names
        .iter()
        .flat_map(|n| dirs.iter().map(move |d| d.join(n)))
        .find(|p| p.is_file())
}

/// The static site, checked to be a build of the page in `crates/cli/assets`.
fn site() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace");
    let dir = std::env::var_os("PENCILBOX_WEB_DIR").map_or_else(|| root.join("target/web"), PathBuf::from);
    if !dir.join("pencilbox_web_bg.wasm").is_file() {
        skip(&format!(
            "no static build in {} (scripts/build-web.sh {} makes it)",
            dir.display(),
            dir.display()
        ));
        return None;
    }
    for file in ["index.html", "app.js", "style.css"] {
        let built = std::fs::read(dir.join(file)).unwrap_or_default();
        let source = std::fs::read(root.join("crates/cli/assets").join(file)).expect("the page's source");
        if built != source {
            skip(&format!(
                "{}/{file} is older than crates/cli/assets/{file}: run scripts/build-web.sh again",
                dir.display()
            ));
            return None;
        }
    }
    Some(dir)
}

/// A plain static file server on a free loopback port, as `python3 -m http.server` is: `GET`
/// of the files under `root`, nothing else (with `PENCILBOX_WEB_SERVER=python`, Python's own).
/// Stopped (its port closed) by [`Static::stop`] or on drop.
struct Static {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    python: Option<Child>,
}

impl Static {
    fn start(root: PathBuf) -> Static {
        if std::env::var("PENCILBOX_WEB_SERVER").is_ok_and(|v| v == "python") {
            let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
            let child = Command::new("python3")
                .args(["-m", "http.server", "--bind", "127.0.0.1", "-d"])
                .arg(&root)
                .arg(port.to_string())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("python3 -m http.server starts");
            let addr = SocketAddr::from(([127, 0, 0, 1], port));
            let t0 = Instant::now();
            while TcpStream::connect(addr).is_err() {
                assert!(
                    t0.elapsed() < Duration::from_secs(20),
                    "python3 -m http.server did not start"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
            return Static {
                addr,
                stop: Arc::default(),
                thread: None,
                python: Some(child),
            };
        }
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let addr = listener.local_addr().expect("addr");
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            while !flag.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let root = root.clone();
                        std::thread::spawn(move || serve_file(stream, &root));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Static {
            addr,
            stop,
            thread: Some(thread),
            python: None,
        }
    }

    fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        if let Some(mut p) = self.python.take() {
            let _ = p.kill();
            let _ = p.wait();
        }
    }
}

impl Drop for Static {
    fn drop(&mut self) {
        self.stop();
    }
}

fn serve_file(stream: TcpStream, root: &Path) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut reader = BufReader::new(&stream);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    // The rest of the header.
    let mut h = String::new();
    while reader.read_line(&mut h).is_ok_and(|n| n > 2) {
        h.clear();
    }
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let path = if path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_string()
    };
    let file = root.join(path.trim_start_matches('/'));
    let body = if method == "GET" && !path.contains("..") {
        std::fs::read(&file).ok()
    } else {
        None
    };
    let mut out = &stream;
    let _ = match body {
        Some(body) => {
            let kind = match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
                "html" => "text/html; charset=utf-8",
                "js" => "text/javascript; charset=utf-8",
                "css" => "text/css; charset=utf-8",
                "wasm" => "application/wasm",
                "svg" => "image/svg+xml",
                "png" => "image/png",
                "webmanifest" => "application/manifest+json",
                _ => "application/octet-stream",
            };
            write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            )
            .and_then(|_| out.write_all(&body))
        }
        None => out.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
    };
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

fn start_driver(driver: &Path) -> Driver {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let profile = std::env::temp_dir().join(format!("pencilbox-web-chromium-{}-{port}", std::process::id()));
    let d = Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
        profile,
    };
    let t0 = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(t0.elapsed() < Duration::from_secs(20), "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    d
}

/// A session on a 390×844 touch phone (Chromium's mobile emulation), with a fresh profile.
async fn connect(driver: &Driver, chromium: &Path) -> Client {
    let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| s.to_string()).collect();
    args.push(format!("--user-data-dir={}", driver.profile.display()));
    let options = json!({
        "binary": chromium.display().to_string(),
        "args": args,
        "mobileEmulation": {
            "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2.0, "touch": true, "mobile": true}
        },
    });
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".to_string(), options);
    caps.insert("goog:loggingPrefs".to_string(), json!({"browser": "ALL"}));
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a chromium session")
}

/// chromedriver's console log (`POST /session/{id}/se/log`, type `browser`).
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }
    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(r#"{"type":"browser"}"#.to_string()))
    }
}

/// The JavaScript errors the page logged (SEVERE entries not about a network answer).
async fn console_errors(c: &Client) -> Vec<String> {
    let log = c.issue_cmd(BrowserLog).await.expect("the browser's console log");
    log.as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["level"] == "SEVERE" && e["source"] != "network")
        .map(|e| e["message"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// A Chrome DevTools Protocol command through chromedriver.
#[derive(Debug)]
struct Cdp(&'static str, Value);

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session.unwrap_or_default()))
    }
    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({ "cmd": self.0, "params": self.1 });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Runs a scenario against the static site on a phone: skipped without a browser or a build,
/// one browser at a time; the session is closed even when the scenario fails, and a scenario
/// that passes must leave no JavaScript error in the console.
fn with_site<F>(scenario: impl FnOnce(Client, Static) -> F)
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let chromium = find_program("PENCILBOX_CHROMIUM", &["chromium", "chromium-browser"]);
    let driver = find_program("PENCILBOX_CHROMEDRIVER", &["chromedriver"]);
    let (Some(chromium), Some(driver)) = (chromium, driver) else {
        skip("chromium or chromedriver not found (apt-get install chromium chromium-driver)");
        return;
    };
    let Some(dir) = site() else { return };
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let server = Static::start(dir);
        let driver = start_driver(&driver);
        let c = connect(&driver, &chromium).await;
        let outcome = tokio::spawn(scenario(c.clone(), server)).await;
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
            t0.elapsed() < Duration::from_secs(30),
            "#{id} never showed {needle:?}; it shows {text:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A JavaScript value of the page, as JSON.
async fn page(c: &Client, expr: &str) -> Value {
    c.execute(&format!("return {expr};"), vec![]).await.unwrap()
}

/// Waits until the page's JavaScript expression is true.
async fn wait_until(c: &Client, expr: &str) {
    let t0 = Instant::now();
    while page(c, expr).await != json!(true) {
        assert!(t0.elapsed() < Duration::from_secs(30), "never true: {expr}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

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

async fn tap_id(c: &Client, id: &str) {
    tap(c, &format!("#{id}")).await;
}

async fn open(c: &Client, addr: SocketAddr, view: &str) {
    c.goto(&format!("http://{addr}/#{view}")).await.unwrap();
    wait_ready(c).await;
}

async fn wait_ready(c: &Client) {
    c.wait()
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .unwrap();
}

/// Milliseconds from navigation start to the page's mark `name`.
async fn mark(c: &Client, name: &str) -> f64 {
    let v = page(
        c,
        &format!("(performance.getEntriesByName('{name}')[0] || {{startTime: -1}}).startTime"),
    )
    .await;
    v.as_f64().unwrap()
}

async fn set_input(c: &Client, id: &str, value: &str) {
    c.execute(
        "const e = document.getElementById(arguments[0]); e.value = arguments[1]; e.dispatchEvent(new Event('change'));",
        vec![json!(id), json!(value)],
    )
    .await
    .unwrap();
}

/// Opens a family's tab by tapping it and waits for its first puzzle.
async fn open_tab(c: &Client, family: &str) {
    tap_id(c, &format!("tab-{family}")).await;
    wait_until(
        c,
        &format!("G && G.family === '{family}' && !!G.board && document.body.dataset.busy !== 'true'"),
    )
    .await;
}

/// The taps that solve the open puzzle, from its solution (asked of the worker like any
/// request): for numbers, a cell and a digit of the pad; for shading, the cells to shade
/// (one tap each with the Cycle tool); for lines, the cells along each line, in order, so
/// that each tap on the next cell draws the line to it. Every target is a CSS selector.
async fn solving_taps(c: &Client) -> Vec<String> {
    let v = c
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
            api('/api/solve', {puzzle: G.family, text: G.text}).then((res) => {
              const p = positionFrom(res.position ? res.position.trim().split('\n') : res.solution);
              const cell = (i) => `#board rect.cell-bg[data-cell='${cellName(i)}']`;
              const taps = [];
              const b = G.board;
              if (p.v) p.v.forEach((d, i) => { if (d && !b.givens[i] && G.pos.v[i] !== d) taps.push(cell(i), `#pad-digits [data-digit='${d}']`); });
              if (p.s) p.s.forEach((s, i) => { if (s === 1 && G.pos.s[i] !== 1) taps.push(cell(i)); });
              if (p.l) {
                // Walk each line from an end (or anywhere on a loop), tapping cell after cell.
                const left = new Set(p.l);
                const deg = (i) => [...left].filter((e) => edgeCells(e).includes(i)).length;
                while (left.size) {
                  const cells = [...new Set([...left].flatMap(edgeCells))];
                  let cur = cells.find((i) => deg(i) === 1);
                  if (cur === undefined) cur = cells[0];
                  taps.push(cell(cur));
                  for (;;) {
                    const e = [...left].find((x) => edgeCells(x).includes(cur));
                    if (e === undefined) break;
                    left.delete(e);
                    const [a, z] = edgeCells(e);
                    cur = a === cur ? z : a;
                    taps.push(cell(cur));
                  }
                  taps.push(cell(cur)); // a second tap on the last cell ends the selection
                }
              }
              done(taps);
            }, (e) => done(String(e)));"#,
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v.clone()).unwrap_or_else(|_| panic!("no taps: {v}"))
}

/// Solves the open puzzle by touch alone and waits for "Solved!".
async fn solve_by_touch(c: &Client, family: &str) {
    // Lines are drawn with the Line tool, shades with Cycle (one tap: shaded).
    if page(c, "!!document.getElementById('tool-line')").await == json!(true) {
        tap_id(c, "tool-line").await;
    }
    if page(c, "!!document.getElementById('tool-cycle')").await == json!(true) {
        tap_id(c, "tool-cycle").await;
    }
    let taps = solving_taps(c).await;
    assert!(!taps.is_empty(), "{family}: nothing to tap");
    for t in &taps {
        tap(c, t).await;
    }
    wait_text(c, "status", "Solved!").await;
    let png = c.screenshot().await.unwrap();
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("static-{family}-solved.png"));
    std::fs::write(&shot, png).unwrap();
    println!(
        "{family}: solved by {} taps; screenshot: {}",
        taps.len(),
        shot.display()
    );
}

/// Every family the worker offers gets a tab and is solved by taps up to "Solved!" (the
/// worker's verify), on a phone, with no server; the action bar and the status line stay on
/// the screen next to the board.
#[test]
fn every_family_is_solved_by_touch_with_no_server() {
    with_site(|c, server| async move {
        let addr = server.addr;
        open(&c, addr, "suguru").await;
        // Time to first interaction (a fresh profile: nothing cached).
        let (worker, board, ready) = (
            mark(&c, "pencilbox:worker-ready").await,
            mark(&c, "pencilbox:first-board").await,
            mark(&c, "pencilbox:ready").await,
        );
        println!(
            "time to first interaction (cold): worker ready {worker:.0} ms, first level drawn {board:.0} ms, \
             page ready {ready:.0} ms after navigation start"
        );
        assert!(
            worker >= 0.0 && board >= worker && ready >= board,
            "{worker} {board} {ready}"
        );
        assert_eq!(page(&c, "CONFIG.api").await, json!("worker"));
        assert_eq!(
            page(&c, "[window.innerWidth, document.documentElement.scrollWidth]").await,
            json!([390, 390]),
            "the page fits the phone's width"
        );
        let tabs = page(&c, "ORDER").await;
        let families: Vec<String> = serde_json::from_value(tabs).unwrap();
        for f in [
            "masyu",
            "nurikabe",
            "path",
            "ripple",
            "snake",
            "starbattle",
            "sudoku",
            "suguru",
        ] {
            assert!(families.iter().any(|x| x == f), "{f} has a tab: {families:?}");
        }
        // The board, the status line and the action bar are all on the screen, and every
        // button of the bar is a 44 px touch target.
        let fits = page(
            &c,
            "(() => { const r = (id) => document.getElementById(id).getBoundingClientRect(); \
               const acts = [...document.querySelectorAll('.actions button:not([hidden])')]; \
               return r('board').bottom <= r('status').top + 1 && r('check').bottom <= innerHeight \
                 && acts.every((b) => b.getBoundingClientRect().height >= 44 && b.getBoundingClientRect().width >= 44); })()",
        )
        .await;
        assert_eq!(fits, json!(true), "board, status and actions within the screen");
        wait_text(&c, "status", "Easy 1").await;
        for family in families {
            if family != "suguru" {
                open_tab(&c, &family).await;
            }
            // Small grids for the families that start on a generated puzzle (fewer taps).
            if ["sudoku", "ripple", "nurikabe", "path"].contains(&family.as_str()) {
                let side = if family == "sudoku" { "4" } else { "5" };
                set_input(&c, "rows", side).await;
                set_input(&c, "cols", side).await;
                set_input(&c, "gen-level", "easy").await;
                tap_id(&c, "generate").await;
                wait_text(&c, "status", &format!("{side}×{side} puzzle")).await;
            }
            solve_by_touch(&c, &family).await;
        }
        drop(server);
    });
}

/// What is on the open board: the position as the page saves it, the timer and the tab.
async fn position(c: &Client) -> Value {
    page(c, "JSON.stringify([G.family, G.text, packPos(G.pos)])").await
}

/// A game half played (lines, ✕ marks, a paused timer) comes back whole after a reload; its
/// share link opens it, with the progress, in a fresh profile of another site's address.
#[test]
fn progress_is_kept_over_a_reload_and_through_a_share_link() {
    let link = Arc::new(Mutex::new(String::new()));
    let expected = Arc::new(Mutex::new(String::new()));
    let (l, e) = (link.clone(), expected.clone());
    with_site(|c, server| async move {
        open(&c, server.addr, "path").await;
        wait_until(
            &c,
            "G && G.family === 'path' && !!G.board && document.body.dataset.busy !== 'true'",
        )
        .await;
        // Two lines drawn by taps along the solution from its end, and a ✕.
        let taps = solving_taps(&c).await;
        tap_id(&c, "tool-line").await;
        for t in taps.iter().take(3) {
            tap(&c, t).await;
        }
        tap_id(&c, "tool-cross").await;
        let free = page(
            &c,
            "cellName([...Array(G.board.rows * G.board.cols).keys()].find((i) => !dirsOf(i) && !G.board.doors.some((d) => d.cell[0] * G.board.cols + d.cell[1] === i)))",
        )
        .await;
        tap(
            &c,
            &format!("#board rect.cell-bg[data-cell='{}']", free.as_str().unwrap()),
        )
        .await;
        wait_until(&c, "G.pos.l.size === 2 && G.pos.x.size === 1").await;
        tap_id(&c, "timer").await;
        wait_until(&c, "G.paused").await;
        let before = position(&c).await;
        // No delay before the reload: everything is saved at once.
        c.refresh().await.unwrap();
        wait_ready(&c).await;
        wait_until(&c, "G && G.family === 'path' && !!G.board").await;
        assert_eq!(position(&c).await, before, "the lines and the ✕ came back");
        assert_eq!(page(&c, "G.paused").await, json!(true), "the paused timer came back");
        tap_id(&c, "timer").await;
        // The share link carries the puzzle and the progress.
        tap_id(&c, "export").await;
        tap_id(&c, "io-share").await;
        let shared = page(&c, "document.getElementById('io-text').value").await;
        *l.lock().unwrap() = shared.as_str().unwrap().to_string();
        *e.lock().unwrap() = position(&c).await.as_str().unwrap().to_string();
        tap_id(&c, "io-close").await;
        drop(server);
    });
    let link = link.lock().unwrap().clone();
    let expected = expected.lock().unwrap().clone();
    if link.is_empty() {
        return; // skipped (no browser or build)
    }
    with_site(move |c, server| async move {
        // Another address: another origin, and a fresh profile: nothing saved here.
        let hash = &link[link.find('#').expect("a share link has a hash")..];
        c.goto(&format!("http://{}/{hash}", server.addr)).await.unwrap();
        wait_ready(&c).await;
        wait_text(&c, "status", "opened a shared puzzle with its progress").await;
        assert_eq!(position(&c).await, json!(expected));
        drop(server);
    });
}

#[test]
fn stop_ends_a_long_solve_and_the_page_goes_on() {
    with_site(|c, server| async move {
        open(&c, server.addr, "sudoku").await;
        wait_until(
            &c,
            "G && G.family === 'sudoku' && !!G.board && document.body.dataset.busy !== 'true'",
        )
        .await;
        // Counting every solution of an empty 9×9 Sudoku with a 10-minute limit, as the Solve
        // button's action (its progress line and Stop button).
        c.execute(
            "run(document.getElementById('solve'), async () => { \
               const r = await api('/api/count', {puzzle: 'sudoku', text: '.'.repeat(81), limit: 1e15, timeout: 600}); \
               setStatus(`counted ${r.count}`, 'good'); });",
            vec![],
        )
        .await
        .unwrap();
        let first = wait_text(&c, "busy-text", "working in this browser").await;
        tokio::time::sleep(Duration::from_millis(1200)).await;
        let later = wait_text(&c, "busy-text", " s").await;
        assert_ne!(first, later, "the elapsed time goes on: {first} / {later}");
        let t0 = Instant::now();
        tap_id(&c, "busy-cancel").await;
        wait_text(&c, "status", "stopped").await;
        let stopped = t0.elapsed();
        println!("Stop: the page answered {stopped:?} after the tap");
        assert!(stopped < Duration::from_secs(2), "{stopped:?}");
        assert_eq!(page(&c, "document.getElementById('busy').hidden").await, json!(true));
        // The next request is answered by a fresh worker at once (the old one would be counting
        // for ten minutes).
        let t0 = Instant::now();
        tap_id(&c, "solve").await;
        wait_text(&c, "messages", "solved by the").await;
        println!("the next Solve after Stop took {:?}", t0.elapsed());
        assert!(t0.elapsed() < Duration::from_secs(10));
        tap_id(&c, "check").await;
        wait_text(&c, "status", "your configuration is correct, well done.").await;
        drop(server);
    });
}

#[test]
fn after_the_first_load_the_page_works_offline_and_is_installable() {
    with_site(|c, mut server| async move {
        open(&c, server.addr, "suguru").await;
        wait_text(&c, "status", "Easy 1").await;
        // The service worker has installed (every file cached) and controls the page.
        wait_until(&c, "!!navigator.serviceWorker.controller").await;
        let installable = c
            .issue_cmd(Cdp("Page.getInstallabilityErrors", json!({})))
            .await
            .expect("installability");
        assert_eq!(
            installable["installabilityErrors"],
            json!([]),
            "Chromium's installability check"
        );
        let manifest = c
            .issue_cmd(Cdp("Page.getAppManifest", json!({})))
            .await
            .expect("the manifest");
        assert_eq!(manifest["errors"], json!([]), "{manifest}");
        // A warm load (the service worker's copy) for the record.
        c.refresh().await.unwrap();
        wait_ready(&c).await;
        println!(
            "time to first interaction (warm, from the service worker's cache): worker ready {:.0} ms, \
             first level drawn {:.0} ms, page ready {:.0} ms",
            mark(&c, "pencilbox:worker-ready").await,
            mark(&c, "pencilbox:first-board").await,
            mark(&c, "pencilbox:ready").await
        );
        // No server, no network: the page still opens, loads its level, plays and solves it.
        server.stop();
        assert!(TcpStream::connect(server.addr).is_err(), "the static server is gone");
        c.issue_cmd(Cdp(
            "Network.emulateNetworkConditions",
            json!({"offline": true, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}),
        ))
        .await
        .expect("offline");
        c.refresh().await.unwrap();
        wait_ready(&c).await;
        wait_text(&c, "status", "welcome back: your last puzzle").await;
        tap_id(&c, "hint-nudge").await;
        wait_text(&c, "status", "look at").await;
        tap_id(&c, "solve").await;
        wait_text(&c, "messages", "solved by the").await;
        tap_id(&c, "check").await;
        wait_text(&c, "status", "your configuration is correct, well done.").await;
        // A puzz.link address opened offline (the URL made by the same API, natively here).
        let answer: Value = serde_json::from_str(&pencilbox_web::call(
            "/api/convert",
            &json!({"puzzle": "suguru", "text": "3 3\n0 3 0\n2 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n", "to": "url"})
                .to_string(),
        ))
        .unwrap();
        let link = answer["body"]["text"].as_str().expect("a puzz.link URL");
        let query: String = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("url", link)
            .finish();
        c.goto(&format!("http://{}/?{query}", server.addr)).await.unwrap();
        wait_ready(&c).await;
        wait_text(&c, "status", "opened").await;
        wait_text(&c, "board-sub", "3×3, 3 regions").await;
        tap_id(&c, "solve").await;
        wait_text(&c, "messages", "solved by the").await;
    });
}

/// `pencilbox serve` started in-process on `addr` (a background thread, until the test
/// process ends).
fn serve_at(addr: SocketAddr) {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind(addr)
                .await
                .expect("bind the static site's address");
            tx.send(()).expect("send");
            pencilbox_cli::serve::serve(
                listener,
                pencilbox_cli::serve::Config::default(),
                std::future::pending(),
            )
            .await
            .expect("serve");
        });
    });
    rx.recv_timeout(Duration::from_secs(10))
        .expect("the server did not start");
}

/// A browser that opened the static build at an address, which `pencilbox serve` then takes
/// over: the server's `/sw.js` retires the static build's service worker and its cache, and the
/// page is the server's again.
#[test]
fn pencilbox_serve_at_the_same_address_retires_the_static_service_worker() {
    with_site(|c, mut server| async move {
        let addr = server.addr;
        open(&c, addr, "suguru").await;
        wait_until(&c, "!!navigator.serviceWorker.controller").await;
        assert_eq!(page(&c, "CONFIG.api").await, json!("worker"));
        server.stop();
        serve_at(addr);
        c.refresh().await.unwrap();
        // The first load may still come from the old worker's cache; its update check finds the
        // server's /sw.js, which removes it and reloads the page.
        let t0 = Instant::now();
        loop {
            let api = c
                .execute("return typeof CONFIG === 'undefined' ? null : CONFIG.api;", vec![])
                .await
                .unwrap_or(Value::Null);
            if api == json!("server") {
                break;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(30),
                "the page stays the static build's"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        wait_ready(&c).await;
        wait_until(&c, "!navigator.serviceWorker.controller").await;
        let caches = c
            .execute_async(
                "const done = arguments[arguments.length - 1]; caches.keys().then(done, (e) => done(String(e)));",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(caches, json!([]), "the static build's cache is gone");
        wait_until(&c, "G && !!G.board && document.body.dataset.busy !== 'true'").await;
        tap_id(&c, "solve").await;
        wait_text(&c, "messages", "solved by the").await;
    });
}
