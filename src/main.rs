//! The `agkit` command line: parses arguments and calls the library.

mod cli;

fn main() -> std::process::ExitCode {
    // An interrupted write leaves no temporary file behind.
    if let Err(e) = agkit::fsutil::remove_temp_files_on_signals() {
        eprintln!("warning: cannot watch for SIGINT and SIGTERM: {e}");
    }
    // No output replaces a file the command reads.
    agkit::fsutil::guard_inputs();
    cli::run()
}
