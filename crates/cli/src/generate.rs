//! `pencilbox generate ...` (owned by the Suguru work; wired to the puzzle crates' generators).

/// Generator subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum GenerateCommand {}

/// Runs a generator subcommand.
pub fn run(c: GenerateCommand) -> u8 {
    match c {}
}
