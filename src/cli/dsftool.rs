//! `agkit dsftool …`, and the agkit binary started under the name
//! `DSFTool` (`DSFTool.exe`, any case): Laminar's DSFTool command line —
//! `--dsf2text IN.dsf [IN2.dsf …] OUT.txt`, `--text2dsf IN.txt OUT.dsf`,
//! `--version`, `--auto_config`, the single-hyphen spellings and `-` for
//! the text — so that a pipeline calling DSFTool runs unchanged with agkit
//! in its place. The work is the library's: [`dsf::text::write_stream_part`]
//! writes DSFTool's text byte for byte, `agkit dsf build` compiles.
//!
//! Where agkit parts from DSFTool (a failure exits non-zero with agkit's
//! message, where DSFTool often exits 0) is listed in docs/dsf.md.

use super::dsf::{build, common};
use super::output::{self, EXIT_OK, EXIT_USAGE};
use agkit::dsf;
use std::ffi::{OsStr, OsString};
use std::path::Path;

/// The environment variable that, set to 1, makes `--text2dsf` write
/// 7z-compressed DSFs (as `--7z` does).
pub const SEVEN_Z_VAR: &str = "AGKIT_DSFTOOL_7Z";

/// The version `--version` claims, which DSFTool's texts carry.
const DSFTOOL_VERSION: &str = "2.4.0-b1";

/// `agkit dsftool`'s arguments: DSFTool's, passed through as they are.
#[derive(Debug, clap::Args)]
#[command(disable_help_flag = true)]
pub struct Args {
    /// `--dsf2text IN.dsf [IN2.dsf …] OUT.txt`, `--text2dsf IN.txt OUT.dsf`
    /// or `--version` (single hyphens too); `-` for the text is standard
    /// input or output.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<OsString>,
}

/// Runs `agkit dsftool ARGS`.
pub fn run(a: Args) -> u8 {
    run_with("agkit dsftool", &a.args)
}

/// True when a program started as `argv0` is DSFTool by name: its file
/// name is `DSFTool` or `DSFTool.exe`, in any case.
pub fn is_dsftool_name(argv0: &OsStr) -> bool {
    let name = Path::new(argv0)
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .to_ascii_lowercase();
    name == "dsftool" || name == "dsftool.exe"
}

/// When this process was started as `DSFTool` (see [`is_dsftool_name`]),
/// runs DSFTool's command line and returns its exit status.
pub fn run_if_named() -> Option<u8> {
    let mut argv = std::env::args_os();
    let argv0 = argv.next()?;
    if !is_dsftool_name(&argv0) {
        return None;
    }
    let args: Vec<OsString> = argv.collect();
    Some(run_with(&argv0.to_string_lossy(), &args))
}

/// The usage text (DSFTool's three forms, as agkit reads them).
fn usage_text(prog: &str) -> String {
    format!(
        "Usage: {prog} --dsf2text DSF_FILE [DSF_FILE ...] TEXT_FILE\n       \
         {prog} --text2dsf TEXT_FILE DSF_FILE\n       \
         {prog} --version\n\n\
         Laminar's DSFTool command line, run by agkit. The single-hyphen spellings \
         (-dsf2text, -text2dsf) are accepted too; `-` as the text file is standard \
         output (--dsf2text) or input (--text2dsf). Several DSFs make one text, their \
         definitions numbered on. Rasters go to TEXT_FILE.<layer>.raw. `--7z` (or \
         AGKIT_DSFTOOL_7Z=1) writes --text2dsf's DSF 7z-compressed. Exit status 0 on \
         success, 1 for a bad input, 2 for usage or I/O failures."
    )
}

/// A usage error: the usage on stderr, [`EXIT_USAGE`].
fn usage(prog: &str) -> u8 {
    eprintln!("{}", usage_text(prog));
    EXIT_USAGE
}

/// DSFTool's command line, read as DSFTool reads it: each command in turn
/// (`--text2dsf A.txt A.dsf --version` does both); `--dsf2text` takes
/// every argument after it, the last being the text. The first failure
/// ends the run with its status.
pub fn run_with(prog: &str, args: &[OsString]) -> u8 {
    let word = |a: &OsString| a.to_str().unwrap_or("").to_string();
    match args.first().map(word).as_deref() {
        None => return usage(prog),
        Some("-h" | "--help") => {
            println!("{}", usage_text(prog));
            return EXIT_OK;
        }
        Some("--auto_config") => {
            // What XGrinder reads to know which files this tool converts.
            let exe = std::env::current_exe()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| prog.to_string());
            let sub = if is_dsftool_name(OsStr::new(prog)) {
                ""
            } else {
                " dsftool"
            };
            println!("CMD .txt .dsf \"{exe}\"{sub} -text2dsf \"INFILE\" \"OUTFILE\"");
            println!("CMD .dsf .txt \"{exe}\"{sub} -dsf2text \"INFILE\" \"OUTFILE\"");
            return EXIT_OK;
        }
        _ => {}
    }
    // `--7z` (not a DSFTool argument) or AGKIT_DSFTOOL_7Z=1 asks for
    // 7z-compressed DSFs from --text2dsf: a pipeline that calls DSFTool
    // gets Laminar's packing without a change to its command line.
    let seven_z = args.iter().any(|a| word(a) == "--7z")
        || std::env::var_os(SEVEN_Z_VAR).is_some_and(|v| v == "1");
    let args: Vec<OsString> = args.iter().filter(|a| word(a) != "--7z").cloned().collect();
    let mut n = 0;
    while n < args.len() {
        let code = match word(&args[n]).as_str() {
            "--dsf2text" | "-dsf2text" => {
                let rest = &args[n + 1..];
                n = args.len();
                match rest {
                    [inputs @ .., out] if !inputs.is_empty() => dsf2text(inputs, out),
                    _ => {
                        eprintln!(
                            "error: --dsf2text needs one or more DSF files and then the text \
                             file to write"
                        );
                        usage(prog)
                    }
                }
            }
            "--text2dsf" | "-text2dsf" => match args.get(n + 1..n + 3) {
                Some([input, out]) => {
                    n += 3;
                    text2dsf(input, out, seven_z)
                }
                _ => {
                    eprintln!("error: --text2dsf needs the text file and the DSF file to write");
                    return usage(prog);
                }
            },
            "--version" => {
                n += 1;
                println!(
                    "DSFTool {DSFTOOL_VERSION} compatible: agkit {} (agkit dsftool)",
                    env!("CARGO_PKG_VERSION")
                );
                EXIT_OK
            }
            _ => {
                eprintln!(
                    "error: unknown argument `{}` (DSFTool ignores it; agkit refuses it)",
                    args[n].to_string_lossy()
                );
                return usage(prog);
            }
        };
        if code != EXIT_OK {
            return code;
        }
    }
    EXIT_OK
}

/// DSFTool's progress lines: on standard output, or on standard error
/// when standard output carries the text.
fn progress(to_stdout: bool, msg: std::fmt::Arguments) {
    if to_stdout {
        println!("{msg}");
    } else {
        eprintln!("{msg}");
    }
}

/// `--dsf2text IN… OUT`: one text of every input, its definitions
/// re-indexed as the tables of the inputs follow one another; raster
/// sidecars `OUT.<raster name>.raw` beside it (none for `-`).
fn dsf2text(inputs: &[OsString], out: &OsString) -> u8 {
    let out = Path::new(out);
    let to_stdout = output::is_stdin(out);
    let first = Path::new(&inputs[0]);
    progress(
        !to_stdout,
        format_args!(
            "Converting {} from DSF to text as {}",
            first.display(),
            out.display()
        ),
    );
    for i in inputs {
        if !to_stdout && let Err(c) = common::refuse_overwrite(Path::new(i), out) {
            return c;
        }
        agkit::fsutil::declare_input(Path::new(i), "a DSF tile");
    }
    let base = (!to_stdout).then(|| out.display().to_string());
    // Why the text was abandoned (the message is printed after the output
    // is dropped), and the sidecars already written.
    let mut failure: Option<u8> = None;
    let mut sidecars = std::collections::HashSet::new();
    let written = output::write_output_with(Some(out), |w| {
        dsf::text::write_cookie(dsf::text::DSFTOOL_AGENT, w)?;
        let mut first = dsf::text::DefOffsets::default();
        for input in inputs {
            let path = Path::new(input);
            match one_part(path, base.as_deref(), first, &mut sidecars, w) {
                Ok((next, [ter, obj, pol, net])) => {
                    progress(
                        !to_stdout,
                        format_args!(
                            "File {} had {ter} ter, {obj} obj, {pol} pol, {net} net.",
                            path.display()
                        ),
                    );
                    first = next;
                }
                Err(Part::Input(code)) => {
                    failure = Some(code);
                    return Err(std::io::Error::other("abandoned"));
                }
                Err(Part::Sink(e)) => return Err(e),
            }
        }
        Ok(())
    });
    match (failure, written) {
        (Some(code), _) => code,
        (None, Err(e)) => output::fail(e),
        (None, Ok(())) => {
            progress(
                !to_stdout,
                format_args!("Converted {} to {}", first.display(), out.display()),
            );
            EXIT_OK
        }
    }
}

/// Why one input's part of the text was not written.
enum Part {
    /// The input is bad or unreadable (the message printed): the status.
    Input(u8),
    /// The text could not be written.
    Sink(std::io::Error),
}

/// Writes one tile's part of the text; its sidecars (named after `base`,
/// the text's path) first. Returns the definition offsets of the next
/// input and the sizes of its terrain, object, polygon and network tables
/// (for the progress line).
fn one_part(
    path: &Path,
    base: Option<&str>,
    first: dsf::text::DefOffsets,
    sidecars: &mut std::collections::HashSet<String>,
    w: &mut dyn std::io::Write,
) -> Result<(dsf::text::DefOffsets, [usize; 4]), Part> {
    use dsf::read::StreamError;
    let limits = agkit::limits::Limits::default();
    let bytes = agkit::fsutil::read_file(path, "a DSF tile", limits.max_input_bytes)
        .map_err(|e| Part::Input(output::fail(e)))?;
    let decoded = dsf::read::decode(&bytes, &limits)
        .map_err(|e| Part::Input(common::dsf_error(path, &e, &bytes)))?;
    common::md5_warning(path, &decoded.head);
    let mut names = Vec::new();
    for r in &decoded.head.rasters {
        let Some(base) = base else { break };
        let name = format!("{base}.{}.raw", r.name);
        if !sidecars.insert(name.clone()) {
            return Err(Part::Input(output::fail(format!(
                "{}: its raster `{}` would replace the sidecar {name} of an earlier input \
                 (DSFTool overwrites it; agkit refuses)",
                path.display(),
                r.name
            ))));
        }
        if let Err(e) = agkit::fsutil::write_atomic(Path::new(&name), &r.data) {
            return Err(Part::Input(output::fail(format!(
                "{}: {name}: {e}",
                path.display()
            ))));
        }
        names.push(name);
    }
    let source = path.display().to_string();
    match dsf::text::write_stream_part(&decoded, &source, &names, first, w) {
        Ok(()) => {
            let h = &decoded.head;
            // DSFTool counts raster definitions with the networks.
            let counts = [
                h.terrain_defs.len(),
                h.object_defs.len(),
                h.polygon_defs.len(),
                h.network_defs.len() + h.raster_defs.len(),
            ];
            Ok((first.after(h), counts))
        }
        Err(StreamError::Sink(e)) => Err(Part::Sink(e)),
        Err(StreamError::Dsf(e)) => Err(Part::Input(common::dsf_error(path, &e, &bytes))),
    }
}

/// `--text2dsf IN OUT`: `agkit dsf build`, with `-` for standard input and
/// raster files taken as named (relative to the working folder, as DSFTool
/// takes them).
fn text2dsf(input: &OsString, out: &OsString, seven_z: bool) -> u8 {
    let (input, out) = (Path::new(input), Path::new(out));
    if output::is_stdin(out) {
        return output::fail(
            "`-` as the DSF to write: DSFTool writes a file named `-`; agkit refuses \
             (name the DSF file)",
        );
    }
    let stdin = output::is_stdin(input);
    if !stdin && let Err(c) = common::refuse_overwrite(input, out) {
        return c;
    }
    println!(
        "Converting {} from text to DSF as {}",
        input.display(),
        out.display()
    );
    let bytes = match output::read_input(input, "DSF2Text") {
        Ok(b) => b,
        Err(e) => return output::fail(e),
    };
    let name = output::input_name(input);
    let code = build::build_text(
        &name,
        (!stdin).then_some(input),
        bytes,
        Path::new(""),
        out,
        seven_z,
    );
    if code == EXIT_OK {
        println!("Converted {} to {}", input.display(), out.display());
    }
    code
}
