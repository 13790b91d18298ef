//! `agkit dsf …` subcommands (work in progress).

/// Subcommands of `agkit dsf`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Placeholder until the subcommands land.
    Todo,
}

/// Runs an `agkit dsf` subcommand.
pub fn run(_cmd: Command) -> u8 {
    super::fail("agkit dsf is not built yet")
}
