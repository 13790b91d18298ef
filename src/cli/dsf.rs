//! `agkit dsf totext|build|autogen …`

use super::{EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use agkit::check::Contents;
use agkit::dsf::{self, TextOptions, autogen::AutogenKind};
use clap::ValueEnum;
use std::path::{Path, PathBuf};

/// Output style of `dsf autogen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One block per use, for people.
    Human,
    /// A JSON array of uses.
    Json,
}

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
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
}

/// Runs an `agkit dsf` subcommand.
pub fn run(cmd: Command) -> u8 {
    match cmd {
        Command::Totext { files, output } => {
            totext_all(&files, super::output_file(output).as_deref())
        }
        Command::Build { input, output } => build(&input, &output),
        Command::Autogen { file, format } => autogen(&file, format),
    }
}

fn load(file: &Path) -> Result<dsf::Dsf, u8> {
    let bytes = std::fs::read(file).map_err(|e| super::fail(format!("{}: {e}", file.display())))?;
    match dsf::read(&bytes) {
        Ok(d) => {
            md5_warning(file, &d);
            Ok(d)
        }
        Err(e) => Err(dsf_error(file, &e, &bytes)),
    }
}

/// Warns when the MD5 footer does not match.
fn md5_warning(file: &Path, d: &dsf::Dsf) {
    if let dsf::Md5Status::Mismatch { offset, .. } = d.md5 {
        eprintln!(
            "warning[DSF020]: {} @ byte {offset}: the MD5 footer does not match the file",
            file.display()
        );
    }
}

/// Reports a read error with the file and byte offset.
fn dsf_error(file: &Path, e: &dsf::DsfError, bytes: &[u8]) -> u8 {
    eprintln!(
        "error[{}]: {} @ byte {}: {}{}",
        e.code(),
        file.display(),
        e.offset,
        e.message(),
        super::kind_hint(bytes, Contents::Dsf)
    );
    EXIT_INPUT
}

/// One DSF to convert and where its text goes (`None` = stdout).
struct Job {
    input: PathBuf,
    output: Option<PathBuf>,
}

/// True for a `.dsf` file name (any case).
fn is_dsf(p: &Path) -> bool {
    p.extension().is_some_and(|e| e.eq_ignore_ascii_case("dsf"))
}

/// The `.dsf` files below `dir`, sorted, as paths relative to it.
fn dsf_files_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        for entry in std::fs::read_dir(dir.join(&rel))? {
            let entry = entry?;
            if agkit::fsutil::is_temp_name(&entry.file_name()) {
                continue; // what a killed write left
            }
            let rel = rel.join(entry.file_name());
            let ty = entry.file_type()?;
            if ty.is_dir() {
                stack.push(rel);
            } else if is_dsf(&rel) {
                out.push(rel);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// `<name>.txt` for a DSF called `<name>` (so `+47+012.dsf.txt`, which
/// never clashes with the DSF itself or DSFTool's `+47+012.txt`).
fn text_name(rel: &Path) -> PathBuf {
    let mut name = rel.as_os_str().to_owned();
    name.push(".txt");
    PathBuf::from(name)
}

/// Works out which text each input gets.
fn plan(files: &[PathBuf], output: Option<&Path>) -> Result<Vec<Job>, u8> {
    let single = files.len() == 1 && !files[0].is_dir();
    if single {
        let output = output.map(|o| {
            if o.is_dir() {
                o.join(text_name(Path::new(
                    files[0].file_name().unwrap_or_default(),
                )))
            } else {
                o.to_path_buf()
            }
        });
        return Ok(vec![Job {
            input: files[0].clone(),
            output,
        }]);
    }
    if let Some(o) = output
        && o.exists()
        && !o.is_dir()
    {
        return Err(super::fail(format!(
            "{}: with several DSFs, -o must name a directory",
            o.display()
        )));
    }
    let mut jobs = Vec::new();
    for f in files {
        if f.is_dir() {
            let found =
                dsf_files_in(f).map_err(|e| super::fail(format!("{}: {e}", f.display())))?;
            if found.is_empty() {
                eprintln!("warning: {}: no .dsf files found", f.display());
            }
            for rel in found {
                let out = match output {
                    Some(o) => o.join(text_name(&rel)),
                    None => f.join(text_name(&rel)),
                };
                jobs.push(Job {
                    input: f.join(rel),
                    output: Some(out),
                });
            }
        } else {
            let name = Path::new(f.file_name().unwrap_or_default());
            let out = match output {
                Some(o) => o.join(text_name(name)),
                None => text_name(f),
            };
            jobs.push(Job {
                input: f.clone(),
                output: Some(out),
            });
        }
    }
    Ok(jobs)
}

fn totext_all(files: &[PathBuf], output: Option<&Path>) -> u8 {
    let jobs = match plan(files, output) {
        Ok(j) => j,
        Err(c) => return c,
    };
    let many = jobs.len() > 1 || jobs.first().is_some_and(|j| j.input != files[0]);
    let mut seen = std::collections::HashSet::new();
    let mut status = EXIT_OK;
    let (mut done, mut failed) = (0usize, 0usize);
    for job in &jobs {
        if let Some(out) = &job.output
            && !seen.insert(out.clone())
        {
            eprintln!(
                "error: {}: its text {} was already written for another input",
                job.input.display(),
                out.display()
            );
            status = status.max(EXIT_USAGE);
            failed += 1;
            continue;
        }
        let code = totext(&job.input, job.output.as_deref());
        if code == EXIT_OK {
            done += 1;
            if many && let Some(out) = &job.output {
                eprintln!("{} -> {}", job.input.display(), out.display());
            }
        } else {
            failed += 1;
        }
        status = status.max(code);
    }
    if many {
        eprintln!("{done} converted, {failed} failed");
    }
    status
}

/// True when `output` names the file `input` is (so writing it would
/// replace the input).
fn is_input(input: &Path, output: &Path) -> bool {
    match (input.canonicalize(), output.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Refuses to write an output over its own input.
fn refuse_overwrite(input: &Path, output: &Path) -> Result<(), u8> {
    if is_input(input, output) {
        Err(super::fail(format!(
            "{}: the output is the input file; name another output",
            output.display()
        )))
    } else {
        Ok(())
    }
}

/// Streams one DSF's text (the text is written as the commands are
/// decoded, never held whole): to `output` atomically, or to stdout.
fn totext(file: &Path, output: Option<&Path>) -> u8 {
    use dsf::read::StreamError;
    if let Some(Err(c)) = output.map(|o| refuse_overwrite(file, o)) {
        return c;
    }
    let max = agkit::limits::Limits::default().max_input_bytes;
    let bytes = match agkit::fsutil::read_file(file, "a DSF tile", max) {
        Ok(b) => b,
        Err(e) => return super::fail(e),
    };
    let decoded = match dsf::read::decode(&bytes, &agkit::limits::Limits::default()) {
        Ok(d) => d,
        Err(e) => return dsf_error(file, &e, &bytes),
    };
    md5_warning(file, &decoded.head);
    let opts = TextOptions {
        source_name: Some(file.display().to_string()),
        raster_base: output.map(|o| o.display().to_string()),
    };
    // A read error found while streaming is reported after the fact; the
    // I/O error handed to the writer only stops it.
    let mut bad: Option<dsf::DsfError> = None;
    let mut stream = |w: &mut dyn std::io::Write| -> std::io::Result<()> {
        match dsf::text::write_stream(&decoded, &opts, w) {
            Ok(()) => Ok(()),
            Err(StreamError::Sink(e)) => Err(e),
            Err(StreamError::Dsf(e)) => {
                bad = Some(e);
                Err(std::io::Error::other("the DSF is malformed"))
            }
        }
    };
    if let Some(out) = output {
        if let Some(dir) = out.parent().filter(|p| !p.as_os_str().is_empty())
            && let Err(e) = std::fs::create_dir_all(dir)
        {
            return super::fail(format!("{}: {}: {e}", file.display(), dir.display()));
        }
        for (k, r) in decoded.head.rasters.iter().enumerate() {
            let name = dsf::text::raster_file_name(&opts, k, r);
            if let Err(e) = agkit::fsutil::write_atomic(Path::new(&name), &r.data) {
                return super::fail(format!("{}: {name}: {e}", file.display()));
            }
        }
    }
    let written = super::write_output_with(output, |w| stream(w));
    match (written, bad) {
        (_, Some(e)) => dsf_error(file, &e, &bytes),
        (Ok(()), None) => EXIT_OK,
        (Err(e), None) => super::fail(format!("{}: {e}", file.display())),
    }
}

/// Builds a DSF from DSF2Text, grouping entities as DSFTool does.
fn build(input: &Path, output: &Path) -> u8 {
    if let Err(c) = refuse_overwrite(input, output) {
        return c;
    }
    let text = match std::fs::read(input) {
        Ok(b) => {
            let name = input.display().to_string();
            if let Some(refused) = super::wrong_kind(&name, &b, "DSF2Text", &[Contents::DsfText]) {
                eprintln!("{refused}");
                return EXIT_INPUT;
            }
            // Valid UTF-8 is taken as it is, without a copy.
            String::from_utf8(b)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
        }
        Err(e) => return super::fail(format!("{}: {e}", input.display())),
    };
    let base = input.parent().unwrap_or(Path::new(""));
    let mut files = dsf::text::RasterFiles::new(base, &agkit::limits::Limits::default());
    let mut load = |name: &str| files.load(name);
    let (model, mut opts) = match dsf::from_text(&text, &mut load) {
        Ok(x) => x,
        Err(e) => {
            let d = agkit::diag::Diagnostic::error("DSF030", e.message.clone(), e.span.clone());
            eprint!(
                "{}",
                agkit::diag::render_human(&input.display().to_string(), Some(&text), &[d])
            );
            return EXIT_INPUT;
        }
    };
    // The text is no longer needed: free it before encoding.
    drop(text);
    opts.group = true;
    opts.strip = true;
    let bytes = match dsf::build(&model, &opts) {
        Ok(b) => b,
        Err(e) => return build_error(input, &e),
    };
    drop(model);
    super::write_output(Some(output), &bytes)
}

/// Reports why a text's model cannot be built, at the line of the entity
/// concerned (the text is read again: this is the failing path only).
fn build_error(input: &Path, e: &dsf::BuildError) -> u8 {
    let name = input.display().to_string();
    let text = std::fs::read(input)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned());
    let span = e
        .entity
        .zip(text.as_deref())
        .and_then(|(i, t)| dsf::text::entity_span(t, i));
    match span {
        Some(span) => {
            let d = agkit::diag::Diagnostic::error("DSF031", e.message.clone(), span);
            eprint!(
                "{}",
                agkit::diag::render_human(&name, text.as_deref(), &[d])
            );
        }
        None => eprintln!("error[DSF031]: {name}: {e}"),
    }
    EXIT_INPUT
}

fn autogen(file: &Path, format: Format) -> u8 {
    let d = match load(file) {
        Ok(d) => d,
        Err(c) => return c,
    };
    let uses = dsf::autogen_uses(&d);
    match format {
        Format::Json => match serde_json::to_string_pretty(&uses) {
            Ok(s) => println!("{s}"),
            Err(e) => return super::fail(e),
        },
        Format::Human => print!("{}", human(&uses)),
    }
    EXIT_OK
}

/// The human listing of autogen uses.
fn human(uses: &[dsf::autogen::AutogenUse]) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    for (i, u) in uses.iter().enumerate() {
        let _ = writeln!(
            s,
            "#{i} {} {} (definition {})",
            u.kind.as_str(),
            u.asset,
            u.def
        );
        match u.kind {
            AutogenKind::Agp => {
                if let (Some(p), Some(h)) = (u.point, u.heading) {
                    let _ = writeln!(s, "  point {:.9} {:.9}  heading {:.3}", p[0], p[1], h);
                }
            }
            AutogenKind::Agb | AutogenKind::Ags => {
                let low = if u.kind == AutogenKind::Agb {
                    "spelling set"
                } else {
                    "spawning contours"
                };
                let _ = writeln!(
                    s,
                    "  param {}: height {} m, {low} {}",
                    u.param.unwrap_or(0),
                    u.height.unwrap_or(0.0),
                    u.low.unwrap_or(0)
                );
                for (k, w) in u.windings.iter().enumerate() {
                    let _ = writeln!(s, "  winding {k} ({} points)", w.len());
                    for p in w {
                        let _ = writeln!(s, "    {:.9} {:.9}", p[0], p[1]);
                    }
                }
            }
        }
    }
    let _ = writeln!(s, "{}", agkit::out::count(uses.len(), "autogen use"));
    s
}
