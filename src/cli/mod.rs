//! Command-line parsing (clap) and dispatch. Each subcommand lives in its own
//! module with an `Args` struct and a `run` function; the work is done by the
//! library.
//!
//! Exit status: 0 no errors (warnings allowed), 1 the input has errors, 2
//! usage or I/O failure.
//!
//! Output goes through one place ([`output`]), so that every command behaves
//! like a Unix filter: a reader that goes away (`agkit dsf totext T.dsf |
//! head`) ends the run at once, quietly and with status 0, as ripgrep does.
//! Inside this module tree `print!`, `println!`, `eprint!` and `eprintln!`
//! are this module's own (below), not std's, which panic on a closed pipe;
//! code that needs a writer takes [`output::stdout()`].
//!
//! The modules form no import circle: this one only dispatches, and every
//! subcommand takes what it shares from [`output`], which uses none of
//! them.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

// Textual macro scope: these shadow std's macros of the same names in every
// module declared after them.

/// `print!` to [`output::stdout()`]: a closed pipe ends the run quietly.
macro_rules! print {
    ($($arg:tt)*) => {
        $crate::cli::output::print_out(format_args!($($arg)*))
    };
}

/// `println!` to [`output::stdout()`]: a closed pipe ends the run quietly.
macro_rules! println {
    () => {
        $crate::cli::output::print_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::output::print_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprint!` that never panics: a closed or failing stderr loses the message
/// and the run goes on (its real output may be a file).
macro_rules! eprint {
    ($($arg:tt)*) => {
        $crate::cli::output::print_err(format_args!($($arg)*))
    };
}

/// `eprintln!` that never panics (see `eprint!`).
macro_rules! eprintln {
    () => {
        $crate::cli::output::print_err(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::output::print_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod agn;
mod apt;
mod check;
mod conflicts;
mod convert;
mod coords;
mod dsf;
pub(crate) mod dsftool;
mod fmt;
mod r#gen;
mod info;
mod output;
mod overlay;
mod place;
mod scenery;
mod serve;
mod walk;

/// agkit: check, format, inspect and place X-Plane and FSX autogen.
#[derive(Debug, Parser)]
// The version with the commit built from, where there is one (build.rs).
#[command(name = "agkit", version = env!("AGKIT_VERSION"), about, long_about = None)]
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
    /// Summarize an autogen asset, X-Plane art or an apt.dat.
    Info(info::Args),
    /// Compute what an autogen asset places (tiles, objects, facades, trees).
    #[command(override_usage = place::USAGE)]
    Place(place::Args),
    /// Live browser previewer: edit an asset, see the placement as you save.
    Serve(serve::Args),
    /// FSX/P3D AGN files: dump, build, LOD13 cell names.
    #[command(subcommand)]
    Agn(agn::Command),
    /// X-Plane airports (apt.dat): export as GIS layers, find where an
    /// airport is taken from.
    #[command(subcommand)]
    Apt(apt::Command),
    /// X-Plane DSF tiles: to text, build, list autogen.
    #[command(subcommand)]
    Dsf(dsf::Command),
    /// Laminar's DSFTool command line (--dsf2text, --text2dsf, --version),
    /// as agkit runs it when started under the name DSFTool.
    Dsftool(dsftool::Args),
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
        Command::Apt(c) => apt::run(c),
        Command::Dsf(c) => dsf::run(c),
        Command::Dsftool(a) => dsftool::run(a),
        Command::Gen(a) => r#gen::run(a),
        Command::Overlay(c) => overlay::run(c),
        Command::Convert(c) => convert::run(c),
        Command::Scenery(c) => scenery::run(c),
    };
    ExitCode::from(code)
}
