//! `pencilbox serve` (owned by the playground work).

/// Flags of `pencilbox serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {}

/// Runs the server.
pub fn run(_: ServeArgs) -> u8 {
    eprintln!("pencilbox: serve is not built yet");
    2
}
