//! `pencilbox serve`: the interactive playground and its JSON API over HTTP.
//!
//! One process serves the page (HTML, CSS and JavaScript embedded in the binary, see
//! [`assets`]) and a JSON API ([`api`]) over the same [`crate::registry::PUZZLES`] the command
//! line uses, so every answer has the fields of the CLI's `--format json`.
//!
//! The page follows the *Interactive Suguru Playground 1.0 User Manual* (Butrahandisya, ed.
//! Arzaki, 2023; `shared/papers/suguru-playground-manual.txt`): Play and Creative modes (§2.1,
//! §2.2), Level Selection (§2.3), Adjustable Grid Size (§2.4), Draw Region (§2.5), Fill Cell
//! (§2.6), Validate with per-cell messages (§2.7, Appendix B), Autocomplete (§2.8, "this
//! puzzle has no solution..."), Clear Regions (§2.9), Empty Cells (§2.10) and Guide (§2.11);
//! beyond it: a uniqueness check, hints at three levels and the explained steps in every view,
//! import/export of the file format, keyboard play, and
//! views for Path puzzles and Sudoku.
//!
//! # Robustness
//! * Binds loopback by default; request bodies are capped ([`Config::max_body`]) and grids are
//!   capped by size ([`Config::max_side`], [`Config::max_cells`]) with a message saying so.
//! * Every solve, count, verify or deduction runs on Tokio's blocking pool, at most
//!   [`Config::jobs`] at a time, under a deadline and a cancellation flag
//!   ([`pencilbox_core::Limits`]) that is also raised when the client goes away, so a hard
//!   puzzle never blocks other requests.
//! * Bad JSON, unknown puzzles, malformed grids → `400` with `{"error": ...}`; the server keeps
//!   serving after any bad request (even a panic in a solver is answered with a `500`).

pub mod api;
pub mod assets;
pub mod explain;
pub mod extras;
pub mod jobs;
pub mod levels;
pub mod setter;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// Flags of `pencilbox serve`.
#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on. The default, loopback, keeps the server private to this machine.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Time limit of one solve, count or check, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub timeout: f64,
    /// Solves that may run at the same time (default: the number of cores).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// The largest grid accepted, in cells.
    #[arg(long, value_name = "N", default_value_t = Config::default().max_cells)]
    pub max_cells: usize,
}

/// Settings of a running server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Time limit of one job.
    pub timeout: Duration,
    /// Jobs running at once.
    pub jobs: usize,
    /// How long a request waits for a free job slot before `503`.
    pub queue_wait: Duration,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// The largest number of rows or columns of a grid.
    pub max_side: usize,
    /// The largest number of cells of a grid.
    pub max_cells: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            timeout: Duration::from_secs(10),
            jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
            queue_wait: Duration::from_secs(10),
            max_body: 256 * 1024,
            max_side: 60,
            max_cells: 2500,
        }
    }
}

impl Config {
    /// The configuration given by the command-line flags.
    pub fn from_args(args: &ServeArgs) -> Result<Self, String> {
        if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 3600.0) {
            return Err(format!(
                "--timeout must be a number of seconds in (0, 3600], found {}",
                args.timeout
            ));
        }
        let mut c = Config {
            timeout: Duration::from_secs_f64(args.timeout),
            max_cells: args.max_cells.clamp(1, 1_000_000),
            ..Config::default()
        };
        if let Some(j) = args.jobs {
            if j == 0 {
                return Err("--jobs must be at least 1".into());
            }
            c.jobs = j;
        }
        c.queue_wait = c.timeout.max(Duration::from_secs(1));
        Ok(c)
    }
}

/// The application: routes, shared state and limits, ready to be served on a listener.
pub fn app(config: Config) -> axum::Router {
    api::router(Arc::new(api::AppState::new(config)))
}

/// Serves the application on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, app(config))
        .with_graceful_shutdown(shutdown)
        .await
}

/// The URL people open for a listening address.
pub fn url_of(addr: SocketAddr) -> String {
    let host = match addr.ip() {
        IpAddr::V4(v4) if v4.is_unspecified() => "127.0.0.1".to_string(),
        IpAddr::V6(v6) if v6.is_unspecified() => "[::1]".to_string(),
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    };
    format!("http://{host}:{}/", addr.port())
}

/// Runs the server; returns the exit code (2 when it cannot start).
pub fn run(args: ServeArgs) -> u8 {
    let config = match Config::from_args(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pencilbox: {e}");
            return 2;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("pencilbox: cannot start the async runtime: {e}");
            return 2;
        }
    };
    runtime.block_on(async move {
        let addr = SocketAddr::new(args.bind, args.port);
        let listener = match tokio::net::TcpListener::bind(addr).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("pencilbox: cannot listen on {addr}: {e}");
                return 2;
            }
        };
        let local = listener.local_addr().unwrap_or(addr);
        println!("pencilbox playground: {}", url_of(local));
        if !args.bind.is_loopback() {
            eprintln!("pencilbox: warning: listening on {local}, reachable from other machines");
        }
        eprintln!("pencilbox: press Ctrl-C to stop");
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        match serve(listener, config, shutdown).await {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("pencilbox: the server stopped: {e}");
                2
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_loopback_for_unspecified_addresses() {
        assert_eq!(url_of("0.0.0.0:80".parse().unwrap()), "http://127.0.0.1:80/");
        assert_eq!(url_of("[::]:81".parse().unwrap()), "http://[::1]:81/");
        assert_eq!(url_of("127.0.0.1:8080".parse().unwrap()), "http://127.0.0.1:8080/");
    }

    #[test]
    fn timeouts_outside_the_allowed_range_are_refused() {
        let mut args = ServeArgs {
            bind: "127.0.0.1".parse().unwrap(),
            port: 0,
            timeout: f64::NAN,
            jobs: None,
            max_cells: 100,
        };
        assert!(Config::from_args(&args).is_err());
        args.timeout = 0.0;
        assert!(Config::from_args(&args).is_err());
        args.timeout = 2.5;
        let c = Config::from_args(&args).unwrap();
        assert_eq!(c.timeout, Duration::from_millis(2500));
        assert_eq!(c.max_cells, 100);
    }
}
