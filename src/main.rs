//! The `agkit` command line: parses arguments and calls the library.

mod cli;

fn main() -> std::process::ExitCode {
    // An interrupted write leaves no temporary file behind.
    if let Err(e) = agkit::fsutil::remove_temp_files_on_signals() {
        eprintln!("warning: cannot watch for SIGINT and SIGTERM: {e}");
    }
    // No output replaces a file the command reads.
    agkit::fsutil::guard_inputs();
    // Started as `DSFTool` (a link or copy under that name): DSFTool's
    // command line, so a pipeline calling DSFTool runs unchanged.
    if let Some(code) = cli::dsftool::run_if_named() {
        return code.into();
    }
    cli::run()
}
