//! What every subcommand shares: exit statuses, error lines, reading
//! inputs, writing outputs (atomically, or to standard output as a Unix
//! filter does) and progress bars. It uses no other module of the command
//! line, so every subcommand can use it without an import circle.

use agkit::check::Contents;
use std::io::Write;

/// Exit status when everything was fine.
pub const EXIT_OK: u8 = 0;
/// Exit status when an input has errors.
pub const EXIT_INPUT: u8 = 1;
/// Exit status for usage or I/O failures.
pub const EXIT_USAGE: u8 = 2;

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

/// True when `path` is `-`, which stands for standard input (and, given
/// to `-o`, for standard output).
pub fn is_stdin(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads a whole input file, or standard input for `-`, as `role` (`an
/// autogen asset`, …) through the library's input gate: `Err` is the
/// message naming the file, its role and what to do.
pub fn read_input(path: &std::path::Path, role: &str) -> Result<Vec<u8>, String> {
    let max = agkit::limits::Limits::default().max_input_bytes;
    agkit::fsutil::read_input(path, role, max).map_err(|e| e.to_string())
}

/// [`read_input`], a large regular file mapped rather than read
/// ([`agkit::fsutil::read_input_mapped`]): for the commands that only
/// look at their input.
pub fn read_input_mapped(
    path: &std::path::Path,
    role: &str,
) -> Result<agkit::fsutil::InputBytes, String> {
    let max = agkit::limits::Limits::default().max_input_bytes;
    agkit::fsutil::read_input_mapped(path, role, max).map_err(|e| e.to_string())
}

/// Reads a whole regular file as `role` through the library's input gate
/// (`-` is a file of that name here); `Err` is the exit status, the error
/// printed.
pub fn read_file(path: &std::path::Path, role: &str) -> Result<Vec<u8>, u8> {
    let max = agkit::limits::Limits::default().max_input_bytes;
    agkit::fsutil::read_file(path, role, max).map_err(fail)
}

/// Checks an `-o` before any work ([`agkit::fsutil::check_output`]): a
/// folder where a file goes or the other way round, a missing folder, an
/// output that is one of `inputs`. `Err` is the exit status
/// ([`EXIT_USAGE`]), the error printed.
pub fn check_output(
    path: &std::path::Path,
    role: agkit::fsutil::OutputRole,
    inputs: &[&std::path::Path],
) -> Result<(), u8> {
    agkit::fsutil::check_output(path, role, inputs).map_err(fail)
}

/// The line on stderr after a successful write into a file: `wrote PATH
/// (WHAT)`.
pub fn wrote(path: &std::path::Path, what: &str) {
    if what.is_empty() {
        eprintln!("wrote {}", path.display());
    } else {
        eprintln!("wrote {} ({what})", path.display());
    }
}

/// The error line refusing an input that is not `what` (any of
/// `accepted`) but another kind of file agkit can tell, such as a DSF given
/// to `info`: what it is and which command reads it, instead of a report
/// quoting its bytes. `None` for accepted contents and plain text.
pub fn wrong_kind(name: &str, bytes: &[u8], what: &str, accepted: &[Contents]) -> Option<String> {
    Contents::of(bytes)
        .refusal(what, accepted)
        .map(|why| format!("error: {name}: {why}"))
}

/// Reads a text input that is `what` (a rules file, GeoJSON …): a file
/// that cannot be read is an I/O failure ([`EXIT_USAGE`]); one of another
/// kind agkit can tell (a DSF, an image …) is named for what it is, and
/// one that is not UTF-8 is refused, both [`EXIT_INPUT`] with the file
/// named. Plain text and JSON are returned for the caller's parser.
pub fn read_text(path: &std::path::Path, what: &str) -> Result<String, u8> {
    let name = path.display().to_string();
    let max = agkit::limits::Limits::default().max_input_bytes;
    let bytes = agkit::fsutil::read_file(path, what, max).map_err(fail)?;
    let text_kinds = [Contents::Text, Contents::Json, Contents::GeoJson];
    if let Some(refused) = wrong_kind(&name, &bytes, what, &text_kinds) {
        eprintln!("{refused}");
        return Err(EXIT_INPUT);
    }
    String::from_utf8(bytes).map_err(|e| {
        eprintln!(
            "error: {name}: not {what}: not UTF-8 text ({})",
            e.utf8_error()
        );
        EXIT_INPUT
    })
}

/// [`wrong_kind`] for the commands reading autogen text (`info`, `fmt`,
/// `place`, `serve`).
pub fn not_autogen_text(name: &str, bytes: &[u8]) -> Option<String> {
    wrong_kind(
        name,
        bytes,
        agkit::check::AUTOGEN_TEXT,
        &[Contents::Autogen],
    )
}

/// `; it is …, which … read` when `bytes` are not the `expected` kind of
/// file but one agkit can tell, else nothing: for the end of a reader's
/// error such as "not a DSF".
pub fn kind_hint(bytes: &[u8], expected: Contents) -> String {
    let contents = Contents::of(bytes);
    match contents.hint() {
        Some(hint) if contents != expected => format!("; {hint}"),
        _ => String::new(),
    }
}

/// Standard output as the commands use it: a reader that went away ends the
/// run quietly (see [`ends_on_closed_pipe`]); every other failure is
/// returned. Line-buffered like std's; wrap it in a `BufWriter` for bulk.
pub struct Stdout(std::io::StdoutLock<'static>);

/// Locks standard output for a command's writes.
pub fn stdout() -> Stdout {
    Stdout(std::io::stdout().lock())
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        ends_on_closed_pipe(self.0.write(buf))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        ends_on_closed_pipe(self.0.flush())
    }
}

/// Ends the run with status 0 when `result` failed because the reader of
/// standard output closed the pipe: nobody is left to read the rest, and
/// that is not the command's failure. Returns any other result unchanged.
fn ends_on_closed_pipe<T>(result: std::io::Result<T>) -> std::io::Result<T> {
    if let Err(e) = &result
        && e.kind() == std::io::ErrorKind::BrokenPipe
    {
        // `exit` runs no destructor: an output half-written goes now.
        agkit::fsutil::remove_temp_files_now();
        std::process::exit(EXIT_OK.into());
    }
    result
}

/// What the `print!` and `println!` of this module tree call: writes to
/// [`stdout()`]; a write failure other than a closed pipe ends the run with
/// [`EXIT_USAGE`] and a message.
pub fn print_out(args: std::fmt::Arguments) {
    if let Err(e) = stdout().write_fmt(args) {
        fail(format!("writing to standard output: {e}"));
        agkit::fsutil::remove_temp_files_now();
        std::process::exit(EXIT_USAGE.into());
    }
}

/// What the `eprint!` and `eprintln!` of this module tree call: writes to
/// standard error, ignoring failures (there is nowhere left to report them).
/// Control characters other than newlines and tabs (a definition name
/// holding `\x1b[2J`, say) are written as escapes ([`terminal_safe`]), so
/// that no input can drive the user's terminal.
pub fn print_err(args: std::fmt::Arguments) {
    let text = std::fmt::format(args);
    let _ = std::io::stderr()
        .lock()
        .write_all(terminal_safe(&text).as_bytes());
}

/// `text` with every control character but newline and tab written as
/// `\u{…}`; borrowed as it is when it holds none.
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Writes to standard output (a closed pipe ends the run quietly). `Err`
/// carries the exit status to return after any other write failure.
pub fn emit(bytes: &[u8]) -> Result<(), u8> {
    let mut out = stdout();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| fail(format!("writing to standard output: {e}")))
}

/// A command's whole output: written to `output` atomically (nothing is
/// replaced when it fails), or to standard output when there is no `-o` or
/// it is `-` (as `-` for an input is standard input). Returns the exit
/// status, with a message naming where a write failed; a file written is
/// reported (`wrote FILE (WHAT)`, [`wrote`]).
pub fn write_output(output: Option<&std::path::Path>, bytes: &[u8], what: &str) -> u8 {
    match write_output_with(output, |w| w.write_all(bytes)) {
        Ok(()) => {
            if let Some(o) = output.filter(|p| !is_stdin(p)) {
                wrote(o, what);
            }
            EXIT_OK
        }
        Err(e) => fail(e),
    }
}

/// `N bytes`, for the line after a write.
pub fn bytes_written(bytes: &[u8]) -> String {
    agkit::out::count(bytes.len(), "byte")
}

/// [`write_output`] for output streamed by `fill`: into a temporary file
/// renamed over `output` only when `fill` succeeds, or into standard output
/// (buffered, and flushed so that a failed write is seen). The error names
/// where the write failed.
pub fn write_output_with<T>(
    output: Option<&std::path::Path>,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
) -> Result<T, String> {
    match output.filter(|p| !is_stdin(p)) {
        Some(p) => agkit::fsutil::write_atomic_with(p, fill).map_err(|e| {
            agkit::fsutil::OutputError::new(p, agkit::fsutil::OutputRole::File, e).to_string()
        }),
        None => {
            let mut w = std::io::BufWriter::new(stdout());
            fill(&mut w)
                .and_then(|t| w.flush().map(|()| t))
                .map_err(|e| format!("writing to standard output: {e}"))
        }
    }
}

/// An `-o` option as the commands use it: `-` names standard output, which
/// is also what no `-o` means.
pub fn output_file(output: Option<std::path::PathBuf>) -> Option<std::path::PathBuf> {
    output.filter(|p| !is_stdin(p))
}

/// A progress bar on stderr counting `unit` (e.g. "files") when stderr is
/// a terminal and there is more than one, else a hidden one. The rate is a
/// whole number per second (`1,748/s`).
pub fn progress_bar(len: usize, unit: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() || len < 2 {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    let template = format!(
        "{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {unit} ({{rate}}, eta {{eta}})"
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
        bar.set_style(style.with_key("rate", write_rate));
    }
    bar
}

/// The `{rate}` of [`progress_bar`]: items per second, rounded, with
/// thousands separated.
fn write_rate(state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write) {
    let rate = state.per_sec();
    let rate = if rate.is_finite() {
        rate.round() as u64
    } else {
        0
    };
    let _ = write!(w, "{}/s", indicatif::HumanCount(rate));
}
