//! The clock of deadlines and timings: [`Instant`] is `std::time::Instant` itself on every
//! native target, and the browser's monotonic clock (`performance.now()`) on
//! `wasm32-unknown-unknown`, where `std::time::Instant::now()` panics (the `web-time` crate).
//! Library code reads the time only through it, so the same solvers run in the browser build.

pub use web_time::Instant;
