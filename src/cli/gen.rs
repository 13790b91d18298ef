//! `agkit gen --seed N -o DIR [--scale small|full]`: writes a deterministic
//! input set for benchmarks and bulk runs.

use super::{EXIT_OK, fail};
use agkit::r#gen::{self as generator, Scale};
use clap::ValueEnum;
use std::path::PathBuf;

/// How much `gen` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScaleArg {
    /// A few MB (tests, quick runs).
    Small,
    /// ≥ 100 MB of text, 300 DSF tiles, 10,000 AGN files.
    Full,
}

/// Arguments of `agkit gen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Seed: the same seed writes the same files.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output directory (created if missing).
    #[arg(short, long)]
    output: PathBuf,
    /// How much to write.
    #[arg(long, value_enum, default_value_t = ScaleArg::Small)]
    scale: ScaleArg,
}

/// Runs `agkit gen`.
pub fn run(args: Args) -> u8 {
    let scale = match args.scale {
        ScaleArg::Small => Scale::Small,
        ScaleArg::Full => Scale::Full,
    };
    let start = std::time::Instant::now();
    match generator::generate(args.seed, &args.output, scale) {
        Ok(s) => {
            eprintln!(
                "wrote {} text files ({:.1} MB), {} DSF tiles ({:.1} MB), {} AGN files ({:.1} MB) to {} in {:.1} s",
                s.text_files,
                s.text_bytes as f64 / 1e6,
                s.dsf_files,
                s.dsf_bytes as f64 / 1e6,
                s.agn_files,
                s.agn_bytes as f64 / 1e6,
                args.output.display(),
                start.elapsed().as_secs_f64()
            );
            EXIT_OK
        }
        Err(e) => fail(format!("{}: {e}", args.output.display())),
    }
}
