//! The `agkit` command line: parses arguments and calls the library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
