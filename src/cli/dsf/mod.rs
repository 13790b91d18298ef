//! `agkit dsf totext|build|autogen …`: [`totext`], [`build`] and
//! [`autogen`], sharing the readers and messages of [`common`].

use crate::cli::output;
use std::path::PathBuf;

mod autogen;
pub(super) mod build;
pub(super) mod common;
mod totext;

/// Subcommands of `agkit dsf`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Write DSFs (plain or 7z) as DSF2Text (DSFTool's text form).
    ///
    /// One file without `-o` goes to standard output; one file with `-o`
    /// goes to that file (or into it, if it is a directory). Several files,
    /// or a directory (searched for `*.dsf`), give one `<name>.dsf.txt` per
    /// DSF: next to it, or into the `-o` directory (keeping the layout below
    /// a directory argument). Every file is tried; the exit status is
    /// non-zero if any failed.
    Totext {
        /// DSF files or directories holding DSF files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output text file, or output directory for several DSFs. Rasters
        /// are written beside each text as `<text>.<layer>.raw`.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Build a binary DSF from DSF2Text.
    ///
    /// Entities are grouped as DSFTool groups them (by filter, kind,
    /// definition and pool), so they read back in that order, and loose
    /// terrain triangles are joined into strips, as DSFTool does.
    Build {
        /// The DSF2Text file.
        input: PathBuf,
        /// Output DSF file.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// List every autogen use (.agp points, .agb/.ags polygons) in a DSF.
    Autogen {
        /// The DSF file.
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = autogen::Format::Text)]
        format: autogen::Format,
    },
}

/// Runs an `agkit dsf` subcommand.
pub fn run(cmd: Command) -> u8 {
    match cmd {
        Command::Totext { files, output } => {
            totext::totext_all(&files, output::output_file(output).as_deref())
        }
        Command::Build { input, output } => build::build(&input, &output),
        Command::Autogen { file, format } => autogen::autogen(&file, format),
    }
}
