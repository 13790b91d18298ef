//! `agkit agn …` subcommands (work in progress).

/// Subcommands of `agkit agn`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Placeholder until the subcommands land.
    Todo,
}

/// Runs an `agkit agn` subcommand.
pub fn run(_cmd: Command) -> u8 {
    super::fail("agkit agn is not built yet")
}
