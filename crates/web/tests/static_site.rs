//! The static build of the playground (`scripts/build-web.sh OUT`) in a real headless Chromium
//! on a 390×844 touch phone, served by a plain static file server started here (no pencilbox
//! process): every request of the page is answered by the WebAssembly module in a Web Worker.
//!
//! * every family's puzzle loads and is solved with Autocomplete / Solve, and Check says it is
//!   correct; a Sudoku filled by taps gets the automatic "Solved!" (the worker's verify);
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

/// Sets a select's value as a person picking it would.
async fn choose(c: &Client, id: &str, value: &str) {
    c.execute(
        "const s = document.getElementById(arguments[0]); s.value = arguments[1]; s.dispatchEvent(new Event('change'));",
        vec![json!(id), json!(value)],
    )
    .await
    .unwrap();
}

async fn set_input(c: &Client, id: &str, value: &str) {
    c.execute(
        "const e = document.getElementById(arguments[0]); e.value = arguments[1]; e.dispatchEvent(new Event('change'));",
        vec![json!(id), json!(value)],
    )
    .await
    .unwrap();
}

fn name(r: usize, c: usize) -> String {
    format!("r{}c{}", r + 1, c + 1)
}

#[test]
fn every_family_is_solved_by_the_webassembly_worker_with_no_server() {
    with_site(|c, server| async move {
        let addr = server.addr;
        open(&c, addr, "suguru").await;
        // Time to first interaction (a fresh profile: nothing cached).
        let (board, worker, ready) = (
            mark(&c, "pencilbox:first-board").await,
            mark(&c, "pencilbox:worker-ready").await,
            mark(&c, "pencilbox:ready").await,
        );
        println!(
            "time to first interaction (cold): first board drawn {board:.0} ms, worker ready {worker:.0} ms, \
             first level playable {ready:.0} ms after navigation start"
        );
        assert!(
            board >= 0.0 && worker >= board && ready >= worker,
            "{board} {worker} {ready}"
        );
        assert_eq!(page(&c, "CONFIG.api").await, json!("worker"));
        assert_eq!(
            page(&c, "[window.innerWidth, document.documentElement.scrollWidth]").await,
            json!([390, 390]),
            "the page fits the phone's width"
        );

        // Suguru: the first bundled level (from the worker's /api/levels), Autocomplete, Check.
        wait_text(&c, "status", "Easy 1").await;
        tap_id(&c, "sg-solve").await;
        wait_text(&c, "messages", "solved by the").await;
        tap_id(&c, "sg-check").await;
        wait_text(&c, "status", "your configuration is correct, well done.").await;

        // Ripple Effect on the region board: a generated 5×5, Autocomplete, Check.
        choose(&c, "sg-family", "ripple").await;
        wait_text(&c, "board-title", "Ripple Effect").await;
        set_input(&c, "sg-rows", "5").await;
        set_input(&c, "sg-cols", "5").await;
        tap_id(&c, "sg-generate").await;
        wait_text(&c, "status", "a new 5×5 puzzle").await;
        tap_id(&c, "sg-solve").await;
        wait_text(&c, "messages", "solved by the").await;
        tap_id(&c, "sg-check").await;
        wait_text(&c, "status", "your configuration is correct, well done.").await;

        // Path: the view's first puzzle is generated (and counted) by the worker; Solve, Check.
        tap_id(&c, "tab-path").await;
        wait_text(&c, "status", "exactly one solution").await;
        tap_id(&c, "pt-solve").await;
        wait_text(&c, "messages", "solved by the").await;
        tap_id(&c, "pt-check").await;
        wait_text(&c, "status", "your path is correct, well done.").await;

        // Sudoku: Solve and Check, then a generated 4×4 filled by taps up to "Solved!" (the
        // automatic check is the worker's /api/verify).
        tap_id(&c, "tab-sudoku").await;
        wait_text(&c, "status", "exactly one solution").await;
        tap_id(&c, "sd-solve").await;
        wait_text(&c, "messages", "solved by the").await;
        tap_id(&c, "sd-check").await;
        wait_text(&c, "status", "your grid is correct, well done.").await;
        set_input(&c, "sd-size", "4").await;
        tap_id(&c, "sd-random").await;
        wait_text(&c, "status", "a new 4×4 puzzle").await;
        let given = page(&c, "sd.given").await;
        let answer = c
            .execute_async(
                "const done = arguments[arguments.length - 1]; \
                 api('/api/solve', {puzzle: 'sudoku', text: sdText(false), settings: {block: '2x2'}}) \
                   .then((r) => done(r.solution), (e) => done(String(e)));",
                vec![],
            )
            .await
            .unwrap();
        assert!(answer.is_array(), "{answer}");
        for i in (0..16).filter(|&i| given[i] == 0) {
            tap(&c, &format!("#board rect.cell-bg[data-cell='{}']", name(i / 4, i % 4))).await;
            let d = answer[i / 4][i % 4].as_u64().unwrap();
            tap(&c, &format!("#pad-digits [data-digit='{d}']")).await;
        }
        wait_text(&c, "status", "Solved!").await;
        let png = c.screenshot().await.unwrap();
        let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("static-sudoku-solved.png");
        std::fs::write(&shot, png).unwrap();
        println!("screenshot: {}", shot.display());
        drop(server);
    });
}

#[test]
fn stop_ends_a_long_solve_and_the_page_goes_on() {
    with_site(|c, server| async move {
        open(&c, server.addr, "sudoku").await;
        wait_text(&c, "status", "exactly one solution").await;
        // Counting every solution of an empty 9×9 Sudoku with a 10-minute limit, as the Solve
        // button's action (its progress line and Stop button).
        c.execute(
            "run(document.getElementById('sd-solve'), async () => { \
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
        tap_id(&c, "sd-solve").await;
        wait_text(&c, "messages", "solved by the").await;
        println!("the next Solve after Stop took {:?}", t0.elapsed());
        assert!(t0.elapsed() < Duration::from_secs(10));
        tap_id(&c, "sd-check").await;
        wait_text(&c, "status", "your grid is correct, well done.").await;
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
            "time to first interaction (warm, from the service worker's cache): first board drawn {:.0} ms, \
             worker ready {:.0} ms, first level playable {:.0} ms",
            mark(&c, "pencilbox:first-board").await,
            mark(&c, "pencilbox:worker-ready").await,
            mark(&c, "pencilbox:ready").await
        );
        // No server, no network: the page still opens, loads its level and solves it.
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
        tap_id(&c, "sg-solve").await;
        wait_text(&c, "messages", "solved by the").await;
        tap_id(&c, "sg-check").await;
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
        wait_text(&c, "board-sub", "3×3, 3 regions · Play Mode").await;
        tap_id(&c, "sg-solve").await;
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
        wait_text(&c, "status", "").await;
        tap_id(&c, "sg-solve").await;
        wait_text(&c, "messages", "solved by the").await;
    });
}
