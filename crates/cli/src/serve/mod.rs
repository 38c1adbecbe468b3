//! `pencilbox serve`: the interactive playground and its JSON API over HTTP.
//!
//! One process serves the page (HTML, CSS and JavaScript embedded in the binary, see
//! [`assets`]) and a JSON API ([`api`]) over the same [`crate::registry::PUZZLES`] the command
//! line uses, so every answer has the fields of the CLI's `--format json`. What each route
//! answers is [`pencilbox_registry::api`]'s, shared with the browser build (`crates/web`);
//! this module adds HTTP, the guard and the job pool.
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
//!   capped by size ([`Config::max_side`], [`Config::max_cells`], after the plug-in parsed the
//!   text in any format it reads) with `413` and a message saying so; so are requests whose
//!   estimated memory ([`pencilbox_core::PuzzleKind::memory_estimate`], from the dimensions and
//!   the algorithm) exceeds [`Config::memory_per_request`].
//! * Every solve, count, verify or deduction runs on Tokio's blocking pool, at most
//!   [`Config::jobs`] at a time and [`Config::jobs_per_client`] per client address (the rest
//!   queue), under a deadline and a cancellation flag ([`pencilbox_core::Limits`]) that is
//!   also raised when the client goes away, so a hard puzzle never blocks other requests.
//! * Connections ([`conn`]): one request each; its head must arrive within
//!   [`Config::header_timeout`] and its body within [`Config::body_timeout`] plus a second per
//!   [`Config::body_min_rate`] bytes (at most [`Config::body_max_time`]), both `408`; an answer
//!   the client does not read is dropped after [`Config::write_timeout`]. At most
//!   [`Config::max_connections`] are open, [`Config::max_connections_per_client`] per address;
//!   when all are taken, a new connection closes the one that has waited longest (at least
//!   [`Config::evict_after`]) for its client, so slow or silent clients cannot keep others out.
//! * The request head is checked before hyper reads it ([`conn::check_head`]), so that what
//!   hyper would refuse with an empty answer (`400`, `414`, `431`) is refused with a JSON reason.
//! * `Host` must name the bound address, a loopback name or an `--allow-host` name (DNS
//!   rebinding), once, and an absolute-form target must name that same host; a request other
//!   than `GET`/`HEAD` that carries an `Origin` (once) must come from the server's own origin
//!   (no cross-origin POSTs), and a `POST` must say `Content-Type: application/json` (`415`);
//!   answers carry `nosniff`, a CSP and `Cache-Control: no-store` ([`api::guard`]).
//! * Every error answer is `{"error": ...}` with those headers, from the head check to `405`.
//!   Bad JSON, unknown puzzles, malformed grids → `400`; the server keeps serving after any bad
//!   request (even a panic in a solver is answered with a `500`).

pub mod api;
pub mod assets;
pub mod conn;
pub mod jobs;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

// Flags of `pencilbox serve`.
#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on. The default, loopback, keeps the server private to this machine.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Time limit of one solve, count or check, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 10.0, allow_negative_numbers = true)]
    pub timeout: f64,
    /// Solves that may run at the same time (default: 4 × the number of cores, at least 8).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// The largest grid accepted, in cells.
    #[arg(long, value_name = "N", default_value_t = pencilbox_registry::api::Config::default().max_cells)]
    pub max_cells: usize,
    /// The memory one request may need, in MB (the family's estimate from the grid's
    /// dimensions and the algorithm; larger requests get `413`).
    #[arg(long, value_name = "MB", default_value_t = pencilbox_registry::api::Config::default().memory_per_request >> 20)]
    pub memory_per_request: u64,
    /// Jobs of one client address that may run at once (the others queue).
    #[arg(long, value_name = "N", default_value_t = Config::JOBS_PER_CLIENT)]
    pub jobs_per_client: usize,
    /// A host name the `Host` header may carry besides the bound address and localhost
    /// (repeatable; `*` accepts any).
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
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
    /// The memory one request may need, in bytes, by the family's estimate
    /// ([`pencilbox_core::PuzzleKind::memory_estimate`]).
    pub memory_per_request: u64,
    /// Jobs of one client address running at once.
    pub jobs_per_client: usize,
    /// Time for a request's head to arrive (`408` past it).
    pub header_timeout: Duration,
    /// The largest request head (request line and header lines), in bytes (`431` above it,
    /// `414` for a request line alone above it).
    pub max_head: usize,
    /// Time for a request's body to arrive, before the extensions of
    /// [`Config::body_min_rate`] (`408` past it; see [`conn`]).
    pub body_timeout: Duration,
    /// The minimum transfer rate of a body, in bytes per second: each this many bytes received
    /// give the body one more second.
    pub body_min_rate: u64,
    /// Time for a body at most, however fast it comes.
    pub body_max_time: Duration,
    /// Time an answer may wait for the client to read it before the connection is dropped.
    pub write_timeout: Duration,
    /// When every connection is taken, a new one closes the connection that has waited longest
    /// for its client (head, body or reading the answer), if it has waited at least this long.
    pub evict_after: Duration,
    /// Open connections at most.
    pub max_connections: usize,
    /// Open connections of one client address at most.
    pub max_connections_per_client: usize,
    /// Host names accepted in `Host` besides loopback names and the bound address (`*`: any).
    pub allowed_hosts: Vec<String>,
}

impl Default for Config {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let api = pencilbox_registry::api::Config::default();
        Config {
            timeout: Duration::from_secs(10),
            // More slots than cores: a trivial job gets a share of the CPU beside long ones
            // instead of waiting for them; jobs_per_client keeps one client to a few of them.
            jobs: (4 * cores).max(8),
            queue_wait: Duration::from_secs(10),
            max_body: api.max_body,
            max_side: api.max_side,
            max_cells: api.max_cells,
            memory_per_request: api.memory_per_request,
            jobs_per_client: Self::JOBS_PER_CLIENT,
            header_timeout: Duration::from_secs(5),
            max_head: 64 * 1024,
            body_timeout: Duration::from_secs(10),
            body_min_rate: 1024,
            body_max_time: Duration::from_secs(60),
            write_timeout: Duration::from_secs(10),
            evict_after: Duration::from_secs(1),
            max_connections: 512,
            max_connections_per_client: 64,
            allowed_hosts: Vec::new(),
        }
    }
}

impl Config {
    /// The default of [`Config::jobs_per_client`]. A constant, like the other defaults the
    /// flags show: clap builds every subcommand's flags at each start-up, and
    /// [`Config::default`] asks for the number of cores (four files read in a container).
    pub const JOBS_PER_CLIENT: usize = 2;

    /// The API's limits: the request limits of this configuration (a request's `timeout` is
    /// capped by the server's), and the job and connection caps shown by `/api/puzzles`.
    pub fn api(&self) -> pencilbox_registry::api::Config {
        let more = serde_json::json!({
            "jobs": self.jobs,
            "jobs_per_client": self.jobs_per_client,
            "header_timeout_s": self.header_timeout.as_secs_f64(),
            "body_timeout_s": self.body_timeout.as_secs_f64(),
            "body_min_rate": self.body_min_rate,
            "body_max_time_s": self.body_max_time.as_secs_f64(),
            "max_connections": self.max_connections,
            "max_connections_per_client": self.max_connections_per_client,
        });
        pencilbox_registry::api::Config {
            timeout: self.timeout,
            max_timeout: self.timeout,
            max_body: self.max_body,
            max_side: self.max_side,
            max_cells: self.max_cells,
            memory_per_request: self.memory_per_request,
            more_limits: match more {
                serde_json::Value::Object(m) => m,
                _ => serde_json::Map::new(),
            },
        }
    }

    /// The configuration given by the command-line flags.
    pub fn from_args(args: &ServeArgs) -> Result<Self, String> {
        if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 3600.0) {
            return Err(format!(
                "--timeout {}: the time limit must be a number of seconds above 0 and at most 3600",
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
                return Err("--jobs 0: at least one job must be allowed".into());
            }
            c.jobs = j;
        }
        if args.memory_per_request == 0 {
            return Err("--memory-per-request 0: the budget must be at least 1 (MB)".into());
        }
        c.memory_per_request = args.memory_per_request.min(1 << 40).saturating_mul(1 << 20);
        if args.jobs_per_client == 0 {
            return Err("--jobs-per-client 0: at least one job per client must be allowed".into());
        }
        c.jobs_per_client = args.jobs_per_client;
        c.allowed_hosts = args.allow_hosts.iter().map(|h| h.to_ascii_lowercase()).collect();
        c.queue_wait = c.timeout.max(Duration::from_secs(1));
        Ok(c)
    }
}

/// The application: routes, shared state and limits, ready to be served on a listener.
pub fn app(config: Config) -> axum::Router {
    api::router(Arc::new(api::AppState::new(config)))
}

/// Serves the application on `listener` until `shutdown` resolves.
///
/// The accept loop is ours so that connections are capped in total and per client address
/// (making room by closing the connection that has waited longest for its client) and each
/// connection's head, body and answer are under the limits of [`conn`]; hyper's HTTP/1
/// connection driver (as axum's own) serves the request. Each request carries the peer address
/// ([`axum::extract::ConnectInfo`]) for per-client fairness.
pub async fn serve(
    listener: tokio::net::TcpListener,
    mut config: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    if let Ok(local) = listener.local_addr() {
        let ip = local.ip();
        if !ip.is_unspecified() {
            config.allowed_hosts.push(match ip {
                IpAddr::V4(v4) => v4.to_string(),
                IpAddr::V6(v6) => format!("[{v6}]"),
            });
        }
    }
    let app = app(config.clone());
    let config = Arc::new(config);
    let open = Arc::new(conn::Conns::default());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of descriptors and similar: wait a little instead of spinning.
                    if !matches!(e.kind(), std::io::ErrorKind::ConnectionAborted | std::io::ErrorKind::ConnectionReset) {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    continue;
                }
            },
            () = &mut shutdown => return Ok(()),
        };
        let Some(admitted) = open.admit(peer.ip(), &config) else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(conn::handle(stream, peer, admitted, app.clone(), config.clone()));
    }
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

/// How long an idle thread of the blocking pool (where jobs run) is kept. The allocator gives
/// a thread's freed pages back to the system when the thread ends, so after a heavy job the
/// memory returns within this time (tokio's default is 10 s).
pub const IDLE_THREAD_KEEP: Duration = Duration::from_secs(1);

/// The server's runtime: tokio's multi-threaded one, with [`IDLE_THREAD_KEEP`].
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_keep_alive(IDLE_THREAD_KEEP)
        .build()
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
    let runtime = match runtime() {
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
            if args.bind.is_unspecified() && args.allow_hosts.is_empty() {
                eprintln!(
                    "pencilbox: requests must name this machine as localhost or by a name given with --allow-host"
                );
            }
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
            memory_per_request: 64,
            jobs_per_client: 2,
            allow_hosts: vec![],
        };
        assert!(Config::from_args(&args).is_err());
        args.timeout = 0.0;
        assert!(Config::from_args(&args).is_err());
        args.timeout = 2.5;
        let c = Config::from_args(&args).unwrap();
        assert_eq!(c.timeout, Duration::from_millis(2500));
        assert_eq!(c.max_cells, 100);
        assert_eq!(c.memory_per_request, 64 << 20);
        args.memory_per_request = 0;
        assert!(Config::from_args(&args).is_err());
    }
}
