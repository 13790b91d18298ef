//! `agkit info` (work in progress).

/// Arguments of `agkit info`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Input paths.
    paths: Vec<std::path::PathBuf>,
}

/// Runs `agkit info`.
pub fn run(args: Args) -> u8 {
    super::fail(format!(
        "agkit info is not built yet ({} paths)",
        args.paths.len()
    ))
}
