//! `agkit gen --seed N -o DIR [--scale small|full]`: writes a deterministic
//! input set for benchmarks and bulk runs.

use super::output::{EXIT_OK, fail};
use agkit::r#gen::{self as generator, Scale};
use agkit::out::count;
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
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
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
    if let Err(code) =
        super::output::check_output(&args.output, agkit::fsutil::OutputRole::Folder, &[])
    {
        return code;
    }
    let start = std::time::Instant::now();
    let bar = super::output::progress_bar(scale.files(), "files");
    let generated = generator::generate_with(args.seed, &args.output, scale, &mut || bar.inc(1));
    bar.finish_and_clear();
    match generated {
        Ok(s) => {
            eprintln!(
                "wrote {} ({:.1} MB) and the {} they name ({:.2} MB), {} ({:.1} MB), {} ({:.1} MB) \
                 to {} in {:.1} s",
                count(s.text_files, "text file"),
                s.text_bytes as f64 / 1e6,
                count(s.art_files, "art file"),
                s.art_bytes as f64 / 1e6,
                count(s.dsf_files, "DSF tile"),
                s.dsf_bytes as f64 / 1e6,
                count(s.agn_files, "AGN file"),
                s.agn_bytes as f64 / 1e6,
                args.output.display(),
                start.elapsed().as_secs_f64()
            );
            EXIT_OK
        }
        Err(e) => fail(format!("{}: {e}", args.output.display())),
    }
}
