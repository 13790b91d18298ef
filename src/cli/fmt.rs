//! `agkit fmt` (work in progress).

/// Arguments of `agkit fmt`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Input paths.
    paths: Vec<std::path::PathBuf>,
}

/// Runs `agkit fmt`.
pub fn run(args: Args) -> u8 {
    super::fail(format!(
        "agkit fmt is not built yet ({} paths)",
        args.paths.len()
    ))
}
