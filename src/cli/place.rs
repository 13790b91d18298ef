//! `agkit place` (work in progress).

/// Arguments of `agkit place`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Input paths.
    paths: Vec<std::path::PathBuf>,
}

/// Runs `agkit place`.
pub fn run(args: Args) -> u8 {
    super::fail(format!(
        "agkit place is not built yet ({} paths)",
        args.paths.len()
    ))
}
