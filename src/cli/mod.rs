//! Command-line parsing (clap) and dispatch. Each subcommand lives in its own
//! module with an `Args` struct and a `run` function; the work is done by the
//! library.
//!
//! Exit status: 0 no errors (warnings allowed), 1 the input has errors, 2
//! usage or I/O failure.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod agn;
mod check;
mod convert;
mod dsf;
mod fmt;
mod r#gen;
mod info;
mod overlay;
mod place;
mod place_resolution;
mod scenery;
mod serve;

/// Exit status when everything was fine.
pub const EXIT_OK: u8 = 0;
/// Exit status when an input has errors.
pub const EXIT_INPUT: u8 = 1;
/// Exit status for usage or I/O failures.
pub const EXIT_USAGE: u8 = 2;

/// agkit: check, format, inspect and place X-Plane and FSX autogen.
#[derive(Debug, Parser)]
#[command(name = "agkit", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate autogen assets (.agp .agb .ags), AGN and DSF files.
    Check(check::Args),
    /// Write autogen text files in canonical form.
    Fmt(fmt::Args),
    /// Summarize an autogen asset.
    Info(info::Args),
    /// Compute what an autogen asset places (tiles, objects, facades, trees).
    Place(place::Args),
    /// Live browser previewer: edit an asset, see the placement as you save.
    Serve(serve::Args),
    /// FSX/P3D AGN files: dump, build, LOD13 cell names.
    #[command(subcommand)]
    Agn(agn::Command),
    /// X-Plane DSF tiles: to text, build, list autogen.
    #[command(subcommand)]
    Dsf(dsf::Command),
    /// Write a deterministic benchmark input set (text assets, DSF, AGN).
    Gen(r#gen::Args),
    /// Build DSF overlays placing autogen on GIS features.
    #[command(subcommand)]
    Overlay(overlay::Command),
    /// Convert other simulators' scenery (FSX AGN) to X-Plane.
    #[command(subcommand)]
    Convert(convert::Command),
    /// Resolve scenery across an X-Plane installation: what is placed
    /// where, by which package, and what does not resolve.
    #[command(subcommand)]
    Scenery(scenery::Command),
}

/// Parses the command line and runs the chosen subcommand.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check(a) => check::run(a),
        Command::Fmt(a) => fmt::run(a),
        Command::Info(a) => info::run(a),
        Command::Place(a) => place::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Agn(c) => agn::run(c),
        Command::Dsf(c) => dsf::run(c),
        Command::Gen(a) => r#gen::run(a),
        Command::Overlay(c) => overlay::run(c),
        Command::Convert(c) => convert::run(c),
        Command::Scenery(c) => scenery::run(c),
    };
    ExitCode::from(code)
}

/// Prints an error for a usage or I/O failure and returns [`EXIT_USAGE`].
pub fn fail(msg: impl std::fmt::Display) -> u8 {
    eprintln!("error: {msg}");
    EXIT_USAGE
}

/// The name an input is reported under: `<stdin>` for `-`.
pub fn input_name(path: &std::path::Path) -> String {
    if is_stdin(path) {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// True when `path` is `-`, which stands for standard input.
pub fn is_stdin(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads a whole input file, or standard input for `-`.
pub fn read_input(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    if is_stdin(path) {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)?;
        Ok(bytes)
    } else {
        std::fs::read(path)
    }
}

/// Writes to standard output. A reader that went away (`agkit fmt x | head
/// -0`) ends the run quietly with [`EXIT_USAGE`]; any other write failure is
/// reported. `Err` carries the exit status to return.
pub fn emit(bytes: &[u8]) -> Result<(), u8> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(EXIT_USAGE),
        Err(e) => Err(fail(format!("writing to standard output: {e}"))),
    }
}

/// A progress bar on stderr counting `unit` (e.g. "files") when stderr is
/// a terminal and there is more than one, else a hidden one.
pub fn progress_bar(len: usize, unit: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() || len < 2 {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    let template = format!(
        "{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {unit} ({{per_sec}}, eta {{eta}})"
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}
